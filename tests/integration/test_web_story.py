"""Every ruleset's demo page tells its story (issue 29, "the story on the page"): the
conflict the demo ended stays on the page, folded away under its outcome, with what happened
in plain words; the narrations said at the table are quotes with who said them; an
observer's page says nobody is "you"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablelog import rulesets
from tablelog.commands.access import Caller
from tablelog.commands.page import page_of
from tablelog.http.page import _TEMPLATES, tab_icon, tab_title
from tablelog.storage import open_store

# What each demo's narrations say (none: the ruleset has no narration), in part.
NARRATED = {
    "improv": "Kit tackles Riso",
    "night-terrors": "Alice keeps the ledger.",
    "bid-and-challenge": "sword sinks into the moat",
}


def tl(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "tablelog", "--db", "t.db", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, (args, done.stdout, done.stderr)
    return done.stdout


@pytest.mark.parametrize("ruleset", rulesets.names())
def test_the_demo_page_shows_the_ended_conflict_its_story_and_narrations(
    tmp_path: Path, ruleset: str
) -> None:
    tl(tmp_path, "demo", "--ruleset", ruleset)
    campaign = json.loads(tl(tmp_path, "campaign", "list", "--json"))[0]["campaign"]
    store = open_store(str(tmp_path / "t.db"))
    for who, role in (("gina", "gm"), ("watcher", "observer")):
        caller = Caller(campaign=campaign, player=who, role=role, digest=f"d-{who}")
        page = page_of(store, campaign, caller)
        closed = [p for p in page.panels if p.conflict and p.closed]
        assert closed, (ruleset, [p.key for p in page.panels])
        assert all(p.result for p in closed), (ruleset, [p.result for p in closed])
        html = _TEMPLATES.get_template("table.html").render(
            page=page, texts=page.texts, fragment=True, tab_title=tab_title, tab_icon=tab_icon
        )
        assert html.count('<details class="closed-conflict">') == len(closed)
        assert '<summary><span class="closed-mark">Ended:</span>' in html
        if role == "observer":
            assert all("You" not in p.result and "you" not in p.result for p in closed)
        quoted = [q.text for p in closed for q in p.quotes]
        if ruleset in NARRATED:
            assert any(NARRATED[ruleset] in text for text in quoted), (ruleset, quoted)
            assert '<figure class="quote"><blockquote>' in html
        if ruleset != "duel":  # the generic page has only its beats to tell
            assert all(p.story for p in closed), ruleset
            assert '<details class="story"><summary>What happened</summary>' in html


# Each demo's ended conflict as a player reads its outcome: "You" for their own character.
OUTCOMES = [
    ("improv", "bob", "You won the conflict against Riso (4 cards vs 4)"),
    ("improv", "richard", "You lost the conflict to Riso (0 cards vs 4)"),
    ("night-terrors", "ann", "You won the stakes (alice is the only one left in)"),
    ("night-terrors", "ben", "Alice won the stakes (alice is the only one left in)"),
    ("beer-run", "ann", "You beat Bob; You achieved 'Bob backs down'"),
    ("bid-and-challenge", "ben", "You won round 1 (12 vs 10); You won round 2 (6 vs 6)"),
    ("bid-and-challenge", "anna", "You lost round 1 to Ben (10 vs 12); You lost round 2"),
    ("ace-of-cards", "ann", "You beat goblin; You beat ogre"),
    ("duel", "ann", "Bob beats you"),
]


@pytest.mark.parametrize(("ruleset", "player", "said"), OUTCOMES)
def test_a_player_reads_the_outcome_as_their_own(
    tmp_path: Path, ruleset: str, player: str, said: str
) -> None:
    tl(tmp_path, "demo", "--ruleset", ruleset)
    campaign = json.loads(tl(tmp_path, "campaign", "list", "--json"))[0]["campaign"]
    caller = Caller(campaign=campaign, player=player, role="player", digest="d")
    page = page_of(open_store(str(tmp_path / "t.db")), campaign, caller)
    [ended] = [p for p in page.panels if p.conflict and p.closed]
    assert said in ended.result, ended.result
