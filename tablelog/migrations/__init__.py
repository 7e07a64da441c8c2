"""Alembic environment and revisions, shipped as package data (script_location
`tablelog.migrations:`), so a plain non-editable install can migrate a database.

HEAD is the newest revision this package carries. Opening a database compares the stored
revision with it (one cheap read) instead of running Alembic; a test keeps it equal to the
head of `versions/`.
"""

HEAD = "0013"
SCRIPT_LOCATION = "tablelog.migrations:"
