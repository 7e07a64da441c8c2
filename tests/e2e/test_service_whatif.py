"""End-to-end: `whatif` through the service, and a GM token minted locally for a demo campaign.

The service plays the file's commands (parsed into typed commands by the client) on its own
scratch copy. It starts only from a point that hides nothing from the caller, so no what-if
can show a face-down card or a deck; from there the caller may imagine every side's moves.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.test_cli_whatif import ALTERNATE, REVEAL_3
from tests.e2e.transcript import ok, refused, run
from tests.support.server import running_service


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str, str, str]]:
    """The demo campaign served, with a GM token (minted locally) and bob's player token.
    Shared by the tests below: none of them changes the log."""
    tmp_path = tmp_path_factory.mktemp("served")
    ok(run(tmp_path, "demo"))
    gm = json.loads(ok(run(tmp_path, "invite", "gm", "--role", "gm", "--json")))["token"]
    bob = json.loads(ok(run(tmp_path, "invite", "bob", "--json")))["token"]
    (tmp_path / "alternate.txt").write_text(ALTERNATE, encoding="utf-8")
    with running_service(str(tmp_path / "tablelog.db"), tmp_path) as url:
        yield tmp_path, url, gm, bob


def _as(url: str, token: str) -> tuple[str, ...]:
    return ("--server", url, "--access-token", token)


def test_the_alternate_ending_through_the_service_as_gm_and_as_a_player(
    service: tuple[Path, str, str, str],
) -> None:
    where, url, gm, bob = service
    before = ok(run(where, "log", "--json"))
    local = json.loads(ok(run(where, "whatif", "--at", REVEAL_3, "alternate.txt", "--json")))
    for token in (gm, bob):
        # $ tablelog --server URL --access-token TOKEN whatif --at 47 alternate.txt --json
        args = (*_as(url, token), "whatif", "--at", REVEAL_3, "alternate.txt", "--json")
        remote = json.loads(ok(run(where, *args)))
        assert remote["differences"] == local["differences"]
        assert remote["progress"] == local["progress"]
        assert remote["state"]["conflicts"] == local["state"]["conflicts"]
        assert remote["state"]["tokens"] == local["state"]["tokens"]
    text = ok(run(where, *_as(url, gm), "whatif", "--at", REVEAL_3, "alternate.txt"))
    assert "what-if (closed): riso beats kit; jason beats riso; goons beats diana" in text
    assert "> improv give fight kit jason JK" in text
    assert ok(run(where, "log", "--json")) == before  # the real log was only read


def test_a_whatif_from_a_point_with_face_down_cards_is_refused(
    service: tuple[Path, str, str, str],
) -> None:
    where, url, gm, _bob = service
    # Seq 45: round 3's cards are down, not yet revealed: the GM may not see the players'.
    line = refused(run(where, *_as(url, gm), "whatif", "--at", "45", "alternate.txt"))
    assert line.startswith("whatif-hidden: a what-if through the service starts where nothing")


def test_reads_and_local_only_commands_in_a_remote_whatif_are_refused(
    service: tuple[Path, str, str, str],
) -> None:
    where, url, gm, _bob = service
    (where / "reads.txt").write_text("improv give fight kit jason JK\nstate\n", encoding="utf-8")
    line = refused(run(where, *_as(url, gm), "whatif", "--at", REVEAL_3, "reads.txt"))
    assert "line 2 (state) was refused: whatif-read:" in line


def test_an_observer_cannot_run_a_whatif(service: tuple[Path, str, str, str]) -> None:
    where, url, gm, _bob = service
    carol = json.loads(
        ok(run(where, *_as(url, gm), "invite", "carol", "--role", "observer", "--json"))
    )["token"]
    line = refused(run(where, *_as(url, carol), "whatif", "--at", REVEAL_3, "alternate.txt"))
    assert line.startswith("observer:")


def test_a_gm_token_is_minted_only_for_the_campaigns_gm(
    service: tuple[Path, str, str, str],
) -> None:
    """Locally for the GM only; through the service only by the GM for itself (another
    device: the same seat, nothing in the log)."""
    where, url, gm, _bob = service
    before = ok(run(where, "log", "--json"))
    line = refused(run(where, "invite", "bob", "--role", "gm"))
    assert line.startswith("bad-role: the GM of campaign bar-fight is gm")
    line = refused(run(where, *_as(url, gm), "invite", "bob", "--role", "gm"))
    assert line.startswith("bad-role:")
    device = json.loads(ok(run(where, *_as(url, gm), "invite", "gm", "--role", "gm", "--json")))
    assert device["reissued"] is False
    assert json.loads(ok(run(where, *_as(url, device["token"]), "state", "--json")))["seq"] > 0
    assert ok(run(where, *_as(url, gm), "state", "--json"))  # the first one still works
    assert ok(run(where, "log", "--json")) == before


def test_as_is_refused_through_the_service(service: tuple[Path, str, str, str]) -> None:
    where, url, gm, _bob = service
    for args in (("state", "--as", "bob"), ("improv", "show", "fight", "--as", "bob")):
        line = refused(run(where, *_as(url, gm), *args))
        assert line.startswith("as-local-only: --as chooses a view of a local database")
