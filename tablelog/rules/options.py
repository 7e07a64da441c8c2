"""Ruleset options: typed Structs whose defaults are the rules, parsed from `KEY=VALUE` text.

Every number and every decision a ruleset makes where its seed is silent is an option. The
resolved options (defaults filled in) go into the campaign's creation event, so a replay always
uses the options the campaign began with, whatever the defaults of a later tablelog.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec

from tablelog.errors import InvalidInput

Options = TypeVar("Options", bound=msgspec.Struct)


def option_names(options_type: type[msgspec.Struct]) -> tuple[str, ...]:
    return options_type.__struct_fields__


def parse_options(options_type: type[Options], raw: Mapping[str, str], *, ruleset: str) -> Options:
    """Build the options from text values; one clear sentence for the first bad one."""
    known = option_names(options_type)
    values: dict[str, Any] = {}
    for key, text in raw.items():
        name = key.strip().lower().replace("-", "_")
        if name not in known:
            raise InvalidInput(
                f"{ruleset} has no option {key!r}; its options are {', '.join(known)}",
                code="unknown-option",
            )
        if name in values:
            raise InvalidInput(
                f"option {name} is given twice ({values[name]!r} and {text!r}); give it once",
                code="invalid-option",
            )
        values[name] = text
    try:
        return msgspec.convert(values, options_type, strict=False)
    except msgspec.ValidationError as exc:
        raise InvalidInput(
            _sentence(exc, values, ruleset, options_type), code="invalid-option"
        ) from None


def from_recorded(options_type: type[Options], recorded: Mapping[str, Any]) -> Options:
    """The options stored in a creation event; options added later take their defaults."""
    known = set(option_names(options_type))
    return msgspec.convert({k: v for k, v in recorded.items() if k in known}, options_type)


def to_record(options: msgspec.Struct) -> dict[str, Any]:
    record: dict[str, Any] = msgspec.to_builtins(options)
    return record


def _sentence(
    exc: msgspec.ValidationError,
    values: Mapping[str, Any],
    ruleset: str,
    options_type: type[msgspec.Struct],
) -> str:
    message = str(exc)
    where = message.rsplit("at `$.", 1)
    if len(where) != 2:
        return f"options of {ruleset}: {message.replace('`', '')}"
    name = where[1].rstrip("`").split("[", 1)[0].split(".", 1)[0]
    allowed = describe_option(options_type, name)
    return f"option {name} of {ruleset} must be {allowed}; got {values.get(name)!r}"


def describe_option(options_type: type[msgspec.Struct], name: str) -> str:
    """What an option accepts, in words, read from its declared type."""
    info = msgspec.inspect.type_info(options_type)
    assert isinstance(info, msgspec.inspect.StructType)
    for field in info.fields:
        if field.name == name:
            return _describe(field.type)
    return "a known option"


def _describe(kind: msgspec.inspect.Type) -> str:
    if isinstance(kind, msgspec.inspect.Metadata):
        description = (kind.extra_json_schema or {}).get("description")
        return str(description) if description else _describe(kind.type)
    if isinstance(kind, msgspec.inspect.LiteralType):
        return "one of " + ", ".join(str(v) for v in kind.values)
    if isinstance(kind, msgspec.inspect.BoolType):
        return "true or false"
    if isinstance(kind, msgspec.inspect.IntType):
        if kind.ge is not None and kind.le is not None:
            return f"a whole number from {kind.ge} to {kind.le}"
        return "a whole number"
    if isinstance(kind, msgspec.inspect.FloatType):
        return "a number (such as 12 or 0.5)"
    return "text"
