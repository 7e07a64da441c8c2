"""The core's options for turn notices (commands/notices.py), for every ruleset.

`remind_hours`: how long a player may stay awaited after the table first told them before a
reminder goes out (0: never remind); `remind_max`: how many reminders at most per step, one
a day at most after the first. Given at creation like any option (`--option remind_hours=12`),
recorded in `campaign.created` only when not the default, so a campaign without them is
stored exactly as before; rulesets never see them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from tablelog.errors import InvalidInput
from tablelog.rules.options import from_recorded, parse_options

MAX_HOURS = 24 * 30
MAX_REMINDERS = 10


class NoticeOptions(msgspec.Struct, frozen=True, kw_only=True):
    remind_hours: float = 24.0
    remind_max: int = 3


NAMES = NoticeOptions.__struct_fields__
DEFAULTS = NoticeOptions()


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def split(raw: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The other options and the notices' own, as given."""
    core = {k: v for k, v in raw.items() if _key(k) in NAMES}
    return {k: v for k, v in raw.items() if _key(k) not in NAMES}, core


def parse(core: Mapping[str, str]) -> dict[str, Any]:
    """What `campaign.created` records of these options: only those not at their default."""
    resolved = parse_options(NoticeOptions, core, ruleset="tablelog")
    if not 0 <= resolved.remind_hours <= MAX_HOURS:
        raise InvalidInput(
            f"option remind_hours must be from 0 (no reminders) to {MAX_HOURS}; "
            f"got {resolved.remind_hours:g}",
            code="invalid-option",
        )
    if not 0 <= resolved.remind_max <= MAX_REMINDERS:
        raise InvalidInput(
            f"option remind_max must be from 0 to {MAX_REMINDERS}; got {resolved.remind_max}",
            code="invalid-option",
        )
    return {
        name: getattr(resolved, name)
        for name in NAMES
        if getattr(resolved, name) != getattr(DEFAULTS, name)
    }


def recorded(options: Mapping[str, Any]) -> NoticeOptions:
    return from_recorded(NoticeOptions, options)
