"""`tablelog bid-and-challenge ...`: the Bid & Challenge table, one command per action
(rules/bid-and-challenge.md)."""

from __future__ import annotations

from typing import Annotated

import typer

from tablelog.cli.options import CampaignOption, JsonOption, no_view_choice, remote
from tablelog.cli.output import emit_json, say
from tablelog.cli.play import open_conflict, run
from tablelog.cli.rulesets import shown_conflict
from tablelog.errors import InvalidInput
from tablelog.rules.names import player_name
from tablelog.rulesets.bid_and_challenge.rules import commands as c

app = typer.Typer(
    no_args_is_help=True,
    help="The Bid & Challenge table (6d6 RPG): decks of Nd6+M cards, bid, challenge, push, "
    "roll.\n\nExample: `tablelog bid-and-challenge open anna ben cara --asked-by anna`, then "
    '`tablelog bid-and-challenge bid s1 anna "I force the gate" -k Brawn -k Sword --detail '
    'gate-open --text "The gate stands open"`',
)

RULESET = "bid-and-challenge"
Scene = Annotated[str, typer.Argument(help="The scene's id, printed by `open` (e.g. s1).")]
Character = Annotated[str, typer.Argument(help="A character (a seat of the scene).")]
Cards = Annotated[
    list[str] | None,
    typer.Option("--card", "-k", help="A card of the character's own Deck; repeatable."),
]
Restore = Annotated[
    str | None,
    typer.Option("--restore", help="Power: CHARACTER:CARD[,CARD...] from Discard to Deck."),
]
Strike = Annotated[
    str | None, typer.Option("--strike", help="Power: CHARACTER:CARD from Deck to Discard.")
]
Detail = Annotated[str | None, typer.Option("--detail", help="Power: define this detail id.")]
DetailText = Annotated[str | None, typer.Option("--text", help="The detail's text.")]
NewCard = Annotated[
    str | None, typer.Option("--new-card", help="Power: a universe card NAME:NdS+M.")
]


def card_spec(text: str) -> c.CardSpec:
    name, sep, value = text.rpartition(":")
    if not sep or not name.strip() or not value.strip():
        raise InvalidInput(f"{text!r} is not NAME:VALUE (e.g. Brawn:1d6+2)", code="bad-card-spec")
    return c.CardSpec(name=name.strip(), value=value.strip())


def _target(text: str, option: str) -> tuple[str, list[str]]:
    who, sep, cards = text.partition(":")
    names = [n.strip() for n in cards.split(",") if n.strip()]
    if not sep or not who.strip() or not names:
        raise InvalidInput(
            f"{option} {text!r} is not CHARACTER:CARD[,CARD...] (e.g. anna:Sword)",
            code="bad-power",
        )
    return who.strip(), names


def power_spec(
    restore: str | None,
    strike: str | None,
    detail: str | None,
    text: str | None,
    new_card: str | None,
    rule: str = "a bid names exactly one power",
) -> c.PowerSpec | None:
    """The one power the options name, or None when they name none (`rule`: the limit, in the
    words of whoever names it)."""
    named = [o for o, v in (("--restore", restore), ("--strike", strike)) if v is not None]
    named += ["--detail"] if detail is not None or text is not None else []
    named += ["--new-card"] if new_card is not None else []
    if len(named) > 1:
        raise InvalidInput(
            f"{rule}; got {len(named)} ({', '.join(named)})",
            code="one-power",
        )
    if restore is not None:
        who, cards = _target(restore, "--restore")
        return c.PowerSpec(type="restore", target=who, cards=cards)
    if strike is not None:
        who, cards = _target(strike, "--strike")
        return c.PowerSpec(type="strike", target=who, cards=cards)
    if detail is not None or text is not None:
        if detail is None or text is None:
            raise InvalidInput(
                "the detail power needs both --detail ID and --text TEXT", code="no-detail"
            )
        return c.PowerSpec(type="detail", detail=detail, text=text)
    if new_card is not None:
        return c.PowerSpec(type="universe_card", card=card_spec(new_card))
    return None


def _faces(text: str | None, option: str) -> list[int] | None:
    """A comma-separated list of whole numbers (faces, or totals)."""
    if text is None:
        return None
    try:
        return [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise InvalidInput(
            f"{option} {text!r} is not a list of whole numbers (e.g. 4,2,1)", code="bad-values"
        ) from None


@app.command("deck")
def deck(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player (created if new), or gm.")],
    name: Annotated[str, typer.Argument(help="The major character's name.")],
    flow: Annotated[int, typer.Option("--flow", help="The character card's Flow.")],
    card: Annotated[
        list[str] | None,
        typer.Option("--card", "-k", help="NAME:NdS+M, e.g. Brawn:1d6+2; repeatable."),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Register a major character's deck (every card in Deck) and its Flow.

    Example: `tablelog bid-and-challenge deck anna Anna --flow 3 -k Brawn:1d6+2
    -k Sword:1d6+1 -k QuickWits:1d6`
    """
    command = c.RegisterDeck(
        player=player, character=name, flow=flow, cards=[card_spec(k) for k in card or []]
    )
    run(ctx, campaign, command, ruleset=RULESET)


@app.command("universe")
def universe(
    ctx: typer.Context,
    card: Annotated[str, typer.Argument(help="NAME:NdS+M, e.g. Storm:1d6.")],
    campaign: CampaignOption = None,
) -> None:
    """GM: add a card to the universe deck (fate, terrain, weather, minor characters).

    Example: `tablelog bid-and-challenge universe Storm:1d6`
    """
    run(ctx, campaign, c.AddUniverseCard(card=card_spec(card)), ruleset=RULESET)


@app.command("die")
def die(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The character who dies (outside any open scene).")],
    text: Annotated[str, typer.Option("--text", help="How, for the log.")] = "",
    campaign: CampaignOption = None,
) -> None:
    """GM: a character dies for good; only when its player's deck is empty.

    Example: `tablelog bid-and-challenge die cara --text "lost in the storm"`
    """
    run(ctx, campaign, c.KillCharacter(character=name, text=text), ruleset=RULESET)


@app.command("open")
def open_(
    ctx: typer.Context,
    seating: Annotated[list[str], typer.Argument(help="The characters, clockwise.")],
    asked_by: Annotated[
        str, typer.Option("--asked-by", help="The character whose player asks for the scene.")
    ],
    start: Annotated[
        str | None, typer.Option("--start", help="The starting player (default: --asked-by).")
    ] = None,
    premise: Annotated[str, typer.Option("--premise", help="The dramatic point.")] = "",
    scene_id: Annotated[str | None, typer.Option("--id", help="Default: s1, s2, ...")] = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Start a scene (this ruleset's conflict) with its seating, clockwise; prints its id.
    The next active player is the next in the list; the challenge offer goes backwards.

    Example: `tablelog bid-and-challenge open anna ben cara --asked-by anna --premise
    "The gate of the old keep"`
    """
    command = c.OpenScene(
        seating=seating, requested_by=asked_by, starting=start, premise=premise, conflict=scene_id
    )
    open_conflict(ctx, campaign, command, RULESET, json)


@app.command("bid")
def bid(
    ctx: typer.Context,
    scene: Scene,
    active: Character,
    description: Annotated[str, typer.Argument(help="What happens if the bid succeeds.")],
    card: Cards = None,
    restore: Restore = None,
    strike: Strike = None,
    detail: Detail = None,
    text: DetailText = None,
    new_card: NewCard = None,
    campaign: CampaignOption = None,
) -> None:
    """The active player bids: 1 to Flow cards from its Deck into Play and exactly one power,
    applied if the bid wins (restore up to Flow cards, strike one card, define a detail, or
    create a universe card).

    Example: `tablelog bid-and-challenge bid s1 anna "I force the gate" -k Brawn -k Sword
    --detail gate-open --text "The gate stands open"`
    """
    power = power_spec(restore, strike, detail, text, new_card)
    if power is None:
        raise InvalidInput(
            "a bid names exactly one power: --restore, --strike, --detail with --text, or "
            "--new-card; got none",
            code="one-power",
        )
    command = c.Bid(
        conflict=scene, active=active, description=description, cards=card or [], power=power
    )
    run(ctx, campaign, command, ruleset=RULESET)


@app.command("pass")
def pass_(
    ctx: typer.Context, scene: Scene, player: Character, campaign: CampaignOption = None
) -> None:
    """The active player passes its bid, or the player asked passes the challenge. When every
    player passes in a row, the scene ends.

    Example: `tablelog bid-and-challenge pass s1 cara`
    """
    run(ctx, campaign, c.Pass(conflict=scene, player=player), ruleset=RULESET)


@app.command("challenge")
def challenge(
    ctx: typer.Context,
    scene: Scene,
    challenger: Character,
    description: Annotated[str, typer.Argument(help="How it goes if the active player fails.")],
    card: Cards = None,
    universe_card: Annotated[
        list[str] | None,
        typer.Option("--universe", "-u", help="A card of the universe deck; repeatable."),
    ] = None,
    restore: Restore = None,
    strike: Strike = None,
    detail: Detail = None,
    text: DetailText = None,
    new_card: NewCard = None,
    campaign: CampaignOption = None,
) -> None:
    """The player asked takes the challenge: cards from its own Deck and/or the universe deck,
    no more than the bid committed. A power only with option challenger_power=true.

    Example: `tablelog bid-and-challenge challenge s1 ben "The storm slams the gate" -k Dodge
    -u Storm`
    """
    command = c.Challenge(
        conflict=scene,
        challenger=challenger,
        description=description,
        cards=card or [],
        universe=universe_card or [],
        power=power_spec(
            restore, strike, detail, text, new_card, rule="a challenge names at most one power"
        ),
    )
    run(ctx, campaign, command, ruleset=RULESET)


@app.command("push")
def push(
    ctx: typer.Context,
    scene: Scene,
    active: Character,
    description: Annotated[str, typer.Argument(help="The bid rewritten to answer the challenge.")],
    card: Cards = None,
    campaign: CampaignOption = None,
) -> None:
    """The active player answers the challenge: up to Flow extra cards from its Deck, rotated;
    they go to Discard if the bid loses.

    Example: `tablelog bid-and-challenge push s1 anna "I wedge it with my wits" -k QuickWits`
    """
    command = c.Push(conflict=scene, active=active, description=description, cards=card or [])
    run(ctx, campaign, command, ruleset=RULESET)


@app.command("roll")
def roll(
    ctx: typer.Context,
    scene: Scene,
    active_faces: Annotated[
        str | None,
        typer.Option("--active", help="Recorded dice: the active side's faces, e.g. 4,2,1."),
    ] = None,
    challenger_faces: Annotated[
        str | None,
        typer.Option("--challenger", help="Recorded dice: the challenger's faces, e.g. 5,6."),
    ] = None,
    expect_winner: Annotated[
        str | None,
        typer.Option("--expect-winner", help="Recorded dice: who the table says wins."),
    ] = None,
    expect_totals: Annotated[
        str | None,
        typer.Option(
            "--expect-totals", help="Recorded dice: ACTIVE,CHALLENGER totals, e.g. 10,12."
        ),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Roll the dice of every committed card (or record the faces rolled at the table, card by
    card in the order committed); the higher total wins, ties go to the active player.
    Through the service the active player rolls with managed dice; recorded faces (both
    sides') are the GM's to record.

    Example: `tablelog bid-and-challenge roll s1`, or with option dice=recorded
    `tablelog bid-and-challenge roll s1 --active 4,2,1 --challenger 5,6`
    """
    command = c.Roll(
        conflict=scene,
        active_faces=_faces(active_faces, "--active"),
        challenger_faces=_faces(challenger_faces, "--challenger"),
        expect_winner=expect_winner,
        expect_totals=_faces(expect_totals, "--expect-totals"),
    )
    run(ctx, campaign, command, ruleset=RULESET)


@app.command("end")
def end(
    ctx: typer.Context,
    scene: Scene,
    reason: Annotated[str, typer.Option("--reason", help="Why, for the log.")] = "",
    campaign: CampaignOption = None,
) -> None:
    """GM: end a scene between rounds (it also ends when every player passes in a row).

    Example: `tablelog bid-and-challenge end s1 --reason "the keep burns"`
    """
    run(ctx, campaign, c.CloseScene(conflict=scene, reason=reason), ruleset=RULESET)


@app.command("narrate")
def narrate(
    ctx: typer.Context,
    scene: Scene,
    player: Annotated[str, typer.Argument(help="The character who won the round.")],
    text: Annotated[str, typer.Argument(help="What happens, in the winner's words.")],
    campaign: CampaignOption = None,
) -> None:
    """The winner of the scene's latest decided round says what happens: once per round, and
    optional (the next round goes on without it).

    Example: `tablelog bid-and-challenge narrate s1 ben "The gate slams on Anna's fingers"`
    """
    run(ctx, campaign, c.Narrate(conflict=scene, player=player, text=text), ruleset=RULESET)


@app.command("show")
def show(
    ctx: typer.Context,
    scene: Scene,
    as_player: Annotated[
        str | None, typer.Option("--as", help="One player's view (nothing is hidden here).")
    ] = None,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Show a scene round by round: bids, challenges, pushes, dice, winners and their
    narrations, and where the cards went.

    Example: `tablelog bid-and-challenge show s1`, or `tablelog bid-and-challenge show s1
    --json`
    """
    viewer = player_name(as_player) if as_player is not None else None
    if remote(ctx) is not None:
        no_view_choice(as_player)
    _name, shown = shown_conflict(ctx, campaign, RULESET, scene, viewer)
    if json:
        emit_json(shown.view)
        return
    for line in shown.lines:
        say(line)
