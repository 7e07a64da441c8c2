"""The table's clock every ruleset keeps: sessions and scenes.

`Table` is what core code reads of any ruleset's state (`Ruleset.table`): the audit's session
spans and the shared keys of `state --json`. A ruleset without session events of its own keeps
one in its state and answers the table commands with `decide_table` and `evolve_table`, which
write and read the core `session.*` and `scene.*` events.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

from tablelog.errors import RuleViolation
from tablelog.events.base import Event
from tablelog.events.core import SceneEnded, SceneStarted, SessionEnded, SessionStarted
from tablelog.rules.common import Command, EndScene, EndSession, StartScene, StartSession

GM = "gm"  # the GM's player key in every view and authorization


class Table(msgspec.Struct):
    session: int = 0  # the running or the last session; 0 before the first
    session_open: bool = False
    scene: int = 0
    scene_open: bool = False
    scene_title: str | None = None


TableEvent = SessionStarted | SessionEnded | SceneStarted | SceneEnded


class Clocked(Protocol):
    """A state that keeps the clock in fields of its own (the rulesets older than `Table`)."""

    session: int
    session_open: bool
    scene: int
    scene_open: bool


def clock_of(state: Clocked) -> Table:
    """`Ruleset.table` for a state that keeps the clock in fields of its own."""
    return Table(
        session=state.session,
        session_open=state.session_open,
        scene=state.scene,
        scene_open=state.scene_open,
    )


def decide_table(table: Table, command: Command) -> list[Event]:
    """The event a table command causes (StartSession, EndSession, StartScene, EndScene)."""
    match command:
        case StartSession():
            if table.session_open:
                raise RuleViolation(
                    f"session {table.session} is still running", code="session-open"
                )
            return [SessionStarted(session=table.session + 1)]
        case EndSession():
            if not table.session_open:
                raise RuleViolation("no session is running", code="no-session")
            return [SessionEnded(session=table.session)]
        case StartScene():
            if table.scene_open:
                raise RuleViolation(f"scene {table.scene} is still running", code="scene-open")
            return [SceneStarted(scene=table.scene + 1, title=command.title)]
        case EndScene():
            if not table.scene_open:
                raise RuleViolation("no scene is running", code="no-scene")
            return [SceneEnded(scene=table.scene)]
    raise TypeError(f"{type(command).__name__} is not a table command")


def evolve_table(table: Table, event: TableEvent) -> None:
    match event:
        case SessionStarted():
            table.session, table.session_open = event.session, True
        case SessionEnded():
            table.session_open = False
        case SceneStarted():
            table.scene, table.scene_open, table.scene_title = event.scene, True, event.title
        case SceneEnded():
            table.scene_open, table.scene_title = False, None
