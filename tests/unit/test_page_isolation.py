"""Direction controls on the page: every ruleset's demo played with a control (U+202E and
the others, in turn) in every text the rules take one in (stakes, goals, narrations,
premises...), and each page it gives (the GM's, each player's, an observer's, now and as of
every seq), the page's header and the audit rendered as the service renders them: each such
text sits in a `<bdi>` of its own, alone, wherever a sentence quotes it (so it reorders
nothing around it), and in an option label or an attribute between FSI and PDI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tablelog import rulesets
from tablelog.commands.access import Caller
from tablelog.commands.audit import audit
from tablelog.commands.database import opened
from tablelog.commands.page import page_of
from tablelog.http.isolation import FSI, PDI, isolate_markup, isolate_text
from tablelog.http.page import _TEMPLATES, audit_texts
from tablelog.http.reads import public_account
from tablelog.projections.account_text import account_lines
from tests.support.hostile import CONTROLS, hostile_demo, unisolated

RLO, PDF, LRI = "\u202e", "\u202c", "\u2066"


def test_a_quoted_text_is_isolated_alone_and_closes_only_itself() -> None:
    goal = RLO + "Bob backs down"
    line = f'goal alice: "{goal}" against bob'
    assert isolate_markup(line, [goal]) == (
        f'<bdi dir="ltr">goal alice: &#34;<bdi>{goal}</bdi>&#34; against bob</bdi>'
    )
    assert isolate_text(line, [goal]) == f'{LRI}goal alice: "{FSI}{goal}{PDI}" against bob{PDI}'
    # The player's text alone takes its own direction; the page's sentence stays left to
    # right, even when it begins with a name in Hebrew letters.
    assert isolate_markup(goal, [goal]) == f"<bdi>{goal}</bdi>"
    hebrew = f'\u05e9\u05dc\u05d5\u05dd: "{goal}"'
    assert isolate_markup(hebrew, [goal]).startswith('<bdi dir="ltr">\u05e9')
    # A PDI of the player's own closes no isolate of the page's; one it opens is closed.
    assert isolate_markup(PDI + goal) == f'<bdi dir="ltr">{goal}</bdi>'
    assert isolate_text(LRI + goal) == f"{LRI}{LRI}{goal}{PDI}{PDI}"
    # A text without a control is left as it is; markup in it is escaped either way.
    assert isolate_markup("<b>Kit</b> wins") == "&lt;b&gt;Kit&lt;/b&gt; wins"
    assert isolate_markup(f"<b>{PDF}") == f'<bdi dir="ltr">&lt;b&gt;{PDF}</bdi>'


@pytest.mark.parametrize("ruleset", rulesets.names())
def test_every_players_text_with_a_control_is_isolated_on_the_page(
    tmp_path: Path, ruleset: str
) -> None:
    start = rulesets.names().index(ruleset) * 5  # each ruleset begins at another control
    with opened(str(tmp_path / "t.db"), create=True) as store:
        texts = hostile_demo(store, ruleset, "bidi", start=start)
        assert texts, "the demo's texts take no control"
        head = store.head("bidi")
        assert head is not None
        actors = {e.actor for e in store.stream("bidi")} - {"gm", None}
        seats = [("gm", "gm"), ("watcher", "observer"), *((a, "player") for a in actors)]
        faults: set[str] = set()
        for player, role in seats:
            caller = Caller(campaign="bidi", player=player, role=role, digest=f"d-{player}")
            for at in (*range(2, head.seq), None):
                page = page_of(store, "bidi", caller, at=at)
                html = _TEMPLATES.get_template("table.html").render(page=page, texts=page.texts)
                faults.update(f"{player} at {at}: {f}" for f in unisolated(html, texts))
            for conflict in audit(store, "bidi").conflicts:  # as the page's Audit button asks
                account = public_account(audit(store, "bidi", conflict=conflict.conflict))
                lines = _TEMPLATES.get_template("lines.html").render(
                    lines=account_lines(account),
                    ok=account.ok,
                    texts=audit_texts(store, caller, conflict.conflict),
                )
                faults.update(f"{player}'s audit: {f}" for f in unisolated(lines, texts))
    assert not sorted(faults)


def test_the_demos_together_put_every_control_in_some_text(tmp_path: Path) -> None:
    seen: set[str] = set()
    with opened(str(tmp_path / "t.db"), create=True) as store:
        for index, ruleset in enumerate(rulesets.names()):
            for text in hostile_demo(store, ruleset, f"b{index}", start=index * 5):
                seen.update(text)
    assert set(CONTROLS) <= seen
