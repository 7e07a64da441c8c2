"""The core's own campaign options: committed shuffles (rules/rng.py), for every ruleset.

`--option committed_rng=true` at creation makes every command that needs randomness wait
for the players' contributions (commands/rng_flow.py); `rng_deadline_minutes` is how long
after the commitment the GM must wait before closing a request with contributions missing.
They are recorded in `campaign.created` beside the ruleset's options only when turned on, so
a campaign without them is stored exactly as before; rulesets never see them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from tablelog.errors import InvalidInput
from tablelog.rules.options import from_recorded, parse_options, to_record

MAX_DEADLINE_MINUTES = 60 * 24 * 30


class RngOptions(msgspec.Struct, frozen=True, kw_only=True):
    committed_rng: bool = False
    rng_deadline_minutes: int = msgspec.field(default=24 * 60)


NAMES = RngOptions.__struct_fields__


def _key(name: str) -> str:
    return name.strip().lower().replace("-", "_")


def split(raw: Mapping[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """The ruleset's options and the core's, as given."""
    core = {k: v for k, v in raw.items() if _key(k) in NAMES}
    return {k: v for k, v in raw.items() if _key(k) not in NAMES}, core


def parse(core: Mapping[str, str]) -> dict[str, Any]:
    """What `campaign.created` records of the core's options: nothing unless turned on."""
    resolved = parse_options(RngOptions, core, ruleset="tablelog")
    if not 0 <= resolved.rng_deadline_minutes <= MAX_DEADLINE_MINUTES:
        raise InvalidInput(
            f"option rng_deadline_minutes must be from 0 to {MAX_DEADLINE_MINUTES}; "
            f"got {resolved.rng_deadline_minutes}",
            code="invalid-option",
        )
    if not resolved.committed_rng:
        if core:
            raise InvalidInput(
                "option rng_deadline_minutes needs committed_rng=true", code="invalid-option"
            )
        return {}
    return to_record(resolved)


def recorded(options: Mapping[str, Any]) -> RngOptions:
    return from_recorded(RngOptions, options)
