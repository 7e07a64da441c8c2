"""End-to-end: `export --format markdown|bbcode|discord`, forum posts through the real CLI.

The demo's hashes cover the time each event was recorded, so the golden posts hold `<hash>`
where the footer has the head hash; the hash itself is checked with `tablelog verify --head`.
Set TABLELOG_UPDATE_GOLDEN=1 to rewrite the golden files (then read them before committing).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tablelog.projections.post_formats import DISCORD_LIMIT, SEPARATOR, utf16_len
from tablelog.rulesets.improv.rules.cards import pretty
from tests.e2e.transcript import HEX64, broken, ok, refused, run

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("TABLELOG_UPDATE_GOLDEN") == "1"
FORMATS = {"markdown": "md", "bbcode": "bbcode", "discord": "discord.txt"}
HEAD = re.compile(r"--head (\d+):([0-9a-f]{64})")


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`tablelog demo` once for the module; the tests below only read it."""
    folder = tmp_path_factory.mktemp("demo")
    ok(run(folder, "demo"))
    return folder / "tablelog.db"


def _post(tmp_path: Path, db: Path | str, fmt: str, *args: str) -> str:
    return ok(run(tmp_path, "--db", str(db), "export", "--format", fmt, *args))


def _head(post: str) -> tuple[str, str]:
    found = HEAD.findall(post)
    assert len(found) == 1, found
    seq, digest = found[0]
    return seq, digest


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_a_post_of_the_fight_matches_its_golden_file(
    tmp_path: Path, demo_db: Path, fmt: str
) -> None:
    # $ tablelog export --format FMT --conflict fight
    post = _post(tmp_path, demo_db, fmt, "--conflict", "fight")
    normalized = HEX64.sub("<hash>", post)
    golden = GOLDEN / f"fight.{FORMATS[fmt]}"
    if UPDATE:
        golden.write_text(normalized, encoding="utf-8")
    assert normalized == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_the_footer_head_is_checked_by_verify(tmp_path: Path, demo_db: Path, fmt: str) -> None:
    post = _post(tmp_path, demo_db, fmt, "--conflict", "fight")
    seq, digest = _head(post)
    assert seq == "58"  # the fight's last event
    assert f"58:{digest}" in post.replace("`", " ")
    # $ tablelog verify --head SEQ:HASH, and the exact command the footer prints
    db = ("--db", str(demo_db))
    ok(run(tmp_path, *db, "verify", "--head", f"{seq}:{digest}"))
    ok(run(tmp_path, *db, "verify", "-c", "bar-fight", "--head", f"{seq}:{digest}"))
    # A post claiming another history fails: exit 3.
    wrong = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    result = broken(run(tmp_path, *db, "verify", "--head", f"{seq}:{wrong}"))
    assert "does not contain head" in result.stdout + result.stderr
    broken(run(tmp_path, *db, "verify", "--head", f"57:{digest}"))


def test_the_discord_post_is_split_into_messages_that_fit(tmp_path: Path, demo_db: Path) -> None:
    post = _post(tmp_path, demo_db, "discord", "--conflict", "fight")
    messages = post.rstrip("\n").split(f"\n{SEPARATOR}\n")
    assert len(messages) > 1
    assert all(utf16_len(message) <= DISCORD_LIMIT for message in messages)
    assert "Verified log: campaign bar-fight, events 12\u201358" in messages[-1]


def test_a_post_goes_to_output_as_utf8_and_matches_stdout(tmp_path: Path, demo_db: Path) -> None:
    stdout = _post(tmp_path, demo_db, "bbcode", "--conflict", "fight")
    # $ tablelog export --format bbcode --conflict fight --output fight.txt
    args = ("--format", "bbcode", "--conflict", "fight", "--output", "fight.txt")
    result = run(tmp_path, "--db", str(demo_db), "export", *args)
    assert ok(result) == ""
    assert "to fight.txt" in result.stderr
    assert (tmp_path / "fight.txt").read_bytes() == stdout.encode("utf-8")
    assert "K\u2660" in stdout  # card symbols


def test_a_session_post_and_a_campaign_post(tmp_path: Path, demo_db: Path) -> None:
    # $ tablelog export --format markdown --session 1
    session = _post(tmp_path, demo_db, "markdown", "--session", "1")
    assert session.startswith("# session 1\n")
    assert "*campaign bar-fight, events 8\u201358, 1 conflict*" in session
    assert "## conflict fight (extended, 3 rounds), closed" in session
    assert "### Outcome" in session
    seq, digest = _head(session)
    ok(run(tmp_path, "--db", str(demo_db), "verify", "--head", f"{seq}:{digest}"))
    # $ tablelog export --format markdown   (the whole campaign)
    whole = _post(tmp_path, demo_db, "markdown")
    assert whole.startswith("# campaign bar-fight\n")
    assert "events 1\u201358" in whole
    assert _head(whole) == ("58", digest)


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (("--format", "markdown", "--conflict", "nope"), "no-conflict: campaign bar-fight has no"),
        (("--format", "discord", "--session", "7"), "no-session: campaign bar-fight has no"),
        (("--format", "bbcode", "--conflict", "fight", "--session", "1"), "bad-scope: "),
        (("--format", "jsonl", "--conflict", "fight"), "bad-scope: "),
        (("--session", "1"), "bad-scope: "),
    ],
)
def test_a_bad_scope_is_refused_in_one_sentence(
    tmp_path: Path, demo_db: Path, args: tuple[str, ...], start: str
) -> None:
    line = refused(run(tmp_path, "--db", str(demo_db), "export", *args))
    assert line.startswith(start), line


def test_a_face_down_round_never_shows_its_cards(tmp_path: Path) -> None:
    ok(run(tmp_path, "campaign", "create", "amanda", "--ruleset", "improv"))
    ok(run(tmp_path, "improv", "character", "bob", "Kit", "--talent", "Brawler"))
    ok(run(tmp_path, "session", "start"))
    ok(run(tmp_path, "improv", "open"))
    hostile = "**bold** [b]x[/b] <@123> @everyone # head | pipe"
    ok(run(tmp_path, "improv", "stake", "c1", "amanda", hostile, "--gm"))
    ok(run(tmp_path, "improv", "stake", "c1", "Kit", "Kit gets the files", "--opposes", "amanda"))
    # Both cards face down: 10H and QC.
    ok(run(tmp_path, "improv", "play", "c1", "kit", "10h"))
    ok(run(tmp_path, "improv", "play", "c1", "amanda", "QC"))
    hidden = ("10\u2665", "Q\u2663", "10H", "QC")
    scopes = [(fmt, "--conflict", "c1") for fmt in FORMATS]
    scopes += [("markdown", "--session", "1"), ("discord",)]
    for fmt, *scope in scopes:
        post = HEX64.sub("<hash>", _post(tmp_path, "tablelog.db", fmt, *scope))
        assert "face down" in post
        for card in hidden:
            assert card not in post, (fmt, scope, card)
    # The hostile stake is shown as text: no ping, no tag, no bold.
    discord = _post(tmp_path, "tablelog.db", "discord", "--conflict", "c1")
    assert "@everyone" not in discord
    assert "\\*\\*bold\\*\\*" in discord
    assert "[\u200bb]x[\u200b/b]" in _post(tmp_path, "tablelog.db", "bbcode", "--conflict", "c1")
    # Once revealed, the cards are public and the post shows them.
    ok(run(tmp_path, "improv", "reveal", "c1"))
    revealed = _post(tmp_path, "tablelog.db", "bbcode", "--conflict", "c1")
    assert "10\u2665" in revealed
    assert "Q\u2663" in revealed


def test_a_managed_deck_post_never_shows_a_hand(tmp_path: Path) -> None:
    ok(run(tmp_path, "campaign", "create", "night", "-r", "improv", "--deck-mode", "managed"))
    ok(run(tmp_path, "improv", "character", "bob", "Kit"))
    ok(run(tmp_path, "session", "start"))
    hand = json.loads(ok(run(tmp_path, "improv", "hand", "bob", "--json")))["cards"]
    gm_hand = json.loads(ok(run(tmp_path, "improv", "hand", "gm", "--json")))["cards"]
    ok(run(tmp_path, "improv", "open"))
    ok(run(tmp_path, "improv", "stake", "c1", "guard", "The guard raises the alarm", "--gm"))
    ok(run(tmp_path, "improv", "stake", "c1", "kit", "Kit slips past", "--opposes", "guard"))
    ok(run(tmp_path, "improv", "play", "c1", "kit", hand[0]))
    ok(run(tmp_path, "improv", "play", "c1", "guard", gm_hand[0]))

    def shown(post: str, card: str) -> bool:
        return pretty(card) in post or re.search(rf"\b{card}\b", post) is not None

    for fmt in FORMATS:
        post = HEX64.sub("<hash>", _post(tmp_path, "tablelog.db", fmt))
        assert "face down" in post
        assert not [card for card in {*hand, *gm_hand} if shown(post, card)], fmt
    # After the reveal only the two played cards are public; the rest of each hand is not.
    ok(run(tmp_path, "improv", "reveal", "c1"))
    ok(run(tmp_path, "improv", "close", "c1"))
    played = {pretty(hand[0]), pretty(gm_hand[0])}
    held = json.loads(ok(run(tmp_path, "improv", "hand", "bob", "--json")))["cards"]
    gm_held = json.loads(ok(run(tmp_path, "improv", "hand", "gm", "--json")))["cards"]
    for fmt in FORMATS:
        post = HEX64.sub("<hash>", _post(tmp_path, "tablelog.db", fmt, "--conflict", "c1"))
        # Equal totals explain the suit order, which names the Joker without showing one.
        post = post.replace("a Joker above every suit", "")
        assert all(card in post for card in played)
        unplayed = {pretty(card) for card in [*held, *gm_held]} - played
        assert not [card for card in unplayed if card in post], fmt
    ok(run(tmp_path, "verify"))


def test_a_post_from_either_backend(tmp_path: Path, target: str) -> None:
    # $ tablelog --db TARGET db upgrade; tablelog --db TARGET demo
    ok(run(tmp_path, "--db", target, "db", "upgrade"))
    ok(run(tmp_path, "--db", target, "demo"))
    # $ tablelog --db TARGET export --format discord --conflict fight
    post = _post(tmp_path, target, "discord", "--conflict", "fight")
    golden = (GOLDEN / "fight.discord.txt").read_text(encoding="utf-8")
    assert HEX64.sub("<hash>", post) == golden
    seq, digest = _head(post)
    ok(run(tmp_path, "--db", target, "verify", "--head", f"{seq}:{digest}"))
