"""Events every ruleset shares: a campaign's creation, sessions and scenes, and a re-issued
access token.

`campaign.created` is always seq 1 of a campaign's stream. It records the ruleset and every
option with its value (defaults filled in), so replays use the options the campaign began with.
`access.reissued` changes no game state (every ruleset's evolve takes it and moves on).
"""

from __future__ import annotations

from typing import Any, ClassVar

from tablelog.events.base import Event, registered


@registered
class CampaignCreated(Event, frozen=True, tag="campaign.created"):
    campaign: str
    ruleset: str
    gm: str
    options: dict[str, Any]


# Sessions and scenes, for rulesets that have nothing of their own to record when one starts
# or ends (the rulesets older than these events keep their own tags).


@registered
class SessionStarted(Event, frozen=True, tag="session.started"):
    session: int


@registered
class SessionEnded(Event, frozen=True, tag="session.ended"):
    ends_session: ClassVar[bool] = True  # the service signs a checkpoint of it
    session: int


@registered
class SceneStarted(Event, frozen=True, tag="scene.started"):
    scene: int
    title: str | None = None


@registered
class SceneEnded(Event, frozen=True, tag="scene.ended"):
    scene: int


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


@registered
class AccessRevoked(Event, frozen=True, tag="access.revoked"):
    """Every live token of `player` was revoked (`revoked`: how many), by the GM through the
    service (`by` gm) or by the operator on the database (`by` operator). Public: a seat
    dropped before a committed shuffle is dropped from its awaited players in plain sight.
    Beside the table: no ruleset folds it."""

    beside_table: ClassVar[bool] = True

    player: str
    revoked: int
    by: str


@registered
class AccessLinked(Event, frozen=True, tag="access.linked"):
    """A Discord account was linked to `player`'s seat (it acts for the seat from Discord):
    with a one-time code, or its id set by hand, by the GM through the service (`by` gm),
    the operator on the database (`by` operator) or the player themselves (`by` player);
    `replaced`: another account acted for the seat until then, and no longer does. Public,
    as a token's re-issue is: whoever's seat it is sees when someone else could act for it.
    Beside the table: no ruleset folds it."""

    beside_table: ClassVar[bool] = True

    player: str
    by: str
    replaced: bool
