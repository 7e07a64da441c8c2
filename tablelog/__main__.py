"""`python -m tablelog` runs the command line."""

from tablelog.cli.app import main

main()
