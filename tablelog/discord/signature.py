"""Is this interaction Discord's? Ed25519 over the timestamp and the raw body, checked with
the application's public key, and no older than five minutes (a replayed request is not)."""

from __future__ import annotations

import binascii
import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

MAX_AGE_S = 300


class BadKey(ValueError):
    """The public key given to `serve` is not one (said at start-up, not per request)."""


def public_key(hex_key: str) -> Ed25519PublicKey:
    try:
        raw = bytes.fromhex(hex_key.strip())
        if len(raw) != 32:
            raise ValueError
        return Ed25519PublicKey.from_public_bytes(raw)
    except ValueError:
        raise BadKey(
            "a Discord public key is 64 hexadecimal characters (the Developer Portal: your "
            "application, General Information, Public Key)"
        ) from None


def refusal(
    key: Ed25519PublicKey,
    signature: str | None,
    timestamp: str | None,
    body: bytes,
    now: float | None = None,
) -> str | None:
    """Why the request is not Discord's (one sentence), or None when it is."""
    if not signature or not timestamp:
        return "the request carries no Discord signature"
    try:
        sig = binascii.unhexlify(signature.strip())
        key.verify(sig, timestamp.encode() + body)
    except (binascii.Error, ValueError, InvalidSignature):
        return "the Discord signature does not match the request"
    try:
        sent = int(timestamp)
    except ValueError:
        return "the Discord timestamp is not a time"
    moment = time.time() if now is None else now
    if abs(moment - sent) > MAX_AGE_S:
        return "the Discord timestamp is more than five minutes away: a replay is refused"
    return None
