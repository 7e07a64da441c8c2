"""Whom the table waits on, as the page shows it to one viewer: every step (who must act is
public at the table), which of them are the viewer's own, and where on the page each of the
viewer's own is done (the form that does it, else its conflict's panel).

The steps come from the contract (`projections.awaiting`, with since when from
`commands.awaits`), the same for every ruleset: nothing here knows one. A step names no
command, only what to do in words, so its form is found by what the page offers: the forms
of its conflict, narrowed by the words they share with the step, then by its character,
then by whether it is the GM's; a single form left is the step's, else its conflict's panel.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import msgspec

from tablelog.commands.awaits import Since, iso
from tablelog.projections.await_step import Await
from tablelog.projections.page import Panel
from tablelog.rules.table import GM


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One step the table waits on, as the page shows it."""

    player: str  # the seat that must act ("gm" for the GM's steps)
    who: str  # that seat in words: the player's name, or "the GM"
    character: str | None
    conflict: str | None
    optional: bool
    sentence: str  # what to do, in words: "answer Alice's raise of 18 (c2)"
    since: str  # ISO 8601, UTC: when the table began to wait on it
    since_text: str  # the same for people: "27 Nov 16:21 UTC"
    since_seq: int
    mine: bool  # the viewer's own step
    target: str | None = None  # the id of the form (or panel) that does it, on this page


class Waiting(msgspec.Struct, frozen=True, kw_only=True):
    """A seat the table waits on (a step that is not only an option), since its oldest."""

    who: str  # "you" on the seat's own page
    since: str
    since_text: str


class FormLike(Protocol):
    """What a step's form is told apart by (`commands.page.Form`)."""

    @property
    def key(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def conflict(self) -> str | None: ...
    @property
    def gm(self) -> bool: ...
    @property
    def fixed(self) -> dict[str, Any]: ...


def is_mine(player: str, viewer: str) -> bool:
    """Whether a step of seat `player` is the viewer's: the GM's page takes the GM's steps,
    a player's its seat's; an observer (`observer:NAME`, never a seat) has none."""
    return player == viewer


def steps_for(
    steps: Iterable[Since],
    viewer: str,
    forms: Sequence[FormLike],
    panels: Sequence[Panel],
) -> list[Step]:
    """The table's steps as `viewer`'s page shows them, in the ruleset's order."""
    known = list(steps)
    characters = {s.step.character for s in known if is_mine(s.step.player, viewer)}
    found = []
    for since in known:
        step = since.step
        mine = is_mine(step.player, viewer)
        # A character is said where the viewer acts for several (the GM's sides, say).
        named = step.character if mine and len(characters - {None}) > 1 else None
        found.append(
            Step(
                player=step.player,
                who="the GM" if step.player == GM else step.player,
                character=step.character,
                conflict=step.conflict,
                optional=step.optional,
                sentence=_sentence(step.what, named, step.conflict),
                since=iso(since.at),
                since_text=_since_text(since.at),
                since_seq=since.seq,
                mine=mine,
                target=target(step, forms, panels) if mine else None,
            )
        )
    return found


def waiting_on(steps: Sequence[Step]) -> list[Waiting]:
    """Each seat the table waits on (options aside), once, oldest first."""
    oldest: dict[str, Step] = {}
    for step in steps:
        if step.optional:
            continue
        known = oldest.get(step.player)
        if known is None or step.since_seq < known.since_seq:
            oldest[step.player] = step
    ordered = sorted(oldest.values(), key=lambda s: s.since_seq)
    return [
        Waiting(who="you" if s.mine else s.who, since=s.since, since_text=s.since_text)
        for s in ordered
    ]


def _sentence(what: str, character: str | None, conflict: str | None) -> str:
    words = f"{what} for {character}" if character else what
    return f"{words} ({conflict})" if conflict else words


def _since_text(micros: int) -> str:
    return time.strftime("%d %b %H:%M UTC", time.gmtime(micros / 1_000_000)).lstrip("0")


# Words that tell no form from another.
_COMMON = frozenset(
    ["a", "an", "the", "of", "in", "on", "to", "for", "and", "or", "by", "with", "as", "at"]
)


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"\w+", text.casefold()) if w not in _COMMON}


def target(step: Await, forms: Sequence[FormLike], panels: Sequence[Panel]) -> str | None:
    """The id of the one form on the page that does `step`, else of its conflict's panel
    (None: the page has neither)."""
    found = [f for f in forms if f.conflict == step.conflict] if step.conflict else list(forms)
    # What to do starts with its verb ("give a victory card"): a form titled otherwise does
    # something else ("Play a card face down"), however many words they share.
    verb = next(iter(re.findall(r"\w+", step.what.casefold())), "")
    found = [f for f in found if verb in _words(f.title)]
    if found:
        wanted = _words(step.what)
        best = max(len(wanted & _words(f.title)) for f in found)
        found = [f for f in found if len(wanted & _words(f.title)) == best]
    if step.character is not None:
        name = step.character.casefold()
        found = _narrowed(found, lambda f: name in _names(f))
    found = _narrowed(found, lambda f: f.gm == (step.player == GM))
    if len(found) == 1:
        return form_id(found[0].key)
    panel = next((p for p in panels if step.conflict and p.conflict == step.conflict), None)
    return panel.key if panel is not None else None


def form_id(key: str) -> str:
    """A form's id on the page (its key is unique there)."""
    return f"form-{key}"


def _names(form: FormLike) -> set[str]:
    """The names a form is about: its fixed values, and the words of its title."""
    fixed = {str(v).casefold() for v in form.fixed.values()}
    return fixed | set(re.findall(r"\w+", form.title.casefold()))


def _narrowed(forms: list[FormLike], keep: Callable[[FormLike], bool]) -> list[FormLike]:
    """The forms `keep` takes, unless it takes none: a clue, not a rule."""
    return [f for f in forms if keep(f)] or forms
