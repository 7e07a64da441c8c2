"""Direction controls in every text a player may type, and a check that the page isolates each.

`hostile_demo` plays a ruleset's demo with a direction control (U+202E and the others, in
turn) before every text of every command that the rules take with it (names refuse them; a
stake, a goal, a narration takes them), and returns the texts it so wrote. `unisolated`
reads a page's HTML and names every place where such a text is not alone in its own
isolate: a text node holding a control whose parent is not a `<bdi>` holding exactly one of
those texts; a label or an attribute read out whose control is not between FSI and PDI.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

import msgspec

from tablelog.commands import state
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.demo import demo_of
from tablelog.commands.table import execute
from tablelog.errors import TablelogError
from tablelog.http.isolation import FSI, LRI, PDI, balanced
from tablelog.projections.page import DIRECTION_CONTROLS
from tablelog.rules.registry import no_shuffle
from tablelog.storage import EventStore

# LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM, ALM: every one the page must isolate.
CONTROLS = [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))] + [
    "\u200e",
    "\u200f",
    "\u061c",
]


class _Typist:
    """Each text of the demo with a control before it: the next of `CONTROLS` for a text
    not met before, the same one again for a text met before (a conflict named again)."""

    def __init__(self, start: int) -> None:
        self.turn = start
        self.chosen: dict[str, str] = {}

    def typed(self, value: Any) -> Any:
        if isinstance(value, str):
            if value not in self.chosen:
                control = CONTROLS[self.turn % len(CONTROLS)]
                self.chosen[value] = control + (value or "why")
            return self.chosen[value]
        if isinstance(value, msgspec.Struct):
            fields = msgspec.structs.fields(value)
            return msgspec.structs.replace(
                value, **{f.name: self.typed(getattr(value, f.name)) for f in fields}
            )
        if isinstance(value, list):
            return [self.typed(v) for v in value]
        if isinstance(value, dict):
            return {k: self.typed(v) for k, v in value.items()}
        return value

    def taken(self, value: Any) -> None:
        """The rules took the text: the next new one gets the next control."""
        self.turn += 1


def _taken(store: EventStore, campaign: str, command: Any) -> bool:
    try:  # as the service decodes a body: a text where the type wants a word is refused
        command = msgspec.convert(msgspec.to_builtins(command), type(command))
    except msgspec.ValidationError:
        return False
    with state.reading(store, campaign) as folded:
        try:
            folded.ruleset.decide(folded.state, command, no_shuffle)
        except TablelogError:
            return False
    return True


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        if DIRECTION_CONTROLS.search(value):
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _texts(v)


def hostile_demo(store: EventStore, ruleset: str, campaign: str, start: int = 0) -> set[str]:
    """Play `ruleset`'s demo as campaign `campaign`, a control (the next of `CONTROLS`,
    from `start`) before each text the rules take with one; the texts written."""
    _, demo = demo_of(ruleset)
    create_campaign(store, campaign, ruleset=ruleset, options=demo.options)
    typist = _Typist(start)
    written: set[str] = set()
    for command in demo.commands:
        for field in msgspec.structs.fields(command):
            value = getattr(command, field.name)
            if value is None or isinstance(value, bool | int) or field.name == "now":
                continue
            tried = msgspec.structs.replace(command, **{field.name: typist.typed(value)})
            if _taken(store, campaign, tried):
                command = tried
                typist.taken(value)
        written.update(_texts(msgspec.to_builtins(command)))
        execute(store, campaign, command, ruleset=ruleset)
    return written


_SHOWN_ATTRIBUTES = ("aria-label", "title", "alt", "placeholder", "label")
_FLAT = ("option", "title", "textarea")  # text that holds no element


class _Page(HTMLParser):
    def __init__(self, texts: set[str]) -> None:
        super().__init__(convert_charrefs=True)
        self.texts = {balanced(t) for t in texts}
        self.stack: list[tuple[str, list[str], bool]] = []  # tag, text, a control directly in it
        self.faults: list[str] = []

    def _flat(self, text: str, where: str) -> None:
        """Text without elements: every control inside an isolate (FSI ... PDI, or the page's
        own LRI ... PDI around the whole), all closed."""
        depth = 0
        for at, ch in enumerate(text):
            if depth == 0 and DIRECTION_CONTROLS.match(ch) and ch != FSI and (at, ch) != (0, LRI):
                break
            depth += ch in "\u2066\u2067\u2068"
            depth -= ch == PDI
        else:
            if depth == 0:
                return
        self.faults.append(f"{where}: {text!r}")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value and name in _SHOWN_ATTRIBUTES:
                self._flat(value, f"<{tag} {name}>")
        if tag not in ("input", "meta", "link", "br", "hr", "img"):
            self.stack.append((tag, [], False))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            name, parts, direct = self.stack.pop()
            text = "".join(parts)
            if name in _FLAT:
                self._flat(text, f"<{name}>")
            elif direct and name != "bdi":
                self.faults.append(f"<{name}> holds {text!r} outside a <bdi>")
            elif direct and text not in self.texts:
                self.faults.append(f"<bdi> holds {text!r}, more than a player's text")
            if self.stack:
                self.stack[-1][1].append(text)
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.stack:
            return
        name, parts, _ = self.stack[-1]
        parts.append(data)
        if DIRECTION_CONTROLS.search(data):
            self.stack[-1] = (name, parts, True)


def unisolated(html: str, texts: set[str]) -> list[str]:
    """Where `html` shows a control that is not alone with one of `texts` in an isolate."""
    page = _Page(texts)
    page.feed(html)
    page.close()
    return page.faults
