"""How the generic page asks for a command's field: a list of numbers is sent as numbers
(the commands' decoder takes no "8" for an int), a list of words one per line (a name of
several words stays one), a list of objects one per line with its keys as columns."""

from __future__ import annotations

from typing import Literal

import msgspec
import pytest

from tablelog.commands.page import _columns, _kind


@pytest.mark.parametrize(
    ("kind", "asked"),
    [
        (list[int], ("numbers", [])),
        (list[int] | None, ("numbers", [])),
        (list[str], ("lines", [])),
        (int | None, ("number", [])),
        (Literal["a", "b"], ("choice", ["a", "b"])),
        (bool, ("flag", [])),
        (str, ("text", [])),
    ],
)
def test_a_field_is_asked_as_its_type(kind: object, asked: tuple[str, list[str]]) -> None:
    assert _kind(kind) == asked


class Spec(msgspec.Struct, frozen=True):
    name: str
    value: str


@pytest.mark.parametrize(
    ("kind", "columns"),
    [(list[Spec], ["name", "value"]), (list[Spec] | None, ["name", "value"]), (list[str], [])],
)
def test_a_list_of_objects_is_asked_one_per_line_by_its_keys(
    kind: object, columns: list[str]
) -> None:
    assert _kind(kind) == ("lines", [])
    assert _columns(kind) == columns
