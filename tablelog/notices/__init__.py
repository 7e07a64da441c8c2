"""Notices: telling a player the table waits on them, where they are.

`mail` is the e-mail transport: the host's SMTP server named by `tablelog serve --smtp`
(`mail_settings.py`), one mail composed per notice (`mail_compose.py`) and sent (`mail.py`).
Nothing here reads the log or the database: the caller says whom to tell what.
"""
