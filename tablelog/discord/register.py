"""Putting the command set on the Discord application (a bulk overwrite, as Discord asks)."""

from __future__ import annotations

from typing import Any

import httpx

from tablelog.errors import InvalidInput, TablelogError


def put_commands(
    api: str, app_id: str, token: str, commands: list[dict[str, Any]], guild: str | None
) -> None:
    if not app_id.strip().isdigit():
        raise InvalidInput("--app-id is the application's id: digits only", code="bad-app-id")
    where = f"/applications/{app_id.strip()}"
    if guild is not None:
        if not guild.strip().isdigit():
            raise InvalidInput("--guild is a server's id: digits only", code="bad-guild")
        where += f"/guilds/{guild.strip()}"
    url = api.rstrip("/") + where + "/commands"
    try:
        answer = httpx.put(
            url, json=commands, headers={"Authorization": f"Bot {token}"}, timeout=30.0
        )
    except httpx.HTTPError as exc:
        raise TablelogError(
            f"cannot reach Discord at {api}: {exc}", code="discord-unreachable"
        ) from None
    if answer.status_code == 401:
        raise InvalidInput(
            "Discord refused the bot token (TABLELOG_DISCORD_BOT_TOKEN): reset it in the "
            "Developer Portal (Bot) and set it again",
            code="bad-bot-token",
        )
    if answer.status_code >= 400:
        try:
            said = answer.json().get("message", "")
        except ValueError:
            said = answer.text[:200]
        raise InvalidInput(
            f"Discord refused the commands ({answer.status_code}): {said}",
            code="discord-refused",
        )
