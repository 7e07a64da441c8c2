"""How the service talks with Discord (`serve --discord-public-key`, `--discord-api`)."""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

DISCORD_API = "https://discord.com/api/v10"


@dataclass(frozen=True)
class DiscordSettings:
    """The application's public key, where Discord's API is (a stand-in's in the tests),
    and how long an answer may take before it is deferred (Discord waits three seconds)."""

    key: Ed25519PublicKey
    api: str = DISCORD_API
    defer_after_s: float = 2.0
    timeout_s: float = 10.0
