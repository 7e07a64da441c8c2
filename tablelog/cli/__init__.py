"""Typer adapter over tablelog.commands; never imports SQLAlchemy."""
