"""`tablelog improv ...`: the Improv table, one command per action (cli.md)."""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.output import emit_json, say
from tablelog.cli.play import open_conflict, run
from tablelog.cli.rulesets import read
from tablelog.errors import InvalidInput
from tablelog.rulesets.improv.cli import sealed as improv_sealed
from tablelog.rulesets.improv.rules import commands as c

app = typer.Typer(
    no_args_is_help=True,
    help="The Improv table: characters, conflicts, cards, tokens, talents.\n\n"
    "Example: `tablelog improv open --extended`, then `tablelog improv stake c1 riso "
    '"Riso gets away" --gm`',
)

IMPROV = "improv"
ConflictOption = Annotated[
    str | None, typer.Option("--conflict", help="Default: the only open conflict.")
]
SideArg = Annotated[str, typer.Argument(help="A character, or a GM stake name.")]


@app.command("character")
def character(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player (created if new).")],
    name: Annotated[str, typer.Argument(help="The protagonist's name.")],
    talent: Annotated[
        list[str] | None,
        typer.Option(
            "--talent",
            "-t",
            help="A talent as the book writes it (1-40 characters, spaces inside allowed, "
            'any case: "clever investigator"); repeatable.',
        ),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Add a player's protagonist and its talents.

    Example: `tablelog improv character bob Kit --talent Brawler --talent "Fast talker"`
    """
    run(
        ctx,
        campaign,
        c.CreateCharacter(player=player, character=name, talents=talent or []),
        ruleset=IMPROV,
    )


@app.command("open")
def open_(
    ctx: typer.Context,
    conflict_id: Annotated[str | None, typer.Option("--id", help="Default: c1, c2, ...")] = None,
    extended: Annotated[bool, typer.Option("--extended", help="Several rounds.")] = False,
    rounds: Annotated[
        int | None, typer.Option("--rounds", help="Rounds of an extended conflict (default 3).")
    ] = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Open a conflict and print its id.

    Example: `tablelog improv open --extended --rounds 3` or `tablelog improv open --id heist`
    """
    command = c.OpenConflict(conflict=conflict_id, extended=extended, rounds=rounds)
    open_conflict(ctx, campaign, command, IMPROV, json)


@app.command("stake")
def stake(
    ctx: typer.Context,
    conflict: Conflict,
    side: SideArg,
    text: Annotated[str, typer.Argument(help="What the side gets if it wins.")],
    opposes: Annotated[
        str | None, typer.Option("--opposes", help="The side a protagonist opposes.")
    ] = None,
    gm: Annotated[bool, typer.Option("--gm", help="SIDE is a GM stake.")] = False,
    campaign: CampaignOption = None,
) -> None:
    """Set a side's stake, before the first card is played.

    Example: `tablelog improv stake c1 kit "Kit captures Riso" --opposes riso`
    """
    run(
        ctx,
        campaign,
        c.SetStake(conflict=conflict, side=side, text=text, opposes=opposes, gm=gm),
        ruleset=IMPROV,
    )


@app.command("play")
def play(
    ctx: typer.Context,
    conflict: Conflict,
    side: SideArg,
    card: Annotated[
        str | None, typer.Argument(help="The card, e.g. AH, 10S, JK (none: an empty hand).")
    ] = None,
    from_deck: Annotated[
        bool, typer.Option("--from-deck", help="GM stakes only: the GM deck's top card, blind.")
    ] = False,
    campaign: CampaignOption = None,
) -> None:
    """Play a card face down for a side.

    Managed decks: CARD comes from the owner's hand; with an empty hand, name no card: the
    side plays blind from the top of its deck, face down, unseen by anyone until the reveal.

    Example: `tablelog improv play c1 kit AH` or `tablelog improv play c1 goons --from-deck`
    """
    command = c.PlayCard(conflict=conflict, side=side, card=card, from_deck=from_deck)
    run(ctx, campaign, improv_sealed.sealed_play(ctx, campaign, command), ruleset=IMPROV)


@app.command("bonus")
def bonus(
    ctx: typer.Context,
    conflict: Conflict,
    on: Annotated[str, typer.Option("--on", help="The side whose card gets the bonus.")],
    by: Annotated[
        str | None, typer.Option("--by", help="A character or gm; default the card's owner.")
    ] = None,
    token: Annotated[bool, typer.Option("--token", help="Story-token(s), +3 each.")] = False,
    count: Annotated[int, typer.Option("--count", min=1, help="How many tokens.")] = 1,
    talent: Annotated[str | None, typer.Option("--talent", help="A talent-marker, +3.")] = None,
    assist: Annotated[
        str | None, typer.Option("--assist", help="How the character helps another side.")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Put story-tokens or a talent-marker on a face-down card (+3 each).

    Any card already in play takes bonuses until the reveal, before every side has played
    (a bluff, as the rulebook's GM lays a card and a token before the player plays).

    Example: `tablelog improv bonus c1 --on riso --by gm --token --count 2`
    """
    if token == (talent is not None):
        raise InvalidInput("give exactly one of --token or --talent NAME", code="bonus-kind")
    command = c.PlaceBonus(
        conflict=conflict, on=on, by=by, tokens=count if token else 0, talent=talent, assist=assist
    )
    run(ctx, campaign, command, ruleset=IMPROV)


@app.command("reveal")
def reveal(ctx: typer.Context, conflict: Conflict, campaign: CampaignOption = None) -> None:
    """Reveal the round: totals, ranking, winners, token clean-up.

    With sealed plays, the sealed cards this machine keeps (the GM's) are opened first.

    Example: `tablelog improv reveal c1`
    """
    improv_sealed.open_kept(ctx, campaign, conflict, None, required=False)
    run(ctx, campaign, c.Reveal(conflict=conflict), ruleset=IMPROV)


@app.command("fate")
def fate(
    ctx: typer.Context,
    conflict: Conflict,
    side: SideArg,
    draw: Annotated[
        str | None, typer.Option("--draw", help="Recorded mode: the card drawn.")
    ] = None,
    eliminate: Annotated[bool, typer.Option("--eliminate", help="Leave the conflict.")] = False,
    stay: Annotated[bool, typer.Option("--stay", help="Stay in, seriously harmed.")] = False,
    campaign: CampaignOption = None,
) -> None:
    """The Hand of Fate: record a tie-breaker card, or the loser's choice.

    Example: `tablelog improv fate c1 kit --draw 7H`, then `tablelog improv fate c1 riso --stay`
    """
    if sum((draw is not None, eliminate, stay)) != 1:
        raise InvalidInput(
            "give exactly one of --draw CARD, --eliminate or --stay", code="fate-kind"
        )
    choice: Literal["eliminate", "stay"] | None = (
        "eliminate" if eliminate else "stay" if stay else None
    )
    run(
        ctx,
        campaign,
        c.Fate(conflict=conflict, side=side, draw=draw, choice=choice),
        ruleset=IMPROV,
    )


@app.command("give")
def give(
    ctx: typer.Context,
    conflict: Conflict,
    giver: Annotated[str, typer.Argument(help="The side giving one of its victory cards.")],
    receiver: Annotated[str, typer.Argument(help="The side receiving it.")],
    card: Annotated[str | None, typer.Argument(help="The card, e.g. 10S.")] = None,
    random: Annotated[
        bool, typer.Option("--random", help="A destroyed side with no cards: one from its deck.")
    ] = False,
    campaign: CampaignOption = None,
) -> None:
    """Pass one of a side's own victory cards to another side.

    Example: `tablelog improv give fight jason kit 10S`
    """
    run(
        ctx,
        campaign,
        c.Give(conflict=conflict, giver=giver, receiver=receiver, card=card, random=random),
        ruleset=IMPROV,
    )


@app.command("award")
def award(
    ctx: typer.Context,
    giver: Annotated[str, typer.Argument(help="The player giving the award.")],
    receiver: Annotated[str, typer.Argument(help="The player receiving a story-token.")],
    conflict: ConflictOption = None,
    campaign: CampaignOption = None,
) -> None:
    """Award a story-token for good play (one per giver per round, or per scene).

    Example: `tablelog improv award bob richard`
    """
    run(ctx, campaign, c.Award(giver=giver, receiver=receiver, conflict=conflict), ruleset=IMPROV)


@app.command("redraw")
def redraw(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player (or gm) spending a token.")],
    cards: Annotated[list[str], typer.Argument(help="The cards to redraw.")],
    campaign: CampaignOption = None,
) -> None:
    """Spend a story-token to redraw cards (managed decks draw the replacements).

    Example: `tablelog improv redraw bob 2C 3D`
    """
    run(ctx, campaign, c.Redraw(player=player, cards=cards), ruleset=IMPROV)


@app.command("bribe")
def bribe(
    ctx: typer.Context,
    giver: Annotated[str, typer.Argument(help="Who pays a story-token (a player or gm).")],
    receiver: Annotated[str, typer.Argument(help="Who receives it.")],
    conflict: ConflictOption = None,
    campaign: CampaignOption = None,
) -> None:
    """Pass a story-token to another participant for narration.

    Example: `tablelog improv bribe bob susan`
    """
    run(ctx, campaign, c.Bribe(giver=giver, receiver=receiver, conflict=conflict), ruleset=IMPROV)


@app.command("narrate")
def narrate(
    ctx: typer.Context,
    conflict: Conflict,
    side: SideArg,
    text: Annotated[str, typer.Argument(help="The narration.")],
    final: Annotated[bool, typer.Option("--final", help="The side's final narration.")] = False,
    campaign: CampaignOption = None,
) -> None:
    """Log a side's narration (after --final it may no longer give victory cards).

    Example: `tablelog improv narrate c1 kit "Kit tackles Riso." --final`
    """
    run(
        ctx,
        campaign,
        c.Narrate(conflict=conflict, side=side, text=text, final=final),
        ruleset=IMPROV,
    )


@app.command("close")
def close(ctx: typer.Context, conflict: Conflict, campaign: CampaignOption = None) -> None:
    """Close a conflict: final victory (extended), the bank to the GM, hands refilled.

    Example: `tablelog improv close fight`
    """
    run(ctx, campaign, c.Close(conflict=conflict), ruleset=IMPROV)


@app.command("abandon")
def abandon(
    ctx: typer.Context,
    conflict: Conflict,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the GM ends the conflict without an outcome.")
    ],
    campaign: CampaignOption = None,
) -> None:
    """The GM abandons an open conflict that cannot go on: nobody wins.

    Face-down cards are turned up; played and victory cards are discarded; tokens on cards go
    where a round's clean-up sends them and the bank's go to the GM; managed hands are refilled.
    The conflict is closed, so the session can end.

    Example: `tablelog improv abandon c2 --reason "the party splits up; the fight never happens"`
    """
    run(ctx, campaign, c.Abandon(conflict=conflict, reason=reason), ruleset=IMPROV)


@app.command("hand")
def hand(
    ctx: typer.Context,
    who: Annotated[str, typer.Argument(help="A player, or gm.")],
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Managed decks: a hand (visible to its owner), with its deck and discard sizes.

    Example: `tablelog improv hand bob --json`
    """
    view = read(ctx, campaign, IMPROV, "hand", f"/hands/{quote(who, safe='')}", who)
    if json:
        emit_json(view)
        return
    say(
        f"{who}: {' '.join(view['cards']) or 'no cards'} "
        f"(deck {view['deck']}, discard {view['discard']})"
    )


improv_sealed.register(app)
