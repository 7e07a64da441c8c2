"""The players' side of a committed shuffle (README, "Committed shuffles"): pledges,
contributions, the GM's close and reveal, answered inside the append (group_commit.py).

A request committed since issue 25 (`RngCommitted.pledges`) takes its contributions in two
steps. First each awaited player pledges: it logs only the commitment of its 32 bytes
(`rng.pledged`). No value may be revealed while a pledge is still awaited: a seat that saw
the others' values before choosing its own could try values until the deal suits it, and
the operator, who knows the server seed, could do that with a seat of its own. When the
last pledge is in, or the GM closes the request after its deadline (the missing are
`absent`), `rng.pledges_closed` fixes who pledged; each of them then reveals its value
(`rng.contributed`, checked against its pledge), and the last reveal draws. A pledge still
unrevealed at the reveal deadline is drawn without, named in `rng.drawn` as withheld: all a
seat can still choose is to reveal or not, in the log for everyone.

A request committed before (no `pledges`) keeps the one-step contributions of its time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablelog.commands.access import Caller, gm_only
from tablelog.commands.rng_flow import Acted, Salt, drawn, reveal_asked, setting, when
from tablelog.errors import Forbidden, InvalidInput, NotFound, RuleViolation
from tablelog.events.rng import RngCommitted, RngContributed, RngPledged, RngPledgesClosed
from tablelog.projections.fold import Folded
from tablelog.rules import rng
from tablelog.rules.rng_commands import CloseRequest, Contribute, Pledge, RevealSeed
from tablelog.rules.table import GM
from tablelog.storage import CampaignTransaction
from tablelog.storage import rng_seeds as seeds

RngCommand = Pledge | Contribute | CloseRequest | RevealSeed


@dataclass
class Progress:
    """Where an open request stands, read from its events since `rng.committed`."""

    committed: RngCommitted
    pledges: dict[str, str] = field(default_factory=dict)  # player: commitment
    closed: RngPledgesClosed | None = None
    given: dict[str, bytes] = field(default_factory=dict)  # player: value revealed


def answer(
    tx: CampaignTransaction, folded: Folded, command: RngCommand, caller: Caller | None, salt: Salt
) -> Acted:
    """A pledge, a contribution, a close or a reveal: its events (and the command drawn,
    if due)."""
    row = seeds.seed_of(tx.connection, tx.head.name, command.request)
    if row is None:
        shown = command.request if len(command.request) <= 40 else command.request[:40] + "…"
        raise NotFound(f"campaign {tx.head.name} has no request {shown!r}")
    if isinstance(command, RevealSeed):
        gm_only(caller, "reveal a server seed")
        return reveal_asked(tx, folded, row)
    if row.state != "open":
        raise RuleViolation(
            f"request {row.request} was already drawn; nothing more counts",
            code="rng-closed",
        )
    progress = _progress(tx, row)
    if isinstance(command, CloseRequest):
        gm_only(caller, "close a request")
        return _close(tx, folded, row, progress, command.now, salt)
    if isinstance(command, Pledge):
        return _pledge(tx, folded, row, progress, command, caller, salt)
    return _contribute(tx, folded, row, progress, command, caller, salt)


def _pledge(
    tx: CampaignTransaction,
    folded: Folded,
    row: seeds.SeedRow,
    progress: Progress,
    command: Pledge,
    caller: Caller | None,
    salt: Salt,
) -> Acted:
    committed = progress.committed
    player = _contributor(command.player, caller, committed.awaited, committed.request)
    if not committed.pledges:
        raise RuleViolation(
            f"request {row.request} was committed before pledges existed; contribute to it "
            "in one step (`tablelog rng contribute`)",
            code="rng-one-step",
        )
    if progress.closed is not None:
        raise RuleViolation(
            f"the pledges of request {row.request} are closed; only "
            f"{_names(progress.closed.pledged)} may reveal now",
            code="rng-pledges-closed",
        )
    if player in progress.pledges:
        raise RuleViolation(
            f"{player} has already pledged to request {row.request}; one pledge each",
            code="rng-given",
        )
    commitment = _hex_digest(command.commitment)
    if commitment in progress.pledges.values():
        # A copy of another seat's pledge could never be opened (it binds that seat's name):
        # refused at once rather than counted as a pledge that must end withheld.
        raise RuleViolation(
            f"that pledge is already logged for request {row.request}; pledge a value of your own",
            code="rng-replayed",
        )
    progress.pledges[player] = commitment
    acted: Acted = [
        (
            RngPledged(
                request=row.request,
                player=player,
                commitment=commitment,
                conflict=committed.conflict,
            ),
            player,
        )
    ]
    if all(p in progress.pledges for p in committed.awaited):
        acted += _closed(tx, folded, row, progress, command.now, salt)
    return acted


def _contribute(
    tx: CampaignTransaction,
    folded: Folded,
    row: seeds.SeedRow,
    progress: Progress,
    command: Contribute,
    caller: Caller | None,
    salt: Salt,
) -> Acted:
    committed = progress.committed
    closed = progress.closed
    player = _contributor(command.player, caller, committed.awaited, committed.request)
    if committed.pledges and closed is None:
        waiting = [p for p in committed.awaited if p not in progress.pledges]
        raise RuleViolation(
            f"request {row.request} still awaits the pledges of {_names(waiting)}; a value "
            "revealed now would let the last to pledge choose the shuffle: pledge first "
            "(`tablelog rng contribute` does both steps)",
            code="rng-early",
        )
    eligible = closed.pledged if closed is not None else committed.awaited
    if player not in eligible:
        raise RuleViolation(
            f"{player} did not pledge to request {row.request} before its pledges closed; "
            f"only {_names(eligible)} reveal",
            code="not-pledged",
        )
    if player in progress.given:
        raise RuleViolation(
            f"{player} has already contributed to request {row.request}; one value each",
            code="rng-given",
        )
    value = _value(command.value)
    if closed is not None:
        expected = progress.pledges[player]
        if rng.pledge(tx.head.name, row.request, player, value) != expected:
            raise RuleViolation(
                f"that value is not the one {player} pledged to request {row.request} (its "
                f"commitment is {expected[:16]}…); only the pledged value counts",
                code="rng-mismatch",
            )
    progress.given[player] = value
    acted: Acted = [
        (
            RngContributed(
                request=row.request, player=player, value=value.hex(), conflict=committed.conflict
            ),
            player,
        )
    ]
    if all(p in progress.given for p in eligible):
        absent = closed.absent if closed is not None else []
        acted += drawn(tx, folded, committed, row, progress.given, absent, salt)
    return acted


def _close(
    tx: CampaignTransaction,
    folded: Folded,
    row: seeds.SeedRow,
    progress: Progress,
    now: int,
    salt: Salt,
) -> Acted:
    """The GM's close: of the pledges after the request's deadline, of the reveals after
    the reveal deadline (or, in a one-step request, of the contributions)."""
    committed = progress.committed
    closed = progress.closed
    deadline = committed.deadline if closed is None else closed.deadline
    if now < deadline:
        what = "its reveals" if closed is not None else f"request {row.request}"
        raise RuleViolation(
            f"{what} may be closed from {when(deadline)} (UTC), the deadline; it is {when(now)}",
            code="rng-deadline",
        )
    if not committed.pledges:
        absent = [p for p in committed.awaited if p not in progress.given]
        return drawn(tx, folded, committed, row, progress.given, absent, salt)
    if closed is None:
        return _closed(tx, folded, row, progress, now, salt)
    withheld = [p for p in closed.pledged if p not in progress.given]
    return drawn(tx, folded, committed, row, progress.given, closed.absent, salt, withheld)


def _closed(
    tx: CampaignTransaction,
    folded: Folded,
    row: seeds.SeedRow,
    progress: Progress,
    now: int,
    salt: Salt,
) -> Acted:
    """`rng.pledges_closed`: the pledged now reveal, by a deadline as long as the first;
    with nobody pledged, the draw at once from the server seed alone."""
    committed = progress.committed
    pledged = [p for p in committed.awaited if p in progress.pledges]
    absent = [p for p in committed.awaited if p not in progress.pledges]
    window = setting(tx).rng_deadline_minutes * 60_000_000
    closed = RngPledgesClosed(
        request=row.request,
        pledged=pledged,
        absent=absent,
        deadline=now + window,
        conflict=committed.conflict,
    )
    acted: Acted = [(closed, GM)]
    if not pledged:
        acted += drawn(tx, folded, committed, row, {}, absent, salt)
    return acted


def _progress(tx: CampaignTransaction, row: seeds.SeedRow) -> Progress:
    committed = seeds.event_at(tx.connection, tx.head.name, row.committed_seq).event()
    assert isinstance(committed, RngCommitted)
    progress = Progress(committed)
    for envelope in tx.events(row.committed_seq):
        if not envelope.type.startswith("rng."):
            continue
        event = envelope.event()
        if getattr(event, "request", None) != row.request:
            continue
        if isinstance(event, RngPledged):
            progress.pledges[event.player] = event.commitment
        elif isinstance(event, RngPledgesClosed):
            progress.closed = event
        elif isinstance(event, RngContributed):
            progress.given[event.player] = bytes.fromhex(event.value)
    return progress


def _contributor(named: str | None, caller: Caller | None, awaited: list[str], request: str) -> str:
    if caller is not None and caller.role == "gm":
        raise Forbidden(
            "the GM's side chose the server seed, so a contribution of "
            "theirs could steer the shuffle; only players contribute",
            code="gm-contribution",
        )
    if caller is not None and caller.role != "player":
        raise Forbidden(f"{caller.player} is an observer and may only read", code="observer")
    player = caller.player if caller is not None else named
    if caller is not None and named not in (None, caller.player):
        raise Forbidden(
            f"{caller.player} may contribute only for themselves, not for {named}",
            code="not-yours",
        )
    if player is None:
        raise InvalidInput("name the player who contributes", code="no-player")
    if player not in awaited:
        raise RuleViolation(
            f"request {request} awaits {_names(awaited)}, not {player}",
            code="not-awaited",
        )
    return player


def _value(text: str) -> bytes:
    value = rng.from_hex(text)
    if value is None:
        raise InvalidInput(
            f"a contribution is {rng.SEED_BYTES} random bytes as {2 * rng.SEED_BYTES} hex "
            f"digits; got {len(text)} characters",
            code="bad-contribution",
        )
    return value


def _hex_digest(text: str) -> str:
    digest = text.strip().lower()
    if len(digest) != 64:
        raise InvalidInput(
            f"a pledge is a SHA-256 commitment as 64 hex digits; got {len(text)} characters",
            code="bad-pledge",
        )
    if any(c not in "0123456789abcdef" for c in digest):
        raise InvalidInput(
            "a pledge is a SHA-256 commitment as 64 hex digits (0-9, a-f); got other characters",
            code="bad-pledge",
        )
    return digest


def _names(players: list[str]) -> str:
    return ", ".join(players) or "nobody"
