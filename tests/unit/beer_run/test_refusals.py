"""Refusals as a table: given these commands, this command is refused with this code, its
message carries these words, and the log (and its head seq) is unchanged.

The first rows are the example errors of rules/beer-run.md, word for word; characters are
created with lower-case names so the messages read exactly as the rules write them.
"""

from __future__ import annotations

import pytest

from tablelog.commands.campaigns import plan_campaign
from tablelog.errors import AlreadyExists, InvalidInput, NotFound, RuleViolation, TablelogError
from tablelog.rules.common import Command
from tablelog.rulesets.beer_run.rules import commands as c
from tests.unit.beer_run.table import Tables, allocate, character, goal, pool, roll

RECORDED = {"dice": "recorded"}

ALICE = character(
    "alice",
    "Body:Body:d8",
    "Mind:Mind:d6",
    "Wits:Mind:d4",
    "Kit:Kit:d4",
    "Brawl:Body:d10",
    "Talk:Mind:d6",
    "Rope:Kit:d6",
    "Health:Body:d6",
)
BOB = character(
    "bob", "Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d8", "Health:Body:d2", player="gm"
)
CAROL = character(
    "carol", "Body:Body:d10", "Mind:Mind:d10", "Kit:Kit:d10", "Health:Body:d6", player="gm"
)
ALICE_POOL = pool("alice", "Body", "Mind", "Kit")
BOB_POOL = pool("bob", "Body", "Resolve", "Kit")
CAROL_POOL = pool("carol", "Body", "Mind", "Kit")


def duel(a: Command, b: Command, a_name: str, b_name: str) -> list[Command]:
    return [
        a,
        b,
        c.OpenConflict(conflict="c1", sides={a_name: [a_name], b_name: [b_name]}),
        goal(a_name, b_name),
        goal(b_name, a_name),
    ]


# alice against bob, goals declared / pools bought / alice rolled.
DUEL = duel(ALICE, BOB, "alice", "bob")
POOLS = [*DUEL, ALICE_POOL, BOB_POOL]
ALICE_ROLLED = [*POOLS, roll("alice", 1, 1, 1)]
# alice (4 dice) [7,5,3,2] against bob [8,1,1]+pad: bob has the upper hand and keeps 1, alice
# raw 3 keeps 2. Bob has allocated his pip: alice is next.
ALICE_TO_ALLOCATE = [
    *DUEL,
    pool("alice", "Body", "Mind", "Kit", extras=["Brawl"]),
    BOB_POOL,
    roll("alice", 7, 5, 3, 2),
    roll("bob", 8, 1, 1),
    allocate("bob", "alice", Health=1),
]
# carol [8,1,1] has the upper hand over alice [7,5,3]; alice keeps 1 of 2.
CAROL_FIRST = [
    *duel(ALICE, CAROL, "alice", "carol"),
    ALICE_POOL,
    CAROL_POOL,
    roll("alice", 7, 5, 3),
    roll("carol", 8, 1, 1),
]
# alice and carol both against bob; alice zeroes bob's Health (d2): he dies mid-effects, and
# carol still has 3 pips to spend on him.
BOB_DIES_MID_EFFECTS = [
    ALICE,
    BOB,
    CAROL,
    c.OpenConflict(conflict="c1", sides={"crew": ["alice", "carol"], "bob": ["bob"]}),
    goal("alice", "bob"),
    goal("carol", "bob"),
    goal("bob", "alice"),
    ALICE_POOL,
    CAROL_POOL,
    BOB_POOL,
    roll("alice", 8, 6, 4),
    roll("carol", 10, 10, 10),
    roll("bob", 1, 1, 1),
    allocate("alice", "bob", Health=2, Body=1),
]
# Three sides; alice kills bob, carol ties alice: the round is over, the conflict goes on.
BOB_DEAD = [
    ALICE,
    BOB,
    CAROL,
    c.OpenConflict(conflict="c1", sides={"a": ["alice"], "b": ["bob"], "c": ["carol"]}),
    goal("alice", "bob"),
    goal("bob", "alice"),
    goal("carol", "alice"),
    ALICE_POOL,
    BOB_POOL,
    CAROL_POOL,
    roll("alice", 8, 6, 4),
    roll("bob", 1, 1, 1),
    roll("carol", 8, 6, 4),
    allocate("alice", "bob", Health=2, Body=1),
]
HELPING = [
    ALICE,
    BOB,
    CAROL,
    c.OpenConflict(conflict="c1", sides={"crew": ["alice", "carol"], "bob": ["bob"]}),
    goal("alice", "bob"),
    c.DeclareGoal(
        conflict="c1",
        actor="carol",
        kind="helping",
        text="hold the door",
        ally="alice",
        die="d8",
    ),
    goal("bob", "alice"),
]
ENDED = [
    ALICE,
    BOB,
    c.OpenConflict(conflict="c1", sides={"a": ["alice"], "b": ["bob"]}),
    c.EndConflict(conflict="c1"),
]

ROWS = [
    # --- the rules' example errors ---------------------------------------------------------
    pytest.param(
        RECORDED,
        DUEL,
        pool("alice", "Body", "Mind", "Wits", "Kit"),
        "base-category-twice",
        RuleViolation,
        ["base pool holds one die per category; Mind appears twice"],
        id="base-category-twice",
    ),
    pytest.param(
        RECORDED,
        [*DUEL, c.AdjustIntensity(character="alice", delta=-5)],
        pool("alice", "Body", "Mind", "Kit", extras=["Brawl", "Talk", "Rope"]),
        "intensity",
        RuleViolation,
        ["3 extra dice cost 1+2+3 = 6, round total 7 Intensity; alice has 5"],
        id="intensity-for-extras",
    ),
    pytest.param(
        RECORDED,
        POOLS,
        roll("alice", 9, 1, 1),
        "bad-value",
        RuleViolation,
        ["value 9 is impossible on a d8"],
        id="impossible-face",
    ),
    pytest.param(
        RECORDED,
        ALICE_TO_ALLOCATE,
        allocate("alice", "bob", Resolve=3),
        "pips-total",
        RuleViolation,
        ["allocation totals 3 pips but alice kept 2 successes"],
        id="pips-total",
    ),
    pytest.param(
        RECORDED,
        CAROL_FIRST,
        allocate("alice", "carol", Mind=1),
        "upper-hand-first",
        RuleViolation,
        ["carol (upper hand) allocates first"],
        id="upper-hand-first",
    ),
    pytest.param(
        RECORDED,
        BOB_DIES_MID_EFFECTS,
        allocate("carol", "bob", Health=1, Body=2),
        "already-zero",
        RuleViolation,
        ["bob's Health is already 0"],
        id="already-zero",
    ),
    pytest.param(
        RECORDED,
        HELPING,
        c.SetDifficulty(conflict="c1", against="carol", replace=4),
        "too-many-replaced",
        RuleViolation,
        ["at most 3 difficulty dice may be replaced; 4 requested"],
        id="too-many-replaced",
    ),
    pytest.param(
        RECORDED,
        ENDED,
        c.Cede(conflict="c1", actor="alice"),
        "conflict-over",
        RuleViolation,
        ["cannot cede: conflict c1 is over"],
        id="cede-after-end",
    ),
    # --- wrong phase -----------------------------------------------------------------------
    pytest.param(
        RECORDED,
        DUEL[:-1],
        ALICE_POOL,
        "wrong-phase",
        RuleViolation,
        ["cannot buy a pool now", "round 1", "at goals"],
        id="pool-before-all-goals",
    ),
    pytest.param(
        RECORDED,
        [*DUEL, ALICE_POOL],
        roll("alice", 1, 1, 1),
        "wrong-phase",
        RuleViolation,
        ["cannot roll now", "at pools"],
        id="roll-before-all-pools",
    ),
    pytest.param(
        RECORDED,
        ALICE_ROLLED,
        allocate("alice", "bob", Body=1),
        "wrong-phase",
        RuleViolation,
        ["cannot allocate pips now", "at rolling"],
        id="allocate-before-rolls",
    ),
    pytest.param(
        RECORDED,
        DUEL[:-1],
        goal("alice", "bob"),
        "goal-twice",
        RuleViolation,
        ["alice has declared a goal for round 1 already"],
        id="goal-twice",
    ),
    pytest.param(
        RECORDED,
        DUEL,
        c.Cede(conflict="c1", actor="alice"),
        "wrong-phase",
        RuleViolation,
        ["cannot cede now", "at pools"],
        id="cede-mid-round",
    ),
    pytest.param(
        RECORDED,
        ALICE_ROLLED,
        c.Cede(conflict="c1", actor="bob"),
        "wrong-phase",
        RuleViolation,
        ["cannot cede now", "at rolling"],
        id="cede-while-rolling",
    ),
    pytest.param(
        RECORDED,
        DUEL,
        c.EndConflict(conflict="c1"),
        "wrong-phase",
        RuleViolation,
        ["cannot end the conflict now"],
        id="end-mid-round",
    ),
    pytest.param(
        RECORDED,
        [*DUEL, ALICE_POOL],
        ALICE_POOL,
        "pool-twice",
        RuleViolation,
        ["alice has bought a pool for round 1 already"],
        id="pool-twice",
    ),
    pytest.param(
        RECORDED,
        ALICE_ROLLED,
        roll("alice", 1, 1, 1),
        "cannot-roll",
        RuleViolation,
        ["alice has rolled for round 1 already"],
        id="roll-twice",
    ),
    pytest.param(
        RECORDED,
        HELPING,
        ALICE_POOL,
        "wrong-phase",
        RuleViolation,
        ["at helping"],
        id="pool-before-helping-roll",
    ),
    pytest.param(
        RECORDED,
        DUEL,
        c.SetDifficulty(conflict="c1", against="alice"),
        "no-difficulty-goal",
        RuleViolation,
        ["alice has no helping or situational goal"],
        id="difficulty-against-standard-goal",
    ),
    # --- names -----------------------------------------------------------------------------
    pytest.param(
        RECORDED,
        DUEL[:3],
        goal("zed", "bob"),
        "unknown-character",
        NotFound,
        ["no character 'zed'", "alice, bob"],
        id="unknown-character-goal",
    ),
    pytest.param(
        RECORDED,
        [ALICE],
        c.OpenConflict(conflict="c1", sides={"a": ["alice"], "b": ["zed"]}),
        "unknown-character",
        NotFound,
        ["no character 'zed'"],
        id="unknown-character-conflict",
    ),
    pytest.param(
        RECORDED,
        DUEL,
        pool("alice", "Body", "Flying", "Kit"),
        "unknown-ability",
        RuleViolation,
        ["alice has no ability 'Flying'", "Body d8"],
        id="unknown-ability-pool",
    ),
    pytest.param(
        RECORDED,
        ALICE_TO_ALLOCATE,
        allocate("alice", "bob", Flying=2),
        "unknown-ability",
        RuleViolation,
        ["bob has no ability 'Flying'", "Resolve d6"],
        id="unknown-ability-allocation",
    ),
    pytest.param(
        RECORDED,
        DUEL[:3],
        c.Cede(conflict="c9", actor="alice"),
        "unknown-conflict",
        NotFound,
        ["no conflict 'c9'"],
        id="unknown-conflict",
    ),
    pytest.param(
        RECORDED,
        [ALICE],
        c.SetAbility(character="alice", ability="Flying", size="d6"),
        "unknown-ability",
        InvalidInput,
        ["alice has no ability Flying"],
        id="set-unknown-ability-without-category",
    ),
    # --- dead characters -------------------------------------------------------------------
    pytest.param(
        RECORDED,
        BOB_DEAD,
        goal("bob", "alice"),
        "dead",
        RuleViolation,
        ["bob is dead"],
        id="dead-declares-goal",
    ),
    pytest.param(
        RECORDED,
        BOB_DEAD,
        c.AwardOutcomeDie(character="bob", ability="Body", size="d12"),
        "dead",
        RuleViolation,
        ["bob is dead"],
        id="dead-gets-outcome-die",
    ),
    pytest.param(
        RECORDED,
        [*BOB_DEAD, goal("alice", "carol"), goal("carol", "alice")],
        c.Cede(conflict="c1", actor="bob"),
        "wrong-phase",
        RuleViolation,
        ["cannot cede now"],
        id="dead-cedes-mid-round",
    ),
    # --- Intensity -------------------------------------------------------------------------
    pytest.param(
        RECORDED,
        [ALICE],
        c.AdjustIntensity(character="alice", delta=-11),
        "intensity-below-zero",
        RuleViolation,
        ["Intensity is never below 0; alice has 10, -11 requested"],
        id="intensity-below-zero",
    ),
    pytest.param(
        RECORDED,
        [],
        character("dora", "Body:Body:d6", intensity=-1),
        "intensity-below-zero",
        RuleViolation,
        ["Intensity is never below 0; -1 given"],
        id="created-below-zero",
    ),
    pytest.param(
        RECORDED,
        [*DUEL, c.AdjustIntensity(character="alice", delta=-10)],
        ALICE_POOL,
        "intensity",
        RuleViolation,
        ["0 extra dice cost 0, round total 1 Intensity; alice has 0"],
        id="base-pool-without-intensity",
    ),
    # --- pools, dice, pips -----------------------------------------------------------------
    pytest.param(
        RECORDED,
        DUEL,
        pool("alice", "Body", "Mind"),
        "base-category-missing",
        RuleViolation,
        ["alice has no Kit die in it"],
        id="base-category-missing",
    ),
    pytest.param(
        RECORDED,
        DUEL,
        pool("alice", "Body", "Mind", "Kit", extras=["Mind"]),
        "die-twice",
        RuleViolation,
        ["Mind is already in alice's pool"],
        id="extra-repeats-base",
    ),
    pytest.param(
        RECORDED,
        [*DUEL, c.SetAbility(character="alice", ability="Kit", size="d0")],
        ALICE_POOL,
        "zero-die",
        RuleViolation,
        ["alice's Kit is at 0 and cannot be rolled"],
        id="zero-die-in-pool",
    ),
    pytest.param(
        RECORDED,
        POOLS,
        roll("alice", 1, 1),
        "values-count",
        InvalidInput,
        ["alice's pool has 3 dice; 2 values given"],
        id="values-count",
    ),
    pytest.param(
        RECORDED,
        POOLS,
        c.Roll(conflict="c1", actor="alice"),
        "no-values",
        InvalidInput,
        ["give the faces rolled"],
        id="recorded-without-values",
    ),
    pytest.param(
        {},
        POOLS,
        roll("alice", 1, 1, 1),
        "values-given",
        InvalidInput,
        ["dice=managed"],
        id="managed-with-values",
    ),
    pytest.param(
        RECORDED,
        ALICE_TO_ALLOCATE,
        allocate("alice", "bob", Health=1),
        "pips-total",
        RuleViolation,
        ["allocation totals 1 pips but alice kept 2 successes"],
        id="pips-short-of-kept",
    ),
    pytest.param(
        RECORDED,
        ALICE_TO_ALLOCATE,
        allocate("alice", "bob", Resolve=0, Kit=2),
        "bad-pips",
        InvalidInput,
        ["pips are whole numbers from 1; 0 given"],
        id="zero-pips",
    ),
    pytest.param(
        RECORDED,
        [*CAROL_FIRST[:-1], roll("carol", 8, 8, 8)],
        allocate("alice", "carol", Mind=1),
        "nothing-to-allocate",
        RuleViolation,
        ["alice has no pips to allocate against carol"],
        id="loser-without-successes",
    ),
    # --- goals and conflicts ---------------------------------------------------------------
    pytest.param(
        RECORDED,
        DUEL[:3],
        goal("alice", "bob", text="x" * 100_000),
        "text-too-long",
        InvalidInput,
        ["a goal may be at most 4000 characters; got 100000"],
        id="goal-too-long",
    ),
    pytest.param(
        RECORDED,
        DUEL[:3],
        goal("alice", "bob", text="run\x1b[2J"),
        "bad-text",
        InvalidInput,
        ["a goal contains control characters"],
        id="goal-control-characters",
    ),
    pytest.param(
        RECORDED,
        DUEL,
        c.AdjustIntensity(character="alice", delta=-2, reason="y" * 4001),
        "text-too-long",
        InvalidInput,
        ["the reason may be at most 4000 characters; got 4001"],
        id="reason-too-long",
    ),
    pytest.param(
        RECORDED,
        [
            ALICE,
            BOB,
            CAROL,
            c.OpenConflict(conflict="c1", sides={"a": ["alice"], "b": ["bob"], "c": ["carol"]}),
        ],
        goal("alice"),
        "which-target",
        InvalidInput,
        ["alice has 2 opponents (bob, carol)"],
        id="goal-without-target",
    ),
    pytest.param(
        RECORDED,
        HELPING[:4],
        c.DeclareGoal(conflict="c1", actor="alice", kind="helping", text="x", ally="bob", die="d8"),
        "not-an-ally",
        RuleViolation,
        ["bob is not an ally of alice"],
        id="help-an-opponent",
    ),
    pytest.param(
        RECORDED,
        DUEL[:3],
        goal("alice", "bob", ability="Wings"),
        "no-such-die",
        RuleViolation,
        ["bob has no Wings die left to reduce"],
        id="goal-on-missing-ability",
    ),
    pytest.param(
        RECORDED,
        [ALICE],
        c.OpenConflict(conflict="c1", sides={"a": ["alice"]}),
        "too-few-sides",
        RuleViolation,
        ["at least 2 sides", "1 given"],
        id="one-side",
    ),
    pytest.param(
        RECORDED,
        DUEL[:3],
        c.OpenConflict(conflict="c2", sides={"a": ["alice"], "c": ["bob"]}),
        "busy",
        RuleViolation,
        ["alice is already in an open conflict"],
        id="busy",
    ),
    pytest.param(
        RECORDED,
        DUEL[:3],
        c.OpenConflict(conflict="c1", sides={"x": ["alice"], "y": ["bob"]}),
        "conflict-exists",
        AlreadyExists,
        ["conflict c1 already exists"],
        id="conflict-exists",
    ),
    pytest.param(
        RECORDED,
        [ALICE],
        character("Alice", "Body:Body:d6"),
        "character-exists",
        AlreadyExists,
        ["character Alice already exists"],
        id="character-exists",
    ),
    pytest.param(
        RECORDED,
        [],
        character("dora", "Body:Wings:d6"),
        "unknown-category",
        InvalidInput,
        ["category 'Wings'", "Body, Mind, Kit"],
        id="unknown-category",
    ),
    pytest.param(
        RECORDED,
        [],
        character("dora", "Body:Body:d0"),
        "bad-die",
        InvalidInput,
        ["'d0' is not a die"],
        id="zero-sized-ability",
    ),
]


@pytest.mark.parametrize(("options", "setup", "command", "code", "kind", "words"), ROWS)
def test_refused(
    new: Tables,
    options: dict[str, str],
    setup: list[Command],
    command: Command,
    code: str,
    kind: type[TablelogError],
    words: list[str],
) -> None:
    table = new(options).given(setup)
    error = table.refuse(command, code, kind)
    for word in words:
        assert word in error.message, f"{word!r} not in {error.message!r}"


def test_a_goal_of_4000_characters_is_taken_whole(new: Tables) -> None:
    table = new(RECORDED).given(DUEL[:3])
    text = "y" * 4000
    assert table.when(goal("alice", "bob", text=f"  {text} "))[-1].text == text


def test_the_end_of_a_conflict_takes_a_result_of_4000_characters_at_most(new: Tables) -> None:
    table = new(RECORDED).given(DUEL[:3])
    error = table.refuse(c.EndConflict(conflict="c1", result="z" * 4001), "text-too-long")
    assert error.message == "the result may be at most 4000 characters; got 4001"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"categories": "A,A"},
            "option categories names A twice (A and A); give each category once",
        ),
        (
            {"categories": "Body, Mind ,body"},
            "option categories names body twice (Body and body); give each category once",
        ),
        (
            {"categories": "Body Parts,Mind"},
            "option categories of beer-run: category 'Body Parts' is not allowed",
        ),
        ({"health": "Hit Points"}, "option health of beer-run: the health ability 'Hit Points'"),
    ],
)
def test_options_a_campaign_could_not_play_with_are_refused(
    options: dict[str, str], message: str
) -> None:
    # plan_campaign checks what `campaign create` (CLI and service) would write.
    with pytest.raises(InvalidInput) as caught:
        plan_campaign("t", ruleset="beer-run", options=options)
    assert caught.value.code == "invalid-option"
    assert caught.value.message.startswith(message), caught.value.message
