"""Access tokens for the service: random, shown once, stored only as SHA-256 digests."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_BYTES = 32


def new_token() -> tuple[str, str]:
    """A fresh token and the digest that is stored in its place."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, token_digest(token)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
