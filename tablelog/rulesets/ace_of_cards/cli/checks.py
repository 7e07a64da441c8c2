"""Checks: called, Double or Nothing declared, rolled; High or Low's draw and discard."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from tablelog.cli.options import CampaignOption
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.play import run
from tablelog.errors import InvalidInput
from tablelog.rulesets.ace_of_cards.cli.common import (
    ACE,
    Ace,
    Character,
    app,
    numbers,
)
from tablelog.rulesets.ace_of_cards.rules import commands as c


@app.command("check")
def check(
    ctx: typer.Context,
    conflict: Conflict,
    name: Character,
    dice: Annotated[str, typer.Option("--dice", help="The two attribute dice, e.g. d8,d10.")],
    dl: Annotated[int, typer.Option("--dl", help="The DL, or the target's Defense.")],
    kind: Annotated[
        Literal["accuracy", "magic", "clock", "other"] | None,
        typer.Option("--kind", help="accuracy, magic, clock or other (--free-attack: accuracy)."),
    ] = None,
    modifier: Annotated[int, typer.Option("--modifier", help="Added to the Result.")] = 0,
    offensive: Annotated[
        bool, typer.Option("--offensive", help="A Magic Check for an offensive spell.")
    ] = False,
    damage: Annotated[
        int | None, typer.Option("--damage", help="Fixed damage: a hit deals HR + this.")
    ] = None,
    target: Annotated[str | None, typer.Option("--target", help="The enemy attacked.")] = None,
    double: Annotated[
        bool, typer.Option("--double", help="Declare double or nothing before the roll.")
    ] = False,
    free_attack: Annotated[
        bool,
        typer.Option(
            "--free-attack",
            help="The free attack of the Magic Pair this character just played (an Accuracy "
            "Check; its damage takes the pair's type).",
        ),
    ] = False,
    check_id: Annotated[str | None, typer.Option("--id", help="Default: k1, k2, ...")] = None,
    campaign: CampaignOption = None,
) -> None:
    """Call a Check (rolled later with `roll`, so Double or Nothing may be declared first).

    Example: `tablelog ace-of-cards check c1 Kit --kind accuracy --dice d8,d10 --dl 9
    --damage 5 --target Goblin --double`; after a Magic Pair, its free attack:
    `tablelog ace-of-cards check c1 Kit --free-attack --dice d8,d10 --dl 9 --damage 5`
    """
    if kind is None and not free_attack:
        raise InvalidInput(
            "a Check needs its kind (--kind accuracy, magic, clock or other); none given",
            code="bad-kind",
        )
    command = c.CallCheck(
        conflict=conflict,
        character=name,
        kind=kind or "accuracy",
        dice=numbers(dice, "--dice", "d8,d10") or [],
        dl=dl,
        modifier=modifier,
        offensive=offensive,
        damage=damage,
        target=target,
        double=double,
        check=check_id,
        free_attack=free_attack,
    )
    run(ctx, campaign, command, ruleset=ACE)


@app.command("double")
def double(
    ctx: typer.Context,
    conflict: Conflict,
    check_id: Annotated[str, typer.Argument(help="The Check called, not yet rolled.")],
    campaign: CampaignOption = None,
) -> None:
    """Declare double or nothing on a Check before it is rolled.

    Example: `tablelog ace-of-cards double c1 k1`
    """
    run(ctx, campaign, c.DeclareDoubleOrNothing(conflict=conflict, check=check_id), ruleset=ACE)


@app.command("roll")
def roll(
    ctx: typer.Context,
    conflict: Conflict,
    check_id: Annotated[str, typer.Argument(help="The Check called.")],
    values: Annotated[
        str | None, typer.Option("--values", help="dice=recorded: the two faces, e.g. 7,7.")
    ] = None,
    opportunity: Annotated[
        bool,
        typer.Option("--opportunity", help="A Clock's critical: spend the opportunity on it."),
    ] = False,
    campaign: CampaignOption = None,
) -> None:
    """Roll a Check (or record its faces): Result, critical, fumble, damage or sections.

    Example: `tablelog ace-of-cards roll c1 k1`, or with recorded dice
    `tablelog ace-of-cards roll c1 k1 --values 7,7`
    """
    command = c.RollCheck(
        conflict=conflict,
        check=check_id,
        values=numbers(values, "--values", "7,7"),
        opportunity_on_clock=opportunity,
    )
    run(ctx, campaign, command, ruleset=ACE)


@app.command("high-or-low")
def high_or_low(
    ctx: typer.Context,
    conflict: Conflict,
    name: Ace,
    card: Annotated[
        str | None, typer.Option("--card", help="deck_mode=recorded: the card drawn.")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """High or Low, after your critical success or fumble: draw 1 card (then `discard` 1).

    Example: `tablelog ace-of-cards high-or-low c1 Kit`
    """
    run(ctx, campaign, c.HighOrLowDraw(conflict=conflict, character=name, card=card), ruleset=ACE)


@app.command("discard")
def discard(
    ctx: typer.Context,
    conflict: Conflict,
    name: Ace,
    card: Annotated[str, typer.Argument(help="The card discarded from the hand.")],
    campaign: CampaignOption = None,
) -> None:
    """High or Low's discard: 1 card from the hand, face up, after its draw.

    Example: `tablelog ace-of-cards discard c1 Kit 2H`
    """
    command = c.HighOrLowDiscard(conflict=conflict, character=name, card=card)
    run(ctx, campaign, command, ruleset=ACE)
