"""One step the table waits on, as a ruleset's `awaiting` names it (awaiting.py reads them)."""

from __future__ import annotations

import msgspec


class Await(msgspec.Struct, frozen=True, kw_only=True):
    """One step the table waits on. `player` is the seat that must act (`GM` for the GM's
    steps); `character` the character it acts for (None: the step is the player's own);
    `what` the step in words ("answer Alice's raise of 18"), without the conflict;
    `optional` a step that may be taken but need not be ("Bo may give a victory card")."""

    player: str
    what: str
    character: str | None = None
    conflict: str | None = None
    optional: bool = False

    def key(self) -> tuple[str, str | None, str, str | None]:
        """What makes two awaits the same one (its `since` carries over while it lasts)."""
        return (self.player, self.character, self.what, self.conflict)

    def sentence(self) -> str:
        """`what`, with its conflict: "answer Alice's raise of 18 (c2)"."""
        return f"{self.what} ({self.conflict})" if self.conflict else self.what
