"""Setting up an Ace of Cards character on the web page: the character (its HP and MP), the
class's deck (each suit's damage type chosen from the four, the free benefit), its skill
levels. A player does this for its own characters, the GM for anyone's (`page_gm`).

The deck's suits are four plain choices, one per suit (fields `suit_types.clubs`, …, which
the page puts together into the command's map), filled in with four different types; the
deck itself is the standard 30 unless cards as assembled are given to be checked."""

from __future__ import annotations

from tablelog.projections.page import Action, Field
from tablelog.rulesets.ace_of_cards.rules import commands as c
from tablelog.rulesets.ace_of_cards.rules.cards import DAMAGE_TYPES, SUITS
from tablelog.rulesets.ace_of_cards.rules.state import SKILL_TITLES, AceState, Character

HP, MP = 40, 35  # what the character form offers first (the demo's Kit)
# One damage type per suit, each different: the form's first offer (the CLI's example).
FIRST_TYPES = {"clubs": "fire", "diamonds": "earth", "hearts": "ice", "spades": "air"}


def create_character(player: str | None) -> Action:
    """A character with its maximum HP and MP: a player's own, or the GM's for anyone."""
    fields = [] if player else [Field(name="player", label="player (gm for an NPC)")]
    fields += [
        Field(name="character", label="character's name"),
        Field(name="hp", label="maximum HP", kind="number", default=HP),
        Field(name="mp", label="maximum MP", kind="number", default=MP),
    ]
    return Action(
        command=c.CreateCharacter,
        title="Create your character" if player else "Create a character",
        fields=fields,
        fixed={"player": player} if player else {},
        gm=player is None,
    )


def build_decks(characters: list[Character], *, gm: bool) -> list[Action]:
    """The class and its deck, for each of `characters` without one (outside a conflict)."""
    suits = [
        Field(
            name=f"suit_types.{suit}",
            label=f"{suit}: damage type",
            kind="choice",
            choices=list(DAMAGE_TYPES),
            default=FIRST_TYPES[suit],
        )
        for suit in SUITS.values()
    ]
    return [
        Action(
            command=c.BuildDeck,
            title=f"Take the Ace of Cards class for {who.display} (its deck)",
            fields=[
                *suits,
                Field(
                    name="benefit",
                    label="free benefit",
                    kind="choice",
                    choices=["hp", "mp"],
                    shown=["+5 max HP", "+5 max MP"],
                ),
                Field(
                    name="cards",
                    label="the 30 cards as assembled, to check them (default: the standard "
                    "30, 1-7 of each suit and JK1 JK2)",
                    kind="list",
                    required=False,
                ),
            ],
            fixed={"character": who.key},
            probe=c.BuildDeck(character=who.key, suit_types=FIRST_TYPES, benefit="hp"),
            gm=gm,
        )
        for who in characters
        if who.cards is None
    ]


def character_field(characters: list[Character]) -> Field:
    """A choice of one of `characters`, each shown by its name as typed ("Kit", not the key
    "kit" the command takes)."""
    return Field(
        name="character",
        label="character",
        kind="choice",
        choices=[who.key for who in characters],
        shown=[who.display for who in characters],
    )


def set_skill(characters: list[Character], *, gm: bool) -> list[Action]:
    """A skill's level, for the characters with the class (the rules cap each skill)."""
    aces = [who for who in characters if who.cards is not None]
    if not aces:
        return []
    return [
        Action(
            command=c.SetSkillLevel,
            title="Set a skill level",
            fields=[
                character_field(aces),
                Field(
                    name="skill",
                    label="skill",
                    kind="choice",
                    choices=[s.replace("_", "-") for s in SKILL_TITLES],
                    shown=list(SKILL_TITLES.values()),
                ),
                Field(name="sl", label="skill level (SL; 0 removes it)", kind="number", default=1),
            ],
            gm=gm,
        )
    ]


def player_setup(state: AceState, player: str, mine: list[Character]) -> list[Action]:
    """A player's own: a character (while it has none), its deck, its skills."""
    found = [] if mine else [create_character(player)]
    free = [who for who in mine if who.conflict is None]
    return [*found, *build_decks(free, gm=False), *set_skill(mine, gm=False)]
