"""A local SMTP server for the tests (aiosmtpd, on a free 127.0.0.1 port), which keeps what
it was sent and every AUTH it was asked for.

`smtp_server()` is a plain relay: no STARTTLS, no login. `tls=` (a server SSLContext) with
`starttls=True` offers STARTTLS and requires it before anything else; with `starttls=False`
the server speaks TLS from the first byte (smtps). `users` turns on AUTH (PLAIN, LOGIN);
`auth_in_plain` offers it on an unencrypted connection too (a careless server, to show the
client keeps its password anyway). `refuse` names recipients answered 550.
"""

from __future__ import annotations

import socket
import ssl
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email import message_from_bytes
from email.message import EmailMessage
from email.policy import default
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


@dataclass(frozen=True)
class Received:
    mail_from: str
    rcpt_tos: list[str]
    message: EmailMessage
    encrypted: bool
    raw: bytes = b""  # the message as it came over the wire


@dataclass(frozen=True)
class AuthAttempt:
    mechanism: str
    encrypted: bool  # whether the connection was inside TLS when AUTH arrived


@dataclass
class Mailbox:
    """The server's handler and its record (appended on the server's thread; read after the
    client's `send` returned, by which time the server has answered, so no wait is needed)."""

    port: int = 0
    users: dict[str, str] = field(default_factory=dict)
    refuse: set[str] = field(default_factory=set)
    received: list[Received] = field(default_factory=list)
    auths: list[AuthAttempt] = field(default_factory=list)
    logins: list[str] = field(default_factory=list)  # users whose password was right

    async def handle_RCPT(  # noqa: N802 (aiosmtpd's hook name)
        self, server: SMTP, session: Any, envelope: Any, address: str, options: list[str]
    ) -> str:
        if address in self.refuse:
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(  # noqa: N802
        self, server: SMTP, session: Any, envelope: Any
    ) -> str:
        message = message_from_bytes(envelope.original_content, policy=default)
        assert isinstance(message, EmailMessage)
        self.received.append(
            Received(
                envelope.mail_from,
                list(envelope.rcpt_tos),
                message,
                _encrypted(server),
                bytes(envelope.original_content),
            )
        )
        return "250 OK: queued"

    def check_login(
        self, server: SMTP, session: Any, envelope: Any, mechanism: str, data: Any
    ) -> AuthResult:
        if isinstance(data, LoginPassword):
            user, password = data.login.decode(), data.password.decode()
            if self.users.get(user) == password:
                self.logins.append(user)
                return AuthResult(success=True)
        return AuthResult(success=False, handled=False)


def _encrypted(server: SMTP) -> bool:
    transport = server.transport
    return transport is not None and transport.get_extra_info("ssl_object") is not None


class _RecordingSMTP(SMTP):
    async def smtp_AUTH(self, arg: str) -> None:  # noqa: N802
        mechanism = arg.split()[0] if arg else ""
        self.event_handler.auths.append(AuthAttempt(mechanism, _encrypted(self)))
        await super().smtp_AUTH(arg)


class _Controller(Controller):
    """Listens on a socket bound before it starts: a free port without a race."""

    def __init__(self, handler: Mailbox, sock: socket.socket, **kwargs: Any) -> None:
        self._sock = sock
        super().__init__(handler, hostname="127.0.0.1", port=sock.getsockname()[1], **kwargs)

    def factory(self) -> SMTP:
        return _RecordingSMTP(self.handler, **self.SMTP_kwargs)

    def _create_server(self) -> Any:
        return self.loop.create_server(self._factory_invoker, sock=self._sock, ssl=self.ssl_context)


@contextmanager
def smtp_server(
    *,
    tls: ssl.SSLContext | None = None,
    starttls: bool = False,
    users: dict[str, str] | None = None,
    auth_in_plain: bool = False,
    refuse: set[str] | None = None,
) -> Iterator[Mailbox]:
    mailbox = Mailbox(users=dict(users or {}), refuse=set(refuse or ()))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    mailbox.port = sock.getsockname()[1]
    options: dict[str, Any] = {
        "server_hostname": "localhost",  # not socket.getfqdn(): no DNS look-up
        "ready_timeout": 5.0,
        "timeout": 10.0,  # seconds the server waits on a silent client
    }
    if tls is not None and starttls:
        options.update(tls_context=tls, require_starttls=True)
    if users:
        # aiosmtpd counts only STARTTLS as TLS: an smtps server must not require it for AUTH.
        plain_ok = auth_in_plain or (tls is not None and not starttls)
        options.update(authenticator=mailbox.check_login, auth_require_tls=not plain_ok)
    controller = _Controller(
        mailbox, sock, ssl_context=tls if tls is not None and not starttls else None, **options
    )
    controller.start()
    try:
        yield mailbox
    finally:
        controller.stop()
