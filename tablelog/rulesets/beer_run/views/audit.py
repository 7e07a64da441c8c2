"""The Beer Run account: every round with its goals, pools and prices, each comparison pair by
pair with the rule behind it, the pips and what they did to each die, and every goal, death,
cede and special die.

Built in one walk over the log, each event seen with the state just before it. A bought pool
enters the account only when it is rolled: until then it is hidden (see visibility).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablelog.events.base import Event
from tablelog.projections.account import Discrepancy, Table
from tablelog.projections.book import Book, Chapter
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import sealed as rules_sealed
from tablelog.rulesets.beer_run.rules.dice import price, reduce
from tablelog.rulesets.beer_run.rules.state import DIFFICULTY, BeerRunState
from tablelog.rulesets.beer_run.views.check import Checker
from tablelog.rulesets.beer_run.views.text import goal_text, size

_COLUMNS = ["character", "pool", "Intensity", "faces"]


@dataclass
class _Open(Chapter):
    pending: dict[str, ev.PoolAssembled] = field(default_factory=dict)


def _name(state: BeerRunState, key: str) -> str:
    found = state.characters.get(key)
    return found.display if found else key


def _die_name(state: BeerRunState, character: str, ability: str) -> str:
    found = state.characters.get(character)
    die = found.abilities.get(ability) if found else None
    return die.display if die else ability


class BeerRunAuditor:
    """The Beer Run audit's walk (see `Auditor`)."""

    # The checker remembers an allocation for the dice changes after it.
    checks_every_event = True

    def __init__(self) -> None:
        self.checker = Checker()

    def check(self, state: BeerRunState, seq: int, event: Event) -> list[Discrepancy]:
        return self.checker.check(state, seq, event)

    def explain(self, book: Book, state: BeerRunState, seq: int, event: Event) -> None:
        if isinstance(event, ev.ConflictOpened):
            sides = "; ".join(
                f"{s.side_id}: {', '.join(_name(state, m) for m in s.members)}" for s in event.sides
            )
            title = f"conflict {event.conflict} ({sides})"
            book.begin(event.conflict, title, seq, state.session or None, chapter=_Open)
            return
        here = book.chapter(event.conflict_id())
        if isinstance(here, _Open):
            self._conflict_event(state, here, seq, event)

    def finish(self, book: Book, state: BeerRunState) -> None:
        pass

    def _conflict_event(self, state: BeerRunState, here: _Open, seq: int, event: Event) -> None:
        options = state.options
        match event:
            case ev.RoundStarted():
                here.note(f"Round {event.round}", seq, "round", f"round {event.round} begins")
            case ev.GoalDeclared():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "goal",
                    f"{_name(state, event.actor)} states a {event.kind} goal: {goal_text(event)}",
                    actor=event.actor,
                    kind=event.kind,
                )
            case ev.DifficultyPoolSet():
                default = f"d{options.difficulty_die} x{options.difficulty_dice}"
                here.note(
                    f"Round {event.round}",
                    seq,
                    "difficulty",
                    f"difficulty pool against {_name(state, event.against)}: "
                    + " ".join(f"d{s}" for s in event.dice)
                    + f" ({event.replaced_count} dice replaced by the target d"
                    f"{event.target_size}; at most {options.max_replaced}; default {default})",
                    dice=event.dice,
                )
            case ev.PoolAssembled():
                here.pending[event.actor] = event  # shown when rolled
            case ev.PoolSealed():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "sealed",
                    f"{_name(state, event.actor)} seals a pool: commitment {event.commitment}",
                )
            case ev.PoolOpened():
                here.pending[event.actor] = rules_sealed.as_bought(event)  # shown when rolled
                here.note(
                    f"Round {event.round}",
                    seq,
                    "opened",
                    f"{_name(state, event.actor)} opens its sealed pool: the content and salt "
                    "give its commitment, checked again here"
                    + (
                        f"; the rules refuse that pool ({event.refused}): it counts as empty"
                        if event.refused
                        else ""
                    ),
                )
            case ev.PoolForfeited():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "forfeit",
                    f"{_name(state, event.actor)}'s sealed pool was not opened by the GM's "
                    f"deadline ({event.deadline}; declared at {event.at}): it counts as an "
                    "empty pool",
                )
            case ev.PoolRolled():
                self._rolled(state, here, seq, event)
            case ev.RollsCompared():
                self._compared(state, here, seq, event)
            case ev.SituationDieGranted():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "situation-die",
                    f"{_name(state, event.character_id)} gains a d{event.size} situation die "
                    f"for {event.uses} roll(s): one per success {_name(state, event.source)} "
                    "kept",
                    size=event.size,
                    uses=event.uses,
                )
            case ev.PenaltyDieImposed():
                counted = "kept" if options.help_failures == "kept" else "raw"
                here.note(
                    f"Round {event.round}",
                    seq,
                    "penalty-die",
                    f"{_name(state, event.character_id)} suffers a d{event.size} penalty die "
                    f"for {event.uses} roll(s): one per success the difficulty pool {counted}; "
                    "it joins the pool opposing them",
                    size=event.size,
                    uses=event.uses,
                )
            case ev.SpecialDieUsed():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "special-die",
                    f"{_name(state, event.character_id)} rolls a {event.kind} d{event.size} "
                    f"({event.uses_left} use(s) left)",
                )
            case ev.DamageAllocated():
                parts = []
                for a in event.allocations:
                    die = state.characters[a.target].abilities[a.ability]
                    left = reduce(die.size, a.pips, options.pips)
                    parts.append(
                        f"{a.pips} on {die.display} d{die.size} -> " + (f"d{left}" if left else "0")
                    )
                rule = "one face per pip" if options.pips == "faces" else "one step per pip"
                here.note(
                    f"Round {event.round}",
                    seq,
                    "allocation",
                    f"{_name(state, event.by)} spends its kept successes as pips off "
                    f"{_name(state, event.against)}'s dice ({rule}): " + "; ".join(parts),
                    by=event.by,
                    against=event.against,
                )
            case ev.GoalAchieved():
                target = _name(state, event.target or "")
                how = f"{target} ceded" if event.how == "ceded" else f"a die of {target} is at 0"
                spent = self.checker.allocation
                if event.how == "zeroed" and spent is not None and spent.by != event.actor:
                    how += f" by {_name(state, spent.by)}'s pips (a goal is won by its side)"
                here.note(
                    f"Round {event.round}",
                    seq,
                    "goal-achieved",
                    f'{_name(state, event.actor)} achieves its goal "{event.goal}": {how}',
                )
            case ev.CharacterDied():
                here.note(
                    here.latest or "Effects",
                    seq,
                    "death",
                    f"{_name(state, event.character_id)} dies: {state.options.health} at 0",
                )
            case ev.Ceded():
                here.note(
                    f"Round {event.round}",
                    seq,
                    "cede",
                    f"{_name(state, event.actor)} cedes: the opposition gets its goal",
                )
            case ev.AbilityChanged() if event.cause in ("cede", "heal"):
                why = "the ceded goal zeroes it" if event.cause == "cede" else "healed"
                here.note(
                    "Outcome" if event.cause == "heal" else here.latest or "Outcome",
                    seq,
                    "die",
                    f"{_name(state, event.character_id)}'s "
                    f"{_die_name(state, event.character_id, event.ability)} "
                    f"{size(event.from_)} -> {size(event.to)} ({why})",
                )
            case ev.ConflictEnded():
                here.note("Outcome", seq, "end", f"the conflict ends: {event.result}")
                here.closed = True

    def _rolled(self, state: BeerRunState, here: _Open, seq: int, event: ev.PoolRolled) -> None:
        title = f"Round {event.round}"
        section = here.section(title)
        if section.table is None:
            section.table = Table(columns=_COLUMNS, rows=[])
        faces = " ".join(str(f.value) for f in event.results)
        if event.difficulty:
            row = [
                f"difficulty vs {_name(state, event.actor)}",
                " ".join(f"d{f.size}" for f in event.results),
                "0 (static)",
                faces,
            ]
        else:
            pool = here.pending.pop(event.actor, None)
            dice = (
                ", ".join(
                    ("+" if d.extra else "")
                    + (_die_name(state, event.actor, d.name) if d.source == "ability" else d.source)
                    + f" d{d.size}"
                    for d in pool.dice
                )
                if pool
                else " ".join(f"d{f.size}" for f in event.results)
            )
            cost = price(pool.intensity_cost) if pool else "?"
            row = [_name(state, event.actor), dice, cost, faces]
        section.table.rows.append(row)
        here.touch(seq)

    def _compared(
        self, state: BeerRunState, here: _Open, seq: int, event: ev.RollsCompared
    ) -> None:
        a, b = _name(state, event.a), _name(state, event.b)
        if event.b == DIFFICULTY:
            b = "the difficulty"
        names = {"a": a, "b": b}
        pairs = ", ".join(
            f"{p.a}={p.b} tie"
            if p.winner == "tie"
            else f"{p.a}{'>' if p.winner == 'a' else '<'}{p.b} {names[p.winner]}"
            for p in event.pairs
        )
        if event.upper_hand is None:
            verdict = "no decisive pair: no upper hand, no successes, no effects"
        else:
            upper = a if event.upper_hand == event.a else b
            other_key = event.b if event.upper_hand == event.a else event.a
            other = b if upper == a else a
            verdict = (
                f"{upper} has the upper hand (first decisive pair) and keeps all "
                f"{event.kept[event.upper_hand]}; {other} keeps {event.kept[other_key]} of "
                f"{event.raw[other_key]} (its 1st, 3rd, 5th ... success)"
            )
        here.note(
            f"Round {event.round}",
            seq,
            "comparison",
            f"{a} {event.a_values} vs {b} {event.b_values} (high to low, padded with d1 = 1): "
            f"{pairs}; {verdict}",
            a=event.a,
            b=event.b,
            upper_hand=event.upper_hand,
            raw=event.raw,
            kept=event.kept,
        )
