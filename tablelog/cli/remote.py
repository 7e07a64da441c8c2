"""The CLI as a client of the service: `--server URL --access-token TOKEN` (or TABLELOG_SERVER
and TABLELOG_TOKEN) send every command through the HTTP API instead of opening a database.

Refusals come back as the service's `{"code", "message"}` and leave the CLI exactly as a local
refusal does (one sentence, exit 1).
"""

from __future__ import annotations

from typing import Any

import httpx

from tablelog import __version__
from tablelog.commands.endpoints import endpoint_for
from tablelog.errors import ConcurrencyConflict, Forbidden, StorageError, TablelogError
from tablelog.rules.common import Command
from tablelog.rules.names import campaign_name

TIMEOUT_S = 60.0


class RemoteRefusal(TablelogError):
    """The service refused: its code and sentence, as it sent them."""


class Client:
    def __init__(self, server: str, token: str | None) -> None:
        headers = {"User-Agent": f"tablelog/{__version__}"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self.server = server.rstrip("/")
        self._http = httpx.Client(base_url=self.server, headers=headers, timeout=TIMEOUT_S)
        self._me: dict[str, Any] | None = None

    def close(self) -> None:
        self._http.close()

    def _send(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        try:
            response = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise StorageError(
                f"cannot reach the service at {self.server} ({type(exc).__name__}: {exc})",
                code="no-service",
            ) from None
        if response.status_code >= 400:
            raise _refusal(response)
        return response

    def json(self, method: str, path: str, **kwargs: Any) -> Any:
        return self._send(method, path, **kwargs).json()

    def text(self, path: str, **params: Any) -> bytes:
        return self._send("GET", path, params=_clean(params)).content

    def get(self, path: str, **params: Any) -> Any:
        return self.json("GET", path, params=_clean(params))

    def me(self) -> dict[str, Any]:
        if self._me is None:
            self._me = self.json("GET", "/me")
        return self._me

    def campaign(self, given: str | None) -> str:
        """The token's campaign; a different --campaign is refused rather than ignored."""
        mine = str(self.me()["campaign"])
        if given is not None and campaign_name(given) != mine:
            raise Forbidden(
                f"the access token is for campaign {mine}, not {given}", code="other-campaign"
            )
        return mine

    def command(self, campaign: str, command: Command) -> dict[str, Any]:
        endpoint = endpoint_for(command)
        result: dict[str, Any] = self.json(
            "POST", endpoint.url(campaign, command), json=endpoint.body_of(command)
        )
        return result


def _clean(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if v is not None}


def _refusal(response: httpx.Response) -> TablelogError:
    try:
        data = response.json()
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("message"), str):
        code, message = str(data.get("code", "refused")), data["message"]
    else:
        code, message = "http-error", f"the service answered {response.status_code}"
    if response.status_code == 409 and "expected" in (data or {}):
        return ConcurrencyConflict(
            message, expected=int(data["expected"]), actual=int(data["actual"])
        )
    return RemoteRefusal(message, code=code)
