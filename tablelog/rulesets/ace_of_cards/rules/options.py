"""Ace of Cards' options: each REC of rules/ace-of-cards.md as a named option with that default.

Options whose text admits one behaviour only (`mp_steps`, `consecutive`, ...) are still
recorded in the creation event: a campaign keeps the meaning it began with if a later tablelog
offers others.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

SkillCap = Annotated[int, msgspec.Meta(ge=1, le=10)]


class AceOfCardsOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # REC: Double or Nothing without a critical: any other success becomes a failure (the
    # seed), or any non-critical Result counts as a critical failure (the 2023 text).
    don_miss: Literal["failure", "fumble"] = "failure"
    # REC: two groups of the same value (4 of a kind as Double Trouble, 5 of a kind through a
    # joker as Full Status) count (`allowed`), or the groups must differ (`strict`).
    same_value_groups: Literal["allowed", "strict"] = "allowed"
    # Skill maxima: Magic Cards 3 (2023 PDF); Mulligan 5 and Trap Card 4 (an unofficial
    # dataset; the seed is silent, so they are the campaign's configuration).
    max_sl_magic_cards: SkillCap = 3
    max_sl_mulligan: SkillCap = 5
    max_sl_trap_card: SkillCap = 4
    # Shuffles and draws made by tablelog (`managed`) or recorded from the table's cards.
    deck_mode: Literal["managed", "recorded"] = "managed"
    # Check dice rolled by tablelog (`managed`) or recorded from the table (`recorded`).
    dice: Literal["managed", "recorded"] = "managed"
    # REC: MP spent is a multiple of 5 in [10, 10 + 5 x SL], at most the MP left and 5 x hand.
    mp_steps: Literal["multiple-of-5"] = "multiple-of-5"
    # REC: values 1-7 do not wrap around (7-1 is not consecutive).
    consecutive: Literal["no-wrap"] = "no-wrap"
    # REC: a joker's chosen value and suit count everywhere (sum, highest, parity, type).
    joker_values: Literal["chosen"] = "chosen"
    # REC: a set matching no effect still costs its MP, and its cards are discarded and redrawn.
    no_effect: Literal["spent"] = "spent"
    # REC: a set's cards are discarded first, then drawn (they may be reshuffled into the deck).
    refill: Literal["discard-then-draw"] = "discard-then-draw"
    # REC: Trap Card is not usable while the deck is empty.
    trap_empty_deck: Literal["refused"] = "refused"
    # REC: Jackpot's 777 (and every recovery) stops at the maximum HP / MP.
    recovery_cap: Literal["max"] = "max"
    # REC: Double or Nothing may be declared on a Magic Pair's free attack (an Accuracy Check).
    don_on_magic_pair: Literal["allowed"] = "allowed"
    # REC: Double or Nothing and High or Low are Skills of the class: a character uses one once
    # it has taken it (`taken`), or every Ace may (`all`). A campaign created before this
    # option (its creation event has none) plays on as `all`: see evolve.initial.
    class_skills: Literal["taken", "all"] = "taken"
    # REC: doubling a Clock covers every section the Check fills, an opportunity's included.
    clock_doubling: Literal["with-opportunity"] = "with-opportunity"
