"""`tablelog night-terrors ...`: the Night Terrors table, one command per action
(rules/night-terrors.md)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, ConflictArg, JsonOption
from tablelog.cli.output import emit_json, say
from tablelog.cli.play import open_conflict, run
from tablelog.cli.rulesets import read
from tablelog.rulesets.night_terrors.rules import commands as c

app = typer.Typer(
    no_args_is_help=True,
    help="The Night Terrors table: face-card characters, raise and see with playing cards, "
    "trumps, Blood/Sweat/Tears.\n\n"
    "Example: `tablelog night-terrors open Alice Bob --type guns`, then "
    "`tablelog night-terrors raise c1 Alice 6D KS`",
)

NT = "night-terrors"
Character = Annotated[
    str, typer.Argument(help="A character.", metavar="character", show_default=False)
]
Cards = Annotated[list[str], typer.Argument(help="Cards, e.g. 6D KS 10H.", show_default=False)]
SomeCards = Annotated[
    list[str] | None, typer.Argument(help="Cards, e.g. 5H 6C (none: a push with no cards).")
]
Say = Annotated[str, typer.Option("--say", help="What the character does (narration).")]


@app.command("character")
def character(
    ctx: typer.Context,
    player: Annotated[str, typer.Argument(help="The player (created if new), or gm for an NPC.")],
    name: Annotated[str, typer.Argument(help="The character's name.")],
    card: Annotated[str, typer.Argument(help="Its face card: K, Q or J and a suit, e.g. KS.")],
    campaign: CampaignOption = None,
) -> None:
    """Create a character: one face card of the deck.

    Its rank trades part of a payment (a King moves Sweat, a Queen Tears, a Jack Blood); its
    suit draws an extra card when it is the trump. Blood, Sweat and Tears start at 20.

    Example: `tablelog night-terrors character ann Alice KS`
    """
    run(ctx, campaign, c.CreateCharacter(player=player, character=name, card=card), ruleset=NT)


@app.command("open")
def open_(
    ctx: typer.Context,
    aggressor: Annotated[str, typer.Argument(help="The character who starts it (raises first).")],
    others: Annotated[list[str], typer.Argument(help="The other characters taking part.")],
    kind: Annotated[
        str,
        typer.Option(
            "--type",
            help="talk (Diamonds), physical (Hearts), melee (Clubs) or guns (Spades).",
        ),
    ],
    stakes: Annotated[str, typer.Option("--stakes", help="What is at stake.")] = "",
    place: Annotated[str, typer.Option("--place", help="Where it happens.")] = "",
    approach: Annotated[str, typer.Option("--approach", help="How the aggressor goes at it.")] = "",
    conflict_id: Annotated[
        str | None, typer.Option("--id", help="The conflict's id (default c1, c2, ...).")
    ] = None,
    json: JsonOption = False,
    campaign: CampaignOption = None,
) -> None:
    """Open a conflict: its type sets the trump. Prints its id.

    Talk is Diamonds, physical Hearts, melee Clubs, guns Spades. Everyone in draws 4 (5 if the
    trump is their suit); the aggressor raises first.

    Example: `tablelog night-terrors open Alice Bob --type guns --stakes "the ledger"`
    """
    command = c.OpenConflict(
        aggressor=aggressor,
        others=others,
        kind=kind,
        stakes=stakes,
        place=place,
        approach=approach,
        conflict=conflict_id,
    )
    open_conflict(ctx, campaign, command, NT, json)


@app.command("raise")
def raise_(
    ctx: typer.Context,
    conflict: ConflictArg,
    name: Character,
    cards: Cards,
    say: Say = "",
    campaign: CampaignOption = None,
) -> None:
    """Raise with 2 cards (3 when one is your held reversal card), face up.

    Example: `tablelog night-terrors raise c1 Alice 6D KS --say "I draw on him"`
    """
    run(
        ctx,
        campaign,
        c.Raise(conflict=conflict, character=name, cards=cards, narration=say),
        ruleset=NT,
    )


@app.command("see")
def see(
    ctx: typer.Context,
    conflict: ConflictArg,
    name: Character,
    cards: Cards,
    say: Say = "",
    campaign: CampaignOption = None,
) -> None:
    """See the raise with cards from your hand.

    1 card is a reversal (kept), 2 a clean see, 3+ take the middle card as fallout; without a
    trump when the raise had one, take its trump value as fallout.

    Example: `tablelog night-terrors see c1 Bob 7C 5H`
    """
    run(
        ctx,
        campaign,
        c.See(conflict=conflict, character=name, cards=cards, narration=say),
        ruleset=NT,
    )


@app.command("push")
def push(
    ctx: typer.Context,
    conflict: ConflictArg,
    name: Character,
    cards: SomeCards = None,
    say: Say = "",
    campaign: CampaignOption = None,
) -> None:
    """Push when you cannot see: answer short and pay the price (raise minus total).

    Any of your cards, or none; the answer still owes a trump when the raise held one (or its
    trump value as fallout). Option cannot_see=free lets anyone push.

    Example: `tablelog night-terrors push c1 Alice 5H 6C`
    """
    command = c.Push(conflict=conflict, character=name, cards=cards or [], narration=say)
    run(ctx, campaign, command, ruleset=NT)


@app.command("escalate")
def escalate(
    ctx: typer.Context,
    conflict: ConflictArg,
    name: Character,
    to: Annotated[
        str | None,
        typer.Option("--to", help="The new type or suit (default: the next one up)."),
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Escalate when you cannot see: the trump climbs, everyone in draws again.

    Diamonds, Hearts, Clubs, Spades: up only. Everyone in draws 4 (5 if the new trump is
    their suit); then you still answer the raise on the table.

    Example: `tablelog night-terrors escalate c1 Bob --to guns`
    """
    run(ctx, campaign, c.Escalate(conflict=conflict, character=name, to=to), ruleset=NT)


@app.command("give")
def give(
    ctx: typer.Context, conflict: ConflictArg, name: Character, campaign: CampaignOption = None
) -> None:
    """Give: leave the conflict (at any time, but not while your own raise waits for answers).

    Example: `tablelog night-terrors give c1 Bob`
    """
    run(ctx, campaign, c.Give(conflict=conflict, character=name), ruleset=NT)


@app.command("pay")
def pay(
    ctx: typer.Context,
    name: Character,
    blood: Annotated[int, typer.Option("--blood", help="Paid from Blood.")] = 0,
    sweat: Annotated[int, typer.Option("--sweat", help="Paid from Sweat.")] = 0,
    tears: Annotated[int, typer.Option("--tears", help="Paid from Tears.")] = 0,
    campaign: CampaignOption = None,
) -> None:
    """Pay your oldest unpaid fallout or price.

    Split it as the trump allows (Diamonds: Tears; Hearts: Tears or Sweat; Clubs: Sweat or
    Blood; Spades: Blood), with your rank's trade (a King moves up to half of the Sweat, a
    Queen the Tears, a Jack the Blood). A payment with no choice is made for you.

    Example: `tablelog night-terrors pay Alice --sweat 2 --blood 2`
    """
    command = c.Pay(character=name, blood=blood, sweat=sweat, tears=tears)
    run(ctx, campaign, command, ruleset=NT)


@app.command("draw")
def draw(
    ctx: typer.Context, name: Character, cards: Cards, campaign: CampaignOption = None
) -> None:
    """Record the cards a character drew (option deck=recorded; a managed deck draws itself).

    Example: `tablelog night-terrors draw Alice 8D 9H 2D 7C`
    """
    run(ctx, campaign, c.Draw(character=name, cards=cards), ruleset=NT)


@app.command("discard")
def discard(
    ctx: typer.Context, name: Character, cards: Cards, campaign: CampaignOption = None
) -> None:
    """At a hand reset, discard down to 4 (your choice of cards).

    Example: `tablelog night-terrors discard Alice 2C 3D`
    """
    run(ctx, campaign, c.Discard(character=name, cards=cards), ruleset=NT)


@app.command("refresh")
def refresh(
    ctx: typer.Context, name: Character, cards: Cards, campaign: CampaignOption = None
) -> None:
    """At a hand reset (before a conflict opens), discard any cards and draw back up to 4.

    Example: `tablelog night-terrors refresh Bob 2C AH`
    """
    run(ctx, campaign, c.Refresh(character=name, cards=cards), ruleset=NT)


@app.command("narrate")
def narrate(
    ctx: typer.Context,
    conflict: ConflictArg,
    name: Character,
    text: Annotated[str, typer.Argument(help="What happens to the stakes.")],
    campaign: CampaignOption = None,
) -> None:
    """Whoever is left decides the stakes and narrates the outcome.

    Example: `tablelog night-terrors narrate c1 Alice "Alice keeps the ledger."`
    """
    run(ctx, campaign, c.Narrate(conflict=conflict, character=name, text=text), ruleset=NT)


@app.command("abandon")
def abandon(
    ctx: typer.Context,
    conflict: ConflictArg,
    reason: Annotated[
        str, typer.Option("--reason", help="Why the GM ends the conflict without an outcome.")
    ],
    campaign: CampaignOption = None,
) -> None:
    """GM: abandon an open conflict that cannot go on; nobody wins.

    Say a player has gone quiet: only they raise, answer or pay for their character, and no
    scene or session starts while a conflict is open. Costs already owed stay owed.

    Example: `tablelog night-terrors abandon c2 --reason "Bob's player has left the game"`
    """
    run(ctx, campaign, c.Abandon(conflict=conflict, reason=reason), ruleset=NT)


@app.command("hand")
def hand(
    ctx: typer.Context, name: Character, json: JsonOption = False, campaign: CampaignOption = None
) -> None:
    """A character's hand, the cards it still draws or discards, and the deck's size.

    Through the service, a player reads only its own characters' hands.

    Example: `tablelog night-terrors hand Alice --json`
    """
    view = read(ctx, campaign, NT, "hand", f"/hands/{quote(name, safe='')}", name)
    if json:
        emit_json(view)
        return
    held = f" (holding {view['held']} from a reversal)" if view["held"] else ""
    owed = "".join(f"; {what} {view[what]}" for what in ("draw", "discard") if view[what])
    say(
        f"{view['name']}: {' '.join(view['cards']) or 'no cards'}{held}{owed} (deck {view['deck']})"
    )
