"""Beer Run's characters on the web page, and the fields that would otherwise ask for codes.

A character is created by the GM (for anyone, an NPC with `gm`, static opposition too) or by
a player for itself while it has none. Its dice go one per line as the CLI takes them
(`Health: Body: d6`: the ability, its category, its die), filled in with one die per
category of the campaign and its health ability, to edit. The pips of an allocation are one
number per ability of the target (`pips.wits`), not `Wits=4` typed."""

from __future__ import annotations

from tablelog.projections.page import Action, Field
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Character

FIRST_DIE = "d6"  # what the character form offers first for every ability


def starting_dice(state: BeerRunState) -> str:
    """One ability per category named after it, and the health ability: the lines to edit."""
    categories = list(state.categories.values())
    lines = [f"{name}: {name}: {FIRST_DIE}" for name in categories]
    if state.health not in state.categories and categories:
        lines.append(f"{state.options.health}: {categories[0]}: {FIRST_DIE}")
    return "\n".join(lines)


def create_character(state: BeerRunState, player: str | None) -> Action:
    """A character and its dice: the GM's for anyone (with `static`), or a player's own."""
    categories = ", ".join(state.categories.values())
    fields = [] if player else [gm_player(state)]
    fields += [
        Field(name="character", label="character's name"),
        Field(
            name="abilities",
            label=f"ability dice: the ability, its category ({categories}) and its die",
            kind="lines",
            columns=["name", "category", "size"],
            default=starting_dice(state),
        ),
        Field(
            name="intensity",
            label="starting Intensity",
            kind="number",
            default=state.options.starting_intensity,
            required=False,
        ),
    ]
    if player is None:
        fields.append(
            Field(name="static", label="static opposition (a cliff, a locked door)", kind="flag")
        )
    return Action(
        command=c.CreateCharacter,
        title="Create your character" if player else "Create a character",
        fields=fields,
        fixed={"player": player} if player else {},
        gm=player is None,
    )


def player_setup(state: BeerRunState, player: str) -> list[Action]:
    """A player's own character, while it has none."""
    if any(ch.player == player for ch in state.characters.values()):
        return []
    return [create_character(state, player)]


def pips_fields(target: Character) -> list[Field]:
    """One number per ability of `target` still above 0 (empty: no pips on it); a map typed
    as `ability=pips` when an ability's name holds a dot (a field's name splits at dots)."""
    dice = [a for a in target.abilities.values() if a.size > 0]
    if any("." in a.name for a in dice):
        shown = ", ".join(f"{a.display} d{a.size}" for a in dice)
        return [
            Field(
                name="pips",
                label=f"pips per ability (ability=pips, …): {shown}",
                kind="map",
                choices=[a.name for a in dice],
            )
        ]
    return [
        Field(
            name=f"pips.{a.name}",
            label=f"pips off {target.display}'s {a.display} (d{a.size})",
            kind="number",
            required=False,
        )
        for a in dice
    ]


def gm_player(state: BeerRunState) -> Field:
    """The GM's player field: the players who joined suggested, and gm."""
    players = sorted(p for p in state.players if p not in (GM, state.gm))
    return Field(name="player", label="player (gm for an NPC)", choices=[*players, GM])
