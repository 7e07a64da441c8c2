"""The web page's forms as a browser sends them, for tests without a browser: a service in this
process (Litestar's test client), seats signed in with sign-in links, each seat reading the
forms its table offers from the HTML and sending one as page.js does.

`value` is page.js's `value()` in Python, field kind by field kind: what a person typed in a
field becomes what the command's body holds (a list of words split on spaces, lines one item
per line, lines with columns one object per line, ...). A field left alone sends what the
page put in it (its default, the first choice); `send` fills the ones named, as typed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
from litestar.testing import TestClient

from tablelog.commands import access, database
from tablelog.commands.campaigns import create_campaign
from tablelog.http.app import create_app
from tablelog.storage import EventStore, open_store

BASE = "http://testserver.local"
_CSRF = re.compile(r'<meta name="csrf-token" content="([0-9a-f]{64})">')


@dataclass
class Input:
    name: str
    kind: str
    columns: list[str]
    value: str  # what the page put in it (a select: its chosen option)
    checked: bool = False


@dataclass
class Form:
    title: str
    path: str
    fixed: dict[str, Any]
    conflict: str | None
    inputs: dict[str, Input] = field(default_factory=dict)


class _Forms(HTMLParser):
    """Every `form.action` of a table fragment, with its fields as the page renders them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._form: Form | None = None
        self._in: str | None = None  # legend, textarea, option
        self._text: list[str] = []
        self._input: Input | None = None
        self._option: tuple[str, bool] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and "action" in a.get("class", "").split():
            self._form = Form(
                title="",
                path=a["data-path"],
                fixed=json.loads(a.get("data-fixed") or "{}"),
                conflict=None,
            )
            self.forms.append(self._form)
        if self._form is None:
            return
        if tag == "legend":
            self._in, self._text = "legend", []
        elif tag in ("input", "textarea", "select") and "name" in a:
            found = Input(
                name=a["name"],
                kind=a.get("data-kind", "text"),
                columns=a.get("data-columns", "").split(),
                value=a.get("value", ""),
                checked="checked" in a,
            )
            self._form.inputs[found.name] = found
            self._input = found
            if tag == "textarea":
                self._in, self._text = "textarea", []
            if tag == "select":
                found.value = "\0"  # none chosen yet
        elif tag == "option" and self._input is not None and self._input.kind == "choice":
            self._option = (a.get("value", ""), "selected" in a)

    def handle_endtag(self, tag: str) -> None:
        if self._form is None:
            return
        if tag == "legend" and self._in == "legend":
            self._form.title = "".join(self._text).strip()
            self._in = None
        elif tag == "textarea" and self._in == "textarea" and self._input is not None:
            self._input.value = "".join(self._text)
            self._in = None
        elif tag == "option" and self._option is not None and self._input is not None:
            value, selected = self._option
            if selected or self._input.value == "\0":
                self._input.value = value
            self._option = None
        elif tag == "form":
            self._form = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._text.append(data)


def value(kind: str, columns: list[str], typed: str | bool) -> Any:
    """page.js's `value()`: what a field holding `typed` puts in the body (None: nothing)."""
    if kind == "flag":
        return bool(typed)
    text = str(typed).strip()
    if text == "":
        return None
    if kind == "number":
        return int(text)
    if kind == "list":
        return [w for w in re.split(r"[\s,]+", text) if w]
    if kind == "lines":
        items = [line.strip() for line in text.split("\n") if line.strip()]
        if not columns:
            return items
        rows = []
        for line in items:
            parts = [p.strip() for p in line.split(":")]
            row = {}
            for i, column in enumerate(columns):
                last = i == len(columns) - 1
                part = ":".join(parts[i:]) if last else (parts[i] if i < len(parts) else "")
                if part:
                    row[column] = part
            rows.append(row)
        return rows
    if kind == "numbers":
        return [int(w) for w in re.split(r"[\s,]+", text) if w]
    if kind in ("map", "pairs"):
        found: dict[str, Any] = {}
        for pair in [p for p in re.split(r"[,;\s]+", text) if p]:
            name, _, word = pair.partition("=")
            found[name] = (int(word) if word else 1) if kind == "map" else word
        return found
    if kind == "groups":
        groups: dict[str, list[str]] = {}
        for group in [g.strip() for g in text.split(";") if g.strip()]:
            name, _, members = group.partition(":")
            groups[name.strip()] = [m for m in re.split(r"[\s,]+", members) if m]
        return groups
    return text


def place(body: dict[str, Any], name: str, v: Any) -> None:
    """page.js's `place()`: `power.card.name` fills a field of an object inside the body."""
    *outer, last = name.split(".")
    at = body
    for part in outer:
        if not isinstance(at.get(part), dict):
            at[part] = {}
        at = at[part]
    at[last] = v


class Seat:
    """One signed-in browser of a campaign: its session cookie and CSRF token."""

    def __init__(self, service: Service, campaign: str, player: str, role: str) -> None:
        self.service, self.campaign, self.player = service, campaign, player
        link = access.grant(service.store, campaign, player, role, link=True).token
        client = service.client
        client.cookies.clear()
        traded = client.post(
            f"/campaigns/{campaign}/play/session", json={"token": link}, headers={"Origin": BASE}
        )
        assert traded.status_code == 201, traded.text
        self.session = str(traded.cookies["tablelog_session"])
        found = _CSRF.search(self.get("/play").text)
        assert found is not None
        self.csrf = found.group(1)

    def get(self, path: str) -> httpx.Response:
        client = self.service.client
        client.cookies.clear()
        client.cookies.set("tablelog_session", self.session)
        answer: httpx.Response = client.get(f"/campaigns/{self.campaign}{path}")
        assert answer.status_code == 200, answer.text
        return answer

    def forms(self) -> dict[str, Form]:
        """The forms offered now, by title (a title offered twice is an error of the page)."""
        parser = _Forms()
        parser.feed(self.get("/play/table").text)
        titles = [f.title for f in parser.forms]
        assert len(titles) == len(set(titles)), titles
        return {f.title: f for f in parser.forms}

    def send(self, title: str, **typed: str | bool) -> httpx.Response:
        """Fill in the form titled `title` (`power__card__name` is the field power.card.name)
        and send it; every field not named sends what the page put in it."""
        offered = self.forms()
        assert title in offered, (title, sorted(offered))
        form = offered[title]
        filled = {name.replace("__", "."): text for name, text in typed.items()}
        unknown = set(filled) - set(form.inputs)
        assert not unknown, (title, unknown, sorted(form.inputs))
        body = dict(form.fixed)
        for name, given in form.inputs.items():
            shown: str | bool = given.checked if given.kind == "flag" else given.value
            v = value(given.kind, given.columns, filled.get(name, shown))
            if v is not None:
                place(body, name, v)
        client = self.service.client
        client.cookies.clear()
        client.cookies.set("tablelog_session", self.session)
        headers = {"Origin": BASE, "X-CSRF-Token": self.csrf}
        answer: httpx.Response = client.post(
            f"/campaigns/{self.campaign}{form.path}", json=body, headers=headers
        )
        return answer

    def does(self, title: str, **typed: str | bool) -> None:
        answer = self.send(title, **typed)
        assert answer.status_code == 201, (title, answer.text)

    def state(self) -> dict[str, Any]:
        found: dict[str, Any] = self.get("/state").json()
        return found


@dataclass
class Service:
    client: TestClient[Any]
    store: EventStore

    def seat(self, campaign: str, player: str, role: str = "player") -> Seat:
        return Seat(self, campaign, player, role)


@contextmanager
def service_of(
    tmp_path: Path, campaign: str, ruleset: str, options: dict[str, str] | None = None
) -> Iterator[Service]:
    """A service in this process over a new SQLite file holding one new campaign (GM gina)."""
    target = str(tmp_path / "t.db")
    database.upgrade(target)
    store = open_store(target)
    try:
        create_campaign(store, campaign, ruleset=ruleset, gm="gina", options=options)
        with TestClient(create_app(store), base_url=BASE) as client:
            yield Service(client, store)
    finally:
        store.close()
