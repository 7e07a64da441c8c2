"""Reminders: a player the table still waits on, a while after their turn notice went out,
is told again on the channels they have now; then once a day at most, never more than
`remind_max` (rules/notice_options.py). Worked out by the notices' sender before each pass
(notices.py `deliver_notices`), queued as notices of their own (kind `reminder`).
"""

from __future__ import annotations

from typing import Any

from tablelog.commands import state
from tablelog.commands.deliver import SECOND
from tablelog.commands.turns import step_key
from tablelog.errors import TablelogError
from tablelog.rules import notice_options
from tablelog.storage import EventStore
from tablelog.storage.discord import channels_of
from tablelog.storage.notices import (
    DISCORD,
    MAIL,
    NewNotice,
    add_reminders,
    contacts_of,
    told,
)
from tablelog.storage.store import now_us
from tablelog.storage.webhooks import webhooks_of


def awaited_steps(
    store: EventStore, campaign: str, seen: dict[str, set[tuple[str, int]]]
) -> set[tuple[str, int]]:
    """The steps (key, since seq) the table waits on in `campaign`, read once per pass
    (`seen`)."""
    if campaign not in seen:
        seen[campaign] = {(step_key(s.step), s.seq) for s in state.awaited(store, campaign)}
    return seen[campaign]


def options_of(store: EventStore, campaign: str) -> notice_options.NoticeOptions:
    first = store.read(campaign, upto_seq=1)
    created: Any = first[0].event() if first else None
    recorded = getattr(created, "options", None) or {}
    return notice_options.recorded(recorded)


def queue_reminders(store: EventStore, hour_s: float) -> int:
    """Queue the reminders that came due, `hour_s` seconds making an hour (shorter in
    tests); how many."""
    now = now_us()
    hour_us = hour_s * SECOND
    options: dict[str, notice_options.NoticeOptions] = {}
    awaited: dict[str, set[tuple[str, int]]] = {}
    added = 0
    for told_of in told(store):
        campaign = told_of.campaign
        if campaign not in options:
            options[campaign] = options_of(store, campaign)
        chosen = options[campaign]
        if chosen.remind_hours <= 0 or told_of.number >= chosen.remind_max:
            continue
        if told_of.number == 0:
            due = told_of.first_sent + chosen.remind_hours * hour_us
        else:
            due = told_of.last_at + max(chosen.remind_hours, 24.0) * hour_us
        if now < due:
            continue
        try:
            if (told_of.step_key, told_of.since_seq) not in awaited_steps(store, campaign, awaited):
                continue
        except TablelogError:
            continue  # the campaign is gone or cannot be read now: not this time
        channels = _channels_now(store, campaign, told_of.player)
        added += add_reminders(
            store,
            campaign,
            [
                NewNotice(
                    player=told_of.player,
                    channel=channel,
                    kind="reminder",
                    step_key=told_of.step_key,
                    sentence=told_of.sentence,
                    conflict=told_of.conflict,
                    since_seq=told_of.since_seq,
                    number=told_of.number + 1,
                )
                for channel in channels
            ],
        )
    return added


def _channels_now(store: EventStore, campaign: str, player: str) -> list[str]:
    contact = next((c for c in contacts_of(store, campaign) if c.player == player), None)
    found: list[str] = []
    for hook in webhooks_of(store, campaign):
        if "turn" not in hook.triggers or hook.disabled_reason is not None:
            continue
        if hook.format == "discord" and (contact is None or contact.discord_id is None):
            continue
        found.append(hook.id)
    if contact is not None and contact.discord_id is not None and channels_of(store, campaign):
        found.append(DISCORD)
    if contact is not None and contact.email_sealed is not None and contact.unsubscribed_at is None:
        found.append(MAIL)
    return found
