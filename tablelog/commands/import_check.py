"""The check of an export's lines, turned into rows to store: shape, sequence, chain, hash, a
payload this tablelog can read, and a salt wherever a payload hides something, line by line.

An event that hides a field from other players (a card face down, a hand: `Event.hidden`)
carries random salt, so its hash, which everyone sees, tells nothing about the field. One
without salt (a log written before salts existed, or crafted) gives it away to anyone who
tries the 54 card codes against the hash: such a file is refused.

No two players of a campaign may look alike (a long s or full-width letters beside plain
ones: the same name after Unicode compatibility normalization and case folding,
`rules.names.folded`), as a new player's name may not: a file holding two is refused at the
line that names the second. The players are the names in the `player` fields of a campaign's
events (whatever its ruleset) and its GM.

Pure and light (msgspec and the event modules, no database): an import runs it in its own
process, or in a worker process beside the one writing (`main`, see importing.py), and both
ways meet the same lines with the same verdicts.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from typing import IO, Any

import msgspec

from tablelog.errors import InvalidInput
from tablelog.events.base import Event
from tablelog.events.chain import GENESIS, chained_hash, envelope_hash
from tablelog.events.codec import UndecodableEvent, fast_decoder
from tablelog.events.core import CampaignCreated
from tablelog.events.envelope import LINE_DECODER, EventRow, envelope_from_line
from tablelog.rules.names import folded
from tablelog.workers import read_frame, write_frame

MAX_LINE = 1_048_576  # bytes; an event is far smaller (narration is capped at 4,000 characters)
BATCH = 5000  # rows per batch: large enough to amortize an insert, small in memory
_CHUNK = 1 << 20  # bytes read at a time
_UNSEEN: Any = object()
_CREATED = CampaignCreated.type_name()


class Begun(msgspec.Struct, frozen=True, array_like=True):
    """A campaign whose first line (its campaign.created) was just read, at line `line`."""

    name: str
    ruleset: str
    gm: str
    line: int = 0


class Batch(msgspec.Struct, frozen=True, array_like=True, tag=True):
    """The next checked rows, after the campaigns they begin; the last batch of a file also
    carries where each campaign's chain ended (`ends`: name -> (seq, hash))."""

    begun: list[Begun]
    rows: list[EventRow]
    ends: dict[str, tuple[int, bytes]] | None = None


Row = tuple[str, int, str, str, int, str, int, bytearray, bytearray, bytearray]
"""An EventRow as the importing process writes it, its bytes as bytearrays: CPython's sqlite3
binds a bytearray at once, where it first offers a bytes value to its adapters (about 0.6 us
each, three a row: a quarter of the insert)."""


class Loading(msgspec.Struct, frozen=True, array_like=True, tag="Batch"):
    """A `Batch` as the importing process takes it: the same message, its rows' bytes read as
    bytearrays (see `Row`; MessagePack's bytes decode so at no cost)."""

    begun: list[Begun]
    rows: list[Row]
    ends: dict[str, tuple[int, bytes]] | None = None

    @classmethod
    def of(cls, batch: Batch) -> Loading:
        """A batch checked in this process, its rows copied to bytearrays."""
        rows: list[Row] = [
            (*row[:7], bytearray(row[7]), bytearray(row[8]), bytearray(row[9]))
            for row in batch.rows
        ]
        return cls(batch.begun, rows, batch.ends)


class Refused(msgspec.Struct, frozen=True, array_like=True, tag=True):
    """A worker's verdict on a line that does not hold (`main`)."""

    code: str
    message: str


# What a worker sends (see tablelog.workers).
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(Loading | Refused)


def write_message(out: IO[bytes], message: Batch | Refused) -> None:
    write_frame(out, _ENCODER.encode(message))


def read_message(source: IO[bytes]) -> Loading | Refused:
    """The next message from a worker; EOFError when it ended without one, ValueError when
    what came is not one."""
    data = read_frame(source)
    try:
        message: Loading | Refused = _DECODER.decode(data)
    except msgspec.DecodeError as exc:
        raise ValueError(str(exc)) from None
    return message


class _Chain:
    """One campaign of the file as far as it has been read: its chain, and its players (a
    name's fold -> the name), the GM first; `names`: the players' names as they are written,
    met already (the common case, looked up before any call)."""

    __slots__ = ("hash", "names", "players", "seq")

    def __init__(self, gm: str = "") -> None:
        self.seq, self.hash = 0, GENESIS
        self.players: dict[str, str] = {folded(gm): gm} if gm else {}
        self.names: set[str] = set(self.players.values())

    def meet(self, number: int, seq: int, name: Any) -> None:
        """A player named by the event at line `number`: refused if it looks like another."""
        if not isinstance(name, str) or name in self.names:
            return
        fold = folded(name)
        other = self.players.setdefault(fold, name)
        if other == name:
            self.names.add(name)
        else:
            raise _bad(
                number,
                f"seq {seq}: player name {name!r} looks like the name of player {other!r} "
                "(the same after Unicode compatibility normalization and case folding), and "
                "no two players of a campaign may look alike",
            )


def checked_batches(handle: IO[bytes]) -> Iterator[Batch]:
    """Every line of `handle` checked, as batches of rows; InvalidInput naming the first line
    that does not hold.

    The loop is the quick way for the common line (the next event of a campaign already
    begun, its payload of this tablelog's current schema). Anything else (a campaign's first
    line, an upcast, a blank line or anything wrong) goes through `_careful`, which explains
    what it finds or returns the row."""
    chains: dict[str, _Chain] = {}
    decoders: dict[tuple[str, int], Any] = {}
    decode_line, fromhex = LINE_DECODER.decode, bytes.fromhex
    begun: list[Begun] = []
    rows: list[EventRow] = []
    for number, line in enumerate(_lines(handle), start=1):
        try:
            raw = decode_line(line)
            name, seq, prev = raw.campaign, raw.seq, fromhex(raw.prev_hash)
            digest, payload = fromhex(raw.hash), bytes(raw.payload)
            chain = chains[name]
            key = (raw.type, raw.schema_version)
            decoder = decoders.get(key, _UNSEEN)
            if decoder is _UNSEEN:
                decoder = decoders[key] = None if key[0] == _CREATED else fast_decoder(*key)
            row: EventRow = (
                name,
                seq,
                raw.event_id,
                key[0],
                key[1],
                raw.actor,
                raw.recorded_at,
                payload,
                prev,
                digest,
            )
            if (
                seq != chain.seq + 1
                or prev != chain.hash
                or len(line) > MAX_LINE
                or chained_hash(prev, row[:7], payload) != digest
                or decoder is None
            ):
                raise LookupError
            event = decoder.decode(payload)
            if event.hidden and not getattr(event, "salt", ""):
                raise LookupError
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError, LookupError):
            checked = _careful(number, line, chains)
            if checked is None:
                continue
            row, event = checked
            if isinstance(event, CampaignCreated):
                chain = chains[row[0]] = _Chain(event.gm)
                begun.append(Begun(row[0], event.ruleset, event.gm, number))
            else:
                chain = chains[row[0]]
        player = getattr(event, "player", None)
        if type(player) is str and player not in chain.names:
            chain.meet(number, row[1], player)
        chain.seq, chain.hash = row[1], row[9]
        rows.append(row)
        if len(rows) == BATCH:
            yield Batch(begun, rows)
            begun, rows = [], []
    yield Batch(begun, rows, {name: (chain.seq, chain.hash) for name, chain in chains.items()})


def _careful(number: int, line: bytes, chains: dict[str, _Chain]) -> tuple[EventRow, Event] | None:
    """Check one line the slow way, saying what is wrong with it: its row and its event (a
    campaign.created begins a campaign); None for a blank line."""
    if len(line) > MAX_LINE:
        raise _bad(number, f"the line is longer than {MAX_LINE} bytes")
    if not line.strip():
        return None
    try:
        e = envelope_from_line(line.rstrip(b"\r"))
    except ValueError as exc:
        raise _bad(number, f"not an exported event ({exc})") from None
    chain = chains.get(e.campaign)
    expected_seq = 1 if chain is None else chain.seq + 1
    if e.seq != expected_seq:
        raise _bad(number, f"campaign {e.campaign} jumps to seq {e.seq}, expected {expected_seq}")
    if e.prev_hash != (GENESIS if chain is None else chain.hash):
        raise _bad(number, f"seq {e.seq}: prev_hash is not the hash of the event before")
    if envelope_hash(e) != e.hash:
        raise _bad(number, f"seq {e.seq}: the hash does not match the event's contents")
    try:
        event = e.event()
    except UndecodableEvent as exc:
        raise _bad(number, f"seq {e.seq}: the payload cannot be read ({exc})") from None
    if event.hidden and not getattr(event, "salt", ""):
        raise _bad(
            number,
            f"seq {e.seq}: {e.type} hides {', '.join(event.hidden)} from other players but has "
            "no salt, so its hash gives them away to anyone who tries the few values they can "
            "take; tablelog loads no such log",
        )
    if (chain is None) != isinstance(event, CampaignCreated):
        raise _bad(number, "a campaign must begin with campaign.created, and only once")
    if isinstance(event, CampaignCreated) and event.campaign != e.campaign:
        raise _bad(number, f"campaign.created names {event.campaign!r}, the line {e.campaign!r}")
    return e.row(), event


def _lines(handle: IO[bytes]) -> Iterator[bytes]:
    """The file's lines without their newlines, read a chunk at a time. A line longer than
    MAX_LINE is cut short after MAX_LINE + 1 bytes (enough to refuse it) and ends the read:
    a file of one endless line must not be held in memory."""
    rest = b""
    while chunk := handle.read(_CHUNK):
        lines = (rest + chunk).split(b"\n") if rest else chunk.split(b"\n")
        rest = lines.pop()
        yield from lines
        if len(rest) > MAX_LINE:
            yield rest[: MAX_LINE + 1]
            return
    if rest:
        yield rest


def _bad(number: int, reason: str) -> InvalidInput:
    return InvalidInput(f"line {number}: {reason}; nothing was imported", code="bad-import")


def main(path: str) -> int:
    """The worker: each batch of the file at `path` to stdout, or the refusal of a line.
    Anything else ends it with an exit code and no verdict: the importing process then
    checks the file itself and says what it finds."""
    out = sys.stdout.buffer
    # A process of its own that keeps only the batch it builds: the collector's walks over
    # those rows (a tuple each) find no cycle and cost about 4% of the check.
    gc.disable()
    try:
        with open(path, "rb") as handle:
            for batch in checked_batches(handle):
                write_message(out, batch)
        out.flush()
    except InvalidInput as exc:
        write_message(out, Refused(exc.code, exc.message))
        out.flush()
    except (BrokenPipeError, KeyboardInterrupt):
        return 1  # the importing process stopped reading
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
