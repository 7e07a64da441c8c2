"""Litestar adapter over tablelog.commands (the play-by-post service)."""
