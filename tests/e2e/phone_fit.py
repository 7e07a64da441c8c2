"""On a 360-px phone, nothing is cut off inside the page either: `nothing_cut_off` checks the
page's width; a table in a scrolling box (`.scroll`) keeps the page narrow while its right
columns stay out of sight with no hint, so each such box must fit too."""

from __future__ import annotations

from typing import Any

_CLIPPED = """but => [...document.querySelectorAll('.scroll')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .filter(e => !(but && e.closest(but)))
  .map(e => (e.closest('[id]') || e).id + ': ' + e.scrollWidth + ' > ' + e.clientWidth)"""


def boxes_fit(page: Any, but: str = "") -> None:
    """No scrolling box on the page (but those inside `but`, a selector) holds more than it
    shows."""
    clipped = page.evaluate(_CLIPPED, but)
    assert clipped == [], (page.url, clipped)
