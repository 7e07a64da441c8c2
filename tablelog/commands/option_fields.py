"""A ruleset's options as form fields, generated from its options type (a msgspec Struct).

Each field of the Struct becomes one input: a bool a checkbox, a Literal a select of its
values, an int or a float a number (with the bounds its `msgspec.Meta` declares), anything
else a text. Its default is filled in, and its help is what `--option KEY=VALUE` refuses a
wrong value with (`describe_option`: "one of recorded, managed", "a whole number from 2 to
100"), after what the option means when its type says so with
`Annotated[..., msgspec.Meta(extra={"help": "..."})]`. Nothing here knows a ruleset.

The form sends back only the options changed from their defaults (`changed_options`), so a
campaign created from the page records what `tablelog campaign create` with the same
`--option`s records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import msgspec

from tablelog.rules import notice_options, registry, rng_options
from tablelog.rules.options import describe_option

InputKind = Literal["checkbox", "select", "number", "text"]
CORE = "core"  # the prefix of the core's own options (every ruleset's), beside a ruleset's


class OptionField(msgspec.Struct, frozen=True, kw_only=True):
    """One option as one form input (`form_name` is `group.option`)."""

    name: str
    form_name: str
    kind: InputKind
    default: str  # as the form shows it ("true"/"false" for a checkbox)
    help: str
    choices: tuple[str, ...] = ()
    minimum: str | None = None
    maximum: str | None = None
    step: str | None = None
    pattern: str | None = None


class OptionGroup(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset's options (or the core's, every campaign's), in declaration order."""

    name: str
    fields: tuple[OptionField, ...]


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _field(
    group: str, options_type: type[msgspec.Struct], info: msgspec.inspect.Field
) -> OptionField:
    kind = info.type
    meaning = ""
    while isinstance(kind, msgspec.inspect.Metadata):
        meaning = meaning or str((kind.extra or {}).get("help", ""))
        kind = kind.type
    default = _text(info.default) if info.default is not msgspec.NODEFAULT else ""
    accepts = describe_option(options_type, info.name)
    said = f"{meaning.rstrip('.')}: " if meaning else ""
    base = OptionField(
        name=info.name,
        form_name=f"{group}.{info.name}",
        kind="text",
        default=default,
        help=f"{said}{accepts}; default {default or 'none'}",
    )
    if isinstance(kind, msgspec.inspect.BoolType):
        return msgspec.structs.replace(base, kind="checkbox")
    if isinstance(kind, msgspec.inspect.LiteralType):
        choices = tuple(_text(v) for v in kind.values)
        return msgspec.structs.replace(base, kind="select", choices=choices)
    if isinstance(kind, msgspec.inspect.IntType | msgspec.inspect.FloatType):
        low = kind.ge if kind.ge is not None else kind.gt
        high = kind.le if kind.le is not None else kind.lt
        return msgspec.structs.replace(
            base,
            kind="number",
            minimum=None if low is None else _text(low),
            maximum=None if high is None else _text(high),
            step="1" if isinstance(kind, msgspec.inspect.IntType) else "any",
        )
    if isinstance(kind, msgspec.inspect.StrType):
        return msgspec.structs.replace(base, pattern=kind.pattern)
    return base


def option_group(group: str, options_type: type[msgspec.Struct]) -> OptionGroup:
    info = msgspec.inspect.type_info(options_type)
    assert isinstance(info, msgspec.inspect.StructType)
    fields = tuple(_field(group, options_type, f) for f in info.fields)
    return OptionGroup(name=group, fields=fields)


def ruleset_groups(names: list[str]) -> list[OptionGroup]:
    """The options of each ruleset named (those that load), in that order."""
    return [option_group(name, registry.get(name).options_type) for name in names]


def core_group() -> OptionGroup:
    """The core's own options, which every campaign takes (committed shuffles, notices)."""
    fields = (
        *option_group(CORE, rng_options.RngOptions).fields,
        *option_group(CORE, notice_options.NoticeOptions).fields,
    )
    return OptionGroup(name=CORE, fields=fields)


def changed_options(groups: list[OptionGroup], form: Mapping[str, str]) -> dict[str, str]:
    """The options a submitted form changes from their defaults, as `--option` text: an
    unchecked checkbox is false, a field left out its default."""
    chosen: dict[str, str] = {}
    for group in groups:
        for field in group.fields:
            if field.kind == "checkbox":
                value = "true" if field.form_name in form else "false"
            else:
                value = form.get(field.form_name, field.default).strip()
            if value != field.default:
                chosen[field.name] = value
    return chosen
