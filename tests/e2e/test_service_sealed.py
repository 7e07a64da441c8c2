"""Sealed plays through the service, end to end: each player's CLI seals its card with a salt
of its own, kept on its own machine; the database the operator reads holds no card until the
openings; a wrong opening is refused (422 over HTTP, exit 1 in the CLI) and changes nothing.
"""

from __future__ import annotations

import json
import sqlite3
import stat
from contextlib import closing
from pathlib import Path

import httpx

from tablelog.rules import sealing
from tests.e2e.transcript import TOKEN, ok, refused, run
from tests.support.server import admin_token, running_service


def rows(db: Path) -> list[tuple[int, str, bytes]]:
    with closing(sqlite3.connect(db)) as conn, conn:
        found = conn.execute("SELECT seq, type, payload FROM events ORDER BY seq").fetchall()
    return [(seq, kind, bytes(payload)) for seq, kind, payload in found]


def test_sealed_plays_through_the_service(tmp_path: Path) -> None:
    db = tmp_path / "tablelog.db"
    machines = {who: tmp_path / who for who in ("gm", "bob")}
    for home in machines.values():
        home.mkdir()
    with running_service(str(db), tmp_path) as url:
        created = run(
            tmp_path,
            "--server", url, "--access-token", admin_token(url),
            "campaign", "create", "vault", "--ruleset", "improv",
            "--option", "sealed_plays=true", "--json",
        )  # fmt: skip
        tokens = {"gm": json.loads(ok(created))["token"]}
        invited = run(tmp_path, "--server", url, "--access-token", tokens["gm"], "invite", "bob")
        tokens["bob"] = TOKEN.findall(ok(invited))[-1]

        def as_(who: str, *args: str) -> str:
            return ok(cli(who, *args))

        def cli(who: str, *args: str):  # type: ignore[no-untyped-def]
            env = {"TABLELOG_SEALED": str(machines[who] / "sealed")}
            auth = ("--server", url, "--access-token", tokens[who])
            return run(machines[who], *auth, *args, env=env)

        as_("bob", "improv", "character", "bob", "Kit")
        as_("gm", "session", "start")
        as_("gm", "improv", "open", "--id", "c1", "--extended", "--rounds", "2")
        as_("gm", "improv", "stake", "c1", "Riso", "Riso gets away", "--gm")
        as_("bob", "improv", "stake", "c1", "Kit", "Kit catches Riso", "--opposes", "Riso")
        # $ tablelog improv play c1 kit AH   (bob's machine seals it; the service gets a hash)
        as_("bob", "improv", "play", "c1", "kit", "AH")
        as_("gm", "improv", "play", "c1", "riso", "QD")
        kept = machines["bob"] / "sealed" / "vault.jsonl"
        assert stat.S_IMODE(kept.stat().st_mode) == 0o600
        opening = json.loads(kept.read_text(encoding="utf-8"))
        assert (opening["side"], opening["choice"], opening["round"]) == ("kit", "AH", 1)
        # The operator's view of the database: every play is there, no card is.
        during = rows(db)
        assert [kind for _, kind, _ in during][-2:] == ["improv.card_sealed"] * 2
        payloads = b"".join(payload for _, _, payload in during)
        assert b'"AH"' not in payloads
        assert b'"QD"' not in payloads

        # Forged openings over HTTP: 422, one sentence, nothing appended.
        headers = {"Authorization": f"Bearer {tokens['bob']}"}
        path = f"{url}/campaigns/vault/improv/conflicts/c1/openings"
        salt = bytes.fromhex(opening["salt"])
        changed = bytes([salt[0] ^ 1]) + salt[1:]
        for card, given in (("KH", salt), ("AH", changed)):
            answer = httpx.post(
                path, json={"side": "kit", "card": card, "salt": given.hex()}, headers=headers
            )
            assert answer.status_code == 422, answer.text
            assert answer.json()["code"] == "bad-opening"
        assert rows(db) == during
        # The GM cannot open bob's card, even holding the salt.
        as_gm = {"Authorization": f"Bearer {tokens['gm']}"}
        body = {"side": "kit", "card": "AH", "salt": opening["salt"]}
        assert httpx.post(path, json=body, headers=as_gm).status_code == 403
        # A forfeit before any deadline is refused.
        assert "no deadline" in refused(cli("gm", "improv", "forfeit", "c1", "kit"))
        as_("gm", "improv", "deadline", "c1", "60")
        assert "has not passed" in refused(cli("gm", "improv", "forfeit", "c1", "kit"))

        # $ tablelog improv unseal c1   (bob opens his card; the GM's reveal opens the GM's)
        assert "opens its sealed card: A" in as_("bob", "improv", "unseal", "c1")
        out = as_("gm", "improv", "reveal", "c1")
        assert "riso opens its sealed card" in out
        assert "kit beats riso" in out

        # Round 2: bob's round-1 opening, replayed, does not open his round-2 card.
        as_("bob", "improv", "play", "c1", "kit", "3C")
        as_("gm", "improv", "play", "c1", "riso", "KS")
        replayed = {"side": "kit", "card": "AH", "salt": opening["salt"]}
        answer = httpx.post(path, json=replayed, headers=headers)
        assert answer.status_code == 422
        assert answer.json()["code"] == "bad-opening"
        # The round-2 commitment matches the kept round-2 opening, not the first one.
        second = json.loads(kept.read_text(encoding="utf-8").splitlines()[1])
        digest = sealing.commitment(
            "vault", "c1", 2, "kit", "3C", bytes.fromhex(second["salt"])
        ).hex()
        assert digest == second["commitment"] != opening["commitment"]
