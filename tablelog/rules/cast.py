"""The cast: who is who in a ruleset, declared once and read by the core (the contract's
`Ruleset.cast`).

Every ruleset has characters (or sides) that belong to players, and the GM's, which are
NPCs. Three things follow from that, the same for all of them: who a command acts for (so
the service lets a player act only for its own, the GM for its NPCs: `authorize`), who an
event is attributed to when the local operator acts (`actor`), and which commands only the
GM may issue. A ruleset declares which of its commands and events name which character or
player; the core does the rest. A ruleset keeps as its own only the lookup of a name in its
state (`owner`) and any command whose actor is really its own business (a function in
`characters`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from tablelog.errors import Forbidden, TablelogError
from tablelog.events.base import Event
from tablelog.rules.common import (
    Command,
    EndScene,
    EndSession,
    JoinPlayer,
    StartScene,
    StartSession,
)
from tablelog.rules.names import player_name
from tablelog.rules.table import GM

S = TypeVar("S")

# Commands every ruleset answers and only the GM may issue.
TABLE_COMMANDS: tuple[type[Command], ...] = (
    StartSession,
    EndSession,
    StartScene,
    EndScene,
    JoinPlayer,
)

Acting = Callable[[Any, Any], str | None]  # (state, command) -> a player key, GM, or None


@dataclass(frozen=True)
class Cast(Generic[S]):
    """Who is who: declared by a ruleset, read by the core.

    `gm(state)` is the name the GM plays under; `owner(state, name)` the player of a
    character (or side) so named, the GM's name for an NPC, None for a name the state does
    not know (then `decide` refuses the command with its own sentence). `characters` maps a
    command to the field naming the character it acts for (or to a function of the state and
    the command, for what is really the ruleset's own); `players` maps a command to the field
    naming the player it acts for (a character created for that player). `event_characters`
    are the event fields naming a character, in the order they attribute an event (after
    `attributes(state, event)`, a ruleset's own way, when it has one and it names someone);
    an event naming none is its `player`'s, else the GM's. `gm_only` commands only the GM
    issues (the table's own always), `gm_also` the GM may issue for a player; `what`
    phrases a command for a refusal ("play this side's card"); `gm_acts_for` says what the
    GM runs.
    """

    gm: Callable[[S], str]
    owner: Callable[[S, str], str | None]
    characters: Mapping[type[Command], str | Acting] = field(default_factory=dict)
    players: Mapping[type[Command], str] = field(default_factory=dict)
    event_characters: tuple[str, ...] = ()
    attributes: Callable[[S, Event], str | None] | None = None
    gm_only: tuple[type[Command], ...] = ()
    gm_also: tuple[type[Command], ...] = ()
    what: Mapping[type[Command], str] = field(default_factory=dict)
    gm_acts_for: str = "its NPCs"

    def acting(self, state: S, command: Command) -> str | None:
        """Whom `command` acts for: a player key, GM, or None when the state cannot tell."""
        kind = type(command)
        named = self.players.get(kind)
        if named is not None:
            try:
                key = player_name(getattr(command, named))
            except TablelogError:
                return None
            return GM if key in (GM, self.gm(state)) else key
        acts = self.characters.get(kind)
        if acts is None:
            return None
        if not isinstance(acts, str):
            return acts(state, command)
        name = getattr(command, acts)
        return self.player_of(state, name) if isinstance(name, str) else None

    def player_of(self, state: S, name: str) -> str | None:
        """The player key of the character `name` (GM for an NPC), None when unknown."""
        player = self.owner(state, name)
        if player is None:
            return None
        return GM if player in (GM, self.gm(state)) else player

    def actor(self, state: S, event: Event) -> str:
        """Who `event` is attributed to when the local operator acts."""
        if self.attributes is not None:
            found = self.attributes(state, event)
            if found is not None:
                return found
        for name in self.event_characters:
            value: Any = getattr(event, name, None)
            if isinstance(value, str):
                player = self.owner(state, value)
                if player is not None:
                    return player
        player = getattr(event, "player", None)
        return player if isinstance(player, str) else self.gm(state)

    def gm_issues(self, command: type[Command]) -> bool:
        """Whether only the GM issues commands of this type."""
        return issubclass(command, TABLE_COMMANDS + self.gm_only)

    def authorize(self, state: S, command: Command, player: str, role: str) -> None:
        """Refuse (Forbidden) a command the caller (player key, role) may not issue."""
        if role == "observer":
            raise Forbidden(f"{player} is an observer and may only read", code="observer")
        who = GM if self.gm_issues(type(command)) else self.acting(state, command)
        doing = self.what.get(type(command), "do this")
        if role == "gm":
            if who in (GM, None) or isinstance(command, self.gm_also):
                return
            raise Forbidden(
                f"the GM acts for {self.gm_acts_for} and runs the table; only {who} may {doing}",
                code="not-yours",
            )
        if who == GM:
            raise Forbidden(f"only the GM may do this; {player} is a player", code="gm-only")
        if who is not None and who != player:
            raise Forbidden(f"{player} may not {doing}: it belongs to {who}", code="not-yours")
