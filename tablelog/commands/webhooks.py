"""`tablelog webhook add|list|remove`: where a campaign's posts go, kept as secrets.

A webhook's URL is a credential (anyone holding a Discord webhook URL may post in the
channel), so it is sealed with Fernet (`cryptography`) under a key kept beside the database
like the service's signing key (signing.key_path, suffix `.webhook-key`, 0600), never in it;
`list` shows only a redacted hint, and no error names it. A `json` webhook also gets an HMAC
secret, shown once by `add`, with which a receiver checks that a post came from here.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from pathlib import Path
from urllib.parse import urlsplit

import msgspec
from cryptography.fernet import Fernet, InvalidToken

from tablelog.commands.access import Caller, gm_only
from tablelog.commands.signing import create_secret_file, key_path
from tablelog.errors import InvalidInput, NotFound, StorageError
from tablelog.storage import EventStore
from tablelog.storage.webhooks import WebhookRow, delete_webhook, insert_webhook, webhooks_of

FORMATS = ("discord", "json")
TRIGGERS = ("reveal", "close", "session", "turn")
MAX_URL = 2000


class Added(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    format: str
    on: list[str]
    url: str  # the redacted hint
    secret: str | None  # json only: shown this once


class Listed(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    format: str
    on: list[str]
    url: str  # the redacted hint
    status: str  # ok, failing or disabled
    pending: int
    last_error: str | None
    disabled_reason: str | None


def webhook_key_path(store: EventStore) -> Path:
    signing = key_path(store)
    return signing.with_name(signing.name + ".webhook-key")  # tablelog.db.key.webhook-key


def _fernet(store: EventStore, *, create: bool) -> Fernet:
    path = webhook_key_path(store)
    if create and not path.exists():
        create_secret_file(path, Fernet.generate_key(), "the webhook key")
    try:
        return Fernet(path.read_bytes().strip())
    except FileNotFoundError:
        raise NotFound(
            f"there is no webhook key at {path}; the webhooks' URLs cannot be read without it "
            "(remove them and add them again)",
            code="no-key",
        ) from None
    except (OSError, ValueError):
        raise StorageError(f"{path} holds no webhook key", code="bad-key") from None


def seal(store: EventStore, text: str) -> bytes:
    """`text` encrypted under the webhook key (created on first use): a webhook's URL, a
    player's address (commands/contacts.py)."""
    return _fernet(store, create=True).encrypt(text.encode())


def unseal(store: EventStore, sealed: bytes) -> str:
    try:
        return _fernet(store, create=False).decrypt(sealed).decode()
    except InvalidToken:
        raise StorageError(
            f"the webhook key {webhook_key_path(store)} does not open this webhook's URL",
            code="bad-key",
        ) from None


def redacted(url: str) -> str:
    """What `list` shows of a URL: its site and the last four characters, never the path
    that carries the credential."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}/\u2026{url[-4:]}"


def _checked_url(url: str) -> str:
    url = url.strip()
    # The messages never repeat the URL: it is a secret, and errors end up in logs.
    if len(url) > MAX_URL or any(c.isspace() or ord(c) < 32 for c in url):
        raise InvalidInput(
            f"a webhook URL is one line of at most {MAX_URL} characters", code="bad-url"
        )
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        host = None
    if parts.scheme not in ("https", "http") or not host:
        raise InvalidInput(
            "a webhook URL starts with https:// (or http://) and names a host", code="bad-url"
        )
    return url


def private_address(url: str) -> bool:
    """Whether the URL's host is, or resolves to, an address that is not on the public
    internet (loopback, a private network, link-local such as a cloud's metadata service).
    The service refuses those unless told otherwise: a GM of a shared service must not make
    it post into the network it runs in. A name that does not resolve now is not refused
    (delivery checks again, and retries)."""
    host = urlsplit(url).hostname or ""
    try:
        infos = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False
    for info in infos:
        try:
            address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        except ValueError:
            continue
        if not address.is_global:
            return True
    return False


def parse_triggers(text: str) -> list[str]:
    """`reveal,close,session` as a list, each known, none twice."""
    given = [t.strip().lower() for t in text.split(",") if t.strip()]
    unknown = [t for t in given if t not in TRIGGERS]
    if not given or unknown:
        raise InvalidInput(
            f"--on takes some of {', '.join(TRIGGERS)}, comma-separated; got {text!r}",
            code="bad-trigger",
        )
    return [t for t in TRIGGERS if t in given]


def add(
    store: EventStore,
    campaign: str,
    url: str,
    fmt: str,
    on: str,
    caller: Caller | None = None,
    *,
    allow_private: bool = True,
) -> Added:
    """Register a webhook; `allow_private` off (the service's default) refuses a URL into a
    private network (see `private_address`)."""
    gm_only(caller, "add a webhook")
    if fmt not in FORMATS:
        raise InvalidInput(
            f"a webhook's --format is {' or '.join(FORMATS)}; got {fmt!r}", code="bad-format"
        )
    triggers = parse_triggers(on)
    url = _checked_url(url)
    if not allow_private and private_address(url):
        raise InvalidInput(
            "a webhook URL must reach a public address; this service does not post into "
            "private networks (`tablelog serve --webhook-allow-private` allows it)",
            code="private-url",
        )
    if store.head(campaign) is None:
        raise NotFound(f"campaign {campaign!r} does not exist in {store.label}")
    fernet = _fernet(store, create=True)
    secret = secrets.token_hex(32) if fmt == "json" else None
    hook = WebhookRow(
        id="wh-" + secrets.token_hex(4),
        campaign=campaign,
        format=fmt,
        triggers=tuple(triggers),
        url_sealed=fernet.encrypt(url.encode()),
        url_hint=redacted(url),
        secret_sealed=None if secret is None else fernet.encrypt(secret.encode()),
        failing_since=None,
        last_error=None,
        disabled_reason=None,
    )
    with store.service_rows() as conn:
        insert_webhook(conn, hook)
    return Added(id=hook.id, format=fmt, on=triggers, url=hook.url_hint, secret=secret)


def listed(store: EventStore, campaign: str, caller: Caller | None = None) -> list[Listed]:
    gm_only(caller, "see the webhooks")
    if store.head(campaign) is None:
        raise NotFound(f"campaign {campaign!r} does not exist in {store.label}")
    return [
        Listed(
            id=h.id,
            format=h.format,
            on=list(h.triggers),
            url=h.url_hint,
            status="disabled"
            if h.disabled_reason is not None
            else ("failing" if h.last_error else "ok"),
            pending=h.pending,
            last_error=h.last_error,
            disabled_reason=h.disabled_reason,
        )
        for h in webhooks_of(store, campaign)
    ]


def remove(store: EventStore, campaign: str, hook_id: str, caller: Caller | None = None) -> None:
    gm_only(caller, "remove a webhook")
    with store.service_rows() as conn:
        if not delete_webhook(conn, campaign, hook_id.strip()):
            known = ", ".join(h.id for h in webhooks_of(store, campaign)) or "none"
            raise NotFound(
                f"campaign {campaign} has no webhook {hook_id!r} (its webhooks: {known})",
                code="no-webhook",
            )
