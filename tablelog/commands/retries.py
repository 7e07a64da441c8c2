"""A request retried with the same `Idempotency-Key` gets the first one's answer, not a second
set of events.

The answer is remembered in the transaction that appends the events (so it exists exactly
when they do), keyed by campaign, caller and key, with a digest of the request: the same key
with a different request is refused. What is kept is the seqs the request appended, enough to
rebuild its response.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import msgspec

from tablelog.errors import InvalidInput
from tablelog.events.envelope import Envelope
from tablelog.storage import CampaignTransaction, EventStore
from tablelog.storage.access import recall, remember

MAX_KEY = 200
_ENCODER = msgspec.json.Encoder()


class AlreadyDone(Exception):
    """The key was committed by a concurrent try of the same request: answer with that."""


@dataclass(frozen=True)
class Retry:
    """One request's Idempotency-Key, for `execute`'s `on_begin` and `on_commit`."""

    store: EventStore
    campaign: str
    caller: str  # the caller's token digest: keys are kept per caller
    key: str
    request: str  # the digest of the request

    @classmethod
    def of(
        cls, store: EventStore, campaign: str, caller: str, key: str, request: list[Any]
    ) -> Retry:
        """`request`: what identifies the request (method, path, body)."""
        if not 0 < len(key) <= MAX_KEY:
            raise InvalidInput(f"an Idempotency-Key has 1 to {MAX_KEY} characters", code="bad-key")
        digest = hashlib.sha256(_ENCODER.encode(request)).hexdigest()
        return cls(store, campaign, caller, key, digest)

    def earlier(self) -> tuple[int, list[Envelope]] | None:
        """The first try's status and events, if it committed; a different request under the
        same key is refused."""
        with self.store.engine.connect() as conn:
            found = recall(conn, campaign=self.campaign, caller=self.caller, key=self.key)
        if found is None:
            return None
        if found.request != self.request:
            raise InvalidInput(
                "this Idempotency-Key was already used for a different request", code="key-reused"
            )
        seqs = msgspec.json.decode(found.response, type=list[int])
        # Only the remembered seqs' events: they are consecutive, so one bounded read.
        envelopes = (
            self.store.read(self.campaign, after_seq=min(seqs) - 1, upto_seq=max(seqs))
            if seqs
            else []
        )
        return found.status, list(envelopes)

    def first_try_done(self, tx: CampaignTransaction) -> None:
        """Checked again with the campaign's lock held: a retry that raced its first try (both
        missed `earlier`) finds the first one's answer here instead of deciding again."""
        if recall(tx.connection, campaign=self.campaign, caller=self.caller, key=self.key):
            raise AlreadyDone

    def keep(self, tx: CampaignTransaction, written: list[Envelope]) -> None:
        remember(
            tx.connection,
            campaign=self.campaign,
            caller=self.caller,
            key=self.key,
            request=self.request,
            status=201,
            response=_ENCODER.encode([e.seq for e in written]),
        )
