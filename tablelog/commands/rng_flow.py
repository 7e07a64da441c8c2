"""Committed shuffles inside the append (group_commit.py calls in; README, "Committed shuffles").

In a campaign created with `committed_rng=true`, a command that asks for randomness is not
decided at once: `decide` appends `rng.committed` (the commitment of a fresh server seed,
kept in `rng_seeds`, and the command itself) instead. Each awaited player pledges, then
contributes (rng_answer.py); when the last pledged value is revealed, or the GM closes the
request after a deadline, the command is decided with the committed shuffle of the server
seed and the contributions (`rng.drawn`, then the command's own events, in the same
transaction). The
seed is revealed (`rng.revealed`) when the conflict it was drawn for ends, a session ends,
or the GM asks once that conflict is over; a command that logged hidden facts (a deck's
order, a hand) keeps its seed until each of its shuffles has been shuffled again by a later
one (the same cards or more: a new deck), since until then its cards may still be in
play. A request with no player to await (no player holds a token yet) is drawn at once
from the server seed alone: logged, so the audit says the operator could have chosen it.
"""

from __future__ import annotations

import copy
import secrets
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from tablelog.errors import RuleViolation, TablelogError
from tablelog.events.base import Event, event_class
from tablelog.events.envelope import Envelope
from tablelog.events.rng import RngCommitted, RngDraw, RngDrawn, RngRevealed
from tablelog.projections.fold import Folded
from tablelog.projections.registry import views_for
from tablelog.rules import rng, rng_options
from tablelog.rules.table import GM
from tablelog.storage import CampaignTransaction
from tablelog.storage import rng_seeds as seeds

Acted = list[tuple[Event, str | None]]  # events with whom they are attributed to (None: rules)
Salt = Callable[[Any], Any]


class _NeedsRandom(Exception):
    pass


def _probe(cards: list[str]) -> list[str]:
    raise _NeedsRandom


def setting(tx: CampaignTransaction) -> rng_options.RngOptions:
    """The campaign's core options, from its first event."""
    created: Any = seeds.event_at(tx.connection, tx.head.name, 1).event()
    return rng_options.recorded(created.options)


def decide(
    tx: CampaignTransaction, folded: Folded, command: Any, by: str | None, salt: Salt
) -> Acted:
    """The command's events, or the request that will decide it once the players have
    contributed (the command draws nothing: decided as ever)."""
    waiting = seeds.in_state(tx.connection, tx.head.name, "open")
    try:
        events = folded.ruleset.decide(folded.state, command, _probe)
    except _NeedsRandom:
        if waiting:
            # Two requests open at once would let a seat that sees both deals choose the
            # one drawn (by revealing for it): one committed shuffle at a time.
            raise RuleViolation(
                f"request {waiting[0].request} still awaits the players; a command that "
                "needs a shuffle waits until it is drawn (the players' reveals, or `tablelog "
                "rng close` after its deadline)",
                code="rng-waiting",
            ) from None
    else:
        _keeps_playable(tx, folded, waiting, events)
        return [(salt(e), by) for e in events]
    options = setting(tx)
    seed = secrets.token_bytes(rng.SEED_BYTES)
    request = secrets.token_hex(8)
    awaited = [p for p in seeds.players(tx.connection, tx.head.name) if p != GM]
    deadline = time.time_ns() // 1000 + options.rng_deadline_minutes * 60_000_000
    committed = RngCommitted(
        request=request,
        commitment=rng.commitment(seed),
        command=_encoded(command),
        actor=by or "",
        awaited=awaited,
        deadline=deadline,
        conflict=getattr(command, "conflict", None),
        pledges=True,
    )
    seeds.keep(tx.connection, tx.head.name, request, seed, tx.head.seq + 1)
    acted: Acted = [(committed, by or GM)]
    if not awaited:
        row = seeds.SeedRow(request, seed, tx.head.seq + 1, "open")
        acted += drawn(tx, folded, committed, row, {}, [], salt)
    return acted


def _keeps_playable(
    tx: CampaignTransaction, folded: Folded, waiting: list[seeds.SeedRow], events: list[Event]
) -> None:
    """Refuse `events` if they would leave a waiting request's command unplayable: a command
    that lapsed at its draw could be issued again for a new deal, so letting the table move
    it out of play would let whoever sees the reveals come in choose to draw again."""
    if not waiting or not events:
        return
    after = copy.deepcopy(folded.state)
    for event in events:
        if not event.beside_table:
            after = folded.ruleset.evolve(after, event)
    for row in waiting:
        committed = seeds.event_at(tx.connection, tx.head.name, row.committed_seq).event()
        assert isinstance(committed, RngCommitted)
        try:
            folded.ruleset.decide(after, command_of(folded.ruleset, committed.command), _probe)
        except _NeedsRandom:
            continue
        except TablelogError as exc:
            raise RuleViolation(
                f"request {row.request} still awaits the players for a command this would "
                f"leave unplayable ({exc}); it is drawn first (the players' reveals, or "
                "`tablelog rng close` after its deadline)",
                code="rng-waiting",
            ) from None


def reveals_due(tx: CampaignTransaction, folded: Folded, written: Sequence[Envelope]) -> Acted:
    """The reveals these events make due: every drawn seed when a session ends, and those
    drawn for a conflict that is no longer open."""
    ended = any(getattr(event_class(w.type), "ends_session", False) for w in written)
    acted: Acted = []
    drawn = seeds.in_state(tx.connection, tx.head.name, "drawn")
    if drawn:
        open_ = set() if ended else _open_conflicts(folded)
        acted += [revealed(tx, r) for r in drawn if r.conflict is None or r.conflict not in open_]
    fresh = [e for w in written if w.type == "rng.drawn" and isinstance(e := w.event(), RngDrawn)]
    if fresh:
        acted += _retired(tx, fresh)
    return acted


def _retired(tx: CampaignTransaction, fresh: list[RngDrawn]) -> Acted:
    """The held seeds whose every shuffle some later shuffle has covered (the same cards, or
    more, shuffled again: its orders then say nothing of a card in play) are revealed."""
    new = [d.cards for e in fresh for d in e.draws]
    acted: Acted = []
    for row in seeds.in_state(tx.connection, tx.head.name, "held"):
        if any(e.request == row.request for e in fresh):
            continue  # its own shuffles do not retire it
        left = [cards for cards in row.unretired or [] if not _covered(cards, new)]
        if left == row.unretired:
            continue
        if left:
            seeds.move(tx.connection, tx.head.name, row.request, "held", unretired=left)
        else:
            acted.append(revealed(tx, row))
    return acted


def _covered(cards: list[str], later: list[list[str]]) -> bool:
    wanted = Counter(cards)
    return any(not wanted - Counter(other) for other in later)


def _open_conflicts(folded: Folded) -> set[str]:
    view = views_for(folded.ruleset.name).state_view(folded.state, None)
    conflicts = view.get("conflicts") or {}
    return {key for key, c in conflicts.items() if c.get("status") == "open"}


def reveal_asked(tx: CampaignTransaction, folded: Folded, row: seeds.SeedRow) -> Acted:
    if row.state == "open":
        raise RuleViolation(
            f"request {row.request} still awaits contributions; its seed out now "
            "would let the last contributor choose the shuffle",
            code="rng-open",
        )
    if row.state == "revealed":
        raise RuleViolation(
            f"the seed of request {row.request} is already in the log",
            code="rng-revealed",
        )
    if row.state == "held":
        raise RuleViolation(
            f"the command of request {row.request} dealt hidden cards that may still be in "
            "play; its seed is revealed once a later shuffle has replaced each of its decks",
            code="rng-held",
        )
    if row.conflict is not None and row.conflict in _open_conflicts(folded):
        raise RuleViolation(
            f"conflict {row.conflict} is still open and its deck may still be in "
            f"play; the seed of request {row.request} is revealed when it ends",
            code="rng-live",
        )
    return [revealed(tx, row)]


def revealed(tx: CampaignTransaction, row: seeds.SeedRow) -> tuple[Event, str | None]:
    seeds.move(tx.connection, tx.head.name, row.request, "revealed")
    event = RngRevealed(request=row.request, seed=row.seed.hex(), conflict=row.conflict)
    return event, GM


def drawn(
    tx: CampaignTransaction,
    folded: Folded,
    committed: RngCommitted,
    row: seeds.SeedRow,
    given: dict[str, bytes],
    absent: list[str],
    salt: Salt,
    withheld: Sequence[str] = (),
) -> Acted:
    """The waiting command decided with the committed shuffle, on the state as it is now."""
    players = [p for p in committed.awaited if p in given]
    shuffle = rng.CommittedShuffle(rng.shuffle_seed(row.seed, [given[p] for p in players]))
    lapsed: str | None = None
    events: list[Event] = []
    try:
        command = command_of(folded.ruleset, committed.command)
        events = folded.ruleset.decide(folded.state, command, shuffle)
    except TablelogError as exc:  # the table moved on meanwhile: the command lapses
        lapsed = str(exc)
    conflict = next((c for e in events if (c := e.conflict_id()) is not None), None)
    conflict = conflict or committed.conflict
    # A command that logged hidden facts (a deck's order, a hand) may leave cards in play
    # that its seed would show: held until every one of its shuffles is shuffled again by a
    # later one (a new deck). Public outcomes (dice) are revealed when their conflict ends.
    held = any(e.hidden for e in events)
    event = RngDrawn(
        request=row.request,
        players=players,
        absent=absent,
        withheld=list(withheld),
        draws=[RngDraw(cards=list(d.cards), order=list(d.order)) for d in shuffle.draws],
        lapsed=lapsed,
        conflict=conflict,
        held=held,
    )
    unretired = [list(d.cards) for d in shuffle.draws] if held else None
    state = "held" if held else "drawn"
    seeds.move(tx.connection, tx.head.name, row.request, state, conflict, unretired)
    by = committed.actor or None
    return [(salt(event), by or GM), *((salt(e), by) for e in events)]


def when(micros: int) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(micros / 1_000_000))


def _encoded(command: Any) -> str:
    body = {"command": type(command).__name__, "fields": msgspec.to_builtins(command)}
    return msgspec.json.encode(body).decode()


def command_of(ruleset: Any, text: str) -> Any:
    """The command a request holds (as `_encoded` wrote it), for `ruleset`."""
    body = msgspec.json.decode(text)
    kinds = {kind.__name__: kind for kind in ruleset.commands}
    return msgspec.convert(body["fields"], kinds[body["command"]])
