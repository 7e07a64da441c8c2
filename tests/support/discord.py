"""A local stand-in for Discord's webhook endpoint (and a generic JSON receiver), on a free
127.0.0.1 port, for the webhook tests.

Like Discord it answers 204 to a good message, 400 to a message over 2,000 characters, and
429 with a JSON `retry_after` (seconds) when asked to slow down; `plan` scripts what the
next requests meet (`429`, `500`, `slow`: answered 503 after the sender has given up, `late`:
answered 204 slowly but in time), then every request is accepted. Only accepted requests are
kept, in the order they arrived.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

LIMIT = 2000


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def allowed_mentions(self) -> Any:
        """Whom the message may ping, as Discord reads it (absent: whatever it mentions)."""
        return self.json.get("allowed_mentions")


@dataclass
class Receiver:
    url: str
    plan: list[str] = field(default_factory=list)
    accepted: list[Received] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)  # what was answered other than 204
    slow_s: float = 1.5
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self) -> str:
        with self.lock:
            return self.plan.pop(0) if self.plan else "ok"

    def wait_for(self, count: int, deadline_s: float = 30.0) -> list[Received]:
        """The accepted requests once there are `count` of them (bounded wait)."""
        deadline = time.monotonic() + deadline_s
        while len(self.accepted) < count and time.monotonic() < deadline:
            time.sleep(0.05)
        return list(self.accepted)


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:  # quiet
            pass

        def _answer(self, status: int, body: dict[str, Any] | None = None) -> None:
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            step = receiver.next_step()
            if step == "429":
                receiver.refused.append("429")
                self._answer(429, {"message": "You are being rate limited.", "retry_after": 0.3})
                return
            if step == "500":
                receiver.refused.append("500")
                self._answer(500, {"message": "500: Internal Server Error"})
                return
            if step == "slow":
                receiver.refused.append("slow")
                time.sleep(receiver.slow_s)
                with contextlib.suppress(OSError):  # the sender has hung up, as it should
                    self._answer(503)
                return
            if step == "late":
                time.sleep(0.2)
            if "/api/webhooks/" in self.path:
                content = json.loads(body).get("content", "")
                # Discord counts UTF-16 code units, as JavaScript does.
                if len(content.encode("utf-16-le")) // 2 > LIMIT:
                    receiver.refused.append("too long")
                    self._answer(400, {"code": 50035, "message": "Invalid Form Body"})
                    return
            with receiver.lock:
                receiver.accepted.append(Received(self.path, dict(self.headers), body))
            self._answer(204)

    return Handler


@contextmanager
def discord_like() -> Iterator[Receiver]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    receiver = Receiver(url=f"http://127.0.0.1:{server.server_address[1]}")
    server.RequestHandlerClass = _handler(receiver)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()
