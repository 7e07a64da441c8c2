"""A page's form as a Discord modal (at most five text inputs), and the values typed into it
as the form's body, each as the page's script sends that kind of field (`page.js`'s
`value()`): a list split on spaces and commas, lines one item per line, a number, a flag."""

from __future__ import annotations

import copy
import re
from typing import Any

from tablelog.commands.page import Form
from tablelog.errors import InvalidInput
from tablelog.projections.page import Field

MODAL_INPUTS = 5
# What a text input can carry (objects per line and maps need the page or the slash command).
_KINDS = frozenset({"text", "number", "choice", "flag", "list", "lines", "numbers"})
SHORT, PARAGRAPH = 1, 2


def _fits(field: Field) -> bool:
    return field.kind in _KINDS and not (field.kind == "lines" and field.columns)


def modal(form: Form, custom_id: str) -> dict[str, Any] | None:
    """The modal asking the form's fields, or None when Discord's modal cannot hold them."""
    if len(form.fields) > MODAL_INPUTS or not all(_fits(f) for f in form.fields):
        return None
    rows = []
    for field in form.fields:
        text: dict[str, Any] = {
            "type": 4,
            "custom_id": field.name,
            "label": _label(field),
            "style": PARAGRAPH if field.kind == "lines" else SHORT,
            "required": field.required and field.kind != "flag",
        }
        if field.default not in (None, ""):
            text["value"] = _default(field.default)[:4000]
        hint = _hint(field)
        if hint:
            text["placeholder"] = hint
        rows.append({"type": 1, "components": [text]})
    title = form.title if len(form.title) <= 45 else form.title[:44] + "\u2026"
    return {"custom_id": custom_id[:100], "title": title, "components": rows}


def _label(field: Field) -> str:
    label = field.label[:1].upper() + field.label[1:]
    return label if len(label) <= 45 else label[:44] + "\u2026"


def _default(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _hint(field: Field) -> str:
    if field.kind == "flag":
        return "yes or no"
    if field.choices:
        shown = field.shown if len(field.shown) == len(field.choices) else field.choices
        pairs = [c if s == c else f"{c} ({s})" for c, s in zip(field.choices, shown, strict=True)]
        text = "one of: " + ", ".join(pairs)
        return text if len(text) <= 100 else text[:99] + "\u2026"
    if field.kind in ("list", "numbers"):
        return "separate with spaces or commas"
    return ""


def body(form: Form, values: dict[str, str]) -> dict[str, Any]:
    """The form's body: its fixed values, and each field from what was typed, as the page
    sends them (a field left empty sends nothing; the rules say what is missing)."""
    found: dict[str, Any] = copy.deepcopy(form.fixed)
    for field in form.fields:
        typed = values.get(field.name, "").strip()
        if not typed and field.kind != "flag":
            if field.required and field.kind == "text":
                raise InvalidInput(f"{field.label} is required", code="missing-field")
            continue
        _place(found, field.name, _value(field, typed))
    return found


def _value(field: Field, typed: str) -> Any:
    if field.kind == "flag":
        return typed.casefold() in ("yes", "y", "true", "1", "on", "x")
    if field.kind == "number":
        return _number(field, typed)
    if field.kind == "list":
        return [w for w in re.split(r"[\s,]+", typed) if w]
    if field.kind == "numbers":
        return [_number(field, w) for w in re.split(r"[\s,]+", typed) if w]
    if field.kind == "lines":
        return [line.strip() for line in typed.splitlines() if line.strip()]
    return typed


def _number(field: Field, typed: str) -> int:
    try:
        return int(typed)
    except ValueError:
        raise InvalidInput(
            f"{field.label} is a whole number; got {typed!r}", code="bad-number"
        ) from None


def _place(body: dict[str, Any], name: str, value: Any) -> None:
    """`power.card.name` fills a field of an object inside the body, as the page does."""
    *outer, last = name.split(".")
    here = body
    for part in outer:
        if not isinstance(here.get(part), dict):
            here[part] = {}
        here = here[part]
    here[last] = value
