"""The projections half of the ruleset contract: what a ruleset's `VIEWS` supplies.

Core code builds every read from these: `state`, `show`, `log`, `replay`, `audit`, the exports,
`whatif` and the service's filtered reads, for any ruleset. Views are pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from tablelog.events.base import Event
from tablelog.projections.await_step import Await
from tablelog.projections.book import Auditor
from tablelog.projections.page import Action, Panel
from tablelog.rules.contract import lazy

__all__ = ["Action", "Auditor", "Await", "Panel", "Read", "RulesetViews", "lazy"]

S = TypeVar("S")


@dataclass(frozen=True)
class Read(Generic[S]):
    """A read of a ruleset's own beyond `state` and `show` (Improv's managed hand).

    Served at `GET /campaigns/{campaign}/<ruleset><path>`; `path` holds one `{placeholder}`,
    whose value `run(state, value, viewer)` gets (`viewer` None: the local operator)."""

    name: str
    path: str
    summary: str
    run: Callable[[S, str, str | None], dict[str, Any]]


@dataclass(frozen=True)
class RulesetViews(Generic[S]):
    """How a ruleset's state and events are shown, hidden and audited.

    `viewer` is who looks: None for the local operator (everything), else a player key or
    `gm`; whatever a view shows must be what that viewer may see.

    - `state_view(state, viewer)`: the ruleset's own keys of `state --json` (core code puts
      `campaign`, `ruleset`, `seq`, `session`, `session_open` and `scene` first); it must hold
      `conflicts`, each with `status` (`open` while under way) and `beats` ([winner, loser]
      pairs), which `whatif` compares; a conflict may add `outcome`, a list of sentences for
      what else its outcome is (amounts, damage types) that `beats` cannot say, and `whatif`
      compares that too (an open conflict's beats and sentences so far are a beginning of
      what they will be: `whatif` tells a different outcome from one not as far along).
      `state_lines(view)` is `state` as text, from that whole view (local or from the
      service alike).
    - `show_view(state, conflict, viewer)`: a conflict round by round (`conflict` None: the
      only open one; NotFound when there is none), and `show_lines(state, view)` as text.
      `kept_at(state, conflict)` is the seq whose state still holds a conflict whole when
      this state keeps only a record of it (None: this one does).
    - `describe(event)`: one line of words for the log. `describe_in(event, state)`
      (optional): the same line given the campaign's state (now, or just after the event
      when a command answers), for words the event alone cannot give: names as they were
      created where the event holds keys. Core code calls it wherever a state is at hand
      (`log`, `replay`, `whatif`, a command's answer), `describe` elsewhere.
    - `hidden_fields(event, viewer, state)`: the event's fields `viewer` may not see given the
      state now; the generic `redact` blanks them and the salt. `hides(state, viewer)`: why
      the state hides something from `viewer` (a what-if through the service then refuses
      to play on from it), None when it hides nothing.
    - `auditor()`: a new `Auditor` for one audit.
    - `reads`: reads of the ruleset's own.
    - `panels(state, viewer)` (optional): the web page's boxes (`projections.page.Panel`),
      built from the views above so they show what `viewer` may see and nothing more.
      Without it, each open conflict's `show` text and the `state` text.
    - `reveals(event)` (optional): whether the event makes something hidden public (a
      round's cards turned over, a sealed pool opened): a webhook's `reveal` posts follow
      it. Without it, an event whose tag says it reveals (`...revealed`).
    - `actions(state, viewer)` (optional): the forms the page offers `viewer` now
      (`projections.page.Action`: a command, its fixed and asked fields with choices, and a
      `probe` the core tries against the rules before offering it). Without it, a form per
      command the viewer's role may issue, from the command's fields (`commands.page`).
    - `awaiting(state)` (optional): each step the table waits on now
      (`projections.awaiting.Await`: the seat that must act, `GM` for the GM's, the
      character, what to do in words, the conflict, whether it is only an option still
      open), in the order the table takes them. It is public (say no hidden card): `state`,
      `waiting`, the page's banner and every notice read it. Without it, the steps the cast's
      commands would take now with the demo's values (`generic_awaiting`).
    """

    state_view: Callable[[S, str | None], dict[str, Any]]
    state_lines: Callable[[dict[str, Any]], list[str]]
    show_view: Callable[[S, str | None, str | None], dict[str, Any]]
    show_lines: Callable[[S, dict[str, Any]], list[str]]
    describe: Callable[[Event], str]
    hidden_fields: Callable[[Event, str, S], Sequence[str]]
    hides: Callable[[S, str], str | None]
    auditor: Callable[[], Auditor[S]]
    kept_at: Callable[[S, str | None], int | None] = lambda state, conflict: None
    reads: tuple[Read[S], ...] = ()
    panels: Callable[[S, str | None], list[Panel]] | None = None
    actions: Callable[[S, str | None], list[Action]] | None = None
    reveals: Callable[[Event], bool] = lambda event: "reveal" in event.type_name()
    describe_in: Callable[[Event, S], str] | None = None
    awaiting: Callable[[S], list[Await]] | None = None

    def read(self, name: str) -> Read[S] | None:
        return next((r for r in self.reads if r.name == name), None)
