"""Plays built by tapping on a 360x740 phone (issue 29, "Phones"), in Debian's chromium against
a real `tablelog serve`: a Beer Run pool bought by tapping ability chips, its price in
Intensity said live as the chips change (the step's own preview, decided by the service with
nothing appended), a conflict's table shown as one card per side with nothing cut off, and a
number changed with its stepper; typing the codes stays possible."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.browser import DESKTOP, PHONE, act, chromium, form, head_seq, settled
from tests.e2e.campaign_pages import nothing_cut_off
from tests.e2e.test_web_browser import sign_in, tl
from tests.e2e.test_web_robust_browser import link
from tests.support.server import running_service


def test_a_pool_is_bought_by_tapping_with_its_price_said_first(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "pub", "--ruleset", "beer-run", "--gm", "gina")
    for player, name, abilities in (
        ("ann", "Alice", ("Body:Body:d8", "Mind:Mind:d6", "Kit:Kit:d4", "Health:Body:d6")),
        ("gm", "Bob", ("Body:Body:d8", "Resolve:Mind:d6", "Kit:Kit:d6")),
    ):
        given = [a for ability in abilities for a in ("-a", ability)]
        tl(tmp_path, "beer-run", "character", player, name, *given, "-c", "pub")
    db = tmp_path / "t.db"
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        gm = sign_in(
            browser, url, link(tmp_path, url, "gina", "--role", "gm", "-c", "pub"), DESKTOP
        )
        ann = sign_in(
            browser,
            url,
            link(tmp_path, url, "ann", "-c", "pub"),
            PHONE,
            is_mobile=True,
            has_touch=True,
        )
        assert act(gm, "Open a conflict", sides="heroes: alice; thugs: bob") is None
        settled(ann, head_seq(db, "pub"))
        assert (
            act(ann, "State Alice's goal", text="Bob backs down", against="bob", ability="resolve")
            is None
        )
        assert act(gm, "State Bob's goal", text="Alice is beaten", against="alice") is None
        settled(ann, head_seq(db, "pub"))

        # A table of the page: a card per row on the phone, nothing past the right edge.
        side = ann.locator("#characters table.grid tbody tr").first
        assert side.evaluate("e => getComputedStyle(e).display") == "block"
        nothing_cut_off(ann)

        # Tapping chips writes the extras; the price is said before anything is sent.
        buy = form(ann, "Buy Alice's pool")
        extras = buy.locator('input[name="extras"]')
        chip = buy.locator(
            f'label.chip:has(input[data-chip-for="{extras.get_attribute("id")}"][value="health"])'
        )
        before = head_seq(db, "pub")
        chip.tap()
        assert extras.input_value() == "health"
        preview = buy.locator("p.preview")
        preview.wait_for(state="visible")
        import time

        time.sleep(3)
        print("PREVIEW", repr(preview.inner_text()))
        said = preview.inner_text()
        assert "This will:" in said, said
        assert head_seq(db, "pub") == before  # the preview appended nothing
        # Tapping it again takes it out; typing stays possible and ticks the chip it names.
        chip.tap()
        assert extras.input_value() == ""
        extras.fill("health")
        extras.dispatch_event("input")
        assert chip.locator("input").is_checked()
        nothing_cut_off(ann)

        # Sent: asked once with what it will do, then bought.
        buy.locator("button[type=submit]").tap()
        ann.locator("dialog#guard").wait_for(state="visible")
        assert "This will:" in ann.locator("#guard-will").inner_text()
        ann.locator("#guard-yes").tap()
        settled(ann, before + 1)
        assert "health d6 (cost 2)" in ann.locator("#conflict-c1").inner_text()


def test_a_stepper_counts_one_more_or_one_less(tmp_path: Path) -> None:
    tl(tmp_path, "campaign", "create", "heist", "--ruleset", "improv", "--gm", "gina")
    tl(tmp_path, "improv", "character", "ben", "Kit")
    with running_service("t.db", tmp_path) as url, chromium() as browser:
        gm = sign_in(browser, url, link(tmp_path, url, "gina", "--role", "gm"), PHONE)
        assert act(gm, "Start a session") is None
        opens = form(gm, "Open a conflict")
        rounds = opens.locator('input[name="rounds"]')
        start = int(rounds.input_value() or 0)
        opens.locator('button.step[data-step="1"]').click()
        opens.locator('button.step[data-step="1"]').click()
        opens.locator('button.step[data-step="-1"]').click()
        assert int(rounds.input_value()) == start + 1
        assert opens.locator("button.step").first.get_attribute("aria-label") == (
            "one less: rounds"
        )
        nothing_cut_off(gm)
