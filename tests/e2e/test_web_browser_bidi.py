"""Direction controls in real browsers: every ruleset's demo played with a control (U+202E
and the others, in turn) in every text the rules take one in (tests/support/hostile.py),
then the GM's and a player's pages of each, the audit and a replay of a conflict opened on
them, and an answer of the page's script quoting what the GM typed. In each page,
as chromium lays it out: every text node holding a control is alone in an isolate
(`unicode-bidi: isolate`) holding exactly a text a player typed, every other text runs left
to right (a text left open by U+202E would show the rest of its line backwards), and each
option label holds its controls between FSI and PDI. One service and one browser for all."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tablelog import rulesets
from tablelog.commands.access import grant
from tablelog.commands.database import opened
from tablelog.http.isolation import balanced, isolate_markup
from tests.e2e.browser import DESKTOP, act, chromium
from tests.support.hostile import CONTROLS, hostile_demo
from tests.support.server import running_service

RLO = "\u202e"

# Faults of the page as laid out: (a) a control outside an isolate holding exactly a typed
# text, (b) letters of any other text not running left to right on their line, (c) an
# option label or the title with a control outside FSI ... PDI.
_FAULTS = r"""
(texts) => {
  const CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
  const typed = new Set(texts);
  const isolating = (el) =>
    ["isolate", "isolate-override", "plaintext"].includes(getComputedStyle(el).unicodeBidi);
  const own = (el) => {
    for (let at = el; at; at = at.parentElement) {
      if (at.tagName === "BDI" && typed.has(at.textContent)) { return true; }
    }
    return false;
  };
  const faults = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (el.closest("script, style, textarea, select, datalist")) { continue; }
    if (CONTROL.test(n.data) && !(isolating(el) && typed.has(el.textContent))) {
      faults.push("not alone in an isolate: " + JSON.stringify(el.textContent));
    }
    if (own(el)) { continue; }  // a player's own text may read right to left: it is theirs
    // The rest, outside the players' texts it quotes, must run left to right.
    const theirs = new Array(n.length).fill(false);
    for (const text of typed) {
      for (let at = n.data.indexOf(text); at >= 0; at = n.data.indexOf(text, at + 1)) {
        theirs.fill(true, at, at + text.length);
      }
    }
    let last = null;
    for (let i = 0; i < n.length; i++) {
      if (theirs[i]) { last = null; continue; }
      if (!/[A-Za-z0-9]/.test(n.data[i])) { continue; }
      const range = document.createRange();
      range.setStart(n, i); range.setEnd(n, i + 1);
      const box = range.getBoundingClientRect();
      if (!box.width) { continue; }
      if (last && Math.abs(box.top - last.top) < 3 && box.left < last.left - 0.5) {
        faults.push("runs backwards: " + JSON.stringify(n.data));
        break;
      }
      last = box;
    }
  }
  const flat = (text, where) => {
    let depth = 0, at = 0;
    for (const ch of text) {
      const pageOwn = ch === "\u2068" || (ch === "\u2066" && at === 0);
      at += 1;
      if (depth === 0 && CONTROL.test(ch) && !pageOwn) {
        faults.push(where + ": " + JSON.stringify(text));
        return;
      }
      if ("\u2066\u2067\u2068".includes(ch)) { depth += 1; }
      if (ch === "\u2069") { depth -= 1; }
    }
    if (depth !== 0) { faults.push(where + " left open: " + JSON.stringify(text)); }
  };
  for (const option of document.querySelectorAll("select option")) { flat(option.text, "option"); }
  flat(document.title, "title");
  return faults;
}
"""


# The live status's answer is replaced by the next refresh at once: kept, laid out, here.
_KEEP_ANSWERS = """
() => {
  const kept = document.createElement("div");
  kept.id = "answers";
  document.body.append(kept);
  const live = document.getElementById("live");
  new MutationObserver(() => {
    if (!live.textContent.startsWith("Done")) { return; }
    const copy = live.cloneNode(true);
    copy.removeAttribute("id");
    kept.append(copy);
  }).observe(live, { childList: true, subtree: true, characterData: true });
}
"""


def faults(page: Any, texts: set[str], where: str) -> list[str]:
    shown = sorted({balanced(text) for text in texts})  # as the page shows them
    found: list[str] = page.evaluate(_FAULTS, shown)
    return [f"{where}: {f}" for f in found]


def open_tools(page: Any, texts: set[str], where: str) -> list[str]:
    """The first conflict's audit, then its replay as of seq 12, on the page."""
    tools = page.locator("details.tools").first
    if tools.count() == 0:
        return []
    tools.locator("summary").click()
    tools.locator("button[data-audit]").click()
    tools.locator(".tool-out pre.lines").wait_for()
    found = faults(page, texts, f"{where}, audit")
    slider = tools.locator("input[data-replay]")
    slider.evaluate(
        "s => { s.value = 12; s.dispatchEvent(new Event('input', { bubbles: true })); }"
    )
    tools.locator(".tool-out .panel").wait_for()
    return found + faults(page, texts, f"{where}, replay")


def test_no_players_text_reorders_the_page_around_it(tmp_path: Path) -> None:
    names = rulesets.names()
    links: dict[str, dict[str, str]] = {}
    texts: set[str] = set()
    with opened(str(tmp_path / "t.db"), create=True) as store:
        for index, ruleset in enumerate(names):
            campaign = f"b{index}"
            texts |= hostile_demo(store, ruleset, campaign, start=index * 5)
            player = next(e.actor for e in store.stream(campaign) if e.actor != "gm")
            links[campaign] = {
                "gm": grant(store, campaign, "gm", "gm", link=True).token,
                player: grant(store, campaign, player, link=True).token,
            }
    assert set(CONTROLS) <= {ch for text in texts for ch in text}
    found: list[str] = []
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        seats = {
            "gm": browser.new_context(viewport=DESKTOP).new_page(),
            "player": browser.new_context(viewport=DESKTOP).new_page(),
        }
        for campaign, tokens in links.items():
            for (who, token), page in zip(tokens.items(), seats.values(), strict=True):
                page.goto(f"{url}/campaigns/{campaign}/play#token={token}")
                page.wait_for_selector("#page")
                where = f"{campaign} ({names[int(campaign[1:])]}), {who}'s page"
                found += faults(page, texts, where)
                found += open_tools(page, texts, where)
        # The script's own text: the answer to a form, quoting a reason typed with U+202E.
        gm = seats["gm"]
        gm.goto(f"{url}/campaigns/b{names.index('beer-run')}/play")
        gm.evaluate(_KEEP_ANSWERS)
        reason = RLO + "hurt in the fall"
        assert act(gm, "Adjust a character's Intensity", delta=1, reason=reason) is None
        gm.locator("#answers p").first.wait_for()
        assert reason in gm.locator("#answers").inner_text()
        found += faults(gm, texts | {reason}, "beer-run, the answer to the GM")
    assert not found, "\n".join(found)


def test_a_sentence_beginning_with_a_right_to_left_name_stays_left_to_right() -> None:
    """Held-out attack: an audit line opening with a character named in Hebrew letters and
    quoting a stake with U+202E was laid out right to left as a whole (its isolate took the
    name's direction). The page's own sentence keeps the page's direction."""
    stake = RLO + "wins 5"
    line = f'[13] \u05e9\u05dc\u05d5\u05dd (heb\'s protagonist, opposing amanda): "{stake}"'
    html = f'<p id="line">{isolate_markup(line, [stake])}</p>'
    with chromium() as browser:
        page = browser.new_context(viewport=DESKTOP).new_page()
        page.set_content(f"<!doctype html><html lang=en><body>{html}</body></html>")
        lefts = page.evaluate(
            """() => {
              const line = document.getElementById("line");
              const text = line.firstElementChild.firstChild.data;
              const left = (node, at) => {
                const r = document.createRange();
                r.setStart(node, at); r.setEnd(node, at + 1);
                return r.getBoundingClientRect().left;
              };
              const node = line.firstElementChild.firstChild;
              const quoted = line.querySelector("bdi bdi").getBoundingClientRect().left;
              return {
                bracket: left(node, text.indexOf("[")),
                paren: left(node, text.indexOf("(")),
                colon: left(node, text.indexOf(":")),
                quoted: quoted,
                direction: getComputedStyle(line.firstElementChild).direction,
              };
            }"""
        )
    assert lefts["direction"] == "ltr"
    assert lefts["bracket"] < lefts["paren"] < lefts["colon"] < lefts["quoted"]
