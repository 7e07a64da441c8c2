"""Whom an Ace of Cards table waits on (the contract's `awaiting`), and the page's "Not
acted yet".

Both come from `steps`, from public facts only: a Check called and not rolled, a High or Low
discard owed (or a draw it may still take), a free spell after a Trap Card that hit, a Magic
Pair's free attack, a Trap Card that may answer the latest action, each party member with no
action yet. The rules keep no turn order, so this is what is open, not whose turn it is;
once nothing is left for the party, the GM ends the conflict (or plays the enemies on). Each
step is an `Await` (no card named: a hand, a deck and a trap's suit are hidden) and the label
the page's waiting line has always given it.
"""

from __future__ import annotations

from typing import NamedTuple

from tablelog.errors import TablelogError
from tablelog.projections.await_step import Await
from tablelog.rules.table import GM
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules import play
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Conflict
from tablelog.rulesets.ace_of_cards.views.visibility import owner


class Step(NamedTuple):
    """One awaited step; `label` its words on the page's waiting line (None: not there)."""

    awaits: Await
    label: str | None = None


def awaiting(state: AceState) -> list[Await]:
    return [s.awaits for c in state.open_conflicts() for s in conflict_steps(state, c)]


def waiting_line(state: AceState, conflict: Conflict) -> list[str]:
    """The page's "Not acted yet" for one conflict: the labelled steps."""
    return [s.label for s in conflict_steps(state, conflict) if s.label is not None]


def conflict_steps(state: AceState, conflict: Conflict) -> list[Step]:
    if conflict.status != "open":
        return []
    found: list[Step] = []
    for key, check in conflict.checks.items():
        if check.values is None:
            roll = f"roll check {key}"
            found.append(_by(state, conflict, check.character_id, roll, roll))
    latest = conflict.actions[-1] if conflict.actions else None
    acted = {action.actor for action in conflict.actions}
    for key in conflict.party:
        who = state.characters[key]
        if who.owes_discard is not None:
            found.append(
                _by(state, conflict, key, "discard 1 card (High or Low)", "High or Low: discard 1")
            )
        elif who.high_or_low is not None:
            found.append(
                _by(
                    state,
                    conflict,
                    key,
                    "draw 1 card (High or Low)",
                    "High or Low: may draw 1",
                    optional=True,
                )
            )
        if who.trap_window is not None:
            found.append(
                _by(
                    state,
                    conflict,
                    key,
                    "cast the free spell the Trap Card gave",
                    "free spell after the Trap Card",
                    optional=True,
                )
            )
        if who.free_attack is not None:
            found.append(
                _by(
                    state,
                    conflict,
                    key,
                    "make the Magic Pair's free attack",
                    "Magic Pair: its free attack",
                    optional=True,
                )
            )
        if latest is not None and may_trap(state, conflict, key):
            found.append(
                _by(
                    state,
                    conflict,
                    key,
                    f"answer {latest.action_id} with a Trap Card",
                    f"may answer {latest.action_id} with a Trap Card",
                    optional=True,
                )
            )
        if key not in acted:
            found.append(_by(state, conflict, key, "take an action", "no action yet"))
    if not any(not s.awaits.optional for s in found):
        end = "end the conflict, or act for the enemies"
        found.append(Step(Await(player=GM, what=end, conflict=conflict.key)))
    return found


def may_trap(state: AceState, conflict: Conflict, key: str) -> bool:
    """Whether the Trap Card rule would let `key` answer the latest action now (the rule
    decides, from facts all may see: who acted, seen or not, the skill, an answer given)."""
    pile = state.characters[key].pile
    if pile is None or not pile.deck:
        return False
    recorded = state.options.deck_mode == "recorded"
    try:  # any suit will do; a recorded deck's bottom card is only given, never shown
        play.trap_card(
            state,
            c.TrapCard(
                conflict=conflict.key,
                character=key,
                suit="C",
                card=pile.deck[-1] if recorded else None,
            ),
        )
    except TablelogError:
        return False
    return True


def _by(
    state: AceState,
    conflict: Conflict,
    key: str,
    what: str,
    short: str,
    *,
    optional: bool = False,
) -> Step:
    name = _name(state, key)
    seat = owner(state, key)
    awaits = Await(player=seat, what=what, character=name, conflict=conflict.key, optional=optional)
    return Step(awaits, f"{name} ({short})")


def _name(state: AceState, key: str) -> str:
    return state.characters[key].display
