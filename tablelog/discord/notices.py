"""Turn notices in the campaign's bound Discord channels, posted by the application's bot
(`serve --discord-public-key` with TABLELOG_DISCORD_BOT_TOKEN): the waiting player is
mentioned, and a button opens the step it waits for (`acting.pressed`: its form, as a modal,
for that player alone). A webhook cannot carry such a button: only the application's own
messages can."""

from __future__ import annotations

import httpx
import msgspec

from tablelog.commands.database import EventStore
from tablelog.commands.deliver import Failed, _send
from tablelog.commands.discord_links import channels as channels_of
from tablelog.commands.notices import NoticeRow, words
from tablelog.discord.acting import step_buttons
from tablelog.discord.reply import message
from tablelog.projections.post_escape import escape_discord


class BotPoster:
    """Posts notices through Discord's API with the bot's token."""

    def __init__(self, api: str, token: str) -> None:
        self._api = api.rstrip("/")
        self._token = token

    def __call__(
        self,
        store: EventStore,
        client: httpx.Client,
        notice: NoticeRow,
        user_id: str,
        link: str | None,
    ) -> None:
        channels = channels_of(store, notice.campaign)
        if not channels:
            raise Failed("no Discord channel plays the campaign any more")
        said = words(notice.campaign, notice.sentence, notice.number)
        text = f"<@{user_id}>, {escape_discord(said)}"
        if link:
            text += f"\n{link}"
        buttons = step_buttons(store, notice.campaign, notice.player, notice.conflict)
        data = message(text, ephemeral=False, components=buttons, mention=[user_id])
        headers = {
            "Content-Type": "application/json",
            "Authorization": f"Bot {self._token}",
            # Discord asks bots for `DiscordBot (URL, version)`.
            "User-Agent": "DiscordBot (tablelog, 0.1)",
        }
        body = msgspec.json.encode(data)
        for channel in channels:
            _send(client, f"{self._api}/channels/{channel}/messages", body, headers)
