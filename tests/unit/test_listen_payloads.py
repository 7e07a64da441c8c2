"""The notifications a service listens for (storage/listen.py): its own schema's only, and
nothing it cannot read."""

from __future__ import annotations

from tablelog.storage.listen import Change, parse


def test_appends_and_revocations_of_its_own_schema_are_heard() -> None:
    assert parse("e heist 42 public", "public") == Change("e", "heist", 42)
    assert parse("a heist public", "public") == Change("a", "heist")
    # A schema name may hold spaces (a quoted identifier): it is everything after the rest.
    assert parse("e heist 7 my logs", "my logs") == Change("e", "heist", 7)
    assert parse("a heist my logs", "my logs") == Change("a", "heist")


def test_another_schemas_and_unknown_payloads_are_ignored() -> None:
    assert parse("e heist 42 tl_other", "public") is None
    assert parse("a heist tl_other", "public") is None
    for payload in ("", "e", "e heist", "e heist x public", "e heist -1 public", "z heist public"):
        assert parse(payload, "public") is None, payload
