"""`verify --rng`: every committed shuffle recomputed from its revealed seed and contributions.

Walks one campaign's events in order and keeps, per request, its commitment, the pledges,
the contributions and the draws; each contribution to a request with pledges must open its
player's pledge and come after the pledges closed; at each reveal it checks the seed against
the commitment, and each draw (whether logged before or after the reveal) against the order
the algorithm gives (rules/rng.py). The first mismatch is named with its seq and what
differs; a request whose seed is not revealed yet is reported as pending, never as a
failure. Every seat a draw went without is named: absent (never pledged or contributed) or
withheld (pledged, never revealed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import msgspec

from tablelog.events.envelope import Envelope
from tablelog.events.rng import (
    RngCommitted,
    RngContributed,
    RngDrawn,
    RngPledged,
    RngPledgesClosed,
    RngRevealed,
)
from tablelog.rules import rng


class RngMismatch(msgspec.Struct, frozen=True, kw_only=True):
    campaign: str
    seq: int
    reason: str


class RngSeat(msgspec.Struct, frozen=True, kw_only=True):
    """A seat a draw went without (`absent` or `withheld`), or a draw that `lapsed` (no
    player: its command was refused when drawn), at the seq of its `rng.drawn`."""

    campaign: str
    request: str
    player: str
    seq: int
    why: str


class RngReport(msgspec.Struct, frozen=True, kw_only=True):
    ok: bool
    requests: int  # committed requests seen
    verified: int  # requests whose seed was revealed and every draw recomputed
    pending: list[str]  # "campaign:request" still waiting for their seed's reveal
    first_bad: RngMismatch | None
    missing: list[RngSeat] = []


@dataclass(frozen=True)
class Redraw:
    """What a drawn command needs to be decided again: its shuffles' seed and the command."""

    seed: bytes
    command: str


@dataclass
class _Request:
    commitment: str
    command: str
    pledges: bool
    pledged: dict[str, str] = field(default_factory=dict)  # player: commitment
    closed: RngPledgesClosed | None = None
    contributions: dict[str, bytes] = field(default_factory=dict)
    drawn: list[tuple[int, RngDrawn]] = field(default_factory=list)
    seed: bytes | None = None
    checked: int = 0  # how many of `drawn` have been recomputed
    seeds: dict[int, bytes] = field(default_factory=dict)  # shuffle seed per drawn seq


class _Mismatch(Exception):
    def __init__(self, seq: int, reason: str) -> None:
        self.seq, self.reason = seq, reason


@dataclass
class RngChecker:
    """Feed it the events of each campaign in seq order; `report()` says what held."""

    requests: int = 0
    verified: int = 0
    pending: list[str] = field(default_factory=list)
    first_bad: RngMismatch | None = None
    missing: list[RngSeat] = field(default_factory=list)
    # Per campaign, the drawn commands whose seed is known, by the seq of their rng.drawn.
    redraws: dict[str, dict[int, Redraw]] = field(default_factory=dict)

    def campaign(self, campaign: str, envelopes: Iterable[Envelope]) -> None:
        if self.first_bad is not None:
            return
        open_: dict[str, _Request] = {}
        try:
            for envelope in envelopes:
                if envelope.type.startswith("rng."):
                    event = envelope.event()
                    _take(open_, campaign, envelope.seq, event)
                    if isinstance(event, RngDrawn):
                        self.missing += _missing(campaign, envelope.seq, event)
        except _Mismatch as bad:
            self.first_bad = RngMismatch(campaign=campaign, seq=bad.seq, reason=bad.reason)
            return
        self.requests += len(open_)
        for name, request in open_.items():
            if request.seed is None:
                self.pending.append(f"{campaign}:{name}")
            else:
                self.verified += 1
                for seq, seed in request.seeds.items():
                    redraw = Redraw(seed, request.command)
                    self.redraws.setdefault(campaign, {})[seq] = redraw

    def report(self) -> RngReport:
        return RngReport(
            ok=self.first_bad is None,
            requests=self.requests,
            verified=self.verified,
            pending=self.pending,
            first_bad=self.first_bad,
            missing=self.missing,
        )


def _missing(campaign: str, seq: int, event: RngDrawn) -> list[RngSeat]:
    seats = [(p, "absent") for p in event.absent] + [(p, "withheld") for p in event.withheld]
    if event.lapsed:
        seats.append(("", "lapsed"))  # no seat: the command dealt nothing
    return [
        RngSeat(campaign=campaign, request=event.request, player=p, seq=seq, why=why)
        for p, why in seats
    ]


def _take(open_: dict[str, _Request], campaign: str, seq: int, event: object) -> None:
    match event:
        case RngCommitted(request=name, commitment=commitment, command=command):
            if name in open_:
                raise _Mismatch(seq, f"request {name} is committed twice")
            open_[name] = _Request(commitment, command, event.pledges)
        case RngPledged(request=name, player=player, commitment=pledge):
            found = _known(open_, seq, name)
            if not found.pledges or found.closed is not None or player in found.pledged:
                raise _Mismatch(seq, f"{player}'s pledge to request {name} is out of turn")
            found.pledged[player] = pledge
        case RngPledgesClosed(request=name):
            found = _known(open_, seq, name)
            if found.closed is not None or sorted(event.pledged) != sorted(found.pledged):
                raise _Mismatch(
                    seq,
                    f"the pledges of request {name} close with {event.pledged}; "
                    f"the log holds pledges of {sorted(found.pledged)}",
                )
            found.closed = event
        case RngContributed(request=name, player=player, value=value):
            found = _known(open_, seq, name)
            given = _bytes(seq, value, "contribution")
            if found.pledges:
                _opens(found, campaign, name, seq, player, given)
            found.contributions[player] = given
        case RngDrawn(request=name):
            found = _known(open_, seq, name)
            found.drawn.append((seq, event))
            _recompute(found, name)
        case RngRevealed(request=name, seed=seed):
            found = _known(open_, seq, name)
            found.seed = _bytes(seq, seed, "seed")
            if rng.commitment(found.seed) != found.commitment:
                raise _Mismatch(
                    seq,
                    f"the seed revealed for request {name} hashes to "
                    f"{rng.commitment(found.seed)}, not to its commitment {found.commitment}",
                )
            _recompute(found, name)


def _opens(found: _Request, campaign: str, name: str, seq: int, player: str, value: bytes) -> None:
    """A contribution to a request with pledges: after the pledges closed, opening the
    pledge of its player (else a value could have been chosen after seeing the others')."""
    if found.closed is None or player not in found.closed.pledged:
        raise _Mismatch(
            seq, f"{player}'s contribution to request {name} is not after a pledge of theirs"
        )
    if rng.pledge(campaign, name, player, value) != found.pledged[player]:
        raise _Mismatch(
            seq, f"{player}'s contribution to request {name} does not open their pledge"
        )


def _known(open_: dict[str, _Request], seq: int, name: str) -> _Request:
    found = open_.get(name)
    if found is None:
        raise _Mismatch(seq, f"request {name} was never committed")
    return found


def _bytes(seq: int, text: str, what: str) -> bytes:
    value = rng.from_hex(text)
    if value is None:
        raise _Mismatch(seq, f"the {what} {text!r} is not {rng.SEED_BYTES} bytes in hex")
    return value


def _recompute(request: _Request, name: str) -> None:
    """Check the draws not checked yet, once the seed is known."""
    if request.seed is None:
        return
    for seq, drawn in request.drawn[request.checked :]:
        missing = [p for p in drawn.players if p not in request.contributions]
        if missing:
            raise _Mismatch(
                seq, f"request {name} counts a contribution of {missing[0]}, who gave none"
            )
        seed = rng.shuffle_seed(request.seed, [request.contributions[p] for p in drawn.players])
        if drawn.lapsed is None:
            request.seeds[seq] = seed
        wanted = rng.recomputed(seed, [d.cards for d in drawn.draws])
        for index, (draw, order) in enumerate(zip(drawn.draws, wanted, strict=True)):
            if list(draw.order) != order:
                at = next(
                    (i for i, (a, b) in enumerate(zip(draw.order, order, strict=False)) if a != b),
                    min(len(draw.order), len(order)),
                )
                raise _Mismatch(
                    seq,
                    f"shuffle {index + 1} of request {name} is logged as {draw.order}; the "
                    f"revealed seed and contributions give {order} (first difference at "
                    f"position {at + 1})",
                )
    request.checked = len(request.drawn)
