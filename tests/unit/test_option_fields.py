"""A ruleset's options as form fields, read from its options type alone."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from tablelog.commands.option_fields import changed_options, option_group


class Options(msgspec.Struct, frozen=True, kw_only=True):
    mode: Literal["a", "b"] = "a"
    fast: bool = True
    size: Annotated[int, msgspec.Meta(ge=1, le=9, extra={"help": "Cards in a hand."})] = 4
    rate: float = 0.5
    label: Annotated[str, msgspec.Meta(pattern="^[a-z]+$")] = "x"


def test_each_type_is_its_input_with_its_default_and_help() -> None:
    fields = {f.name: f for f in option_group("toy", Options).fields}
    assert [f.form_name for f in fields.values()] == [
        "toy.mode", "toy.fast", "toy.size", "toy.rate", "toy.label"
    ]  # fmt: skip
    assert (fields["mode"].kind, fields["mode"].choices, fields["mode"].default) == (
        "select",
        ("a", "b"),
        "a",
    )
    assert (fields["fast"].kind, fields["fast"].default) == ("checkbox", "true")
    size = fields["size"]
    assert (size.kind, size.minimum, size.maximum, size.step) == ("number", "1", "9", "1")
    assert size.help == "Cards in a hand: a whole number from 1 to 9; default 4"
    assert (fields["rate"].kind, fields["rate"].step) == ("number", "any")
    assert (fields["label"].kind, fields["label"].pattern) == ("text", "^[a-z]+$")


def test_only_what_the_form_changes_is_sent() -> None:
    group = option_group("toy", Options)
    untouched = {"toy.mode": "a", "toy.fast": "true", "toy.size": "4", "toy.rate": "0.5"}
    assert changed_options([group], untouched) == {}
    assert changed_options([group], {"toy.mode": "b", "toy.size": " 5 "}) == {
        "mode": "b",
        "fast": "false",  # a checkbox not sent is unchecked
        "size": "5",
    }
