"""The GM's controls of an Ace of Cards table on the web page: the session and scenes,
characters, their decks and skill levels (`page_setup`), HP and MP, a new conflict; in each
open conflict the enemies' actions, Checks and its end (core code still probes those that
carry a probe). The Check form is a player's too, for its own characters."""

from __future__ import annotations

from tablelog.projections.page import Action, Field, clock_actions
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.state import AceState, Character, Conflict
from tablelog.rulesets.ace_of_cards.views.page_setup import (
    build_decks,
    character_field,
    create_character,
    set_skill,
)

_TEXT = "…"  # what a probe says where the person will write their own words


def call_check(conflict: Conflict, characters: list[Character], *, gm: bool) -> Action:
    key = conflict.key
    return Action(
        command=c.CallCheck,
        title="Call a Check",
        fields=[
            character_field(characters),
            Field(
                name="kind",
                label="kind",
                kind="choice",
                choices=["accuracy", "magic", "clock", "other"],
            ),
            Field(name="dice", label="two dice (e.g. 8 10)", kind="numbers"),
            Field(name="dl", label="DL (or Defense)", kind="number"),
            Field(name="modifier", label="modifier", kind="number", required=False),
            Field(name="offensive", label="offensive (a Magic Check)", kind="flag"),
            Field(name="damage", label="fixed damage (HR +)", kind="number", required=False),
            Field(
                name="target",
                label="target",
                kind="choice",
                choices=list(conflict.enemies),
                required=False,
            ),
            Field(name="double", label="Double or Nothing", kind="flag"),
        ],
        fixed={"conflict": key},
        probe=c.CallCheck(
            conflict=key, character=characters[0].key, kind="other", dice=[6, 6], dl=10
        ),
        conflict=key,
        gm=gm,
    )


def gm_conflict(state: AceState, conflict: Conflict) -> list[Action]:
    """The GM's controls of an open conflict: the enemies' actions, Checks, its end."""
    key = conflict.key
    found = []
    if conflict.enemies:
        found.append(
            Action(
                command=c.TakeAction,
                title="An enemy acts",
                fields=[
                    Field(
                        name="actor", label="enemy", kind="choice", choices=list(conflict.enemies)
                    ),
                    Field(name="text", label="what the action does"),
                    Field(name="visible", label="seen by the party", kind="flag", default=True),
                ],
                fixed={"conflict": key},
                probe=c.TakeAction(conflict=key, actor=conflict.enemies[0], text=_TEXT),
                conflict=key,
                gm=True,
            )
        )
    if conflict.party:
        found.append(call_check(conflict, [state.characters[k] for k in conflict.party], gm=True))
    found.append(
        Action(
            command=c.EndConflict,
            title="End the conflict (every card put away)",
            fixed={"conflict": key},
            confirm="End the conflict? Every card is put away; this cannot be undone.",
            probe=c.EndConflict(conflict=key),
            conflict=key,
            gm=True,
        )
    )
    return found


def gm_table(state: AceState) -> list[Action]:
    """The GM's controls outside a conflict: the session and scenes, characters, their decks
    and skills, HP and MP, a new conflict."""
    found = [
        *clock_actions(state.table.session_open, state.table.scene_open),
        create_character(None),
    ]
    names = sorted(state.characters)
    if not names:
        return found
    everyone = [state.characters[key] for key in names]
    found += build_decks([who for who in everyone if who.conflict is None], gm=True)
    found += set_skill(everyone, gm=True)
    who = character_field(everyone)
    for command, what in ((c.AdjustHP, "HP"), (c.AdjustMP, "MP")):
        found.append(
            Action(
                command=command,
                title=f"Adjust a character's {what}",
                fields=[
                    who,
                    Field(name="delta", label="by (+/-)", kind="number"),
                    Field(name="reason", label="reason", required=False),
                ],
                gm=True,
            )
        )
    free = [key for key in names if state.characters[key].conflict is None]
    if free:
        recorded = state.options.deck_mode == "recorded"
        found.append(
            Action(
                command=c.OpenConflict,
                title="Open a conflict",
                fields=[
                    Field(name="party", label="party", kind="list", choices=free),
                    Field(name="enemies", label="enemies", kind="list"),
                    Field(name="conflict", label="id", required=False),
                    *(
                        [
                            Field(
                                name="hands",
                                label="opening hands (kit: 3C 4C 5C 6C JK1; …)",
                                kind="groups",
                            )
                        ]
                        if recorded
                        else []
                    ),
                ],
                # A recorded deck's opening hands are the table's: no probe can guess them.
                probe=None if recorded else c.OpenConflict(party=free[:1], enemies=[]),
                gm=True,
            )
        )
    return found
