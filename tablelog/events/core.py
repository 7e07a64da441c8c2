"""Events every ruleset shares: a campaign's creation, and a re-issued access token.

`campaign.created` is always seq 1 of a campaign's stream. It records the ruleset and every
option with its value (defaults filled in), so replays use the options the campaign began with.
`access.reissued` changes no game state (every ruleset's evolve takes it and moves on).
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


@registered
class AccessReissued(Event, frozen=True, tag="access.reissued"):
    """Someone who had held access to the campaign was given a new token, by the GM through
    the service (`by` gm) or by the operator on the database (`by` operator), and every
    earlier token of theirs stopped working (`revoked`: how many were still live). Public:
    whoever's seat it is sees when someone else could have held its token."""

    player: str
    role: str
    revoked: int
    by: str
