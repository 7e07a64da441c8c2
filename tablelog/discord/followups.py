"""Messages after the answer, through the interaction's webhook: the rest of a long answer,
what only the caller sees, a deferred answer. One HTTP client for the service's life (a
client per message would load the CA certificates each time: 24 ms of CPU, bench/)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

import httpx

from tablelog.discord.reply import EPHEMERAL, Reply
from tablelog.discord.settings import DiscordSettings

_log = logging.getLogger(__name__)
MAX_WAIT_S = 5.0  # the longest a 429's `retry_after` is waited out before giving up


class FollowUps:
    def __init__(self, settings: DiscordSettings) -> None:
        self._settings = settings
        self._client: httpx.Client | None = None
        self._lock = threading.Lock()

    def _http(self) -> httpx.Client:
        with self._lock:
            if self._client is None:
                self._client = httpx.Client(timeout=self._settings.timeout_s)
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()
                self._client = None

    def _send(self, method: str, path: str, data: dict[str, Any]) -> None:
        url = f"{self._settings.api}{path}"
        for attempt in range(2):
            try:
                answer = self._http().request(method, url, json=data)
            except httpx.HTTPError as exc:
                _log.warning("a Discord message was not sent: %s", type(exc).__name__)
                return
            if answer.status_code != 429 or attempt:
                break
            # Discord's rate limit: wait what it asks (a little), then once more.
            try:
                wait = float(answer.json().get("retry_after", 1.0))
            except (ValueError, AttributeError):
                wait = 1.0
            time.sleep(min(max(wait, 0.0), MAX_WAIT_S))
        if answer.is_error:
            _log.warning("Discord refused a message: %s", answer.status_code)

    def post(self, app_id: str, token: str, messages: list[dict[str, Any]]) -> None:
        for data in messages:
            self._send("POST", f"/webhooks/{app_id}/{token}", data)

    def edit_original(self, app_id: str, token: str, reply: Reply) -> None:
        """A deferred answer: the "thinking" message (the caller's alone) becomes it when it
        is the caller's alone too; a public one follows it, for the whole channel."""
        data = dict(reply.response.get("data") or {"content": "done"})
        later = list(reply.followups)
        if not int(data.get("flags", 0)) & EPHEMERAL:
            later.insert(0, data)
            data = {"content": "done: said in the channel below"}
        self._send("PATCH", f"/webhooks/{app_id}/{token}/messages/@original", data)
        self.post(app_id, token, later)
