"""Sending the outbox: `tablelog webhook deliver`, and the worker inside `tablelog serve`.

Each webhook gets its posts in the order they were queued, one at a time: its oldest unsent
post is claimed (so two senders never send it both), built (post_of.py) and sent message by
message, each acknowledged in the outbox as it goes, so a restart resumes after the last
message the receiver took. A failure waits `backoff * 2**attempts` seconds (at most
`max_backoff`), or as long as a 429's `retry_after` asks; a webhook failing for
`disable_after` seconds is disabled and `webhook list` says why. Nothing here runs inside a
command: a command only queues (outbox.py), so a slow receiver never slows the table.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

import httpx
import msgspec

from tablelog.commands.post_of import bodies
from tablelog.commands.webhooks import private_address, unseal
from tablelog.errors import TablelogError
from tablelog.storage import EventStore
from tablelog.storage.store import now_us
from tablelog.storage.webhooks import Due, claim, due_posts, record_failure, record_part

SECOND = 1_000_000  # microseconds, the outbox's unit
SIGNATURE_HEADER = "X-Tablelog-Signature"


@dataclass(frozen=True)
class Policy:
    """How patient delivery is (tests make it quick)."""

    timeout: float = 10.0  # seconds for one request
    backoff: float = 5.0  # seconds before the first retry; doubled each time
    max_backoff: float = 3600.0
    disable_after: float = 86400.0  # a day of failures disables a webhook
    poll: float = 1.0  # the service's worker looks at the outbox this often
    # Whether posts may go to loopback and private networks (the local `webhook deliver`:
    # the operator's own machine; the service: only with --webhook-allow-private).
    allow_private: bool = True


class Failed(Exception):
    """One attempt failed; `retry_after` (seconds) when the receiver said how long to wait."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


def signature(secret: str, body: bytes) -> str:
    """The `X-Tablelog-Signature` of a json post: `sha256=` and the hex HMAC of the body."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def _retry_after(response: httpx.Response) -> float | None:
    """Discord's 429 says `retry_after` (seconds) in its JSON body; others a header."""
    try:
        given = msgspec.json.decode(response.content).get("retry_after")
    except (msgspec.DecodeError, AttributeError):
        given = response.headers.get("Retry-After")
    try:
        return max(0.0, float(given)) if given is not None else None
    except (TypeError, ValueError):
        return None


def _send(client: httpx.Client, url: str, body: bytes, headers: dict[str, str]) -> None:
    try:
        response = client.post(url, content=body, headers=headers)
    except httpx.TimeoutException:
        raise Failed("the receiver did not answer in time") from None
    except httpx.HTTPError as exc:
        # Never the exception's text: it may name the URL, which is a secret.
        raise Failed(f"cannot reach the receiver ({type(exc).__name__})") from None
    if response.status_code == 429:
        raise Failed("the receiver asked to slow down (429)", _retry_after(response))
    if not response.is_success:
        raise Failed(f"the receiver answered {response.status_code} {response.reason_phrase}")


def _deliver(store: EventStore, client: httpx.Client, due: Due, policy: Policy) -> None:
    url = unseal(store, due.hook.url_sealed)
    if not policy.allow_private and private_address(url):  # its name may point elsewhere now
        raise Failed(
            "the receiver's address is in a private network, where this service does not post"
        )
    headers = {"Content-Type": "application/json", "User-Agent": "tablelog-webhook"}
    messages = bodies(store, due)
    if not messages:  # nothing of the post is public yet: nothing to send
        record_part(store, due.outbox_id, due.parts_sent, done=True)
        return
    for number in range(due.parts_sent, len(messages)):
        body = messages[number]
        if due.hook.secret_sealed is not None:
            headers[SIGNATURE_HEADER] = signature(unseal(store, due.hook.secret_sealed), body)
        _send(client, url, body, headers)
        record_part(store, due.outbox_id, number + 1, done=number + 1 == len(messages))


def deliver_due(store: EventStore, client: httpx.Client, policy: Policy) -> int:
    """Send each webhook's oldest due post; how many attempts were made."""
    attempts = 0
    for due in due_posts(store, now_us()):
        # Claimed for as long as one attempt can take, so a crashed sender's post comes due.
        lease = now_us() + int((policy.timeout + 1) * SECOND * 4)
        if not claim(store, due, lease):
            continue
        attempts += 1
        try:
            _deliver(store, client, due, policy)
        except Exception as exc:  # one post's trouble must not stop the others
            reason, wait = _why(exc)
            if wait is None:
                wait = min(policy.max_backoff, policy.backoff * 2**due.attempts)
            record_failure(
                store,
                due,
                reason,
                retry_at=now_us() + int(wait * SECOND),
                disable_after=int(policy.disable_after * SECOND),
            )
    return attempts


def _why(exc: Exception) -> tuple[str, float | None]:
    """What `webhook list` says of a failed attempt, and how long the receiver asked to wait.
    A fault of tablelog's own is named by its kind only: its text could hold the URL."""
    if isinstance(exc, Failed):
        return exc.reason, exc.retry_after
    if isinstance(exc, TablelogError):
        return str(exc), None
    return f"tablelog could not build or send the post ({type(exc).__name__})", None


def client_for(policy: Policy) -> httpx.Client:
    # httpx logs every request's URL at INFO, and the service's logging shows INFO: a
    # webhook's URL is a secret, so httpx's (and httpcore's) own logging is kept quiet.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    return httpx.Client(timeout=policy.timeout, follow_redirects=False)


class Worker:
    """The service's sender: a thread that empties the outbox while the service runs."""

    def __init__(
        self, store: EventStore, policy: Policy, also: Callable[[httpx.Client], int] | None = None
    ) -> None:
        self._store = store
        self._policy = policy
        self._also = also  # more to send with the same client (the turn notices)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="webhooks", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self._policy.timeout + 5)

    def _run(self) -> None:
        with client_for(self._policy) as client:
            while not self._stop.is_set():
                try:
                    busy = deliver_due(self._store, client, self._policy)
                    if self._also is not None:
                        busy += self._also(client)
                except Exception:  # the database busy or gone for a moment
                    busy = 0  # the sender keeps going: try again at the next look
                if not busy:
                    self._stop.wait(self._policy.poll)
