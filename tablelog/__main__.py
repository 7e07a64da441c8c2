"""`python -m tablelog` runs the command line."""

from tablelog.cli.app import main

# Guarded: `verify` starts worker processes, which import the main module again.
if __name__ == "__main__":
    main()
