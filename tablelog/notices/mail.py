"""Notices by mail: `send(settings, compose(settings, ...))` through the host's SMTP server.

The API the notices' sender uses: `mail_settings` (from `serve --smtp`), `compose`, `send`
and `MailError`. A password is only ever sent inside TLS: `smtps://` is TLS from the start,
and `smtp://` with a user refuses a server that offers no STARTTLS before logging in. Without
a user (a relay on the same host), a server without STARTTLS gets the mail in plain.
"""

from __future__ import annotations

import smtplib
import socket
import ssl
from email.message import EmailMessage

from tablelog.errors import TablelogError
from tablelog.notices.mail_compose import compose, one_line, thread_message_id
from tablelog.notices.mail_settings import (
    CA_FILE_ENV,
    PASSWORD_ENV,
    MailSettings,
    check_address,
    mail_settings,
)

__all__ = [
    "CA_FILE_ENV",
    "PASSWORD_ENV",
    "MailError",
    "MailSettings",
    "check_address",
    "compose",
    "mail_settings",
    "one_line",
    "send",
    "thread_message_id",
]


class MailError(TablelogError):
    """A mail was not sent; the sentence says why, for the GM. `permanent` when the server
    answered that it never will take it (a 5xx reply: a refused recipient, say), so trying
    again later is pointless until something changes."""

    code = "mail-failed"

    def __init__(self, message: str, *, permanent: bool = False) -> None:
        super().__init__(message)
        self.permanent = permanent


def send(settings: MailSettings, message: EmailMessage) -> None:
    """Send `message` (from `compose`) to its To through the server of `settings`; one
    connection per mail. MailError for every failure: the server unreachable or silent,
    TLS refused or its certificate untrusted, the login or the recipient refused."""
    where = f"the SMTP server {settings.host}:{settings.port}"
    try:
        with _connect(settings) as smtp:
            _secure(smtp, settings, where)
            if settings.user is not None:
                _log_in(smtp, settings, where)
            smtp.send_message(message, from_addr=settings.sender)
    except MailError:
        raise
    except smtplib.SMTPRecipientsRefused as exc:
        code, text = next(iter(exc.recipients.values()))
        to = ", ".join(exc.recipients)
        raise _refused(f"{where} refused the recipient {to}", code, text) from None
    except smtplib.SMTPSenderRefused as exc:
        sender = f"the sender {settings.sender}"
        raise _refused(f"{where} refused {sender}", exc.smtp_code, exc.smtp_error) from None
    except smtplib.SMTPResponseException as exc:
        raise _refused(f"{where} refused the mail", exc.smtp_code, exc.smtp_error) from None
    except smtplib.SMTPServerDisconnected as exc:
        if "timed out" in str(exc):  # smtplib's word for a socket timeout while reading
            raise _silent(settings, where) from None
        raise MailError(f"{where} closed the connection before the mail was sent") from None
    except smtplib.SMTPException as exc:
        raise MailError(f"{where} failed: {exc}") from None
    except ssl.SSLCertVerificationError as exc:
        raise MailError(
            f"{where} presented a certificate that is not trusted ({exc.verify_message}); "
            f"a private CA's certificate can be named in {CA_FILE_ENV}"
        ) from None
    except ssl.SSLError as exc:
        hint = ""
        if settings.implicit_tls and exc.reason == "WRONG_VERSION_NUMBER":
            hint = "; a server that starts in plain and offers STARTTLS takes smtp://"
        raise MailError(f"TLS with {where} failed ({exc.reason or exc}){hint}") from None
    except ConnectionRefusedError:
        raise MailError(f"{where} refused the connection") from None
    except socket.gaierror as exc:
        raise MailError(f"the SMTP server {settings.host} is not found ({exc.strerror})") from None
    except TimeoutError:
        raise _silent(settings, where) from None
    except OSError as exc:
        raise MailError(f"{where} cannot be reached ({exc.strerror or exc})") from None


def _connect(settings: MailSettings) -> smtplib.SMTP:
    if settings.implicit_tls:
        return smtplib.SMTP_SSL(
            settings.host, settings.port, timeout=settings.timeout, context=settings.tls
        )
    return smtplib.SMTP(settings.host, settings.port, timeout=settings.timeout)


def _secure(smtp: smtplib.SMTP, settings: MailSettings, where: str) -> None:
    """STARTTLS on an `smtp://` connection whenever the server offers it (its certificate
    checked like any other); without it only a connection with no login goes on."""
    smtp.ehlo()
    if settings.implicit_tls:
        return
    if smtp.has_extn("starttls"):
        smtp.starttls(context=settings.tls)
        smtp.ehlo()  # the server's extensions again, now inside TLS (AUTH may appear only now)
        return
    if settings.user is not None:
        raise MailError(
            f"{where} offers no STARTTLS, and the password of {settings.user} is never sent "
            "over an unencrypted connection; use a server that offers STARTTLS, or smtps://",
            permanent=True,
        )


def _log_in(smtp: smtplib.SMTP, settings: MailSettings, where: str) -> None:
    if settings.user is None or settings.password is None:  # mail_settings refuses this
        raise MailError(f"{where}: no password for the login of {settings.user}")
    # _secure saw to this; checked again at the one place a password leaves the process.
    if not isinstance(smtp.sock, ssl.SSLSocket):
        raise MailError(f"{where}: the connection is not encrypted, so no login is sent")
    if not smtp.has_extn("auth"):
        raise MailError(f"{where} offers no login (AUTH) to {settings.user}", permanent=True)
    try:
        smtp.login(settings.user, settings.password)
    except smtplib.SMTPAuthenticationError as exc:
        raise _refused(
            f"{where} refused the login of {settings.user}", exc.smtp_code, exc.smtp_error
        ) from None


def _silent(settings: MailSettings, where: str) -> MailError:
    return MailError(f"{where} did not answer within {settings.timeout:g} seconds")


def _refused(what: str, code: int, text: bytes | str) -> MailError:
    said = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return MailError(f"{what} ({code} {one_line(said)})", permanent=500 <= code < 600)
