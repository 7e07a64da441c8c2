"""`tablelog beer-run ...`: the Beer Run table, one command per action (rules/beer-run.md)."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from tablelog.cli.options import CampaignOption, JsonOption
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.play import open_conflict, run
from tablelog.errors import InvalidInput
from tablelog.rulesets.beer_run.cli import sealed as beer_run_sealed
from tablelog.rulesets.beer_run.rules import commands as c

app = typer.Typer(
    no_args_is_help=True,
    help="The Beer Run table: ability dice, Intensity, goals, pools, the upper hand, pips.\n\n"
    "Example: `tablelog beer-run open --side heroes=alice --side thugs=bob`, then "
    '`tablelog beer-run goal c1 alice "Bob backs down"`',
)

BEER_RUN = "beer-run"
Character = Annotated[str, typer.Argument(help="A character.")]


def _ability_spec(text: str) -> c.AbilitySpec:
    parts = [p.strip() for p in text.split(":")]
    if len(parts) != 3 or not all(parts):
        raise InvalidInput(
            f"--ability {text!r} is not NAME:CATEGORY:dN (e.g. Health:Body:d6)",
            code="bad-ability",
        )
    return c.AbilitySpec(name=parts[0], category=parts[1], size=parts[2])


def _sides(texts: list[str]) -> dict[str, list[str]]:
    sides: dict[str, list[str]] = {}
    for text in texts:
        name, sep, members = text.partition("=")
        names = [m.strip() for m in members.split(",") if m.strip()]
        if not sep or not name.strip() or not names:
            raise InvalidInput(
                f"--side {text!r} is not NAME=CHARACTER[,CHARACTER...] (e.g. heroes=alice,cara)",
                code="bad-side",
            )
        if name.strip() in sides:
            raise InvalidInput(f"side {name.strip()} is given twice", code="side-twice")
        sides[name.strip()] = names
    return sides


def _pips(texts: list[str]) -> dict[str, int]:
    pips: dict[str, int] = {}
    for text in texts:
        name, sep, count = text.partition("=")
        if not sep or not name.strip() or not count.strip().isdecimal():
            raise InvalidInput(f"{text!r} is not ABILITY=PIPS (e.g. Health=2)", code="bad-pips")
        if name.strip() in pips:
            raise InvalidInput(f"ability {name.strip()} is given twice", code="ability-twice")
        pips[name.strip()] = int(count)
    return pips


def _numbers(text: str | None, what: str) -> list[int] | None:
    if text is None:
        return None
    try:
        return [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise InvalidInput(
            f"{what} {text!r} is not a list of faces (e.g. 8,3,1,2)", code="bad-values"
        ) from None


@app.command("character")
def character(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player (created if new), or gm for an NPC.")],
    name: Annotated[str, typer.Argument(help="The character's name.")],
    ability: Annotated[
        list[str],
        typer.Option("--ability", "-a", help="NAME:CATEGORY:dN, e.g. Health:Body:d6; repeatable."),
    ],
    intensity: Annotated[
        int | None, typer.Option("--intensity", help="Starting Intensity (default: option).")
    ] = None,
    static: Annotated[
        bool,
        typer.Option(
            "--static", help="Static opposition (PLAYER gm): free pools of any of its dice."
        ),
    ] = False,
    campaign: CampaignOption = None,
) -> None:
    """Create a character and its ability dice (the GM's NPCs too, with PLAYER gm; a cliff or
    a locked door with --static).

    Example: `tablelog beer-run character ann Alice -a Body:Body:d8 -a Mind:Mind:d6
    -a Kit:Kit:d4 -a Health:Body:d6 --intensity 10`
    """
    command = c.CreateCharacter(
        player=player,
        character=name,
        abilities=[_ability_spec(a) for a in ability],
        intensity=intensity,
        static=static,
    )
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("ability")
def ability(
    ctx: typer.Context,
    character_name: Character,
    name: Annotated[str, typer.Argument(help="The ability.")],
    size: Annotated[str, typer.Argument(help="Its new die, e.g. d8 (d0: zero).")],
    category: Annotated[
        str | None, typer.Option("--category", help="Its category, for a new ability.")
    ] = None,
    heal: Annotated[bool, typer.Option("--heal", help="Log it as a heal.")] = False,
    campaign: CampaignOption = None,
) -> None:
    """GM: set an ability die outside a round's effects (a heal, a new ability, a GM event).

    Example: `tablelog beer-run ability alice Health d6 --heal`
    """
    command = c.SetAbility(
        character=character_name,
        ability=name,
        size=size,
        category=category,
        cause="heal" if heal else "gm",
    )
    run(ctx, campaign, command, ruleset=BEER_RUN)


# A negative change (`-2`) is a value, not an option: unknown options are left to the
# arguments, where anything but a whole number is refused as a usage error.
@app.command("intensity", context_settings={"ignore_unknown_options": True})
def intensity(
    ctx: typer.Context,
    character_name: Character,
    delta: Annotated[int, typer.Argument(help="The change, e.g. 3 or -2.")],
    reason: Annotated[str, typer.Option("--reason", help="Why, for the log.")] = "",
    campaign: CampaignOption = None,
) -> None:
    """GM: adjust a character's Intensity (never below 0).

    Example: `tablelog beer-run intensity alice 5 --reason "a night's sleep"`, or
    `tablelog beer-run intensity alice -2`
    """
    command = c.AdjustIntensity(character=character_name, delta=delta, reason=reason)
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("outcome")
def outcome(
    ctx: typer.Context,
    character_name: Character,
    name: Annotated[str, typer.Argument(help="The ability gained (or grown).")],
    size: Annotated[str, typer.Argument(help="Its die, e.g. d6.")],
    category: Annotated[
        str | None, typer.Option("--category", help="Its category, for a new ability.")
    ] = None,
    conflict: Annotated[
        str | None, typer.Option("--conflict", help="The conflict that earned it.")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """GM: a contest's permanent result, an outcome die (gear, a ritual ability).

    Example: `tablelog beer-run outcome alice "Stolen keys" d6 --category Kit --conflict c1`
    """
    command = c.AwardOutcomeDie(
        character=character_name, ability=name, size=size, category=category, conflict=conflict
    )
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("open")
def open_(
    ctx: typer.Context,
    side: Annotated[
        list[str],
        typer.Option("--side", "-s", help="NAME=CHARACTER[,CHARACTER...]; at least two."),
    ],
    conflict_id: Annotated[str | None, typer.Option("--id", help="Default: c1, c2, ...")] = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Open a conflict between sides whose goals cannot both happen; prints its id.

    Example: `tablelog beer-run open --side heroes=alice,cara --side thugs=bob`
    """
    command = c.OpenConflict(sides=_sides(side), conflict=conflict_id)
    open_conflict(ctx, campaign, command, BEER_RUN, json)


@app.command("goal")
def goal(
    ctx: typer.Context,
    conflict: Conflict,
    actor: Character,
    text: Annotated[str, typer.Argument(help="What the character wants this round.")],
    against: Annotated[
        str | None,
        typer.Option("--against", help="The opponent compared with (default: the only one)."),
    ] = None,
    ability_name: Annotated[
        str | None,
        typer.Option(
            "--ability",
            help="The opponent's ability a cede zeroes (any of its dice at 0 wins the goal).",
        ),
    ] = None,
    ally: Annotated[
        str | None, typer.Option("--ally", help="A helping goal: the ally gaining a die.")
    ] = None,
    situational: Annotated[
        bool, typer.Option("--situational", help="A situational goal: a die for later rounds.")
    ] = False,
    die: Annotated[
        str | None, typer.Option("--die", help="Helping or situational: the die sought (d8).")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """State a character's goal for the round (after a finished round, it starts the next).
    It is won when any die of its target goes to 0 by the pips of anyone on its side.

    Example: `tablelog beer-run goal c1 alice "Bob backs down" --against bob --ability
    Resolve`, or `tablelog beer-run goal c1 cara "Distract Bob" --ally alice --die d8`
    """
    if ally is not None and situational:
        raise InvalidInput(
            "a goal helps an ally (--ally) or is --situational, not both", code="goal-kind"
        )
    kind: Literal["standard", "helping", "situational"] = (
        "helping" if ally is not None else "situational" if situational else "standard"
    )
    command = c.DeclareGoal(
        conflict=conflict,
        actor=actor,
        text=text,
        kind=kind,
        against=against,
        ability=ability_name,
        ally=ally,
        die=die,
    )
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("difficulty")
def difficulty(
    ctx: typer.Context,
    conflict: Conflict,
    against: Annotated[str, typer.Argument(help="The helping or situational actor.")],
    dice: Annotated[
        str | None, typer.Option("--dice", help="The pool, e.g. d2,d2,d4 (default: option).")
    ] = None,
    replace: Annotated[
        int | None, typer.Option("--replace", help="Dice replaced by the target die (max 3).")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """GM: the difficulty pool a helping or situational goal rolls against.

    Example: `tablelog beer-run difficulty c1 cara --replace 3` (d2 x4, three become the
    target die)
    """
    sizes = [d.strip() for d in dice.split(",") if d.strip()] if dice is not None else None
    command = c.SetDifficulty(conflict=conflict, against=against, dice=sizes, replace=replace)
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("pool")
def pool(
    ctx: typer.Context,
    conflict: Conflict,
    actor: Character,
    base: Annotated[list[str], typer.Argument(help="One ability from each category.")],
    extra: Annotated[
        list[str] | None,
        typer.Option("--extra", "-x", help="An extra ability die (1, 2, 3 ... Intensity)."),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Buy a pool: 1 Intensity for the base pool, extras 1+2+3... (hidden until rolled).

    Example: `tablelog beer-run pool c1 alice Body Mind Kit --extra Brawl`
    """
    command = c.AssemblePool(conflict=conflict, actor=actor, base=base, extras=extra or [])
    run(ctx, campaign, beer_run_sealed.sealed_pool(ctx, campaign, command), ruleset=BEER_RUN)


@app.command("roll")
def roll(
    ctx: typer.Context,
    conflict: Conflict,
    actor: Annotated[
        str | None, typer.Argument(help="Whose pool (default: every pool ready).")
    ] = None,
    values: Annotated[
        list[int] | None,
        typer.Argument(help="Recorded dice: the faces, in the pool's dice order."),
    ] = None,
    difficulty_faces: Annotated[
        str | None,
        typer.Option("--difficulty", help="Recorded dice: the difficulty pool's faces (GM)."),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Roll a pool (tablelog rolls managed dice), or record the faces rolled at the table.

    Example: `tablelog beer-run roll c1 alice`, `tablelog beer-run roll c1` (every pool
    ready) or, with option dice=recorded, `tablelog beer-run roll c1 alice 7 5 3 2`
    """
    command = c.Roll(
        conflict=conflict,
        actor=actor,
        values=values or None,
        difficulty=_numbers(difficulty_faces, "--difficulty"),
    )
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("allocate")
def allocate(
    ctx: typer.Context,
    conflict: Conflict,
    by: Annotated[str, typer.Argument(help="The character spending its kept successes.")],
    against: Annotated[str, typer.Argument(help="The opponent of that comparison.")],
    pips: Annotated[list[str], typer.Argument(help="ABILITY=PIPS, e.g. Health=2.")],
    campaign: CampaignOption = None,
) -> None:
    """Spend every kept success as pips off the opponent's dice (the upper hand first): more
    pips than a die has left put it to 0, the excess is lost. A die put to 0 wins every goal
    of the allocating side aimed at its owner.

    Example: `tablelog beer-run allocate c1 bob alice Health=2`
    """
    command = c.Allocate(conflict=conflict, by=by, against=against, pips=_pips(pips))
    run(ctx, campaign, command, ruleset=BEER_RUN)


@app.command("cede")
def cede(
    ctx: typer.Context, conflict: Conflict, actor: Character, campaign: CampaignOption = None
) -> None:
    """Cede after a round: the opposition gets its goal (a targeted ability goes to 0).

    Example: `tablelog beer-run cede c1 bob`
    """
    run(ctx, campaign, c.Cede(conflict=conflict, actor=actor), ruleset=BEER_RUN)


@app.command("end")
def end(
    ctx: typer.Context,
    conflict: Conflict,
    result: Annotated[str, typer.Option("--result", help="How it ended, for the log.")] = "",
    campaign: CampaignOption = None,
) -> None:
    """GM: end a conflict between rounds.

    Example: `tablelog beer-run end c1 --result "Bob flees into the night"`
    """
    run(ctx, campaign, c.EndConflict(conflict=conflict, result=result), ruleset=BEER_RUN)


beer_run_sealed.register(app)
