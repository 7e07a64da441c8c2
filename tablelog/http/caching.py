"""No shared cache keeps what the service answers one caller for another.

Nearly every answer depends on who asks: reads are filtered for the caller's seat (a hand, a
face-down card, the feed), and even an error says whether a token holds. A cache in front of
the service (a proxy, a CDN) that stored one seat's `/hands/kit` could hand it to the next
reader of the same URL. So every response is sent with `Cache-Control: no-store` and `Vary:
Authorization, Cookie`, set here in one place for the whole application (a `before_send`
hook sees every response start, the errors of guards and exception handlers and the live
feed's headers included), never route by route, where a new route would be forgotten.

Only the static assets under `/assets` (the page's script and stylesheet, the same bytes for
everyone) stay cacheable. The other public answers (`/`, `/key`, `/schema`) are tiny and gain
nothing from a cache: keeping them under the rule keeps the rule one line long, with nothing
to get wrong when a route moves.
"""

from __future__ import annotations

from litestar.types import Message, Scope

CACHE_CONTROL = b"no-store"
VARY = (b"Authorization", b"Cookie")
PUBLIC_PREFIX = "/assets/"  # the static files router (page.py): no route of a caller's there


def _vary(given: list[bytes]) -> bytes:
    """The values of any `Vary` the response set, with Authorization and Cookie added."""
    values = [v.strip() for header in given for v in header.split(b",") if v.strip()]
    known = {v.lower() for v in values}
    return b", ".join([*values, *(v for v in VARY if v.lower() not in known)])


async def private(message: Message, scope: Scope) -> None:
    """`before_send` hook: mark each response start as the asker's alone."""
    if message["type"] != "http.response.start":
        return
    path = scope.get("path", "")
    if path.startswith(PUBLIC_PREFIX):
        return
    kept: list[tuple[bytes, bytes]] = []
    vary: list[bytes] = []
    for name, value in message.get("headers", ()):
        lowered = name.lower()
        if lowered == b"vary":
            vary.append(value)
        elif lowered != b"cache-control":  # ours wins over any a handler set
            kept.append((name, value))
    message["headers"] = [*kept, (b"cache-control", CACHE_CONTROL), (b"vary", _vary(vary))]
