"""The players' texts on the page, isolated: no direction control in one reorders the rest.

A stake, a goal, a narration (any text a player typed) is stored byte for byte and may hold
direction controls (`projections.page.DIRECTION_CONTROLS`): U+202E, left open, shows the
rest of its line backwards, the sentence around the text included. The page's templates
render every value of the page model through these two filters, which leave a value without
such a control as it is:

- `isolated` (text content): each of the page's `texts` (the players' texts holding a
  control, `commands.page.texts`) where the value quotes it, and then the whole value, in a
  `<bdi>` of its own, which the browser lays out as an isolate: whatever it holds ends with it.
  A player's text takes the direction of its first strong letter (`<bdi>`'s own); the whole
  value, unless it is one player's text and nothing more, is the page's sentence and stays
  left to right (`dir="ltr"`): a name in Hebrew letters at its start must not turn it round;
- `isolated_text` (attributes and `<option>` labels, which hold no element): the same spans
  between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (U+2068, U+2069), the characters
  that do in text what `<bdi>` does in markup (a PDI closes every embedding and override
  opened after its FSI); the page's sentence around them between LEFT-TO-RIGHT ISOLATE
  (U+2066) and PDI.

Each isolate holds whole isolates only (`balanced`): a PDI a player typed with no isolate of
its own to close would close the page's, in chromium the `<bdi>`'s too. So such a PDI is
dropped, and an isolate a player opened and left open is closed where the text ends; nothing
else is removed: what a player typed still shows as typed, inside its own isolate.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from tablelog.projections.page import DIRECTION_CONTROLS

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"
_INITIATORS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI: each is closed by a PDI
_ISOLATES = re.compile("[\u2066-\u2069]")
_OPEN, _CLOSE = Markup("<bdi>"), Markup("</bdi>")
_OPEN_LTR = Markup('<bdi dir="ltr">')


def balanced(text: str) -> str:
    """`text` without the PDIs that close no isolate of its own, and with a PDI for each
    isolate it leaves open: it can close nothing around it."""
    if not _ISOLATES.search(text):
        return text
    kept: list[str] = []
    depth = 0
    for ch in text:
        if ch in _INITIATORS:
            depth += 1
        elif ch == PDI:
            if depth == 0:
                continue
            depth -= 1
        kept.append(ch)
    return "".join(kept) + PDI * depth


@lru_cache(maxsize=64)
def _quoted(texts: tuple[str, ...]) -> re.Pattern[str] | None:
    """One pattern finding any of `texts`, the longest first at each place."""
    if not texts:
        return None
    ordered = sorted(texts, key=len, reverse=True)
    return re.compile("|".join(re.escape(text) for text in ordered))


def _spans(value: str, texts: Sequence[str]) -> list[tuple[str, bool]]:
    """`value` cut into pieces, each marked whether it is one of `texts` (to isolate)."""
    pattern = _quoted(tuple(texts))
    if pattern is None:
        return [(value, False)]
    pieces: list[tuple[str, bool]] = []
    at = 0
    for found in pattern.finditer(value):
        if found.start() > at:
            pieces.append((value[at : found.start()], False))
        pieces.append((found.group(), True))
        at = found.end()
    if at < len(value):
        pieces.append((value[at:], False))
    return pieces


def _isolate(
    value: str,
    texts: Sequence[str],
    wrap: Callable[[Any, bool], Any],
    plain: Callable[[str], Any],
) -> Any:
    """`wrap(inner, sentence)`: an isolate; `sentence`: the page's own words around it."""
    pieces = _spans(value, texts)
    if len(pieces) == 1:  # one text, or none quoted: the whole value is the isolate
        return wrap(balanced(value), value not in texts)
    return wrap(
        [
            wrap(balanced(piece), False) if quoted else plain(balanced(piece))
            for piece, quoted in pieces
        ],
        True,
    )


def _texts(context: Context) -> Sequence[str]:
    texts = context.get("texts")
    return texts if isinstance(texts, list | tuple) else ()


def isolate_markup(value: object, texts: Sequence[str] = ()) -> Markup:
    """`value` as escaped HTML, each player's text holding a control in a `<bdi>`."""
    text = str(value)
    if not DIRECTION_CONTROLS.search(text):
        return escape(text)

    def wrap(inner: str | list[Markup], sentence: bool) -> Markup:
        body = escape(inner) if isinstance(inner, str) else Markup("").join(inner)
        return (_OPEN_LTR if sentence else _OPEN) + body + _CLOSE

    found: Markup = _isolate(text, texts, wrap, escape)
    return found


def isolate_text(value: object, texts: Sequence[str] = ()) -> str:
    """`value` as text, each player's text holding a control between FSI and PDI."""
    text = str(value)
    if not DIRECTION_CONTROLS.search(text):
        return text

    def wrap(inner: str | list[str], sentence: bool) -> str:
        body = inner if isinstance(inner, str) else "".join(inner)
        return (LRI if sentence else FSI) + body + PDI

    found: str = _isolate(text, texts, wrap, str)
    return found


@pass_context
def isolated(context: Context, value: object) -> Markup:
    """The Jinja filter for text content: `{{ value | isolated }}`."""
    return isolate_markup(value, _texts(context))


@pass_context
def isolated_text(context: Context, value: object) -> str:
    """The Jinja filter for attributes and option labels: `{{ value | isolated_text }}`."""
    return isolate_text(value, _texts(context))


FILTERS = {"isolated": isolated, "isolated_text": isolated_text}
