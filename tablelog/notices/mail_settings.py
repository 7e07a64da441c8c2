"""The SMTP server a host names for notices by mail, checked once when the service starts.

`smtp://[user@]host[:port]` (port 587) upgrades with STARTTLS whenever the server offers it;
`smtps://[user@]host[:port]` (port 465) speaks TLS from the first byte. The password comes
from `TABLELOG_SMTP_PASSWORD` only: never from the command line (other users of the host see
a process's arguments), never in a URL, never printed. Certificates are checked against the
system's trust store, or against the CA file `TABLELOG_SMTP_CA_FILE` names instead (a
private CA, or the tests' own).
"""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.utils import parseaddr
from urllib.parse import unquote, urlsplit

from tablelog.errors import InvalidInput

PASSWORD_ENV = "TABLELOG_SMTP_PASSWORD"  # noqa: S105 (the variable's name, not a password)
CA_FILE_ENV = "TABLELOG_SMTP_CA_FILE"
DEFAULT_PORTS = {"smtp": 587, "smtps": 465}
TIMEOUT_S = 30.0  # seconds for connecting and for each answer of the server


@dataclass(frozen=True)
class MailSettings:
    """Where and how notices are sent. `password` and the TLS context never show in a repr."""

    implicit_tls: bool  # smtps://: TLS from the start; smtp://: STARTTLS when offered
    host: str
    port: int
    user: str | None
    mail_from: str  # as given, perhaps with a display name: `tablelog <notices@example.org>`
    password: str | None = field(default=None, repr=False)
    ca_file: str | None = None
    timeout: float = TIMEOUT_S
    # Built once: loading a trust store takes milliseconds, and a context is safe to share.
    tls: ssl.SSLContext = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "tls", _tls_context(self.ca_file))

    @property
    def url(self) -> str:
        """The server as the host named it (no password: fit for a log line)."""
        scheme = "smtps" if self.implicit_tls else "smtp"
        user = f"{self.user}@" if self.user else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{scheme}://{user}{host}:{self.port}"

    @property
    def sender(self) -> str:
        """The bare address of `mail_from`: the envelope sender."""
        return parseaddr(self.mail_from)[1]

    @property
    def domain(self) -> str:
        """The domain of `mail_from`: the right-hand side of every Message-ID."""
        return self.sender.rpartition("@")[2]


def mail_settings(
    smtp: str,
    mail_from: str | None,
    *,
    ca_file: str | None = None,
    environ: Mapping[str, str] = os.environ,
    timeout: float = TIMEOUT_S,
) -> MailSettings:
    """The settings of `--smtp URL --mail-from ADDRESS`, the password read from `environ`;
    `ca_file` (default: `TABLELOG_SMTP_CA_FILE`) replaces the system's trust store. Refuses
    (InvalidInput, one sentence) a bad URL, a missing or bad sender, a user without a
    password, a password without a user, or a CA file that does not load."""
    implicit_tls, host, port, user = _server(smtp)
    if not mail_from:
        raise InvalidInput(
            "--smtp needs --mail-from ADDRESS, the address notices are sent from "
            "(e.g. --mail-from notices@example.org)",
            code="bad-mail-from",
        )
    _check_from(mail_from)
    password = environ.get(PASSWORD_ENV) or None
    if user is not None and password is None:
        raise InvalidInput(
            f"--smtp names the user {user}, so the SMTP password must be in {PASSWORD_ENV}; "
            "it is not set",
            code="bad-smtp",
        )
    if user is None and password is not None:
        raise InvalidInput(
            f"{PASSWORD_ENV} is set but --smtp names no user to log in as (smtp://USER@host:587)",
            code="bad-smtp",
        )
    ca_file = ca_file or environ.get(CA_FILE_ENV) or None
    return MailSettings(
        implicit_tls=implicit_tls,
        host=host,
        port=port,
        user=user,
        mail_from=mail_from,
        password=password,
        ca_file=ca_file,
        timeout=timeout,
    )


def check_address(text: str) -> str:
    """`text` if it is one plain mail address (`ben@example.org`: ASCII, no display name,
    nothing that could start another header), else InvalidInput naming it."""
    try:
        address = Address(addr_spec=text)
    except (ValueError, IndexError):
        address = None
    if (
        address is None
        or not text.isascii()
        or not address.username
        or "." not in address.domain
        or address.addr_spec != text
    ):
        raise InvalidInput(
            f"{text!r} is not a mail address like ben@example.org (ASCII letters, one @)",
            code="bad-email",
        )
    return text


def _server(smtp: str) -> tuple[bool, str, int, str | None]:
    """(implicit TLS, host, port, user) of an `smtp://` or `smtps://` URL."""

    def bad(why: str) -> InvalidInput:
        # The URL itself is not repeated: a password pasted into it must not reach a log.
        return InvalidInput(
            f"--smtp {why}; give smtp://[user@]host[:port] (STARTTLS) or "
            "smtps://[user@]host[:port] (TLS)",
            code="bad-smtp",
        )

    try:
        parts = urlsplit(smtp.strip())
        port = parts.port
    except ValueError as exc:
        raise bad(f"is not a URL ({exc})") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise bad(f"starts with {parts.scheme + '://' if parts.scheme else 'no scheme'}")
    if parts.password is not None:
        raise bad(f"holds a password, which goes in {PASSWORD_ENV} only")
    if not parts.hostname:
        raise bad("names no host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise bad("has a path, query or fragment after the host")
    user = unquote(parts.username) if parts.username is not None else None
    if user == "":
        raise bad("has an empty user before @")
    return parts.scheme == "smtps", parts.hostname, port or DEFAULT_PORTS[parts.scheme], user


def _check_from(mail_from: str) -> None:
    _name, address = parseaddr(mail_from)
    try:
        if not mail_from.isprintable():  # a line break would start a header of its own
            raise InvalidInput(mail_from)
        check_address(address)
    except InvalidInput:
        raise InvalidInput(
            f"--mail-from {mail_from!r} is not a mail address like notices@example.org "
            "or 'tablelog <notices@example.org>'",
            code="bad-mail-from",
        ) from None


def _tls_context(ca_file: str | None) -> ssl.SSLContext:
    """Verifies the server's certificate and host name: against `ca_file` alone when given,
    else the system's trust store."""
    try:
        return ssl.create_default_context(cafile=ca_file)
    except (OSError, ssl.SSLError) as exc:
        raise InvalidInput(
            f"the SMTP CA file {ca_file} does not load ({exc}); it must hold PEM certificates",
            code="bad-smtp",
        ) from None
