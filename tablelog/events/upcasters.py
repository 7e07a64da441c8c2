"""Upcasters: pure dict -> dict steps that bring an old payload to the current schema.

A breaking change to an event bumps its class's `schema_version` to N and registers the step
from N-1 here. Reading applies the steps in order; the stored bytes never change, so the hash
chain stays valid whatever the code reading it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Payload = dict[str, Any]
Upcaster = Callable[[Payload], Payload]

_STEPS: dict[tuple[str, int], Upcaster] = {}


def upcaster(type_name: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Decorator: register the step that turns version `from_version` into `from_version + 1`."""

    def register(step: Upcaster) -> Upcaster:
        key = (type_name, from_version)
        if key in _STEPS:
            raise ValueError(f"an upcaster for {type_name} v{from_version} already exists")
        _STEPS[key] = step
        return step

    return register


def upcast(type_name: str, payload: Payload, stored: int, current: int) -> Payload:
    """Apply every step from `stored` up to `current`; raise LookupError if one is missing."""
    for version in range(stored, current):
        step = _STEPS.get((type_name, version))
        if step is None:
            raise LookupError(f"no upcaster for {type_name} from version {version}")
        payload = step(dict(payload))
    return payload
