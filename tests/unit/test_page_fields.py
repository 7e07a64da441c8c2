"""How the generic page asks for a command's field: a list of numbers is sent as numbers
(the commands' decoder takes no "8" for an int), a list of words as words."""

from __future__ import annotations

from typing import Literal

import pytest

from tablelog.commands.page import _kind


@pytest.mark.parametrize(
    ("kind", "asked"),
    [
        (list[int], ("numbers", [])),
        (list[int] | None, ("numbers", [])),
        (list[str], ("list", [])),
        (int | None, ("number", [])),
        (Literal["a", "b"], ("choice", ["a", "b"])),
        (bool, ("flag", [])),
        (str, ("text", [])),
    ],
)
def test_a_field_is_asked_as_its_type(kind: object, asked: tuple[str, list[str]]) -> None:
    assert _kind(kind) == asked
