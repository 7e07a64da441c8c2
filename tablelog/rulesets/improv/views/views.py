"""Improv views: `state --json` and `improv show --json`, as cli.md shapes them.

`viewer` None is the operator's own view (everything); a player key (or `gm`) hides face-down
cards that are not that viewer's own until the round is revealed.
"""

from __future__ import annotations

from typing import Any

from tablelog.errors import Forbidden, InvalidInput
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.cards import value
from tablelog.rulesets.improv.rules.state import (
    GM,
    ClosedConflict,
    Conflict,
    ImprovState,
    Play,
    Round,
    Side,
)
from tablelog.rulesets.improv.views import narration


def _owner(side: Side) -> str:
    return GM if side.gm or side.player is None else side.player


def _visible(side: Side, rnd: Round, play: Play, viewer: str | None, managed: bool = False) -> bool:
    """Local operators (None) see everything; a face-down card is its owner's, unless it was
    played blind (no one's until the reveal): from an empty hand, or the GM's from the top of
    a managed deck, "randomly from the top of the deck" as the seed has it."""
    blind = play.unseen or (managed and play.from_deck)
    return viewer is None or rnd.revealed or (viewer == _owner(side) and not blind)


def state_view(state: ImprovState, viewer: str | None = None) -> dict[str, Any]:
    """Improv's own keys of `state --json` (core code puts the shared ones first)."""
    return {
        "deck_mode": state.options.deck_mode,
        "tokens": tokens_view(state),
        "talents": talents_view(state),
        "conflicts": {
            c.key: conflict_summary(c) if isinstance(c, Conflict) else closed_summary(c)
            for c in state.every_conflict()
        },
        "hands": {owner: len(cards) for owner, cards in sorted(state.hands.items())}
        if state.managed
        else {},
    }


def tokens_view(state: ImprovState) -> dict[str, Any]:
    """The token ledger, every player listed (zeros too): public."""
    ledger = state.ledger
    players = sorted(p for p in state.players if p != state.gm)
    return {
        "gm": ledger.gm,
        "pool": ledger.pool,
        "bank": ledger.bank,
        "out_of_play": ledger.out_of_play,
        "table": ledger.table,
        "players": {p: ledger.players.get(p, 0) for p in players},
    }


def talents_view(state: ImprovState) -> dict[str, Any]:
    """Talent use this session per character: public."""
    return {
        key: {
            "player": ch.player,
            "used": ch.used,
            "limit": state.options.talent_uses_per_session,
            "by_talent": {t: ch.uses.get(t, 0) for t in ch.talents},
        }
        for key, ch in sorted(state.characters.items())
    }


def closed_summary(record: ClosedConflict) -> dict[str, Any]:
    """A conflict as `state` lists it, from its record (an archived conflict's, or a whole
    one's: see `conflict_summary`)."""
    return _summary(record, "closed", showing_beats=True)


def conflict_summary(conflict: Conflict) -> dict[str, Any]:
    showing_beats = conflict.kind == "simple" or conflict.status == "closed"
    return _summary(conflict.record(), conflict.status, showing_beats=showing_beats)


def _summary(record: ClosedConflict, status: str, *, showing_beats: bool) -> dict[str, Any]:
    return {
        "kind": record.kind,
        "status": status,
        "round": record.played,  # rounds are numbered 1, 2, ... as they begin
        "rounds": record.planned_rounds,
        "sides": {
            side.key: {
                "gm": side.gm,
                "player": side.player,
                "stake": side.text,
                "opposes": side.opposes,
                "victory": list(side.victory),
                "status": side.status,
            }
            for side in record.sides
        },
        "beats": [list(b) for b in record.beats] if showing_beats else [],
        "abandoned": record.abandoned,  # the GM's reason, or null
    }


def show(state: ImprovState, given: str | None, viewer: str | None = None) -> dict[str, Any]:
    """`show`: the conflict `given` names (None: the only open one), closed ones included."""
    return show_view(state, lookup.conflict(state, given, open_only=False), viewer)


def kept_at(state: ImprovState, given: str | None) -> int | None:
    """The seq whose state holds an archived conflict whole (see ClosedConflict)."""
    record = lookup.archived(state, given)
    return record.closed_at if record is not None else None


def hand(state: ImprovState, who: str, viewer: str | None) -> dict[str, Any]:
    """A managed hand, shown only to its owner (`viewer` None: the local operator sees any)."""
    if not state.managed:
        raise InvalidInput("hands are tracked only with --deck-mode managed", code="not-managed")
    owner = lookup.player(state, who)
    if viewer is not None and viewer != owner:
        whose = "the GM's" if owner == GM else f"{owner}'s"
        raise Forbidden(f"{whose} hand is visible to its owner only", code="not-yours")
    return hand_view(state, owner)


def show_view(state: ImprovState, conflict: Conflict, viewer: str | None = None) -> dict[str, Any]:
    options = state.options
    rounds = []
    for rnd in conflict.rounds:
        plays: dict[str, Any] = {}
        for key, play in rnd.plays.items():
            side = conflict.sides[key]
            # A sealed card nobody has opened is unknown to everyone, the operator included;
            # an opened one is in the log for all to see.
            shown = bool(play.card) and (
                _visible(side, rnd, play, viewer, state.managed) or play.sealed
            )
            total = (
                value(play.card, options.joker_value) + options.bonus_value * rnd.markers_on(key)
                if play.card
                else 0
            )
            plays[key] = {
                "card": play.card if shown else None,
                "tokens": rnd.tokens_on(key),
                "talent": rnd.talent_on(key),
                "bonuses": [
                    {
                        "by": b.by,
                        "kind": b.kind,
                        "count": b.count,
                        "talent": b.talent,
                        "assist": b.assist,
                    }
                    for b in rnd.bonuses
                    if b.on == key
                ],
                "total": total if shown else None,
                "from_deck": play.from_deck,
                "unseen": play.unseen,
            }
            if options.sealed_plays:
                plays[key] |= {
                    "sealed": play.sealed,
                    "commitment": play.commitment or None,
                    "opened": play.sealed and bool(play.card) and not play.forfeited,
                    "forfeited": play.forfeited,
                }
        rights = (
            narration.rights(
                rnd.ranking, rnd.totals, {k: p.card for k, p in rnd.plays.items()}, options
            )
            if rnd.revealed and rnd.ranking
            else []
        )
        rounds.append(
            {
                "round": rnd.number,
                "revealed": rnd.revealed,
                "plays": plays,
                # The reveal's ranking, highest first: each side holds narration rights over
                # every side below it (multi-way conflicts, rules/improv.md §5).
                "ranking": list(rnd.ranking) if rnd.revealed else [],
                "narration_rights": {r.side: r.over for r in rights},
                "beats": [list(b) for b in rnd.beats],
                "winners": list(rnd.winners),
                "ties": [list(p) for p in rnd.fate.pending],
                "fate": [list(r) for r in rnd.fate.results],
                "choices_due": list(rnd.fate.choices_due),
            }
        )
    summary = conflict_summary(conflict)
    view = {
        "conflict": conflict.key,
        "kind": conflict.kind,
        "status": conflict.status,
        "rounds": rounds,
        "sides": summary["sides"],
        "beats": summary["beats"],
        "abandoned": conflict.abandoned,
    }
    if options.sealed_plays:  # the round a card played now goes to, which its seal binds
        view |= {
            "sealed_plays": True,
            "next_round": next_round(conflict),
            "deadline": conflict.current.deadline if conflict.current is not None else None,
        }
    return view


def next_round(conflict: Conflict) -> int:
    """The round a card played now goes to (the round a sealed play binds)."""
    rnd = conflict.current
    if rnd is None:
        return 1
    return rnd.number if not rnd.revealed else rnd.number + 1


def hand_view(state: ImprovState, owner: str) -> dict[str, Any]:
    deck = state.decks.get(state.deck_of(owner))
    return {
        "cards": list(state.hands.get(owner, [])),
        "deck": len(deck.draw) if deck else 0,
        "discard": len(deck.discard) if deck else 0,
    }
