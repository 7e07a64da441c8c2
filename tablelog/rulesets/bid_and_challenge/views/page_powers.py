"""The powers a bid (or, with option challenger_power, a challenge) may name, as the parts of
a page form: the fields each asks for, with choices where the state knows them, and a probe
power the rules can try (a target and cards that exist, an id not taken yet)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import NamedTuple

from tablelog.projections.page import Field
from tablelog.rulesets.bid_and_challenge.events import Zone
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Character

TEXT = "…"  # what a probe says where the person will write their own words


class PowerForm(NamedTuple):
    kind: str  # PowerSpec.type, fixed by the form
    words: str  # what the form's title says it does
    fields: list[Field]  # named `power.…`: the page fills the object `power` with them
    probe: c.PowerSpec


def power_forms(state: BidAndChallengeState, who: Character) -> list[PowerForm]:
    """One form's part per power `who` may name."""
    with_discard = [k for k, ch in sorted(state.characters.items()) if ch.in_zone("discard")]
    with_deck = [k for k, ch in sorted(state.characters.items()) if ch.in_zone("deck")]
    return [
        PowerForm(
            "detail",
            "define a detail",
            [
                Field(name="power.detail", label="detail id (e.g. gate-open)"),
                Field(name="power.text", label="the detail, in words"),
            ],
            c.PowerSpec(type="detail", detail=_free_id(state.details, "detail"), text=TEXT),
        ),
        PowerForm(
            "strike",
            "strike a card",
            [
                Field(name="power.target", label="whose Deck", kind="choice", choices=with_deck),
                Field(
                    name="power.cards",
                    label="the card struck (one)",
                    kind="lines",
                    choices=_cards_of(state, with_deck, "deck"),
                ),
            ],
            c.PowerSpec(
                type="strike",
                target=with_deck[0] if with_deck else None,
                cards=_first(state, with_deck, "deck"),
            ),
        ),
        PowerForm(
            "restore",
            "restore cards",
            [
                Field(
                    name="power.target", label="whose Discard", kind="choice", choices=with_discard
                ),
                Field(
                    name="power.cards",
                    label=f"cards restored (up to Flow {who.flow})",
                    kind="lines",
                    choices=_cards_of(state, with_discard, "discard"),
                ),
            ],
            c.PowerSpec(
                type="restore",
                target=with_discard[0] if with_discard else None,
                cards=_first(state, with_discard, "discard"),
            ),
        ),
        PowerForm(
            "universe_card",
            "create a universe card",
            [
                Field(name="power.card.name", label="new universe card's name"),
                Field(name="power.card.value", label="its dice value (e.g. 1d6+1)"),
            ],
            c.PowerSpec(
                type="universe_card",
                card=c.CardSpec(name=_free_id(state.universe.cards, "card"), value="1d6"),
            ),
        ),
    ]


def _free_id(taken: Collection[str], stem: str) -> str:
    n = len(taken) + 1
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


def _cards_of(state: BidAndChallengeState, owners: Sequence[str], zone: Zone) -> list[str]:
    return list(dict.fromkeys(k for o in owners for k in state.characters[o].in_zone(zone)))


def _first(state: BidAndChallengeState, owners: Sequence[str], zone: Zone) -> list[str]:
    return state.characters[owners[0]].in_zone(zone)[:1] if owners else []
