"""What a player's client checks before it reveals a value it pledged to a committed shuffle
(README, "Committed shuffles"): that the service has signed the close of the pledges.

The reveal is the moment a seat's value leaves its machine. If the service lied that every
pledge was in, a seat of the operator's could still pledge after seeing it. So the client
first asks for a checkpoint over the `rng.pledges_closed` event (its seq, signed by the
service's key) and checks that the event it was shown is that one: its hash is recomputed from
its own fields, and it closes this request with this player among the pledged. The player
keeps the checkpoint; since every pledge lies before that event in the chain it signs, the
log can never later show a pledge made after the reveal without `tablelog verify
--checkpoint` naming the rewrite. Pure: no I/O here, the client fetches.
"""

from __future__ import annotations

import msgspec

from tablelog.commands.checkpoints import Checkpoint
from tablelog.events.chain import chained_hash


class _Line(msgspec.Struct, frozen=True, kw_only=True):
    """One `log --json` line as the service sends it: the stored payload verbatim."""

    campaign: str
    seq: int
    event_id: str
    type: str
    schema_version: int
    actor: str
    recorded_at: int
    prev_hash: str
    hash: str
    payload: msgspec.Raw


class _Closed(msgspec.Struct, frozen=True):
    request: str
    pledged: list[str]


def doubt(
    line: str,
    checkpoint: Checkpoint,
    *,
    campaign: str,
    request: str,
    player: str,
    closed_seq: int,
) -> str | None:
    """Why this client should not reveal yet, in one sentence, or None: `line` is the log's
    line at `closed_seq`, `checkpoint` the service's signature over it."""
    try:
        shown = msgspec.json.decode(line, type=_Line)
        closed = msgspec.json.decode(shown.payload, type=_Closed)
        prev = bytes.fromhex(shown.prev_hash)
    except (msgspec.DecodeError, ValueError):
        return f"the log's line at seq {closed_seq} is not an intact event"
    header = (
        shown.campaign,
        shown.seq,
        shown.event_id,
        shown.type,
        shown.schema_version,
        shown.actor,
        shown.recorded_at,
    )
    if (shown.campaign, shown.seq, shown.type) != (campaign, closed_seq, "rng.pledges_closed"):
        return f"the log's event at seq {closed_seq} does not close the pledges of a shuffle"
    if closed.request != request or player not in closed.pledged:
        return f"the event at seq {closed_seq} does not close request {request} with {player}"
    digest = chained_hash(prev, header, bytes(shown.payload)).hex()
    if digest != shown.hash:
        return f"the event at seq {closed_seq} does not hash to the hash it is shown with"
    if (checkpoint.campaign, checkpoint.seq, checkpoint.hash) != (campaign, closed_seq, digest):
        return f"the service's checkpoint is not over the event at seq {closed_seq}"
    if not checkpoint.holds():
        return "the service's checkpoint over the close of the pledges is not validly signed"
    return None
