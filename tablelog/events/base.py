"""The base of every event, and the registry that maps a stored `type` back to its Struct.

An event is a frozen msgspec Struct whose tag (`type`) is pinned and never reused. Its
`schema_version` class attribute says which payload shape the class decodes; older stored
payloads are brought forward by upcasters (see `upcasters.py`) before decoding.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Something that happened at the table. Subclasses pin `tag="ruleset.name"`."""

    schema_version: ClassVar[int] = 1
    # Fields only some callers may see (a face-down card, a hand). An event with any carries a
    # `salt` field, filled with random bytes when it is appended and hidden with them: the
    # stored hash then commits to the hidden value without letting anyone guess it from the
    # hash (54 card codes are quickly tried), and the reveal lets everyone check it.
    hidden: ClassVar[tuple[str, ...]] = ()
    # True for the event that ends a game session (the core `session.ended`, or a ruleset's
    # own): the service signs a checkpoint of the log at each (commands/checkpoints.py).
    ends_session: ClassVar[bool] = False
    # True for the events of a sealed hidden choice (rules/sealing.py): its seal, its opening
    # and a forfeit of it. The audit says per conflict whether its hidden choices were sealed.
    sealing: ClassVar[bool] = False
    # True for core events beside the game (a committed shuffle's commitment, contributions
    # and reveal: events/rng.py): folds and auditors never hand them to a ruleset.
    beside_table: ClassVar[bool] = False

    @classmethod
    def type_name(cls) -> str:
        tag = cls.__struct_config__.tag
        if not isinstance(tag, str):
            raise TypeError(f"{cls.__name__} has no pinned tag")
        return tag

    def conflict_id(self) -> str | None:
        """The conflict this event belongs to, if any (used to filter logs and replays)."""
        value: Any = getattr(self, "conflict", None)
        return value if isinstance(value, str) else None


E = TypeVar("E", bound=type[Event])

_REGISTRY: dict[str, type[Event]] = {}


def registered(cls: E) -> E:
    """Class decorator: make an event type decodable from the log by its tag."""
    tag = cls.type_name()
    existing = _REGISTRY.get(tag)
    if existing is not None and existing is not cls:
        raise ValueError(f"event type {tag!r} is already registered by {existing.__qualname__}")
    _REGISTRY[tag] = cls
    return cls


def event_class(type_name: str) -> type[Event] | None:
    """The Struct registered for a stored `type`, or None if this tablelog does not know it."""
    found = _REGISTRY.get(type_name)
    if found is None and _load_all():
        found = _REGISTRY.get(type_name)
    return found


_LOADED_MODULES: set[str] = set()


def _load_all() -> bool:
    """Import the core's events and every ruleset's not imported yet (True if any was): a log
    (an import, a filtered read) may hold a ruleset's events before anything has imported
    that ruleset."""
    import importlib

    from tablelog import rulesets

    core = {"tablelog.events.core", "tablelog.events.rng"}
    wanted = core | {p.events for p in rulesets.places()}
    new = wanted - _LOADED_MODULES
    for module in sorted(new):
        try:
            importlib.import_module(module)
        except Exception:
            if module in core:
                raise
            # A ruleset that does not load (`tablelog rulesets` says why) leaves the others
            # readable; its own events stay unknown types.
    _LOADED_MODULES.update(new)
    return bool(new)
