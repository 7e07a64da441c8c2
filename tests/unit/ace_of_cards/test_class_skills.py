"""Issue 26: Double or Nothing and High or Low are Skills of the class, listed beside Magic
Cards, Mulligan and Trap Card (the seed). A character uses one once it has taken it (SL 1),
under the option class_skills=taken (the default a new campaign records); under `all`, and
in every campaign created before the option (its creation event has none), every Ace may."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from tablelog.commands.audit import account_of
from tablelog.commands.importing import import_jsonl
from tablelog.commands.table import campaign_state
from tablelog.events.codec import encode
from tablelog.events.core import CampaignCreated
from tablelog.rules.common import Command
from tablelog.rulesets.ace_of_cards import events as ev
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.evolve import initial
from tablelog.storage import open_store
from tests.unit.ace_of_cards.table import Table, Tables, ace, only, open_

OLD_LOG = Path(__file__).resolve().parents[2] / "fixtures" / "ace-of-cards-b6d6602.jsonl"
UNTAKEN = {"double_or_nothing": 0, "high_or_low": 0}


def dn_refusal(who: str) -> str:
    return (
        f"Double or Nothing is a Skill of the class that {who} has not taken "
        f"(class_skills=taken): SL 0, 1 needed; take it with `skill {who} double-or-nothing 1`"
    )


def attack(double: bool = False) -> c.CallCheck:
    return c.CallCheck(
        conflict=None, character="kit", kind="accuracy", dice=[8, 10], dl=9, double=double
    )


def roll(check: str, *faces: int) -> c.RollCheck:
    return c.RollCheck(conflict=None, check=check, values=list(faces))


def table_of(new: Tables, options: dict[str, str] | None = None, **skills: int) -> Table:
    table = new({"dice": "recorded", **(options or {})})
    return table.given(ace("kit", magic_cards=1, **{**UNTAKEN, **skills}), open_(["kit"], ["ogre"]))


# --- the option as recorded -----------------------------------------------------------------


def test_a_new_campaign_records_class_skills_taken(new: Tables) -> None:
    table = new()
    created = table.log()[0].event()
    assert isinstance(created, CampaignCreated)
    assert created.options["class_skills"] == "taken"
    assert table.state.options.class_skills == "taken"


@pytest.mark.parametrize(
    ("recorded", "plays_as"),
    [
        ({}, "all"),  # created before issue 26: no such option in its creation event
        ({"class_skills": "taken"}, "taken"),
        ({"class_skills": "all"}, "all"),
    ],
)
def test_a_missing_option_is_all_for_a_campaign_older_than_it(
    recorded: dict[str, str], plays_as: str
) -> None:
    created = CampaignCreated(campaign="old", ruleset="ace-of-cards", gm="gm", options=recorded)
    assert initial(created).options.class_skills == plays_as


def test_the_log_of_b6d6602_plays_as_all(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "old.db"), create=True)
    try:
        import_jsonl(store, OLD_LOG)
        created = store.read("fight")[0].event()
        assert isinstance(created, CampaignCreated)
        assert "class_skills" not in created.options
        state = campaign_state(store, "fight").state
        assert state.options.class_skills == "all"
        assert state.characters["kit"].skills == {"magic_cards": 2}
        assert account_of(store.read("fight")).discrepancies == []
    finally:
        store.close()


# --- using them: a rule table -----------------------------------------------------------------


# (option, skills taken, the commands, the refusal's code or None)
ROWS = {
    "double-at-the-call-untaken": ("taken", {}, [attack(double=True)], "no-skill"),
    "double-declared-untaken": (
        "taken",
        {},
        [attack(), c.DeclareDoubleOrNothing(conflict=None, check="k1")],
        "no-skill",
    ),
    "double-taken": ("taken", {"double_or_nothing": 1}, [attack(double=True)], None),
    "double-under-all": ("all", {}, [attack(double=True)], None),
    "high-or-low-untaken": (
        "taken",
        {},
        [attack(), roll("k1", 7, 7), c.HighOrLowDraw(conflict=None, character="kit")],
        "no-skill",
    ),
    "high-or-low-taken": (
        "taken",
        {"high_or_low": 1},
        [attack(), roll("k1", 7, 7), c.HighOrLowDraw(conflict=None, character="kit")],
        None,
    ),
    "high-or-low-under-all": (
        "all",
        {},
        [attack(), roll("k1", 1, 1), c.HighOrLowDraw(conflict=None, character="kit")],
        None,
    ),
}


@pytest.mark.parametrize(("option", "skills", "commands", "code"), ROWS.values(), ids=ROWS)
def test_a_class_skill_is_used_once_taken(
    new: Tables, option: str, skills: dict[str, int], commands: list[Command], code: str | None
) -> None:
    table = table_of(new, {"class_skills": option}, **skills)
    table.given(*commands[:-1])
    if code is None:
        assert table.when(commands[-1])
    else:
        table.refuse(commands[-1], code)


def test_the_refusal_names_the_skill_to_take(new: Tables) -> None:
    table = table_of(new)
    assert table.refuse(attack(double=True), "no-skill").message == dn_refusal("kit")
    table.given(attack(), roll("k1", 7, 7))
    error = table.refuse(c.HighOrLowDraw(conflict=None, character="kit"), "no-skill")
    assert error.message == (
        "High or Low is a Skill of the class that kit has not taken (class_skills=taken): "
        "SL 0, 1 needed; take it with `skill kit high-or-low 1`"
    )


def test_a_critical_opens_high_or_low_only_for_an_ace_that_took_it(new: Tables) -> None:
    table = table_of(new)
    events = table.given(attack()).when(roll("k1", 7, 7))
    assert only(events, ev.CheckResolved).high_or_low is False
    assert table.who("kit").high_or_low is None
    table.given(c.SetSkillLevel(character="kit", skill="high-or-low", sl=1), attack())
    events = table.when(roll("k2", 7, 7))
    assert only(events, ev.CheckResolved).high_or_low is True
    assert table.who("kit").high_or_low == "k2"


@pytest.mark.parametrize(
    ("skill", "sl", "code", "sentence"),
    [
        ("double-or-nothing", 1, None, None),
        ("high-or-low", 1, None, None),
        (
            "double-or-nothing",
            2,
            "skill-level",
            "Double or Nothing can be taken at most 1 time (SL 0-1); SL 2 given",
        ),
        (
            "luck",
            1,
            "unknown-skill",
            "'luck' is not a skill of the class; the skills are magic-cards, mulligan, "
            "trap-card, double-or-nothing, high-or-low",
        ),
    ],
)
def test_taking_a_class_skill_is_recorded_like_the_others(
    new: Tables, skill: str, sl: int, code: str | None, sentence: str | None
) -> None:
    table = new().given(ace("kit", **UNTAKEN))
    command = c.SetSkillLevel(character="kit", skill=skill, sl=sl)
    if code is None:
        (event,) = table.when(command)
        assert event == ev.SkillLevelSet(character_id="kit", skill=skill.replace("-", "_"), sl=sl)  # type: ignore[arg-type]
    else:
        assert table.refuse(command, code).message == sentence


def test_the_audit_names_a_double_declared_without_the_skill(new: Tables) -> None:
    table = table_of(new, double_or_nothing=1)
    table.given(attack(double=True), roll("k1", 4, 9))
    log = table.log()
    assert account_of(log).discrepancies == []
    # The Skill taken, edited into another: the declaration no longer follows.
    taken = ev.SkillLevelSet(character_id="kit", skill="double_or_nothing", sl=1)
    at = next(i for i, e in enumerate(log) if e.event() == taken)
    other = ev.SkillLevelSet(character_id="kit", skill="mulligan", sl=1)
    log[at] = msgspec.structs.replace(log[at], payload=encode(other))
    found = account_of(log).discrepancies
    assert [(d.type, d.field) for d in found] == [("ac.double_or_nothing_declared", "*")]
    assert "no-skill" in str(found[0].expected)
