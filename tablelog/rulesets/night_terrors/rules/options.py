"""Night Terrors' options: each REC of rules/night-terrors.md as a named option with its default.

Options whose text admits one behaviour only (`mixed_faces`, `several_trumps`, ...) are still
recorded in the creation event: a campaign keeps the meaning it began with if a later tablelog
offers others.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Value = Annotated[int, msgspec.Meta(ge=0, le=100)]


class NightTerrorsOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # The deck is shuffled and drawn by tablelog (`managed`), or the table's draws are
    # recorded card by card (`recorded`).
    deck: Literal["managed", "recorded"] = "managed"
    # REC: pip values, Ace = 1; a face card alone = 10 (fits "two faces = 20").
    ace_value: Annotated[int, msgspec.Meta(ge=1, le=14)] = 1
    face_value: Value = 10
    # REC: with N = sum of number cards and F = faces: F=0 gives N, F>=1 and N>0 gives 2N
    # (faces do not stack), N=0 gives face_value x F.
    mixed_faces: Literal["double-once"] = "double-once"
    # REC: `sorted` rates each card singly, drops one lowest and one highest, and takes the
    # highest left; `positional`: the highest of the cards between the first and last played.
    middle: Literal["sorted", "positional"] = "sorted"
    # REC: several trumps in one raise: the largest single trump value counts; one trump in
    # the answer is enough.
    several_trumps: Literal["largest"] = "largest"
    # REC: a number trump paired with a non-trump face counts its undoubled pip value.
    number_trump: Literal["pip"] = "pip"
    # REC: a push may use 0+ cards; price = raise - total, plus trump fallout when the answer
    # holds no trump.
    push_trump_fallout: bool = True
    # REC: Hearts/Clubs costs may be split freely between their two pools.
    either_pool: Literal["split"] = "split"
    # REC: a rank trade moves up to half of what *this payment* owes that pool (`payment`),
    # or up to half of the pool as it stands (`pool`).
    trade_limit: Literal["payment", "pool"] = "payment"
    # REC: escalation goes up only (Diamonds, Hearts, Clubs, Spades), skipping allowed.
    escalation: Literal["upward"] = "upward"
    # Push and escalate are for a character who cannot see (`strict`: no cards of the hand
    # meet the raise), or for anyone owing an answer (`free`).
    cannot_see: Literal["strict", "free"] = "strict"
    # Cards a hand holds after a reset, drawn for a conflict, and for an escalation (one
    # more when the trump is the character's suit).
    hand_size: Annotated[int, msgspec.Meta(ge=1, le=13)] = 4
    conflict_draw: Annotated[int, msgspec.Meta(ge=0, le=13)] = 4
    # A payment the rules leave no choice in is made at once (`forced`); `ask` waits for
    # `pay` every time (a table that pays with chips may want to).
    pay: Literal["forced", "ask"] = "forced"
    # Each pool's start and cap.
    pool_size: Annotated[int, msgspec.Meta(ge=1, le=100)] = 20
    # REC: a pool at 0 takes the character out of its conflicts at once; excess cost is lost.
    pool_zero: Literal["leave"] = "leave"
