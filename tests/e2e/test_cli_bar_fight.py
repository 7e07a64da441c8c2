"""The seed's bar fight, played command by command through the real CLI on a SQLite file.

The commands come from `tablelog.commands.demo` (the same fight `tablelog demo` writes); each
is turned into the argv a GM would type. The result must equal the demo's, event for event.
The play is improv's whole play through real processes: each command is its own
`python -m tablelog` (tests/support/cli_runner.py says why one per ruleset stays so).
"""

from __future__ import annotations

import json
from pathlib import Path

from tablelog.rules.common import Command
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules import demo
from tests.e2e.transcript import log_json, ok, run


def argv(command: Command) -> list[str]:
    """What a user types for `command` (after `tablelog`)."""
    match command:
        case c.CreateCharacter():
            talents = [arg for t in command.talents for arg in ("--talent", t)]
            return ["improv", "character", command.player, command.character, *talents]
        case c.StartSession():
            return ["session", "start"]
        case c.StartScene():
            return ["scene", "start", *([command.title] if command.title else [])]
        case c.OpenConflict():
            rounds = ["--rounds", str(command.rounds)] if command.rounds else []
            return ["improv", "open", "--id", command.conflict or "", "--extended", *rounds]
        case c.SetStake():
            extra = ["--gm"] if command.gm else ["--opposes", command.opposes or ""]
            return ["improv", "stake", command.conflict or "", command.side, command.text, *extra]
        case c.PlayCard():
            blind = ["--from-deck"] if command.from_deck else []
            return [
                "improv",
                "play",
                command.conflict or "",
                command.side,
                command.card or "",
                *blind,
            ]
        case c.PlaceBonus():
            kind = (
                ["--token", "--count", str(command.tokens)]
                if command.tokens
                else ["--talent", command.talent or ""]
            )
            return ["improv", "bonus", command.conflict or "", "--on", command.on, *kind]
        case c.Reveal():
            return ["improv", "reveal", command.conflict or ""]
        case c.Award():
            where = ["--conflict", command.conflict] if command.conflict else []
            return ["improv", "award", command.giver, command.receiver, *where]
        case c.Narrate():
            final = ["--final"] if command.final else []
            return ["improv", "narrate", command.conflict or "", command.side, command.text, *final]
        case c.Give():
            return [
                "improv",
                "give",
                command.conflict or "",
                command.giver,
                command.receiver,
                command.card or "",
            ]
        case c.Close():
            return ["improv", "close", command.conflict or ""]
    raise AssertionError(f"no argv for {command!r}")


def essence(events: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    """What must match between two logs of the same game: seq, type and payload (but the
    random salt of a hidden field, fresh in every log; it must be there, though)."""
    kept: list[tuple[object, object, object]] = []
    for e in events:
        payload = dict(e["payload"])  # type: ignore[call-overload]
        if e["type"] == "improv.card_played":
            assert len(payload.pop("salt")) == 32
        kept.append((e["seq"], e["type"], payload))
    return kept


def test_the_bar_fight_through_the_cli_equals_the_demo(tmp_path: Path) -> None:
    played, reference = tmp_path / "played", tmp_path / "reference"
    played.mkdir()
    reference.mkdir()
    ok(run(played, "campaign", "create", "bar-fight", "--ruleset", "improv", subprocess=True))
    for command in demo.BAR_FIGHT:
        ok(run(played, *argv(command), subprocess=True))
    ok(run(reference, "demo"))
    assert essence(log_json(played)) == essence(log_json(reference))
    state = json.loads(ok(run(played, "state", "--json")))
    assert state["conflicts"]["fight"]["beats"] == [
        ["kit", "riso"],
        ["riso", "jason"],
        ["diana", "goons"],
    ]
    assert state["tokens"]["gm"] == 8
    ok(run(played, "verify"))
