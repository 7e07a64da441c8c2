"""How the service talks with Discord (`serve --discord-public-key`, `--discord-api`)."""

from __future__ import annotations

from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

DISCORD_API = "https://discord.com/api/v10"
BOT_TOKEN_ENV = "TABLELOG_DISCORD_BOT_TOKEN"  # noqa: S105 - the variable's name, no secret


@dataclass(frozen=True)
class DiscordSettings:
    """The application's public key, where Discord's API is (a stand-in's in the tests),
    and how long an answer may take before it is deferred (Discord waits three seconds)."""

    key: Ed25519PublicKey
    api: str = DISCORD_API
    # The bot's token (TABLELOG_DISCORD_BOT_TOKEN): with it, turn notices are posted in the
    # bound channels with a button for the step; without it, only answers to interactions.
    bot_token: str | None = None
    defer_after_s: float = 2.0
    timeout_s: float = 10.0
