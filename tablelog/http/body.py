"""Request bodies: JSON, not too deep, refused in one sentence otherwise.

A command's body is an object of a few levels (a what-if's, a list of them); `"[" * 100000`
made the JSON decoder give up with a RecursionError, a 500. Bodies are decoded only for a
caller whose token holds (context.py), and one nested deeper than MAX_DEPTH is refused (422
`bad-json`) like one that is not JSON at all.
"""

from __future__ import annotations

from typing import Any

from litestar import Request
from litestar.exceptions import SerializationException

from tablelog.errors import InvalidInput

MAX_DEPTH = 32  # arrays and objects inside one another; a what-if body uses five


def depth(value: Any, limit: int) -> int:
    """How deeply arrays and objects nest in `value`, counted up to `limit` + 1 (a walk
    without recursion: a deep value cannot exhaust the stack)."""
    deepest = 0
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, level = pending.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        pending.extend((child, level + 1) for child in children)
    return deepest


def _too_deep() -> InvalidInput:
    return InvalidInput(
        f"the request body nests arrays and objects more than {MAX_DEPTH} deep", code="bad-json"
    )


class JsonRequest(Request[Any, Any, Any]):
    """Litestar's request, whose JSON body is refused in one sentence when it is not JSON or
    nests too deeply."""

    async def json(self) -> Any:
        body = await self.body()
        try:
            value = await super().json()
        except RecursionError:
            raise _too_deep() from None
        except SerializationException as exc:
            raise InvalidInput(f"the request body is not JSON ({exc})", code="bad-json") from None
        except UnicodeDecodeError:  # msgspec's decoder lets this one through as it is
            raise InvalidInput(
                "the request body is not JSON (it is not valid UTF-8 text)", code="bad-json"
            ) from None
        # A body with fewer brackets than the limit cannot nest deeper: no walk for those.
        if body.count(b"[") + body.count(b"{") > MAX_DEPTH and depth(value, MAX_DEPTH) > MAX_DEPTH:
            raise _too_deep()
        return value
