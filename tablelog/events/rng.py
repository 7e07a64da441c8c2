"""Core events of a committed shuffle (rules/rng.py says the algorithm): the service's
commitment, each player's pledge (the commitment of its contribution), the close of the
pledges, each player's contribution (the value pledged), the shuffles drawn, and the server
seed's reveal.

They are beside the table: no ruleset's state or audit sees them (`Event.beside_table`);
`tablelog verify --rng` and the audit's `committed` verdict read them. A request is named by
an id the service chooses; `conflict` is the conflict of the command waiting on it.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from tablelog.events.base import Event, registered


class _Beside(Event, frozen=True):
    beside_table: ClassVar[bool] = True


@registered
class RngCommitted(_Beside, frozen=True, tag="rng.committed"):
    """The service holds a fresh secret seed whose SHA-256 commitment this is; `command` (the
    canonical JSON of the command, by `actor`) runs once every one of `awaited` contributed,
    or the GM closes the request after `deadline` (microseconds UTC)."""

    request: str
    commitment: str
    command: str
    actor: str
    awaited: list[str]
    deadline: int
    conflict: str | None = None
    # Since issue 25 each contribution is pledged first (`rng.pledged`) and revealed only once
    # every pledge is in: the last seat can no longer see the others' values before choosing
    # its own. False in logs written before: their contributions came in one step.
    pledges: bool = False


@registered
class RngPledged(_Beside, frozen=True, tag="rng.pledged"):
    """A player's commitment to the 32 bytes it will contribute (rules/rng.py `pledge`:
    SHA-256 over the campaign, the request, the player and the value)."""

    request: str
    player: str
    commitment: str
    conflict: str | None = None


@registered
class RngPledgesClosed(_Beside, frozen=True, tag="rng.pledges_closed"):
    """No more pledges: every awaited player pledged, or the GM closed the request after its
    deadline (`absent`: the awaited who never pledged). `pledged` (in the fixed order of
    `awaited`) now reveal their values; one still unrevealed at `deadline` (microseconds UTC)
    may be drawn without, named as withheld."""

    request: str
    pledged: list[str]
    absent: list[str]
    deadline: int
    conflict: str | None = None


@registered
class RngContributed(_Beside, frozen=True, tag="rng.contributed"):
    """`value`: 32 random bytes (hex) from the player's own client; in a request with
    pledges, the value its pledge committed to, revealed once the pledges closed."""

    request: str
    player: str
    value: str
    conflict: str | None = None


class RngDraw(msgspec.Struct, frozen=True, kw_only=True):
    cards: list[str]
    order: list[str]


@registered
class RngDrawn(_Beside, frozen=True, tag="rng.drawn"):
    """The waiting command ran: the shuffles it asked for, in turn, drawn from the seed of
    the server seed and the contributions of `players` (in that order); `absent` had not
    contributed (or pledged) when the GM closed the request; `withheld` pledged but did not
    reveal by the reveal deadline; `lapsed` says why the command was refused when it
    finally ran (then nothing else of it is logged)."""

    hidden: ClassVar[tuple[str, ...]] = ("draws",)

    request: str
    players: list[str]
    absent: list[str]
    draws: list[RngDraw]
    lapsed: str | None = None
    conflict: str | None = None
    held: bool = False  # the command logged hidden facts: `draws` would show them
    salt: str = ""
    withheld: list[str] = msgspec.field(default_factory=list)


def hidden_fields(event: Event) -> list[str]:
    """What no viewer of the service sees of a core rng event: the draws of a command that
    dealt hidden cards (a deck's order, a hand), which its own events hide too."""
    if isinstance(event, RngDrawn) and event.held:
        return list(RngDrawn.hidden)
    return []


@registered
class RngRevealed(_Beside, frozen=True, tag="rng.revealed"):
    """The server seed (hex) of a request: anyone can now recompute its shuffles."""

    request: str
    seed: str
    conflict: str | None = None
