"""Characters, the class's deck and skills, and the GM's HP and MP changes."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from tablelog.cli.options import CampaignOption
from tablelog.cli.play import run
from tablelog.rulesets.ace_of_cards.cli.common import (
    ACE,
    Character,
    app,
    listed,
    pairs,
)
from tablelog.rulesets.ace_of_cards.rules import commands as c


@app.command("character")
def character(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player (created if new), or gm for an NPC.")],
    name: Annotated[str, typer.Argument(help="The character's name.")],
    hp: Annotated[int, typer.Option("--hp", help="Maximum Hit Points.")],
    mp: Annotated[int, typer.Option("--mp", help="Maximum Mind Points.")],
    campaign: CampaignOption = None,
) -> None:
    """Create a character with its maximum HP and MP (it starts at both).

    Example: `tablelog ace-of-cards character ann Kit --hp 40 --mp 35`
    """
    command = c.CreateCharacter(player=player, character=name, hp=hp, mp=mp)
    run(ctx, campaign, command, ruleset=ACE)


@app.command("deck")
def deck(
    ctx: typer.Context,
    name: Character,
    suit: Annotated[
        list[str],
        typer.Option(
            "--suit",
            "-s",
            help="SUIT=TYPE, each suit a different one of air, earth, fire, ice; four times.",
        ),
    ],
    benefit: Annotated[
        Literal["hp", "mp"], typer.Option("--benefit", help="The free benefit: +5 max HP or MP.")
    ],
    cards: Annotated[
        str | None,
        typer.Option(
            "--cards",
            help="The 30 cards as assembled, to check them (default: the "
            "standard 30: 1-7 of each suit and JK1, JK2).",
        ),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Take the Ace of Cards class: its free benefit and a 30-card deck, each suit tied to a
    damage type.

    Example: `tablelog ace-of-cards deck Kit --benefit mp -s clubs=fire -s diamonds=earth
    -s hearts=ice -s spades=air`
    """
    command = c.BuildDeck(
        character=name,
        suit_types=pairs(suit, "--suit", "clubs=fire"),
        benefit=benefit,
        cards=listed(cards),
    )
    run(ctx, campaign, command, ruleset=ACE)


@app.command("skill")
def skill(
    ctx: typer.Context,
    name: Character,
    skill_name: Annotated[
        str,
        typer.Argument(help="magic-cards, mulligan, trap-card, double-or-nothing or high-or-low."),
    ],
    sl: Annotated[int, typer.Argument(help="Its Skill Level (0 removes it).")],
    campaign: CampaignOption = None,
) -> None:
    """Set a class skill's level (Magic Cards at most 3; Mulligan and Trap Card per option;
    Double or Nothing and High or Low are taken once: SL 1, needed to use them unless the
    campaign's option class_skills is all).

    Example: `tablelog ace-of-cards skill Kit magic-cards 2`, `tablelog ace-of-cards skill
    Kit double-or-nothing 1`
    """
    command = c.SetSkillLevel(character=name, skill=skill_name, sl=sl)
    run(ctx, campaign, command, ruleset=ACE)


def _adjust(ctx: typer.Context, campaign: str | None, command: c.AdjustHP | c.AdjustMP) -> None:
    run(ctx, campaign, command, ruleset=ACE)


@app.command("hp", context_settings={"ignore_unknown_options": True})
def hp(
    ctx: typer.Context,
    name: Character,
    delta: Annotated[int, typer.Argument(help="The change, e.g. -12 or 5.")],
    reason: Annotated[str, typer.Option("--reason", help="Why, for the log.")] = "",
    campaign: CampaignOption = None,
) -> None:
    """GM: change a character's HP (damage taken, healing), between 0 and its maximum.

    Example: `tablelog ace-of-cards hp Kit -12 --reason "the goblin's claws"`
    """
    _adjust(ctx, campaign, c.AdjustHP(character=name, delta=delta, reason=reason))


@app.command("mp", context_settings={"ignore_unknown_options": True})
def mp(
    ctx: typer.Context,
    name: Character,
    delta: Annotated[int, typer.Argument(help="The change, e.g. -10 or 5.")],
    reason: Annotated[str, typer.Option("--reason", help="Why, for the log.")] = "",
    campaign: CampaignOption = None,
) -> None:
    """GM: change a character's MP (a spell paid, a rest), between 0 and its maximum.

    Example: `tablelog ace-of-cards mp Kit -10 --reason "Fulgur"`
    """
    _adjust(ctx, campaign, c.AdjustMP(character=name, delta=delta, reason=reason))
