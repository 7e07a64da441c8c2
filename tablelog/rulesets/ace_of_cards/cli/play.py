"""A conflict's play: its start and end, actions, Magic Cards, Mulligan, Trap Card and its
free spell, and an Ace's hand."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.output import emit_json, say
from tablelog.cli.play import open_conflict, run
from tablelog.cli.rulesets import read
from tablelog.rulesets.ace_of_cards.cli.common import (
    ACE,
    Ace,
    Drawn,
    app,
    listed,
    pairs,
)
from tablelog.rulesets.ace_of_cards.rules import commands as c


@app.command("open")
def open_(
    ctx: typer.Context,
    party: Annotated[
        list[str], typer.Option("--party", "-p", help="A character on the Aces' side; repeatable.")
    ],
    enemy: Annotated[
        list[str] | None, typer.Option("--enemy", "-e", help="An enemy present; repeatable.")
    ] = None,
    hand: Annotated[
        list[str] | None,
        typer.Option(
            "--hand",
            help="deck_mode=recorded: ACE=CARDS, its 5-card opening hand "
            "(e.g. Kit=3C,4C,5C,6C,JK1).",
        ),
    ] = None,
    conflict_id: Annotated[str | None, typer.Option("--id", help="Default: c1, c2, ...")] = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Start a conflict: each Ace shuffles its 30 cards face down and draws a 5-card hand.
    Prints its id.

    Example: `tablelog ace-of-cards open --party Kit --party Ann --enemy Goblin --enemy Ogre`
    """
    hands = None
    if hand:
        hands = {k: listed(v) or [] for k, v in pairs(hand, "--hand", "Kit=3C,4C").items()}
    command = c.OpenConflict(party=party, enemies=enemy or [], conflict=conflict_id, hands=hands)
    open_conflict(ctx, campaign, command, ACE, json)


@app.command("act")
def act(
    ctx: typer.Context,
    conflict: Conflict,
    actor: Annotated[str, typer.Argument(help="A character of the party or an enemy.")],
    text: Annotated[str, typer.Argument(help="What the action was (it has resolved).")],
    unseen: Annotated[
        bool, typer.Option("--unseen", help="The Aces could not see who acted.")
    ] = False,
    campaign: CampaignOption = None,
) -> None:
    """Record a resolved action: an enemy's (which a Trap Card may answer) or a character's
    (a new turn: its Mulligan may come at the end of it).

    Example: `tablelog ace-of-cards act c1 Goblin "claws at Kit for 8"`
    """
    command = c.TakeAction(conflict=conflict, actor=actor, text=text, visible=not unseen)
    run(ctx, campaign, command, ruleset=ACE)


@app.command("magic")
def magic(
    ctx: typer.Context,
    conflict: Conflict,
    name: Ace,
    mp_spent: Annotated[int, typer.Argument(help="MP spent: 10 to 10 + 5 x SL, steps of 5.")],
    cards: Annotated[list[str], typer.Argument(help="The hand's cards resolved, 1 per 5 MP.")],
    joker: Annotated[
        list[str] | None,
        typer.Option("--joker", "-j", help="JOKER=CARD, what a joker stands for (JK1=5H)."),
    ] = None,
    set_name: Annotated[
        str | None, typer.Option("--set", help="The effect, when the set fits several.")
    ] = None,
    target: Annotated[
        list[str] | None, typer.Option("--target", "-t", help="Double Trouble: an enemy.")
    ] = None,
    damage_type: Annotated[
        str | None,
        typer.Option("--type", help="Double Trouble, Magic Pair: one of the suits' types."),
    ] = None,
    status: Annotated[
        list[str] | None,
        typer.Option("--status", help="Full Status: two of dazed, shaken, slow, weak."),
    ] = None,
    anyway: Annotated[
        bool,
        typer.Option(
            "--anyway",
            help="Play a set that matches no effect: its MP and cards are spent for nothing "
            "(without it, such a set is refused and nothing is spent).",
        ),
    ] = False,
    drawn: Drawn = None,
    campaign: CampaignOption = None,
) -> None:
    """Magic Cards: spend MP to resolve 1 hand card per 5 MP as a set, apply its effect (the
    set must match exactly), discard those cards and draw as many. A set that matches no
    effect is refused (exit 1, "this set matches no effect") unless `--anyway` is given.
    A Magic Pair's free attack follows as a Check: `check c1 Kit --free-attack ...`.

    Example: `tablelog ace-of-cards magic c1 Kit 20 3C 4C 5C 6C --set magic-flush`, or
    `tablelog ace-of-cards magic c1 Kit 15 5D 5S JK --joker JK=5H`
    """
    command = c.UseMagicCards(
        conflict=conflict,
        character=name,
        mp=mp_spent,
        cards=cards,
        jokers=pairs(joker or [], "--joker", "JK1=5H"),
        set=set_name,
        targets=target or [],
        damage_type=damage_type,
        statuses=status or [],
        drawn=listed(drawn),
        anyway=anyway,
    )
    run(ctx, campaign, command, ruleset=ACE)


@app.command("mulligan")
def mulligan(
    ctx: typer.Context,
    conflict: Conflict,
    name: Ace,
    cards: Annotated[list[str], typer.Argument(help="Up to SL cards from the hand.")],
    drawn: Drawn = None,
    campaign: CampaignOption = None,
) -> None:
    """Mulligan, at the end of your turn: discard up to SL cards and draw as many.

    Example: `tablelog ace-of-cards mulligan c1 Kit 7D`
    """
    command = c.Mulligan(conflict=conflict, character=name, cards=cards, drawn=listed(drawn))
    run(ctx, campaign, command, ruleset=ACE)


@app.command("trap")
def trap(
    ctx: typer.Context,
    conflict: Conflict,
    name: Ace,
    suit: Annotated[str, typer.Argument(help="The suit named: clubs, diamonds, hearts, spades.")],
    action: Annotated[
        str | None, typer.Option("--action", help="The enemy's action (default: the latest).")
    ] = None,
    card: Annotated[
        str | None, typer.Option("--card", help="deck_mode=recorded: the deck's bottom card.")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Trap Card, after an enemy you can see acts: name a suit and turn the deck's bottom
    card face up onto the discard pile; a joker or that suit lets a free spell follow.

    Example: `tablelog ace-of-cards trap c1 Kit hearts`
    """
    command = c.TrapCard(conflict=conflict, character=name, suit=suit, action=action, card=card)
    run(ctx, campaign, command, ruleset=ACE)


@app.command("spell")
def spell(
    ctx: typer.Context,
    conflict: Conflict,
    name: Ace,
    spell_name: Annotated[str, typer.Argument(help="The spell cast.")],
    mp_cost: Annotated[int, typer.Argument(help="Its total MP cost: at most SL x 5, paid.")],
    campaign: CampaignOption = None,
) -> None:
    """The free Spell action a Trap Card hit allows: total MP cost at most SL x 5 (paid).

    Example: `tablelog ace-of-cards spell c1 Kit "Ice bolt" 10`
    """
    command = c.FreeSpell(conflict=conflict, character=name, spell=spell_name, mp=mp_cost)
    run(ctx, campaign, command, ruleset=ACE)


@app.command("end")
def end(ctx: typer.Context, conflict: Conflict, campaign: CampaignOption = None) -> None:
    """End the conflict: every Ace's 30 cards are shuffled back and put away.

    Example: `tablelog ace-of-cards end c1`
    """
    run(ctx, campaign, c.EndConflict(conflict=conflict), ruleset=ACE)


@app.command("hand")
def hand(
    ctx: typer.Context,
    name: Ace,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """An Ace's hand (its player's to see only), the deck's size and the discard pile.

    Example: `tablelog ace-of-cards hand Kit --json`
    """
    view = read(ctx, campaign, ACE, "hand", f"/hands/{quote(name, safe='')}", name)
    if json:
        emit_json(view)
        return
    say(
        f"{name}: {' '.join(view['cards']) or 'no cards'} (deck {view['deck']}, discard "
        f"{' '.join(view['discard']) or 'none'})"
    )
