"""Improv's options, with the defaults rules/improv.md decides (each DECIDED point and number)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from tablelog.errors import InvalidInput

Count = Annotated[int, msgspec.Meta(ge=0, le=1000)]
Positive = Annotated[int, msgspec.Meta(ge=1, le=1000)]
SuitOrder = Annotated[
    str,
    msgspec.Meta(
        pattern="^(?=.*C)(?=.*D)(?=.*H)(?=.*S)[CDHS]{4}$",
        description="the four suits C, D, H, S once each, lowest first (e.g. CDHS)",
    ),
]


class ImprovOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    deck_mode: Literal["recorded", "managed"] = "recorded"
    player_decks: Literal["shared", "per_player"] = "shared"
    joker_value: Annotated[int, msgspec.Meta(ge=2, le=100)] = 15
    bonus_value: Positive = 3
    suit_order: SuitOrder = "CDHS"
    lethal_fate: bool = False
    player_hand: Positive = 4
    gm_hand_base: Count = 3
    gm_tokens_per_player: Count = 3
    pool_per_player: Count = 1
    carry_tokens: bool = False
    award_source: Literal["pool", "giver"] = "pool"
    talent_uses_per_session: Count = 6
    extended_rounds: Positive = 3
    # The GM's token limit per conflict: simple 1 + P; extended 2 + 2P + 2 per round beyond 3
    # (P: players whose protagonists take part).
    gm_limit_simple_base: Count = 1
    gm_limit_extended_base: Count = 2
    gm_limit_extended_per_player: Count = 2
    gm_limit_per_extra_round: Count = 2
    gm_limit_base_rounds: Positive = 3
    # Face-down cards are sealed (commit-reveal, rules/sealing.py): the service stores only
    # a commitment until the owner opens the card. Recorded mode only: in managed mode the
    # service deals the hands and knows every card anyway.
    sealed_plays: bool = False


def check_new(options: ImprovOptions) -> None:
    """Options a new campaign cannot play with, beyond what their types say."""
    if options.sealed_plays and options.deck_mode == "managed":
        raise InvalidInput(
            "sealed_plays=true needs deck_mode recorded: in managed mode the service deals "
            "every hand and knows each card, so a seal would hide nothing",
            code="bad-option",
        )
