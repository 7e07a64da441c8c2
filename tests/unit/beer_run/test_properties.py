"""Property tests: random legal Beer Run play driven through `execute` on a real SQLite file.

A run creates random characters (random abilities in Body/Mind/Kit, random Intensity), opens a
conflict between random sides and plays rounds: random goals (standard, helping, situational),
random difficulty pools, random pools within each character's Intensity, random faces (recorded
or rolled by a seeded shuffle), random valid allocations and random cedes, with a few illegal
commands mixed in. Properties checked on the stored log:

(a) folding it twice (`campaign_state` twice, and `fold(store.read(...))`) gives the same state;
(b) after every event, no Intensity and no die size is below 0, no special die has uses < 1;
(c) every RollsCompared holds the pool faces it compares (each side's own dice, plus the
    opponent's penalty dice), sorted high to low and padded with 1s; its winners, upper hand
    (the first decisive pair) and counts follow; kept <= raw; the upper hand keeps all, the
    other side ceil(raw / 2);
(d) every PoolAssembled costs 1 + n(n+1)/2 for its n paid extras;
(e) every allocation spends the kept successes, and every damage AbilityChanged is the die
    less its allocated pips (faces or steps; more pips than a die has left put it to 0);
(f) a goal is won by its side: after each allocation that puts a die of its target to 0, the
    goals won are exactly this round's standard goals aimed at that target by members of the
    allocating side, each once in a round;
(g) a refused command leaves the log as it was.
"""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import campaign_state
from tablelog.errors import TablelogError
from tablelog.projections.fold import Folded, fold, fold_steps
from tablelog.rules.common import Command
from tablelog.rulesets.beer_run import events as ev
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.state import DIFFICULTY, BeerRunState, Conflict
from tablelog.storage import open_store
from tests.unit.beer_run.table import SCRATCH, Table, unsalted

CATEGORIES = ["Body", "Mind", "Kit"]
SIZES = [1, 2, 3, 4, 6, 8, 10, 12]
NAMES = ["Alice", "Bob", "Cara", "Dan"]
SKILLS = ["Brawl", "Run", "Talk", "Rope", "Wits", "Nerve", "Grit", "Luck"]
LADDER = (12, 10, 8, 6, 4, 2, 1)


# --- reference arithmetic (written from the rules, not imported from the code under test) ---


def cut(size: int, pips: int, mode: str) -> int:
    if mode == "faces":
        return max(size - pips, 0)
    for _ in range(pips):
        size = next((rung for rung in LADDER if rung < size), 0)
    return size


def room(size: int, mode: str) -> int:
    steps = 0
    while size > 0:
        size, steps = cut(size, 1, mode), steps + 1
    return steps


def triangular(n: int) -> int:
    return n * (n + 1) // 2


# --- a run ----------------------------------------------------------------------------------


class Run:
    def __init__(self, table: Table, rng: random.Random, options: dict[str, str]) -> None:
        self.table = table
        self.rng = rng
        self.options = options
        self.recorded = options["dice"] == "recorded"
        self.mode = options["pips"]
        self.refused = 0

    @property
    def state(self) -> BeerRunState:
        return self.table.state

    def do(self, command: Command) -> None:
        self.table.execute(command)

    def probe(self, command: Command) -> None:
        """A command that may be refused: if it is, the log must not have changed (f)."""
        before = self.table.log()
        try:
            self.table.execute(command)
        except TablelogError:
            assert self.table.log() == before, f"refused {command!r} but the log changed"
            self.refused += 1

    # --- setup ----------------------------------------------------------------------------

    def create(self, name: str) -> None:
        rng = self.rng
        specs: list[c.AbilitySpec] = []
        if rng.random() < 0.8:
            specs.append(
                c.AbilitySpec(name="Health", category="Body", size=f"d{rng.choice(SIZES)}")
            )
        for skill in rng.sample(SKILLS, rng.randint(1, 4)):
            specs.append(
                c.AbilitySpec(
                    name=skill, category=rng.choice(CATEGORIES), size=f"d{rng.choice(SIZES)}"
                )
            )
        self.do(
            c.CreateCharacter(
                player="gm" if name == "Dan" else name.lower(),
                character=name,
                abilities=specs,
                intensity=rng.randint(0, 12),
            )
        )

    def open(self, names: list[str]) -> None:
        self.rng.shuffle(names)
        count = 3 if len(names) == 4 and self.rng.random() < 0.3 else 2
        sides: dict[str, list[str]] = {f"s{i}": [] for i in range(count)}
        for i, name in enumerate(names):
            sides[f"s{i % count}" if i < count else self.rng.choice(list(sides))].append(name)
        self.do(c.OpenConflict(conflict="c1", sides=sides))

    # --- a round --------------------------------------------------------------------------

    def conflict(self) -> Conflict:
        return self.state.conflicts["c1"]

    def active(self) -> list[str]:
        state = self.state
        return flow.active(state, state.conflicts["c1"])

    def refill(self) -> None:
        """The GM tops up Intensity so each active character can buy a base pool (and pay its
        situation dice when they cost)."""
        state = self.state
        for key in self.active():
            who = state.characters[key]
            situation = sum(1 for d in who.special if d.kind == "situation")
            paid = situation if self.options["situation_die_cost"] == "extra" else 0
            need = 1 + triangular(paid)
            if who.intensity < need or self.rng.random() < 0.1:
                self.do(
                    c.AdjustIntensity(
                        character=key, delta=need - who.intensity + self.rng.randint(0, 4) or 1
                    )
                )

    def goals(self) -> None:
        rng = self.rng
        for key in self.active():
            state = self.state
            conflict = state.conflicts["c1"]
            side = conflict.side_of(key)
            still = flow.active(state, conflict)
            allies = [m for m in still if m != key and conflict.side_of(m) == side]
            opponents = [m for m in still if conflict.side_of(m) != side]
            roll_ = rng.random()
            die = f"d{rng.choice(SIZES)}"
            if allies and roll_ < 0.15:
                self.do(
                    c.DeclareGoal(
                        conflict="c1",
                        actor=key,
                        kind="helping",
                        text=f"{key} helps",
                        ally=rng.choice(allies),
                        die=die,
                    )
                )
            elif roll_ < 0.25:
                self.do(
                    c.DeclareGoal(
                        conflict="c1",
                        actor=key,
                        kind="situational",
                        text=f"{key} prepares",
                        die=die,
                    )
                )
            else:
                target = rng.choice(opponents)
                dice = [a.name for a in state.characters[target].abilities.values() if a.size]
                ability = rng.choice(dice) if dice and rng.random() < 0.3 else None
                self.do(
                    c.DeclareGoal(
                        conflict="c1",
                        actor=key,
                        text=f"{key} beats {target}",
                        against=target,
                        ability=ability,
                    )
                )
        rnd = self.conflict().current
        for key, goal in rnd.goals.items():
            if goal.kind != "standard" and (self.recorded or self.rng.random() < 0.5):
                self.difficulty(key)

    def difficulty(self, key: str) -> None:
        rng = self.rng
        dice = None
        if rng.random() < 0.4:
            dice = [f"d{rng.choice(SIZES)}" for _ in range(rng.randint(1, 5))]
        width = 4 if dice is None else len(dice)
        self.do(
            c.SetDifficulty(
                conflict="c1", against=key, dice=dice, replace=rng.randint(0, min(3, width))
            )
        )

    def buy(self, key: str) -> None:
        rng = self.rng
        state = self.state
        who = state.characters[key]
        rollable = [a for a in who.abilities.values() if a.size > 0]
        base: list[str] = []
        for category in state.categories:
            found = [a.name for a in rollable if a.category == category]
            if found:
                base.append(rng.choice(found))
        rng.shuffle(base)
        rest = [a.name for a in rollable if a.name not in base]
        rng.shuffle(rest)
        situation = sum(1 for d in who.special if d.kind == "situation")
        paid = situation if self.options["situation_die_cost"] == "extra" else 0
        if 1 + triangular(paid) > who.intensity:
            # A situation die granted this round (helping) must join the pool and, with
            # situation_die_cost=extra, be paid for: without more Intensity the round stalls.
            self.do(c.AdjustIntensity(character=key, delta=1 + triangular(paid) - who.intensity))
            who = self.state.characters[key]
        extras: list[str] = []
        for name in rest:
            if rng.random() < 0.5 and 1 + triangular(paid + len(extras) + 1) <= who.intensity:
                extras.append(name)
        if rest and rng.random() < 0.1:  # each extra twice: refused, the log unchanged
            self.probe(c.AssemblePool(conflict="c1", actor=key, base=base, extras=rest * 2))
        self.do(c.AssemblePool(conflict="c1", actor=key, base=base, extras=extras))

    def faces(self, sizes: list[int]) -> list[int]:
        return [self.rng.randint(1, size) for size in sizes]

    def roll(self, key: str) -> None:
        rnd = self.conflict().current
        if not self.recorded:
            self.do(c.Roll(conflict="c1", actor=key))
            return
        sizes = [d.size for d in rnd.pools[key].dice]
        difficulty = None
        if rnd.goals[key].kind != "standard":
            difficulty = self.faces(rnd.difficulty[key].dice)
        if self.rng.random() < 0.1 and sizes:  # an impossible face first
            self.probe(
                c.Roll(
                    conflict="c1", actor=key, values=[s + 1 for s in sizes], difficulty=difficulty
                )
            )
        self.do(c.Roll(conflict="c1", actor=key, values=self.faces(sizes), difficulty=difficulty))

    def effects(self) -> None:
        while True:
            state = self.state
            conflict = state.conflicts["c1"]
            if conflict.status != "open" or flow.phase(state, conflict) != "effects":
                return
            compared, by = flow.owed(state, conflict.current)[0]
            against = compared.opponent(by)
            need = flow.required_pips(state, compared, by)
            dice = {
                a.name: room(a.size, self.mode)
                for a in state.characters[against].abilities.values()
                if a.size > 0
            }
            if self.rng.random() < 0.15:  # one pip too many first
                name = next(iter(dice))
                self.probe(c.Allocate(conflict="c1", by=by, against=against, pips={name: need + 1}))
            pips: dict[str, int] = {}
            left = need
            while left:
                fits = [n for n, r in dice.items() if r > pips.get(n, 0)]
                if fits and self.rng.random() < 0.8:
                    name = self.rng.choice(fits)
                    take = self.rng.randint(1, min(left, dice[name] - pips.get(name, 0)))
                else:  # overkill: more pips than the die has left
                    name = self.rng.choice(list(dice))
                    take = self.rng.randint(1, left)
                pips[name] = pips.get(name, 0) + take
                left -= take
            self.do(c.Allocate(conflict="c1", by=by, against=against, pips=pips))

    def play_round(self) -> None:
        for key in self.active():  # a character with no die left to roll cedes
            who = self.state.characters[key]
            if not any(a.size for a in who.abilities.values()) and not who.special:
                self.do(c.Cede(conflict="c1", actor=key))
                if self.conflict().status != "open":
                    return
        self.refill()
        self.goals()
        if self.rng.random() < 0.2:  # ceding mid-round is refused
            self.probe(c.Cede(conflict="c1", actor=self.rng.choice(self.active())))
        rnd = self.conflict().current
        helpers = [k for k, g in rnd.goals.items() if g.kind == "helping"]
        for key in helpers:
            self.buy(key)
            self.roll(key)
        others = [k for k in rnd.goals if k not in helpers]
        for key in self.rng.sample(others, len(others)):
            self.buy(key)
        if not self.recorded and self.rng.random() < 0.5:
            self.do(c.Roll(conflict="c1"))
        else:
            for key in self.rng.sample(others, len(others)):
                self.roll(key)
        self.effects()

    def cede(self) -> None:
        """A random active character cedes."""
        self.do(c.Cede(conflict="c1", actor=self.rng.choice(self.active())))

    def play(self) -> None:
        names = NAMES[: self.rng.randint(2, 4)]
        for name in names:
            self.create(name)
        self.open(list(names))
        for _ in range(self.rng.randint(1, 4)):
            if self.conflict().status != "open":
                return
            self.play_round()
            if self.conflict().status != "open":
                return
            if self.rng.random() < 0.3:
                self.cede()
        if self.conflict().status == "open" and self.rng.random() < 0.5:
            self.do(c.EndConflict(conflict="c1", result="the GM calls it"))


# --- checks ---------------------------------------------------------------------------------


def snapshot(folded: Folded) -> Any:
    """The state as the ruleset's state view shows it, and the state itself (dataclass
    equality: a set's order may differ between two folds, its members may not)."""
    from tablelog.projections.views import state_view

    shown = msgspec.to_builtins(state_view(folded))
    return shown, folded.state, folded.seq


def check_states(run: Run) -> None:
    """(b) after every event: Intensity, die sizes and special dice uses stay in range."""
    for envelope, _event, folded in fold_steps(run.table.log()):
        state: BeerRunState = folded.state
        for who in state.characters.values():
            assert who.intensity >= 0, f"{who.key} Intensity {who.intensity} at {envelope.seq}"
            for ability in who.abilities.values():
                assert ability.size >= 0, f"{who.key} {ability.name} d{ability.size}"
            for die in who.special:
                assert die.uses >= 1, f"{who.key} {die}"
                assert die.size >= 1, f"{who.key} {die}"


def check_events(run: Run) -> None:
    events = [unsalted(e.event()) for e in run.table.log()]
    options = run.options
    pools: dict[tuple[str, int, str], ev.PoolAssembled] = {}
    rolled: dict[tuple[str, int, str, bool], list[int]] = {}
    kept: dict[tuple[str, int, str, str], int] = {}  # conflict, round, by, against
    sizes: dict[tuple[str, str], int] = {}
    for i, event in enumerate(events):
        match event:
            case ev.CharacterCreated():
                for a in event.abilities:
                    sizes[event.character_id, a.name] = a.size
            case ev.AbilityChanged():
                sizes[event.character_id, event.ability] = event.to
            case ev.PoolAssembled():
                pools[event.conflict, event.round, event.actor] = event
                paid = event.extras + (
                    sum(1 for d in event.dice if d.source == "situation")
                    if options["situation_die_cost"] == "extra"
                    else 0
                )
                assert event.intensity_cost == 1 + triangular(paid), event  # (d)
                assert sum(1 for d in event.dice if d.extra) == event.extras
            case ev.PoolRolled():
                key = (event.conflict, event.round, event.actor, event.difficulty)
                rolled[key] = [f.value for f in event.results]
                assert all(1 <= f.value <= f.size for f in event.results), event
            case ev.RollsCompared():
                check_comparison(event, pools, rolled)
                for who in (event.a, event.b):
                    other = event.b if who == event.a else event.a
                    kept[event.conflict, event.round, who, other] = event.kept[who]
            case ev.DamageAllocated():
                spent = sum(a.pips for a in event.allocations)
                assert spent == kept[event.conflict, event.round, event.by, event.against], event
                check_goals_won(events, i)  # (f)
                for allocation in event.allocations:
                    now = sizes[allocation.target, allocation.ability]
                    assert now >= 1, event
                    assert allocation.pips >= 1, event
                    change = next(
                        e
                        for e in events
                        if isinstance(e, ev.AbilityChanged)
                        and e.cause == "damage"
                        and e.conflict == event.conflict
                        and (e.character_id, e.ability) == (allocation.target, allocation.ability)
                        and e.from_ == now
                    )
                    assert change.to == cut(now, allocation.pips, options["pips"]), (
                        event,
                        change,
                    )  # (e)
            case _:
                pass


def check_goals_won(events: list[Any], at: int) -> None:
    """(f) for the allocation `events[at]`, from the goals and sides declared before it."""
    allocation: ev.DamageAllocated = events[at]
    sides: dict[str, str] = {}
    goals: dict[str, ev.GoalDeclared] = {}
    won: set[str] = set()
    for event in events[:at]:
        if isinstance(event, ev.ConflictOpened) and event.conflict == allocation.conflict:
            sides = {m: s.side_id for s in event.sides for m in s.members}
        elif isinstance(event, ev.RoundStarted) and event.conflict == allocation.conflict:
            goals, won = {}, set()
        elif isinstance(event, ev.GoalDeclared) and event.conflict == allocation.conflict:
            goals[event.actor] = event
        elif isinstance(event, ev.GoalAchieved) and event.conflict == allocation.conflict:
            won.add(event.actor)
    following = []
    for event in events[at + 1 :]:
        if not isinstance(event, ev.AbilityChanged | ev.GoalAchieved | ev.CharacterDied):
            break
        following.append(event)
    zeroed = any(isinstance(e, ev.AbilityChanged) and e.to == 0 for e in following)
    expected = [
        (g.actor, g.text)
        for g in goals.values()
        if zeroed
        and g.kind == "standard"
        and g.target == allocation.against
        and sides[g.actor] == sides[allocation.by]
        and g.actor not in won
    ]
    achieved = [(e.actor, e.goal) for e in following if isinstance(e, ev.GoalAchieved)]
    assert achieved == expected, (allocation, following)
    assert all(
        (e.target, e.how, e.round) == (allocation.against, "zeroed", allocation.round)
        for e in following
        if isinstance(e, ev.GoalAchieved)
    )


def check_comparison(
    event: ev.RollsCompared,
    pools: dict[tuple[str, int, str], ev.PoolAssembled],
    rolled: dict[tuple[str, int, str, bool], list[int]],
) -> None:
    """(c) the comparison's faces come from the pools, and its counts follow from them."""

    def own(who: str, penalty: bool) -> list[int]:
        pool = pools[event.conflict, event.round, who]
        faces = rolled[event.conflict, event.round, who, False]
        return [
            v for d, v in zip(pool.dice, faces, strict=True) if (d.source == "penalty") == penalty
        ]

    a, b = event.a, event.b
    if b == DIFFICULTY:
        a_faces = own(a, False)
        b_faces = rolled[event.conflict, event.round, a, True] + own(a, True)
    else:
        a_faces = own(a, False) + own(b, True)
        b_faces = own(b, False) + own(a, True)
    width = max(len(a_faces), len(b_faces))
    a_sorted = sorted(a_faces, reverse=True) + [1] * (width - len(a_faces))
    b_sorted = sorted(b_faces, reverse=True) + [1] * (width - len(b_faces))
    assert (event.a_values, event.b_values) == (a_sorted, b_sorted), event
    pairs = zip(a_sorted, b_sorted, strict=True)
    expected = ["a" if x > y else "b" if y > x else "tie" for x, y in pairs]
    assert [(p.a, p.b, p.winner) for p in event.pairs] == list(
        zip(a_sorted, b_sorted, expected, strict=True)
    )
    first = next((w for w in expected if w != "tie"), None)
    assert event.upper_hand == {"a": a, "b": b, None: None}[first]
    assert event.raw == {a: expected.count("a"), b: expected.count("b")}
    for who in (a, b):
        assert 0 <= event.kept[who] <= event.raw[who], event
        if who == event.upper_hand:
            assert event.kept[who] == event.raw[who], event
        else:
            assert event.kept[who] == (event.raw[who] + 1) // 2, event
    if event.upper_hand is None:
        assert event.raw == {a: 0, b: 0}


@contextmanager
def campaign(options: dict[str, str], seed: int) -> Iterator[Table]:
    """A fresh SQLite file per example (tmp_path is shared by every example of a test)."""
    with tempfile.TemporaryDirectory(dir=SCRATCH) as directory:
        store = open_store(str(Path(directory) / "p.db"), create=True)
        try:
            create_campaign(store, "p", ruleset="beer-run", options=options)
            dice = random.Random(seed ^ 0x5EED)
            yield Table(store, "p", shuffle=lambda faces: dice.sample(faces, len(faces)))
        finally:
            store.close()


options_strategy = st.fixed_dictionaries(
    {
        "dice": st.sampled_from(["recorded", "managed"]),
        "pips": st.sampled_from(["faces", "steps"]),
        "situation_die_cost": st.sampled_from(["free", "free", "extra"]),
        "help_failures": st.sampled_from(["kept", "raw"]),
        "penalty_to": st.sampled_from(["helper", "beneficiary"]),
        "damage": st.sampled_from(["persists", "conflict"]),
    }
)


@settings(max_examples=25, deadline=None)
@given(options=options_strategy, seed=st.integers(0, 2**32 - 1))
def test_random_play_folds_the_same_and_keeps_invariants(
    options: dict[str, str], seed: int
) -> None:
    with campaign(options, seed) as table:
        run = Run(table, random.Random(seed), options)
        run.play()
        first = snapshot(table.folded())
        again = snapshot(campaign_state(table.store, "p"))
        from_log = snapshot(fold(table.store.read("p")))
        assert first == again == from_log
        check_states(run)
        check_events(run)
