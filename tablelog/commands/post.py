"""`tablelog export --format markdown|bbcode|discord`: a forum post of a conflict or session.

The post is built from the campaign's account alone (which never holds a face-down card or a
hand) and ends with the head of its range, SEQ:HASH, so anyone holding the log can check it
with `tablelog verify --head SEQ:HASH`.
"""

from __future__ import annotations

from tablelog.commands.audit import account_of
from tablelog.errors import InvalidInput, NotFound, StorageError
from tablelog.events.envelope import Envelope
from tablelog.projections.post import (
    campaign_post,
    conflict_post,
    find_conflict,
    find_session,
    session_post,
)
from tablelog.projections.post_formats import RENDERERS
from tablelog.storage import EventStore

FORMATS = tuple(RENDERERS)


def hash_at(envelopes: list[Envelope], seq: int) -> bytes:
    # The log is gapless from seq 1, so the event at `seq` is the seq-th one; checked anyway.
    if 1 <= seq <= len(envelopes) and envelopes[seq - 1].seq == seq:
        return envelopes[seq - 1].hash
    found = next((e for e in envelopes if e.seq == seq), None)
    if found is None:
        raise StorageError(f"the log has no event at seq {seq}; `tablelog verify` checks it")
    return found.hash


def post(
    store: EventStore,
    campaign: str,
    fmt: str,
    *,
    conflict: str | None = None,
    session: int | None = None,
) -> str:
    """The post of one conflict, one session, or (with neither) the whole campaign."""
    render = RENDERERS.get(fmt)
    if render is None:
        raise InvalidInput(f"a post is {', '.join(FORMATS)}; got {fmt!r}", code="bad-format")
    if conflict is not None and session is not None:
        raise InvalidInput(
            "--conflict and --session cannot be used together; a post covers one conflict, "
            "one session or (with neither) the whole campaign",
            code="bad-scope",
        )
    envelopes = list(store.read(campaign))
    account = account_of(envelopes)
    if conflict is not None:
        found = find_conflict(account, conflict)
        if found is None:
            known = ", ".join(c.conflict for c in account.conflicts) or "none yet"
            raise NotFound(
                f"campaign {campaign} has no conflict {conflict!r} (its conflicts: {known})",
                code="no-conflict",
            )
        return render(conflict_post(account, found, hash_at(envelopes, found.last_seq)))
    if session is not None:
        span = find_session(account, session)
        if span is None:
            known = ", ".join(str(s.session) for s in account.sessions) or "none yet"
            raise NotFound(
                f"campaign {campaign} has no session {session} (its sessions: {known})",
                code="no-session",
            )
        return render(session_post(account, span, hash_at(envelopes, span.last_seq)))
    return render(campaign_post(account, hash_at(envelopes, account.seq)))
