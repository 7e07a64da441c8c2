"""Web sessions end on the service, not only with their cookie: after the idle time without a
request (14 days by default, `serve --session-idle`), and 30 days after their sign-in at the
latest. Checked on every request, refused like a revoked session (401, one sentence), and the
page then shows its sign-in prompt. A use is recorded at most once a minute per session, so a
request costs no write.

The service runs in this process (Litestar's test client) over both backends, with a clock
the test moves: nobody waits for days.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from litestar.testing import TestClient
from sqlalchemy import create_engine, text

from tablelog.commands import access, database, sessions
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.session_policy import DAY_S, SESSION_IDLE_S, SessionPolicy, span
from tablelog.http.app import create_app
from tablelog.storage import EventStore, open_store
from tablelog.storage.engine import resolve_url
from tablelog.storage.rows import now_us

SECOND = 1_000_000
BASE = "http://testserver.local"


class Clock:
    """The service's clock, moved by the test (microseconds UTC)."""

    def __init__(self) -> None:
        self.now = now_us()

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * SECOND)


@dataclass
class Service:
    client: TestClient[Any]
    store: EventStore
    clock: Clock
    target: str

    def sign_in(self, player: str, role: str = "player") -> str:
        """A browser's session for `player`, traded from a fresh link; its cookie is kept."""
        link = access.grant(self.store, "heist", player, role, link=True).token
        self.client.cookies.clear()
        answer = self.client.post(
            "/campaigns/heist/play/session", json={"token": link}, headers={"Origin": BASE}
        )
        assert answer.status_code == 201, answer.text
        # The session's row was stamped by the real clock: the test's starts from there.
        self.clock.now = max(self.clock.now, now_us())
        return str(answer.cookies["tablelog_session"])

    def get(self, path: str, session: str) -> Any:
        self.client.cookies.clear()
        self.client.cookies.set("tablelog_session", session)
        return self.client.get(path)

    def last_used(self, session: str) -> int | None:
        engine = create_engine(resolve_url(self.target))
        try:
            with engine.connect() as conn:
                found = conn.execute(
                    text("SELECT last_used_at FROM access_tokens WHERE token_hash = :h"),
                    {"h": access.token_digest(session)},
                ).scalar_one()
        finally:
            engine.dispose()
        return None if found is None else int(found)


@pytest.fixture
def service(target: str) -> Iterator[Service]:
    database.upgrade(target)
    store = open_store(target)
    create_campaign(store, "heist", ruleset="improv", gm="gina")
    clock = Clock()
    app = create_app(store, session_policy=SessionPolicy(clock=clock))
    try:
        with TestClient(app, base_url=BASE) as client:
            yield Service(client, store, clock, target)
    finally:
        store.close()


def test_a_session_used_within_its_idle_time_lives_on(service: Service) -> None:
    bob = service.sign_in("bob")
    for _ in range(2):  # a request every 13 days: never 14 without one (and within 30)
        service.clock.advance(13 * DAY_S)
        assert service.get("/campaigns/heist/play/table", bob).status_code == 200


def test_a_session_idle_past_its_time_is_refused_in_one_sentence(service: Service) -> None:
    bob = service.sign_in("bob")
    service.clock.advance(SESSION_IDLE_S + 1)
    refused = service.get("/campaigns/heist/play/table", bob)
    assert refused.status_code == 401
    assert refused.json() == {
        "code": "session-expired",
        "message": "this web session ended after 14 days without use; open a new sign-in link",
    }
    # The page itself shows the sign-in prompt, nothing of the table.
    page = service.get("/campaigns/heist/play", bob)
    assert page.status_code == 200
    assert 'id="sign-in"' in page.text
    # A refusal records no use: the session stays ended for every route.
    used = service.last_used(bob)
    for path in ("/campaigns/heist/web-sessions", "/campaigns/heist/state", "/me"):
        assert service.get(path, bob).status_code == 401, path
    assert service.last_used(bob) == used


def test_a_session_ends_thirty_days_after_its_sign_in_however_used(service: Service) -> None:
    bob = service.sign_in("bob")
    for _ in range(29):  # used every day
        service.clock.advance(DAY_S)
        assert service.get("/campaigns/heist/play/table", bob).status_code == 200
    service.clock.advance(DAY_S + 1)
    refused = service.get("/campaigns/heist/play/table", bob)
    assert refused.status_code == 401
    assert refused.json()["message"] == (
        "this web session ended 30 days after its sign-in; open a new sign-in link"
    )


def test_a_use_is_recorded_at_most_once_a_minute(service: Service) -> None:
    bob = service.sign_in("bob")
    signed_in_at = service.last_used(bob)
    assert signed_in_at is not None
    service.clock.advance(30)
    for _ in range(5):
        assert service.get("/campaigns/heist/play/table", bob).status_code == 200
    assert service.last_used(bob) == signed_in_at  # within the minute: no write
    service.clock.advance(31)
    for _ in range(5):
        assert service.get("/campaigns/heist/state", bob).status_code == 200
    assert service.last_used(bob) == service.clock.now  # one write, at the first request
    listed = sessions.listed(service.store, "heist")
    assert [s.last_used_at for s in listed] == [service.clock.now]


def test_an_idle_session_leaves_the_lists_and_the_live_tokens(service: Service) -> None:
    bob = service.sign_in("bob")
    sue = service.sign_in("sue")
    policy = SessionPolicy(clock=service.clock)
    service.clock.advance(10 * DAY_S)
    assert service.get("/campaigns/heist/play/table", sue).status_code == 200
    service.clock.advance(5 * DAY_S)  # bob: 15 days unused; sue: 5
    listed = sessions.listed(service.store, "heist", policy=policy)
    assert [s.player for s in listed] == ["sue"]
    live = access.watched(service.store, "heist", policy).live
    assert access.token_digest(sue) in live
    assert access.token_digest(bob) not in live
    # Locally (no policy: the operator's list) both are still there until ended.
    assert {s.player for s in sessions.listed(service.store, "heist")} == {"bob", "sue"}


def test_the_idle_time_is_the_services_choice(target: str) -> None:
    database.upgrade(target)
    store = open_store(target)
    try:
        create_campaign(store, "heist", ruleset="improv", gm="gina")
        clock = Clock()
        app = create_app(store, session_policy=SessionPolicy(idle_s=3600, clock=clock))
        with TestClient(app, base_url=BASE) as client:
            service = Service(client, store, clock, target)
            bob = service.sign_in("bob")
            clock.advance(59 * 60)
            assert service.get("/campaigns/heist/play/table", bob).status_code == 200
            clock.advance(59 * 60)
            assert service.get("/campaigns/heist/play/table", bob).status_code == 200
            clock.advance(3601)
            refused = service.get("/campaigns/heist/play/table", bob)
            assert refused.status_code == 401
            assert "after 1 hour without use" in refused.json()["message"]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        (14 * DAY_S, "14 days"),
        (DAY_S, "1 day"),
        (7200, "2 hours"),
        (60, "1 minute"),
        (90, "90 seconds"),
    ],
)
def test_a_span_is_said_as_people_say_it(seconds: float, said: str) -> None:
    assert span(seconds) == said
