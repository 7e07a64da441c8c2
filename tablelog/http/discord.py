"""`POST /discord/interactions`: where Discord sends every slash command, button, modal and
autocomplete of the application (HTTP interactions: no gateway, no bot process).

The raw body is checked before anything is decoded: Ed25519 over the timestamp and body
with the application's public key, no older than five minutes (401 otherwise). The answer
is built in a worker thread (`discord/answers.py`); one that takes longer than Discord's
three seconds allow is deferred (type 5) and sent later by editing the original response.
Follow-up messages (what only the caller sees, the rest of a long answer) go out through
the interaction's webhook once the response is sent.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import anyio.to_thread
from litestar import Request, Response, post
from litestar.background_tasks import BackgroundTask

from tablelog.discord.answers import COMPLETE, PING, answer
from tablelog.discord.followups import FollowUps
from tablelog.discord.reply import AUTOCOMPLETE, DEFERRED, EPHEMERAL, PONG, Reply
from tablelog.discord.settings import DiscordSettings
from tablelog.discord.signature import refusal
from tablelog.http.body import MAX_DEPTH, depth
from tablelog.http.context import store_of
from tablelog.http.errors import body

_log = logging.getLogger(__name__)
_pending: set[asyncio.Future[None]] = set()


def decoded(raw: bytes) -> dict[str, Any] | None:
    """The interaction, or None when the body is not a JSON object of a sane depth."""
    try:
        found = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(found, dict) or depth(found, MAX_DEPTH) > MAX_DEPTH:
        return None
    return found


def _safely(store: Any, interaction: dict[str, Any], bot_notices: bool) -> Reply:
    try:
        return answer(store, interaction, bot_notices=bot_notices)
    except Exception:  # a bug: one sentence to the caller, the details in the service's log
        _log.exception("a Discord interaction failed")
        from tablelog.discord.reply import refused

        return refused(
            "tablelog met an internal error answering this; `/tl state` shows what the table "
            "holds now (the service's log has the details)"
        )


@post("/discord/interactions", include_in_schema=False, status_code=200)
async def interactions(request: Request[Any, Any, Any]) -> Response[Any]:
    settings: DiscordSettings | None = request.app.state.discord
    if settings is None:
        return Response(
            body(
                "discord-off",
                "this service takes no Discord interactions: start it with "
                "--discord-public-key (or TABLELOG_DISCORD_PUBLIC_KEY)",
            ),
            status_code=404,
        )
    raw = await request.body()
    why = refusal(
        settings.key,
        request.headers.get("x-signature-ed25519"),
        request.headers.get("x-signature-timestamp"),
        raw,
    )
    if why is not None:
        return Response(body("bad-signature", why), status_code=401)
    interaction = decoded(raw)
    if interaction is None:
        return Response(body("bad-json", "an interaction is a JSON object"), status_code=400)
    if interaction.get("type") == PING:
        return Response({"type": PONG})
    store = store_of(request.app.state)
    work = asyncio.ensure_future(
        anyio.to_thread.run_sync(_safely, store, interaction, bool(settings.bot_token))
    )
    try:
        reply = await asyncio.wait_for(asyncio.shield(work), settings.defer_after_s)
    except TimeoutError:
        return _deferred(request.app.state.discord_out, interaction, work)
    app_id, token = str(interaction.get("application_id", "")), str(interaction.get("token", ""))
    if reply.followups and app_id and token:
        out: FollowUps = request.app.state.discord_out
        task = BackgroundTask(out.post, app_id, token, reply.followups)
        return Response(reply.response, background=task)
    return Response(reply.response)


def _deferred(
    out: FollowUps, interaction: dict[str, Any], work: asyncio.Future[Reply]
) -> Response[Any]:
    """Discord's three seconds are nearly gone: say "thinking" now, edit it when done."""
    if interaction.get("type") == COMPLETE:  # an autocomplete cannot wait: no suggestion
        return Response({"type": AUTOCOMPLETE, "data": {"choices": []}})
    app_id, token = str(interaction.get("application_id", "")), str(interaction.get("token", ""))

    def finished(done: asyncio.Future[Reply]) -> None:
        if done.cancelled() or done.exception() is not None:
            return
        edit = asyncio.ensure_future(
            anyio.to_thread.run_sync(out.edit_original, app_id, token, done.result())
        )
        _pending.add(edit)  # kept until done: a task nobody holds may be collected
        edit.add_done_callback(_pending.discard)

    work.add_done_callback(finished)
    # Whether the answer is the caller's alone is known only once it is built: the
    # "thinking" message is, and a public answer follows it (`_edit_original`).
    return Response({"type": DEFERRED, "data": {"flags": EPHEMERAL}})


ROUTES = [interactions]
__all__ = ["ROUTES", "DiscordSettings"]
