"""Events every ruleset shares: a campaign's creation.

`campaign.created` is always seq 1 of a campaign's stream. It records the ruleset and every
option with its value (defaults filled in), so replays use the options the campaign began with.
"""

from __future__ import annotations

from typing import Any

from tablelog.events.base import Event, registered


@registered
class CampaignCreated(Event, frozen=True, tag="campaign.created"):
    campaign: str
    ruleset: str
    gm: str
    options: dict[str, Any]
