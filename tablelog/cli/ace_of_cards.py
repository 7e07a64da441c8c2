"""`tablelog ace-of-cards ...`: the Ace of Cards table, one command per action
(rules/ace-of-cards.md). Cards are codes: a value 1-7 and a suit letter (3C, 5H), or a joker
(JK1, JK2; JK for the only joker in hand)."""

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
from tablelog.rules.ace_of_cards import commands as c

app = typer.Typer(
    no_args_is_help=True,
    help="The Ace of Cards table (Fabula Ultima): a 30-card deck, exact sets, Mind Points.\n\n"
    "Example: `tablelog ace-of-cards character ann Kit --hp 40 --mp 35`, `tablelog "
    "ace-of-cards deck Kit --benefit mp -s clubs=fire -s diamonds=earth -s hearts=ice "
    "-s spades=air`, `tablelog ace-of-cards open --party Kit --enemy Goblin`, then "
    "`tablelog ace-of-cards magic c1 Kit 20 3C 4C 5C 6C --set magic-flush`",
)

ACE = "ace-of-cards"
Character = Annotated[str, typer.Argument(help="A character (an Ace, or an ally).")]
Ace = Annotated[str, typer.Argument(help="An Ace: a character with the class's deck.")]
Drawn = Annotated[
    str | None,
    typer.Option("--drawn", help="deck_mode=recorded: the cards drawn, e.g. 1C,2C,7C,1D."),
]


def _pairs(texts: list[str], what: str, example: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for text in texts:
        key, sep, value = text.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise InvalidInput(
                f"{what} {text!r} is not KEY=VALUE (e.g. {example})", code="bad-pair"
            )
        if key.strip() in found:
            raise InvalidInput(f"{what} {key.strip()} is given twice", code="pair-twice")
        found[key.strip()] = value.strip()
    return found


def _list(text: str | None) -> list[str] | None:
    return None if text is None else [v for v in text.replace(",", " ").split() if v]


def _numbers(text: str | None, what: str, example: str) -> list[int] | None:
    values = _list(text)
    if values is None:
        return None
    try:
        return [int(v.lower().removeprefix("d")) for v in values]
    except ValueError:
        raise InvalidInput(
            f"{what} {text!r} is not a list like {example}", code="bad-values"
        ) from None


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
        suit_types=_pairs(suit, "--suit", "clubs=fire"),
        benefit=benefit,
        cards=_list(cards),
    )
    run(ctx, campaign, command, ruleset=ACE)


@app.command("skill")
def skill(
    ctx: typer.Context,
    name: Character,
    skill_name: Annotated[str, typer.Argument(help="magic-cards, mulligan or trap-card.")],
    sl: Annotated[int, typer.Argument(help="Its Skill Level (0 removes it).")],
    campaign: CampaignOption = None,
) -> None:
    """Set a class skill's level (Magic Cards at most 3; Mulligan and Trap Card per option).

    Example: `tablelog ace-of-cards skill Kit magic-cards 2`
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
        hands = {k: _list(v) or [] for k, v in _pairs(hand, "--hand", "Kit=3C,4C").items()}
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
    drawn: Drawn = None,
    campaign: CampaignOption = None,
) -> None:
    """Magic Cards: spend MP to resolve 1 hand card per 5 MP as a set, apply its effect (the
    set must match exactly), discard those cards and draw as many.

    Example: `tablelog ace-of-cards magic c1 Kit 20 3C 4C 5C 6C --set magic-flush`, or
    `tablelog ace-of-cards magic c1 Kit 15 5D 5S JK --joker JK=5H`
    """
    command = c.UseMagicCards(
        conflict=conflict,
        character=name,
        mp=mp_spent,
        cards=cards,
        jokers=_pairs(joker or [], "--joker", "JK1=5H"),
        set=set_name,
        targets=target or [],
        damage_type=damage_type,
        statuses=status or [],
        drawn=_list(drawn),
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
    command = c.Mulligan(conflict=conflict, character=name, cards=cards, drawn=_list(drawn))
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


@app.command("check")
def check(
    ctx: typer.Context,
    conflict: Conflict,
    name: Character,
    kind: Annotated[
        Literal["accuracy", "magic", "clock", "other"],
        typer.Option("--kind", help="accuracy, magic, clock or other."),
    ],
    dice: Annotated[str, typer.Option("--dice", help="The two attribute dice, e.g. d8,d10.")],
    dl: Annotated[int, typer.Option("--dl", help="The DL, or the target's Defense.")],
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
    check_id: Annotated[str | None, typer.Option("--id", help="Default: k1, k2, ...")] = None,
    campaign: CampaignOption = None,
) -> None:
    """Call a Check (rolled later with `roll`, so Double or Nothing may be declared first).

    Example: `tablelog ace-of-cards check c1 Kit --kind accuracy --dice d8,d10 --dl 9
    --damage 5 --target Goblin --double`
    """
    command = c.CallCheck(
        conflict=conflict,
        character=name,
        kind=kind,
        dice=_numbers(dice, "--dice", "d8,d10") or [],
        dl=dl,
        modifier=modifier,
        offensive=offensive,
        damage=damage,
        target=target,
        double=double,
        check=check_id,
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
        values=_numbers(values, "--values", "7,7"),
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
