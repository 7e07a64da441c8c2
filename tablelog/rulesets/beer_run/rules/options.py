"""Beer Run's options: each REC of rules/beer-run.md as a named option with that default.

Options whose text admits one behaviour only (`no_decisive_pair`, `penalty_die`) are still
recorded in the creation event: a campaign keeps the meaning it began with if a later tablelog
offers others.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from tablelog.errors import InvalidInput, TablelogError
from tablelog.rules.names import player_name

Count = Annotated[int, msgspec.Meta(ge=0, le=1000)]
Categories = Annotated[
    str,
    msgspec.Meta(
        pattern=r"^\s*[^\W_][\w' -]*(\s*,\s*[^\W_][\w' -]*)*\s*$",
        description="a comma-separated list of category names (e.g. Body,Mind,Kit)",
    ),
]


class BeerRunOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # REC: categories are a per-game list; every ability belongs to exactly one.
    categories: Categories = "Body,Mind,Kit"
    # The ability whose zero is death ("If health is reduced to zero, the character ... dies").
    health: Annotated[str, msgspec.Meta(min_length=1, max_length=40)] = "Health"
    # REC: any integer size dN >= 1; the upper bound only keeps typing errors out.
    max_die_size: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 100
    # REC: 1 pip = 1 face (dN - k = d(N-k)), or one step down d12,d10,d8,d6,d4,d2,d1,0.
    pips: Literal["faces", "steps"] = "faces"
    # REC: a character's Intensity when `character` gives none; GM events adjust it after.
    starting_intensity: Count = 10
    # REC: static difficulty pools pay nothing.
    difficulty_pays: Literal["nothing"] = "nothing"
    # The default difficulty pool ("default d2s": d2 x 4) and how many dice the GM may
    # replace with the target die's size (up to three).
    difficulty_die: Annotated[int, msgspec.Meta(ge=1, le=1000)] = 2
    difficulty_dice: Annotated[int, msgspec.Meta(ge=1, le=100)] = 4
    max_replaced: Count = 3
    # REC: no decisive pair at all gives no upper hand, no successes, no effects.
    no_decisive_pair: Literal["no-effects"] = "no-effects"
    # REC: a helping (or situational) failure is one of the difficulty pool's kept successes,
    # and the helper suffers it; `raw` counts every success of the difficulty pool.
    help_failures: Literal["kept", "raw"] = "kept"
    penalty_to: Literal["helper", "beneficiary"] = "helper"
    # REC: a penalty die joins the pool opposing the penalised character on its next roll.
    penalty_die: Literal["opposing-pool"] = "opposing-pool"
    # REC: a situation die is added free (not an Intensity extra), one use per roll;
    # `extra` makes each one count as an extra die in the round's cost.
    situation_die_cost: Literal["free", "extra"] = "free"
    # REC: both sides' effects still apply when a character dies during them.
    dead_allocate: bool = True
    # REC: reduced dice stay reduced until a heal or GM event (`conflict`: restored when the
    # conflict ends).
    damage: Literal["persists", "conflict"] = "persists"
    # Dice are rolled by tablelog (`managed`) or recorded from the table (`recorded`).
    dice: Literal["managed", "recorded"] = "managed"
    # A pool bought hidden is sealed (commit-reveal, rules/beer_run/sealed.py): the service
    # stores only a commitment over its content until every pool of the round is in.
    sealed_plays: bool = False


def check_new(options: BeerRunOptions) -> None:
    """What a new campaign's options must also be (a campaign already in a log keeps its own):
    each category a name the rules can match, given once; the health ability a name too."""
    seen: dict[str, str] = {}
    for given in options.categories.split(","):
        name = given.strip()
        key = _key(name, "categories", "category")
        if key in seen:
            raise InvalidInput(
                f"option categories names {name} twice ({seen[key]} and {name}); give each "
                "category once",
                code="invalid-option",
            )
        seen[key] = name
    _key(options.health, "health", "the health ability")


def _key(text: str, option: str, what: str) -> str:
    try:
        return player_name(text, what)
    except TablelogError as exc:
        raise InvalidInput(
            f"option {option} of beer-run: {exc.message}", code="invalid-option"
        ) from None
