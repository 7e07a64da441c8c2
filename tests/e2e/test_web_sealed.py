"""Sealed plays and kept checkpoints from the page, in real browsers (README, "Provable
fairness"): bob and the GM play a sealed Improv round through their pages. Each browser
commits to its card with WebCrypto (the README's test vector computed in the browser equals
Python's), keeps card and salt in its localStorage, and sends only the commitment; no request
and no row of the database holds a card before its opening. A changed salt is refused in one
sentence, with nothing appended. Then the pages keep the service's checkpoints, and the file
a browser downloads is one `tablelog verify --checkpoint` accepts.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path
from typing import Any

from tablelog.rules import sealing
from tests.e2e.browser import DESKTOP, PHONE, act, chromium, head_seq, offered, settled
from tests.e2e.test_web_browser import sign_in, tl
from tests.support.server import running_service

README_VECTOR = "763d87ddb65a517cd39b3c7a3129ed5711609de6580d24bc76f8baff03b3f453"
BOB_CARD, GM_CARD = "QH", "7S"
SLOT = 'tablelog:sealed:["heist","c1",1,"kit"]'


def raw_rows(db: Path) -> list[str]:
    """Every row of the events table as the operator reads it, payload included."""
    with closing(sqlite3.connect(db)) as conn, conn:
        rows = conn.execute("SELECT * FROM events").fetchall()
    return [" ".join(readable(v) for v in row) for row in rows]


def readable(value: object) -> str:
    """A column as an operator reads it: a JSON payload as text, a hash as hex (its raw
    bytes may spell "QH" by chance)."""
    if not isinstance(value, bytes):
        return str(value)
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.hex()


def verify(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablelog", "--db", "t.db", "verify", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_sealed_plays_and_checkpoints_from_the_page(tmp_path: Path) -> None:
    tl(
        tmp_path,
        *("campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina"),
        *("--deck-mode", "recorded", "--option", "sealed_plays=true"),
    )
    tl(tmp_path, "improv", "character", "bob", "Kit", "-c", "heist")
    for args in (
        ("session", "start"),
        ("improv", "open"),
        ("improv", "stake", "c1", "riso", "Riso keeps the bar", "--gm"),
        ("improv", "stake", "c1", "kit", "Kit throws Riso out", "--opposes", "riso"),
    ):
        tl(tmp_path, *args, "-c", "heist")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        links = {
            who: json.loads(
                tl(tmp_path, "invite", who, "--link", "--json", "--url", url, "-c", "heist", *role)
            )["link"]
            for who, role in (("gina", ("--role", "gm")), ("bob", ()))
        }
        gm = sign_in(browser, url, links["gina"], DESKTOP)
        bob = sign_in(browser, url, links["bob"], PHONE, is_mobile=True, has_touch=True)
        sent: list[tuple[str, str]] = []
        for page in (gm, bob):
            page.on("request", lambda r: sent.append((r.url, r.post_data or "")))
        play_sealed_round(tmp_path, gm, bob, sent)
        keep_checkpoints(tmp_path, gm, bob)
        buy_sealed_pools(tmp_path, url, browser)


def play_sealed_round(cwd: Path, gm: Any, bob: Any, sent: list[tuple[str, str]]) -> None:
    db = cwd / "t.db"

    def settle() -> int:
        seq = head_seq(db, "heist")
        for page in (gm, bob):
            settled(page, seq)
        return seq

    # The README's vector, computed by the browser's WebCrypto, is Python's (once the page's
    # deferred scripts have run: on a loaded machine the sign-in may return before).
    bob.wait_for_function("() => typeof tablelogSealing !== 'undefined'")
    computed = bob.evaluate(
        "() => tablelogSealing.commitment('bar-fight', 'c1', 1, 'kit', 'AH',"
        " Uint8Array.from({length: 32}, (_, i) => i))"
    )
    assert (
        computed
        == README_VECTOR
        == sealing.commitment("bar-fight", "c1", 1, "kit", "AH", bytes(range(32))).hex()
    )
    assert act(bob, "Play a card face down", card=BOB_CARD) is None
    settle()
    # Only the commitment left bob's browser: no request, no row holds the card.
    kept = json.loads(bob.evaluate(f"() => localStorage.getItem({json.dumps(SLOT)})"))
    (commitment, opening), *more = kept.items()
    assert more == []
    assert opening["choice"] == BOB_CARD
    salt = bytes.fromhex(opening["salt"])
    assert commitment == sealing.commitment("heist", "c1", 1, "kit", BOB_CARD, salt).hex()
    plays = [body for address, body in sent if address.endswith("/plays")]
    assert len(plays) == 1
    assert json.loads(plays[0]) == {
        "side": "kit",
        "round": 1,
        "commitment": commitment,
    }
    for address, body in sent:
        assert BOB_CARD not in body, address
    for row in raw_rows(db):
        assert BOB_CARD not in row
        assert opening["salt"] not in row
    assert "a face-down card" in gm.locator("#conflict-c1 tbody tr", has_text="Kit").inner_html()
    assert "Open Kit's sealed card" not in offered(bob)  # not before every side has played
    # A changed salt: bob's page opens by itself once the GM's card is down, and is refused.
    wrong = {commitment: {**opening, "salt": "00" * 32}}
    bob.evaluate("([k, v]) => localStorage.setItem(k, v)", [SLOT, json.dumps(wrong)])
    with bob.expect_response(lambda r: r.url.endswith("/openings"), timeout=15_000) as refused:
        assert act(gm, "Play a card face down", card=GM_CARD) is None
    assert refused.value.status == 422
    assert refused.value.json()["code"] == "bad-opening"
    for address, body in sent:
        if address.endswith("/plays"):
            assert GM_CARD not in body
            assert BOB_CARD not in body
    # The GM's page opens riso's card by itself, after its play has landed: wait for the row.
    deadline = time.monotonic() + 15
    while not (opened := [r for r in raw_rows(db) if "improv.card_opened" in r]):
        assert time.monotonic() < deadline, "the GM's page never opened riso's card"
        time.sleep(0.05)
    settle()
    assert len(opened) == 1
    assert GM_CARD in opened[0]
    seq = head_seq(db, "heist")
    sentence = act(bob, "Open Kit's sealed card")  # the button, by hand: the same sentence
    assert sentence is not None
    assert sentence.startswith(
        "bad-opening: the opening of kit's sealed play in round 1 of c1 does not match"
    )
    assert head_seq(db, "heist") == seq
    assert "Reveal the round" not in offered(gm)  # bob's card is not open yet
    assert "Kit (bob): opening" in gm.locator("#conflict-c1 .waiting").inner_text()
    bob.evaluate("([k, v]) => localStorage.setItem(k, v)", [SLOT, json.dumps(kept)])
    assert act(bob, "Open Kit's sealed card") is None
    settle()
    assert bob.evaluate(f"() => localStorage.getItem({json.dumps(SLOT)})") is None
    assert act(gm, "Reveal the round") is None
    settle()
    assert "Q♥" in gm.locator("#conflict-c1 tbody tr", has_text="Kit").inner_text()
    assert "7♠" in bob.locator("#conflict-c1 tbody tr", has_text="keeps the bar").inner_text()
    audit = json.loads(tl(cwd, "audit", "--json", "-c", "heist"))
    assert audit["ok"] is True, audit


def keep_checkpoints(cwd: Path, gm: Any, bob: Any) -> None:
    """The pages keep every checkpoint they see; bob's download verifies."""
    key = json.loads(tl(cwd, "key", "show", "--json"))["key"]
    assert bob.locator("#service-key").inner_text() == key
    assert act(gm, "Close the conflict") is None
    assert act(gm, "End the session") is None
    seq = head_seq(cwd / "t.db", "heist")
    for page in (gm, bob):
        settled(page, seq)
        page.wait_for_selector(f"#kept-checkpoints:has-text('the last at seq {seq}')")
    bob.locator("#keep-checkpoint").click()  # and one of the head, on demand
    bob.wait_for_selector("#kept-checkpoints:has-text('keeps 2 checkpoint')")
    with bob.expect_download() as download:
        bob.locator("#download-checkpoints").click()
    kept = cwd / "kept.jsonl"
    download.value.save_as(kept)
    lines = [json.loads(line) for line in kept.read_text().splitlines()]
    assert [c["seq"] for c in lines] == [seq, seq]
    assert {c["key"] for c in lines} == {key}
    done = verify(cwd, "--checkpoint", str(kept), "--key", key)
    assert done.returncode == 0, done.stderr
    # A checkpoint changed in the file no longer holds: verify says so (exit 3).
    lines[0]["hash"] = "11" * 32
    kept.write_text("".join(json.dumps(c) + "\n" for c in lines))
    assert verify(cwd, "--checkpoint", str(kept), "--key", key).returncode == 3


def buy_sealed_pools(cwd: Path, url: str, browser: Any) -> None:
    """Beer Run: ann's and the GM's pools bought sealed from their pages (a commitment over
    base and extras, as typed), opened by the pages once both are in, then rolled."""
    tl(
        cwd,
        *("campaign", "create", "pub", "--ruleset", "beer-run", "--gm", "gina"),
        *("--option", "sealed_plays=true", "--option", "dice=recorded"),
    )
    for who, name, specs in (
        ("ann", "Alice", ("Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Brawl:Body:d10")),
        ("gm", "Bob", ("Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6")),
    ):
        abilities = [arg for spec in specs for arg in ("-a", spec)]
        tl(cwd, "beer-run", "character", who, name, *abilities, "-c", "pub")
    tl(cwd, "beer-run", "open", "--side", "a=alice", "--side", "b=bob", "-c", "pub")
    tl(cwd, "beer-run", "goal", "c1", "alice", "Bob backs down", "-c", "pub")
    tl(cwd, "beer-run", "goal", "c1", "bob", "Alice is beaten", "-c", "pub")
    links = {
        who: json.loads(
            tl(cwd, "invite", who, "--link", "--json", "--url", url, "-c", "pub", *role)
        )["link"]
        for who, role in (("gina", ("--role", "gm")), ("ann", ()))
    }
    gm = sign_in(browser, url, links["gina"], DESKTOP)
    ann = sign_in(browser, url, links["ann"], PHONE, is_mobile=True, has_touch=True)
    db = cwd / "t.db"

    def settle() -> None:
        seq = head_seq(db, "pub")
        for page in (gm, ann):
            settled(page, seq)

    assert act(ann, "Buy Alice's pool, sealed", base="Body Mind Kit", extras="Brawl") is None
    settle()
    assert not [r for r in raw_rows(db) if "br.pool_assembled" in r or "br.pool_opened" in r]
    assert act(gm, "Buy Bob's pool, sealed", base="body resolve kit") is None
    settle()  # both pools in: each page opens its own
    seq = head_seq(db, "pub")
    for page in (gm, ann):
        page.wait_for_selector("form.action legend:has-text('Roll')", timeout=15_000)
        settled(page, head_seq(db, "pub"))
    opened = [r for r in raw_rows(db) if "br.pool_opened" in r]
    assert len(opened) == 2, seq
    assert "base=Body,Mind,Kit;extras=Brawl" in opened[0] + opened[1]
    assert act(ann, "Roll Alice's pool", values="7 5 3 2") is None
    assert act(gm, "Roll Bob's pool", values="7 4 6") is None
    settle()
    audit = json.loads(tl(cwd, "audit", "--json", "-c", "pub"))
    assert audit["ok"] is True, audit
