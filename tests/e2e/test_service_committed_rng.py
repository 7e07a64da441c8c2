"""Committed shuffles through a real `tablelog serve` on 127.0.0.1, played with the CLI client:
a Beer Run round whose generated dice wait for both players' clients, and an Improv session
whose managed decks are dealt only once both pledged and revealed; the GM's contribution
refused."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tablelog.rules import rng
from tests.e2e.transcript import ok, refused, run
from tests.support.server import admin_token, running_service


@dataclass(frozen=True)
class Service:
    url: str
    db: str
    cwd: Path

    def client(self, token: str, *args: str) -> str:
        return ok(self.raw(token, *args))

    def raw(self, token: str, *args: str) -> subprocess.CompletedProcess[str]:
        return run(self.cwd, "--server", self.url, "--access-token", token, *args)

    def types(self, token: str) -> list[str]:
        out = self.client(token, "log", "--json")
        return [json.loads(line)["type"] for line in out.splitlines()]

    def log(self, token: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.client(token, "log", "--json").splitlines()]


def local_log(service: Service) -> list[dict[str, Any]]:
    """`tablelog --db DB log --json`: the operator's own view, nothing hidden."""
    out = ok(run(service.cwd, "--db", service.db, "log", "--json"))
    return [json.loads(line) for line in out.splitlines()]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def service(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Service]:
    if request.param == "sqlite":
        db = str(tmp_path / "tablelog.db")
    else:
        db = request.getfixturevalue("pg_target")
        ok(run(tmp_path, "--db", db, "db", "upgrade"))
    with running_service(db, tmp_path) as url:
        yield Service(url=url, db=db, cwd=tmp_path)


def table(service: Service, name: str, *options: str) -> tuple[str, str, str]:
    """A committed campaign with players ann and bert: the GM's token and theirs."""
    made = service.client(
        admin_token(service.url),
        "campaign",
        "create",
        name,
        *options,
        "-o",
        "committed_rng=true",
        "--json",
    )
    gm = json.loads(made)["token"]
    ann = json.loads(service.client(gm, "invite", "ann", "--json"))["token"]
    bert = json.loads(service.client(gm, "invite", "bert", "--json"))["token"]
    return gm, ann, bert


def test_a_beer_run_round_with_generated_dice_waits_for_both_players(
    service: Service, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The players' kept checkpoints in a directory of this test's own.
    monkeypatch.setenv("XDG_DATA_HOME", str(service.cwd / "data"))
    gm, ann, bert = table(service, "pub", "-r", "beer-run")
    service.client(
        ann,
        "beer-run",
        "character",
        "ann",
        "Alice",
        "-a",
        "Body:Body:d8",
        "-a",
        "Mind:Mind:d6",
        "-a",
        "Kit:Kit:d4",
    )
    service.client(
        bert,
        "beer-run",
        "character",
        "bert",
        "Bob",
        "-a",
        "Body:Body:d8",
        "-a",
        "Resolve:Mind:d6",
        "-a",
        "Kit:Kit:d6",
    )
    service.client(gm, "beer-run", "open", "--side", "heroes=alice", "--side", "thugs=bob")
    service.client(ann, "beer-run", "goal", "c1", "alice", "Bob backs down", "--ability", "Resolve")
    service.client(bert, "beer-run", "goal", "c1", "bob", "Alice is beaten")
    service.client(ann, "beer-run", "pool", "c1", "alice", "Body", "Mind", "Kit")
    service.client(bert, "beer-run", "pool", "c1", "bob", "Body", "Resolve", "Kit")
    # $ tablelog --access-token GM beer-run roll c1   -> only the commitment
    said = service.client(gm, "beer-run", "roll", "c1")
    assert "committed" in said
    assert "awaiting ann, bert" in said
    assert "br.pool_rolled" not in service.types(gm)
    pending = json.loads(service.client(gm, "rng", "pending", "--json"))
    request = pending[0]["request"]
    # The GM's contribution is refused (the GM's side chose the server seed), over raw HTTP
    # and through the CLI; nothing is appended.
    before = len(service.types(gm))
    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        answer = http.post(
            "/campaigns/pub/rng/contributions",
            json={"request": request, "value": "ab" * 32},
            headers={"Authorization": f"Bearer {gm}"},
        )
    assert answer.status_code == 403, answer.text
    assert answer.json()["code"] == "gm-contribution"
    # Closing it before its deadline is refused too.
    assert "may be closed from" in refused(service.raw(gm, "rng", "close", request))
    assert len(service.types(gm)) == before
    # $ tablelog --access-token ANN rng contribute   -> ann pledges (bert has not yet)
    assert "ann pledged" in service.client(ann, "rng", "contribute")
    assert "nothing awaits" in service.client(ann, "rng", "contribute")
    # bert's pledge is the last: the pledges close, and his client reveals at once.
    said = service.client(bert, "rng", "contribute")
    assert "bert pledged" in said
    assert "pledges closed" in said
    assert "bert contributed" in said
    assert "drawn" not in said
    # ann's client reveals hers (by itself before her next command, or asked): the draw.
    said = service.client(ann, "rng", "contribute")
    assert "ann contributed" in said
    assert "drawn" in said
    events = service.log(gm)
    kinds = [e["type"] for e in events]
    assert kinds[before:] == [
        "rng.pledged",
        "rng.pledged",
        "rng.pledges_closed",
        "rng.contributed",
        "rng.contributed",
        "rng.drawn",
        "br.pool_rolled",
        "br.pool_rolled",
        "br.rolls_compared",
    ]
    drawn = next(e["payload"] for e in events if e["type"] == "rng.drawn")
    assert drawn["players"] == ["ann", "bert"]
    # Each client revealed only once it held the service's checkpoint over the close of the
    # pledges: kept in the player's checkpoints file, it verifies against the log.
    closed_at = next(e["seq"] for e in events if e["type"] == "rng.pledges_closed")
    kept = service.cwd / "data" / "tablelog" / "checkpoints" / "pub.jsonl"
    seqs = [json.loads(line)["seq"] for line in kept.read_text().splitlines()]
    assert closed_at in seqs
    ok(run(service.cwd, "--db", service.db, "verify", "--checkpoint", str(kept)))
    rolled = [e["payload"] for e in events if e["type"] == "br.pool_rolled"]
    tops = [int(d["order"][0]) for d in drawn["draws"]]
    assert [r["value"] for p in rolled for r in p["results"]] == tops


def test_an_improv_managed_deal_waits_for_both_players_and_is_revealed_at_the_session_end(
    service: Service,
) -> None:
    gm, ann, bert = table(service, "night", "-r", "improv", "--option", "deck_mode=managed")
    service.client(ann, "improv", "character", "ann", "Kit")
    service.client(bert, "improv", "character", "bert", "Vex")
    # $ tablelog --access-token GM session start   -> the deal waits
    assert "awaiting ann, bert" in service.client(gm, "session", "start")
    assert "improv.deck_shuffled" not in service.types(gm)
    assert "ann pledged" in service.client(ann, "rng", "contribute")
    assert "bert contributed" in service.client(bert, "rng", "contribute")
    assert "drawn" in service.client(ann, "rng", "contribute")
    # No viewer of the service sees the decks' orders in the draws (their own events hide
    # them too); the operator's log holds both, the same.
    for token in (gm, ann, bert):
        seen = next(e["payload"] for e in service.log(token) if e["type"] == "rng.drawn")
        assert seen["draws"] is None
        assert seen["salt"] is None
    events = local_log(service)
    drawn = next(e["payload"] for e in events if e["type"] == "rng.drawn")
    decks = [e["payload"]["order"] for e in events if e["type"] == "improv.deck_shuffled"]
    assert [d["order"] for d in drawn["draws"]] == decks
    # The decks may stay in play: the GM cannot reveal the seed, nor does the session's end.
    request = drawn["request"]
    assert "hidden cards" in refused(service.raw(gm, "rng", "reveal", request))
    assert "revealed" not in service.client(gm, "session", "end")
    # The next session's new decks replace these: the first deal's seed is revealed then.
    service.client(gm, "session", "start")
    service.client(ann, "rng", "contribute")
    service.client(bert, "rng", "contribute")
    assert f"shuffle {request}'s server seed revealed" in service.client(ann, "rng", "contribute")
    # $ tablelog --db DB verify --rng   (the operator's copy: every deal recomputed)
    out = ok(run(service.cwd, "--db", service.db, "verify", "--rng"))
    assert "1 committed shuffle request(s) recomputed exactly" in out


def post(service: Service, token: str | None, path: str, body: dict[str, Any]) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx.Client(base_url=service.url, timeout=30.0) as http:
        return http.post(f"/campaigns/night{path}", json=body, headers=headers)


@pytest.mark.parametrize("deadline", ["0", "60"])
def test_who_may_contribute_close_and_reveal(service: Service, deadline: str) -> None:
    gm, ann, bert = table(
        service,
        "night",
        "-r",
        "improv",
        "-o",
        "deck_mode=managed",
        "-o",
        f"rng_deadline_minutes={deadline}",
    )
    made = post(service, gm, "/players/olga/tokens", {"role": "observer"})
    olga = made.json()["token"]
    service.client(ann, "improv", "character", "ann", "Kit")
    service.client(bert, "improv", "character", "bert", "Vex")
    service.client(gm, "session", "start")
    request = json.loads(service.client(gm, "rng", "pending", "--json"))[0]["request"]
    value = bytes.fromhex("cd" * 32)
    give = {"request": request, "value": value.hex()}
    pledged = {"request": request, "commitment": rng.pledge("night", request, "ann", value)}
    refusals = [
        (gm, "/rng/pledges", pledged, 403, "gm-contribution"),
        (gm, "/rng/contributions", give, 403, "gm-contribution"),
        (olga, "/rng/pledges", pledged, 403, "observer"),
        (None, "/rng/pledges", pledged, 401, "no-token"),
        (ann, "/rng/pledges", {**pledged, "player": "bert"}, 403, "not-yours"),
        (ann, "/rng/pledges", {**pledged, "commitment": "cd"}, 422, "bad-pledge"),
        # No value before every pledge is in: the last to pledge could choose the shuffle.
        (ann, "/rng/contributions", give, 422, "rng-early"),
        (ann, "/rng/close", {"request": request}, 403, "gm-only"),
        (olga, "/rng/close", {"request": request}, 403, "observer"),
        (ann, "/rng/reveal", {"request": request}, 403, "gm-only"),
        (gm, "/rng/reveal", {"request": request}, 422, "rng-open"),
        (gm, "/rng/close", {"request": "nope"}, 404, "not-found"),
    ]
    if deadline == "60":
        refusals.append((gm, "/rng/close", {"request": request}, 422, "rng-deadline"))
    before = len(local_log(service))
    for token, path, body, status, code in refusals:
        answer = post(service, token, path, body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (
            path,
            body,
            answer.text,
        )
    assert len(local_log(service)) == before
    assert post(service, ann, "/rng/pledges", pledged).status_code == 201
    if deadline == "0":
        # The deadline has passed: the GM closes the pledges (bert absent); ann reveals.
        assert post(service, gm, "/rng/close", {"request": request}).status_code == 201
        assert post(service, ann, "/rng/contributions", give).status_code == 201
        drawn = next(e["payload"] for e in local_log(service) if e["type"] == "rng.drawn")
        assert (drawn["players"], drawn["absent"]) == (["ann"], ["bert"])
    else:
        theirs = bytes.fromhex("ef" * 32)
        commitment = rng.pledge("night", request, "bert", theirs)
        answer = post(service, bert, "/rng/pledges", {"request": request, "commitment": commitment})
        assert answer.status_code == 201
        # A value that is not the one pledged is refused, nothing appended.
        mismatch = post(service, ann, "/rng/contributions", {**give, "value": "ab" * 32})
        assert (mismatch.status_code, mismatch.json()["code"]) == (422, "rng-mismatch")
        assert post(service, ann, "/rng/contributions", give).status_code == 201
        answer = post(service, bert, "/rng/contributions", {**give, "value": theirs.hex()})
        assert answer.status_code == 201
    # Drawn: a late contribution counts for nothing; the deal's seed is held till the end.
    late = post(service, bert, "/rng/contributions", {**give, "value": "01" * 32})
    assert late.json()["code"] in ("rng-closed", "not-awaited")
    assert post(service, gm, "/rng/reveal", {"request": request}).json()["code"] == "rng-held"
