"""End-to-end: checkpoints players keep, and `verify --checkpoint` against a rewritten history.

Plain `verify` cannot see a history rewritten with every hash after it recomputed; a player
who kept a checkpoint signed before the rewrite can. Each test runs the real `tablelog` in
pytest's tmp_path, with its checkpoints kept in a directory of its own.
"""

from __future__ import annotations

import json
import stat
from pathlib import Path

import httpx
from sqlalchemy import create_engine, select, update

from tablelog.events.chain import chained_hash
from tablelog.storage.schema import campaigns, events
from tests.e2e.transcript import HEX64, broken, create, ok, one_line, refused, run
from tests.support.server import running_service

HEADER = ("campaign_id", "seq", "event_id", "type", "schema_version", "actor", "recorded_at")


def kept_env(tmp_path: Path) -> dict[str, str]:
    return {"TABLELOG_CHECKPOINTS": str(tmp_path / "kept")}


def tl(tmp_path: Path, *args: str) -> str:
    return ok(run(tmp_path, *args, env=kept_env(tmp_path)))


def kept_lines(tmp_path: Path, campaign: str) -> list[dict[str, object]]:
    text = (tmp_path / "kept" / f"{campaign}.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def rewrite_from(db: Path, campaign: str, seq: int) -> None:
    """Change the actor of event `seq` behind tablelog's back and recompute every hash after
    it, the head included: a rewrite plain `verify` cannot see."""
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as conn:
        rows = conn.execute(
            select(events)
            .where(events.c.campaign_id == campaign, events.c.seq >= seq)
            .order_by(events.c.seq)
        ).all()
        prev = rows[0].prev_hash
        for row in rows:
            values = dict(row._mapping)
            if values["seq"] == seq:
                values["actor"] = "mallory"
            digest = chained_hash(prev, tuple(values[c] for c in HEADER), values["payload"])
            conn.execute(
                update(events)
                .where(events.c.campaign_id == campaign, events.c.seq == values["seq"])
                .values(actor=values["actor"], prev_hash=prev, hash=digest)
            )
            prev = digest
        conn.execute(update(campaigns).where(campaigns.c.name == campaign).values(head_hash=prev))
    engine.dispose()


def played(tmp_path: Path) -> None:
    """A campaign with one session played and ended, then a second begun."""
    create(tmp_path, "vault")
    tl(tmp_path, "improv", "character", "bob", "Kit")
    tl(tmp_path, "session", "start")
    tl(tmp_path, "session", "end")
    tl(tmp_path, "session", "start")


def test_a_rewrite_after_a_checkpoint_passes_verify_but_not_verify_checkpoint(
    tmp_path: Path,
) -> None:
    played(tmp_path)
    db = tmp_path / "tablelog.db"
    key_file = tmp_path / "tablelog.db.key"
    assert not key_file.exists()  # ending a session never creates a key

    # $ tablelog checkpoint   (the key is created beside the database, owner-only)
    out = tl(tmp_path, "checkpoint")
    assert "seq 6" in out
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    kept = kept_lines(tmp_path, "vault")
    # The session's end (seq 5, at its recorded time) and the head now (seq 6).
    assert [(c["campaign"], c["seq"]) for c in kept] == [("vault", 5), ("vault", 6)]
    # $ tablelog key show
    public = tl(tmp_path, "key", "show").strip()
    assert HEX64.fullmatch(public)
    assert {c["key"] for c in kept} == {public}
    # Asked again, the session's checkpoint is the same bytes: the file gains only the new one.
    tl(tmp_path, "checkpoint")
    assert len(kept_lines(tmp_path, "vault")) == 3
    assert kept_lines(tmp_path, "vault")[0] == kept[0]
    # A what-if's session end is no part of the log: nothing is kept from it.
    moves = tmp_path / "moves.txt"
    moves.write_text("session end\n", encoding="utf-8")
    env = {**kept_env(tmp_path), "TABLELOG_KEY_FILE": str(key_file)}  # a key it could use
    ok(run(tmp_path, "whatif", "--at", "6", str(moves), env=env))
    assert len(kept_lines(tmp_path, "vault")) == 3
    moves.write_text("checkpoint\n", encoding="utf-8")
    assert "whatif-checkpoint" in refused(run(tmp_path, "whatif", "--at", "6", str(moves), env=env))
    export = tmp_path / "before.jsonl"
    tl(tmp_path, "export", "--format", "jsonl", "--output", str(export))

    kept_file = str(tmp_path / "kept" / "vault.jsonl")
    # $ tablelog verify --checkpoint FILE --key PUBKEY
    out = tl(tmp_path, "verify", "--checkpoint", kept_file, "--key", public)
    assert "3 checkpoint(s)" in out
    assert json.loads(tl(tmp_path, "verify", "--checkpoint", kept_file, "--json"))["ok"] is True

    rewrite_from(db, "vault", 3)
    # $ tablelog verify   (the rewrite is consistent: the chain alone holds)
    assert "ok" in tl(tmp_path, "verify")
    # $ tablelog verify --checkpoint FILE   (the first kept checkpoint already fails)
    result = broken(run(tmp_path, "verify", "--checkpoint", kept_file, "--key", public))
    line = one_line(result.stderr)
    assert "campaign vault, seq 5" in line
    assert "line 1 of" in line
    assert "rewritten" in line
    report = json.loads(broken(run(tmp_path, "verify", "--checkpoint", kept_file, "--json")).stdout)
    assert report["ok"] is False
    assert report["first_bad"]["seq"] == 5

    # The export taken before the rewrite still extends them; one taken after does not.
    tl(tmp_path, "verify", "--from", str(export), "--checkpoint", kept_file)
    after = tmp_path / "after.jsonl"
    tl(tmp_path, "export", "--format", "jsonl", "--output", str(after))
    assert "ok" in tl(tmp_path, "verify", "--from", str(after))
    result = broken(run(tmp_path, "verify", "--from", str(after), "--checkpoint", kept_file))
    assert "seq 5" in one_line(result.stderr)


def test_a_forged_foreign_or_unreached_checkpoint_is_named(tmp_path: Path) -> None:
    played(tmp_path)
    tl(tmp_path, "checkpoint")
    good = kept_lines(tmp_path, "vault")
    public = str(good[0]["key"])

    def verdict(checkpoint: dict[str, object], *extra: str) -> str:
        path = tmp_path / "one.jsonl"
        lines = [json.dumps(good[0]), json.dumps(checkpoint)]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return one_line(broken(run(tmp_path, "verify", "--checkpoint", str(path), *extra)).stderr)

    # A checkpoint whose seq the player moved: the signature no longer holds.
    assert "signature does not hold" in verdict({**good[1], "seq": 4})
    assert "line 2 of" in verdict({**good[1], "seq": 4})
    # Signed by some other key than the one given.
    other = "ab" * 32
    assert "not by the key given" in verdict(good[1], "--key", other)
    # A log cut short before the checkpoint (here: another campaign's database).
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    create(elsewhere, "vault")
    path = tmp_path / "kept" / "vault.jsonl"
    result = broken(run(elsewhere, "verify", "--checkpoint", str(path), "--key", public))
    assert "the log ends at seq 1, before the checkpoint's seq 5" in one_line(result.stderr)

    # Not a checkpoint file at all, or a bad key: refused (exit 1), nothing checked.
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"campaign": "vault"}\n', encoding="utf-8")
    assert "line 1 of" in refused(run(tmp_path, "verify", "--checkpoint", str(bad)))
    assert "64 hex digits" in refused(
        run(tmp_path, "verify", "--checkpoint", str(path), "--key", "nope")
    )
    assert "cannot read" in refused(run(tmp_path, "verify", "--checkpoint", "missing.jsonl"))
    # $ tablelog key show   (on a database that has no key yet)
    assert "no signing key" in refused(run(elsewhere, "key", "show"))


def test_the_service_signs_and_its_clients_keep_checkpoints(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    env = kept_env(tmp_path)
    with running_service(str(db), tmp_path) as url:
        # The key is made on the service's first start, owner-only, beside the file.
        key_file = tmp_path / "tablelog.db.key"
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
        public = httpx.get(f"{url}/key").json()["key"]
        assert public == tl(tmp_path, "key", "show").strip()
        gm = json.loads(
            tl(tmp_path, "campaign", "create", "vault", "--ruleset", "improv", "--json")
        )["token"]

        def client(*args: str) -> str:
            return ok(run(tmp_path, "--server", url, "--access-token", gm, *args, env=env))

        assert client("key", "show").strip() == public
        client("improv", "character", "bob", "Kit")
        client("session", "start")
        # $ tablelog --server URL session end   (the client keeps the session's checkpoint)
        client("session", "end")
        kept = kept_lines(tmp_path, "vault")
        assert [c["seq"] for c in kept] == [5]
        assert kept[0]["key"] == public
        # The service hands out the same checkpoint every time it is asked.
        headers = {"Authorization": f"Bearer {gm}"}
        listed = [
            httpx.get(f"{url}/campaigns/vault/checkpoints", headers=headers).json()
            for _ in range(2)
        ]
        assert listed[0] == listed[1] == kept
        # $ tablelog --server URL checkpoint --json
        now = json.loads(client("checkpoint", "--json"))
        assert now["seq"] == 5
        assert len(kept_lines(tmp_path, "vault")) == 2
        # Without a token, no checkpoint.
        assert httpx.get(f"{url}/campaigns/vault/checkpoint").status_code == 401
        # $ tablelog --server URL verify --checkpoint FILE   (against the log the service holds)
        kept_file = str(tmp_path / "kept" / "vault.jsonl")
        out = client("verify", "--checkpoint", kept_file, "--key", public)
        assert "2 checkpoint(s)" in out
        rewrite_from(db, "vault", 2)
        assert "ok" in client("verify")  # the service's own check of the chain still passes
        result = run(
            tmp_path, "--server", url, "--access-token", gm, "verify", "--checkpoint", kept_file,
            env=env,
        )  # fmt: skip
        assert "campaign vault, seq 5" in one_line(broken(result).stderr)
    result = broken(run(tmp_path, "verify", "--checkpoint", kept_file, "--key", public))
    assert "rewritten" in one_line(result.stderr)
