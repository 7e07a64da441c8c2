"""Improv's options, with the defaults rules/improv.md decides (each DECIDED point and number)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

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
