"""Turn notices queued in the append's own transaction (outbox.py): for each step a command
began, one row per channel its player has (notices.py sends them). Kept apart from the sender
so that every command does not load an HTTP client and a mail library to queue a row.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import msgspec

from tablelog.commands.awaits import Since
from tablelog.events.envelope import Envelope
from tablelog.projections.await_step import Await
from tablelog.projections.fold import Folded
from tablelog.rules.table import GM
from tablelog.storage.notices import (
    DISCORD,
    MAIL,
    OWN_MOVE,
    NewNotice,
    Reach,
    enqueue_notices,
    reach,
)


def step_key(step: Await) -> str:
    """The digest the notices table keys an await by."""
    return hashlib.sha256(msgspec.json.encode(step.key())).hexdigest()


class Turns:
    """Who of the campaign may be told, read once per transaction, and the notices to queue."""

    def __init__(self, conn: Any, campaign: str, hooks: list[tuple[str, tuple[str, ...], str]]):
        self._conn = conn
        self._campaign = campaign
        # (id, format) of each enabled webhook that posts turns.
        self._hooks = [(h, fmt) for h, triggers, fmt in hooks if "turn" in triggers]
        self._reach = reach(conn, campaign)

    @property
    def live(self) -> bool:
        """Whether any notice could be queued (then awaits must be tracked)."""
        return bool(self._hooks) or any(
            r.mail or (r.bound and r.discord_id is not None) for r in self._reach.values()
        )

    def channels(self, player: str) -> list[str]:
        """Where a notice to `player` goes: a Discord webhook once they linked an id (it
        mentions them), a json one always (it names them), the campaign's bound Discord
        channels once linked, and mail while subscribed."""
        found = self._reach.get(player, Reach(None, False))
        out = [h for h, fmt in self._hooks if fmt != "discord" or found.discord_id is not None]
        if found.discord_id is not None and found.bound:
            out.append(DISCORD)
        if found.mail:
            out.append(MAIL)
        return out

    def queue(self, folded: Folded, written: Sequence[Envelope], begun: Sequence[Since]) -> None:
        """Queue a notice per channel for each step begun (not the actors' own)."""
        if not begun or not self.live:
            return
        gm = folded.ruleset.cast.gm(folded.state)
        actors = {GM if e.actor in (gm, GM) else e.actor for e in written}
        rows: list[NewNotice] = []
        for since in begun:
            step = since.step
            if step.optional:
                continue
            channels = self.channels(step.player)
            if channels and step.player in actors:
                # Their own move began it: nobody tells them, but a reminder comes as
                # after a first notice should they then leave the table waiting.
                channels = [OWN_MOVE]
            for channel in channels:
                rows.append(
                    NewNotice(
                        player=step.player,
                        channel=channel,
                        kind="turn",
                        step_key=step_key(step),
                        sentence=step.sentence(),
                        conflict=step.conflict,
                        since_seq=since.seq,
                        number=0,
                    )
                )
        if rows:
            enqueue_notices(self._conn, self._campaign, rows)
