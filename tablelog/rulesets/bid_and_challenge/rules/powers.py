"""What a bid can do if it wins: exactly one listed power (plus free narration).

`power_of` checks a named power when the bid is made; `apply` writes its effect once the round
is won, on the zones as they stand after the round's cards went back.
"""

from __future__ import annotations

from collections.abc import Mapping

from tablelog.errors import InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rules.names import campaign_key, player_name
from tablelog.rules.text import text_of
from tablelog.rulesets.bid_and_challenge import events as ev
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import lookup
from tablelog.rulesets.bid_and_challenge.rules.lookup import ZONE_WORD as ZONE
from tablelog.rulesets.bid_and_challenge.rules.people import new_universe_card
from tablelog.rulesets.bid_and_challenge.rules.state import BidAndChallengeState, Character

_FIELDS = {
    "restore": {"target", "cards"},
    "strike": {"target", "cards"},
    "detail": {"detail", "text"},
    "universe_card": {"card"},
}


def _given(spec: c.PowerSpec) -> set[str]:
    values = {
        "target": spec.target,
        "cards": spec.cards or None,
        "detail": spec.detail,
        "text": spec.text,
        "card": spec.card,
    }
    return {name for name, value in values.items() if value is not None}


def power_of(state: BidAndChallengeState, spec: c.PowerSpec, bidder: Character) -> ev.Power:
    """The power checked: its target and cards where they must be, its Flow limit, a detail
    nobody has defined, a universe card not yet in the universe deck."""
    stray = _given(spec) - _FIELDS[spec.type]
    if stray:
        raise InvalidInput(
            f"the {spec.type} power takes {' and '.join(sorted(_FIELDS[spec.type]))}; "
            f"{', '.join(sorted(stray))} given too",
            code="power-fields",
        )
    match spec.type:
        case "restore" | "strike":
            if spec.target is None:
                raise InvalidInput(
                    f"the {spec.type} power names a major character (target)", code="no-target"
                )
            target = lookup.character(state, spec.target)
            if spec.type == "restore" and not 1 <= len(spec.cards) <= bidder.flow:
                raise RuleViolation(
                    f"restore power moves at most Flow ({bidder.flow}) cards and at least 1; "
                    f"got {len(spec.cards)}",
                    code="restore-limit",
                )
            if spec.type == "strike" and len(spec.cards) != 1:
                raise RuleViolation(
                    f"strike power moves one card from Deck to Discard; got {len(spec.cards)}",
                    code="strike-one",
                )
            zone: ev.Zone = "discard" if spec.type == "restore" else "deck"
            cards = lookup.cards_in(target, spec.cards, zone, target.key)
            return ev.Power(type=spec.type, target=target.key, cards=cards)
        case "detail":
            if spec.detail is None or spec.text is None:
                raise InvalidInput(
                    "the detail power names the detail and its text", code="no-detail"
                )
            key = player_name(spec.detail, "detail id")
            defined = defined_as(state, key)
            if defined is not None:
                known = state.details[defined]
                alike = (
                    ""
                    if defined == key
                    else f" ({key} is that id: ids that differ only in case or punctuation are one)"
                )
                raise RuleViolation(
                    f"detail {defined} was defined by {known.by}; details cannot be "
                    f"redefined{alike}",
                    code="detail-defined",
                )
            return ev.Power(type="detail", detail_id=key, text=text_of(spec.text, "a detail"))
        case "universe_card":
            if spec.card is None:
                raise InvalidInput(
                    "the universe_card power names the new card (NAME:NdS+M)", code="no-card"
                )
            return ev.Power(type="universe_card", card=new_universe_card(state, spec.card))


def defined_as(state: BidAndChallengeState, detail_id: str) -> str | None:
    """The defined detail `detail_id` names, if any. Ids are compared as campaign names are
    (letters and digits, any case), so `gate_open` cannot redefine `gate-open`."""
    wanted = campaign_key(detail_id)
    return next((key for key in state.details if campaign_key(key) == wanted), None)


def apply(
    state: BidAndChallengeState,
    power: ev.Power,
    by: str,
    scene: str,
    number: int,
    zones: Mapping[tuple[str, str], ev.Zone],
) -> tuple[list[Event], str]:
    """The power's events, on `zones` ((owner, card) -> zone after the round's returns), and
    what it could not do, in words ("" when it did everything). Another open scene may have
    moved a card, defined the detail or created the universe card since the bid was made: that
    part of the power is left undone, and the resolution says why, so nobody is left guessing
    why a won bid changed nothing."""
    match power.type:
        case "restore" | "strike":
            assert power.target is not None
            source: ev.Zone = "discard" if power.type == "restore" else "deck"
            to: ev.Zone = "deck" if power.type == "restore" else "discard"
            target = state.holder(power.target)
            moves: list[Event] = []
            missed: list[str] = []
            for key in power.cards:
                now = zones.get((power.target, key), target.zones[key])
                if now == source:
                    moves.append(
                        ev.CardMoved(
                            conflict=scene,
                            card_id=key,
                            owner=power.target,
                            from_=source,
                            to=to,
                            reason="bid_power",
                        )
                    )
                else:
                    missed.append(f"{target.cards[key].name} (in {ZONE[now]})")
            if not missed:
                return moves, ""
            return moves, (
                f"the {power.type} power cannot move {', '.join(missed)}: not in "
                f"{power.target}'s {ZONE[source]} any more (another scene moved it since the bid)"
            )
        case "detail":
            assert power.detail_id is not None
            assert power.text is not None
            defined = defined_as(state, power.detail_id)
            if defined is not None:
                known = state.details[defined]
                return [], (
                    f"the power does nothing: detail {defined} was defined by "
                    f"{known.by} in scene {known.conflict} since the bid"
                )
            return [
                ev.DetailDefined(conflict=scene, detail_id=power.detail_id, text=power.text, by=by)
            ], ""
        case "universe_card":
            card = power.card
            assert card is not None
            if card.card_id in state.universe.cards:
                return [], (
                    f"the power does nothing: the universe deck has a card {card.name} "
                    "already, created since the bid"
                )
            return [
                ev.UniverseCardCreated(
                    card_id=card.card_id,
                    name=card.name,
                    dice=card.dice,
                    mod=card.mod,
                    by=by,
                    via_round=number,
                    conflict=scene,
                )
            ], ""
