"""A local stand-in for Discord as an "HTTP interactions" application meets it (API v10).

Two halves, both speaking Discord's real protocol on 127.0.0.1 so the service under test runs
its production code paths unchanged:

- `discord_api()` serves the parts of Discord's HTTP API such an application calls: the bulk
  overwrite of its slash commands (validated the way Discord validates them, so a definition
  Discord would refuse fails here too), follow-ups and edits through the interaction's
  webhook, and a bot's messages in a channel. What it accepts is kept for the test to read.
- `Interactor` plays Discord's side of an interaction: it builds Discord's payloads, signs them
  with its own Ed25519 key (the application's "Public Key" is `public_key_hex`) and POSTs them
  to the service's interactions endpoint.

`response_problems` says whether Discord would accept the service's answer to an interaction
(Discord shows "This interaction failed" otherwise).
"""

from __future__ import annotations

import itertools
import json
import re
import secrets
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

API_PREFIX = "/api/v10"
MESSAGE_LIMIT = 2000
EPHEMERAL = 1 << 6
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
DISCORD_EPOCH_MS = 1_420_070_400_000
DEFAULT_APPLICATION_ID = "100000000000000001"
DEFAULT_GUILD_ID = "300000000000000001"
TEST_BOT_TOKEN = "test-bot-token"
# What the bot may do in the channel: view, send, embed links, read history, use commands.
APP_PERMISSIONS = str((1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 31))

OptionValue = str | int | float | bool

# ---------------------------------------------------------------------------------------------
# Snowflakes and Discord's error bodies


_sequence = itertools.count()
_sequence_lock = threading.Lock()


def snowflake() -> str:
    """A fresh, time-ordered snowflake, shaped like Discord's (ids sort by creation)."""
    with _sequence_lock:
        n = next(_sequence) & 0xFFF
    return str(((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (1 << 17) | n)


def _is_snowflake(value: str) -> bool:
    return value.isascii() and value.isdigit() and 0 < len(value) <= 20


class FormError(Exception):
    """Discord's 400 "Invalid Form Body" (code 50035): the first problem, at its JSON path."""

    def __init__(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        super().__init__(f"{'.'.join(map(str, path))}: {message}")
        self.path, self.code, self.message = path, code, message

    def body(self) -> dict[str, Any]:
        tree: dict[str, Any] = {"_errors": [{"code": self.code, "message": self.message}]}
        for key in reversed(self.path):
            tree = {str(key): tree}
        return {"message": "Invalid Form Body", "code": 50035, "errors": tree}


def _bad_length(path: tuple[str | int, ...], low: int, high: int) -> FormError:
    return FormError(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _too_many(path: tuple[str | int, ...], high: int) -> FormError:
    return FormError(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")


def _utf16_len(text: str) -> int:
    """Discord counts message lengths in UTF-16 code units, as JavaScript does."""
    return len(text.encode("utf-16-le")) // 2


# ---------------------------------------------------------------------------------------------
# Command registration, validated as Discord validates a bulk overwrite

NAME = re.compile(r"^[-_\w]{1,32}$")  # Python's \w is Unicode: letters and digits, like Discord's
COMMAND_TYPES = (1, 2, 3, 4)  # CHAT_INPUT, USER, MESSAGE, PRIMARY_ENTRY_POINT
OPTION_TYPES = range(1, 12)  # SUB_COMMAND .. ATTACHMENT
SUB_COMMAND, SUB_COMMAND_GROUP, STRING, INTEGER, BOOLEAN, NUMBER = 1, 2, 3, 4, 5, 10
COMMAND_SIZE_LIMIT = 8000


def _check_name(value: Any, path: tuple[str | int, ...]) -> str:
    """A slash command's or option's name: ^[-_\\w]{1,32}$ and lower case where a case exists."""
    if value is None:
        raise FormError(path, "BASE_TYPE_REQUIRED", "This field is required")
    if not isinstance(value, str) or not NAME.match(value) or value != value.lower():
        raise FormError(path, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    return value


def _check_description(value: Any, path: tuple[str | int, ...]) -> str:
    if value is None:
        raise FormError(path, "BASE_TYPE_REQUIRED", "This field is required")
    if not isinstance(value, str):
        raise FormError(path, "BASE_TYPE_STRING", f'Could not interpret "{value}" as string.')
    if not 1 <= len(value) <= 100:
        raise _bad_length(path, 1, 100)
    return value


def _check_choices(option: dict[str, Any], path: tuple[str | int, ...]) -> int:
    """Choices: 25 at most, names 1-100, values of the option's type; returns their size."""
    choices = option.get("choices")
    if choices is None:
        return 0
    kind = option["type"]
    if kind not in (STRING, INTEGER, NUMBER):
        raise FormError(
            path,
            "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
            "Choices are only allowed on string, integer and number options",
        )
    if not isinstance(choices, list):
        raise FormError(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
    if len(choices) > 25:
        raise _too_many(path, 25)
    if choices and option.get("autocomplete"):
        raise FormError(
            (*path[:-1], "autocomplete"),
            "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
            "Autocomplete can not be enabled on options that have choices",
        )
    size = 0
    for i, choice in enumerate(choices):
        where = (*path, i)
        if not isinstance(choice, dict):
            raise FormError(
                where, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
            )
        name = choice.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            raise _bad_length((*where, "name"), 1, 100)
        value = choice.get("value")
        if kind == STRING:
            if not isinstance(value, str):
                raise FormError(
                    (*where, "value"),
                    "BASE_TYPE_STRING",
                    f'Could not interpret "{value}" as string.',
                )
            if not 1 <= len(value) <= 100:
                raise _bad_length((*where, "value"), 1, 100)
        elif (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or (kind == INTEGER and not isinstance(value, int))
        ):
            wanted = "int" if kind == INTEGER else "float"
            raise FormError(
                (*where, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not {wanted}.'
            )
        size += len(name) + len(str(value))
    return size


def _check_options(options: Any, path: tuple[str | int, ...], holder: str) -> int:
    """An option list below a command (`holder` "command"), group or subcommand; its size.

    Discord's nesting rules: a command holds either subcommands/groups or plain options, never
    both; a group holds only subcommands; a subcommand holds only plain options. Within a list
    names are unique and required options come before optional ones.
    """
    if options is None:
        return 0
    if not isinstance(options, list):
        raise FormError(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
    if len(options) > 25:
        raise _too_many(path, 25)
    size, seen, optional_seen = 0, set[str](), False
    kinds = [o.get("type") for o in options if isinstance(o, dict)]
    nested = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    for i, option in enumerate(options):
        where = (*path, i)
        if not isinstance(option, dict):
            raise FormError(
                where, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
            )
        kind = option.get("type")
        if kind is None:
            raise FormError((*where, "type"), "BASE_TYPE_REQUIRED", "This field is required")
        if isinstance(kind, bool) or kind not in OPTION_TYPES:
            raise FormError(
                (*where, "type"), "BASE_TYPE_CHOICES", f"Value must be one of {set(OPTION_TYPES)}."
            )
        if holder == "command" and any(nested) and not all(nested):
            raise FormError(
                where,
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command and sub-command group option types are mutually "
                "exclusive to all other types",
            )
        if holder == "group" and kind != SUB_COMMAND:
            raise FormError(
                (*where, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-command groups can only contain sub-commands",
            )
        if holder == "subcommand" and kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            raise FormError(
                (*where, "type"),
                "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                "Sub-commands can not contain sub-commands or sub-command groups",
            )
        name = _check_name(option.get("name"), (*where, "name"))
        if name in seen:
            raise FormError(
                (*where, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            )
        seen.add(name)
        description = _check_description(option.get("description"), (*where, "description"))
        size += len(name) + len(description)
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            inner = "group" if kind == SUB_COMMAND_GROUP else "subcommand"
            size += _check_options(option.get("options"), (*where, "options"), inner)
            continue
        if option.get("required"):
            if optional_seen:
                raise FormError(
                    path,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        size += _check_choices(option, (*where, "choices"))
    return size


def validate_commands(commands: Any) -> None:
    """Raise FormError for the first thing Discord would refuse in a bulk overwrite body."""
    if not isinstance(commands, list):
        raise FormError((), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType.")
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            raise FormError(
                (i,), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
            )
        kind = command.get("type", 1)
        if isinstance(kind, bool) or kind not in COMMAND_TYPES:
            raise FormError(
                (i, "type"), "BASE_TYPE_CHOICES", f"Value must be one of {set(COMMAND_TYPES)}."
            )
        if kind == 1:
            name = _check_name(command.get("name"), (i, "name"))
            description = _check_description(command.get("description"), (i, "description"))
            size = len(name) + len(description)
            size += _check_options(command.get("options"), (i, "options"), "command")
            if size > COMMAND_SIZE_LIMIT:
                raise FormError(
                    (i,),
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_SIZE_LIMIT})",
                )
        else:  # context-menu commands: free-form names, no description, no options
            free_name = command.get("name")
            if not isinstance(free_name, str) or not 1 <= len(free_name) <= 32:
                raise _bad_length((i, "name"), 1, 32)
            name = free_name
            if command.get("description"):
                raise FormError(
                    (i, "description"),
                    "APPLICATION_COMMAND_INVALID_DESCRIPTION",
                    "Context menu commands cannot have description",
                )
            if command.get("options"):
                raise FormError(
                    (i, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Context menu commands cannot have options",
                )
        if (kind, name) in seen:
            raise FormError(
                (i, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        seen.add((kind, name))


# ---------------------------------------------------------------------------------------------
# Message bodies (follow-ups, edits, channel messages and interaction responses)


def message_problem(body: Any, *, creating: bool) -> tuple[int, dict[str, Any]] | None:
    """Discord's answer to a message body it refuses (status, JSON), or None when it is fine.

    `creating`: a new message must not be empty; an edit may change any subset of fields.
    """
    if not isinstance(body, dict):
        return 400, FormError(
            (), "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType"
        ).body()
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        return 400, FormError(
            ("content",), "BASE_TYPE_STRING", f'Could not interpret "{content}" as string.'
        ).body()
    if content is not None and _utf16_len(content) > MESSAGE_LIMIT:
        return 400, _too_many(("content",), MESSAGE_LIMIT).body()
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        return 400, _too_many(("embeds",), 10).body()
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in (("title", 256), ("description", 4096)):
            text = str(embed.get(key) or "")
            if len(text) > limit:
                return 400, _too_many(("embeds", i, key), limit).body()
            total += len(text)
        if len(embed.get("fields") or []) > 25:
            return 400, _too_many(("embeds", i, "fields"), 25).body()
        total += sum(
            len(str(f.get("name", ""))) + len(str(f.get("value", "")))
            for f in embed.get("fields") or []
        )
    if total > 6000:
        return 400, FormError(
            ("embeds",), "BASE_TYPE_MAX_LENGTH", "Embed size exceeds maximum size of 6000"
        ).body()
    flags = int(body.get("flags") or 0)
    components = body.get("components") or []
    if not flags & IS_COMPONENTS_V2:  # the classic layout: up to 5 rows of up to 5 components
        if len(components) > 5:
            return 400, _too_many(("components",), 5).body()
        for r, row in enumerate(components):
            inner = row.get("components") or []
            if row.get("type") != 1 or not 1 <= len(inner) <= 5:
                return 400, FormError(
                    ("components", r),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "An action row must hold 1 to 5 components",
                ).body()
            for c, component in enumerate(inner):
                custom_id = component.get("custom_id")
                if custom_id is not None and not 1 <= len(str(custom_id)) <= 100:
                    where = ("components", r, "components", c, "custom_id")
                    return 400, _bad_length(where, 1, 100).body()
                if len(str(component.get("label") or "")) > 80:
                    where = ("components", r, "components", c, "label")
                    return 400, _too_many(where, 80).body()
    mentions = body.get("allowed_mentions")
    if isinstance(mentions, dict):
        parse = mentions.get("parse") or []
        for kind in ("users", "roles"):
            if kind in parse and mentions.get(kind):
                return 400, FormError(
                    ("allowed_mentions",),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                ).body()
    if creating and not (
        content
        or embeds
        or components
        or body.get("attachments")
        or body.get("sticker_ids")
        or body.get("poll")
    ):
        return 400, {"message": "Cannot send an empty message", "code": 50006}
    return None


# ---------------------------------------------------------------------------------------------
# The API server


@dataclass(frozen=True)
class WebhookMessage:
    """A follow-up or an edit the service sent through an interaction's webhook."""

    app_id: str
    token: str
    body: dict[str, Any]
    message_id: str = ""  # the message created, or the one edited ("@original" or an id)

    @property
    def flags(self) -> int:
        return int(self.body.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Seen only by the user who interacted (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str | None:
        content: str | None = self.body.get("content")
        return content


@dataclass(frozen=True)
class ChannelMessage:
    """A message the bot posted in a channel with its token."""

    channel_id: str
    body: dict[str, Any]
    message_id: str = ""

    @property
    def content(self) -> str | None:
        content: str | None = self.body.get("content")
        return content


@dataclass
class DiscordApi:
    """What the service did to Discord's API; read the lists under `lock` or via `wait_for`.

    `plan` scripts the next requests' fate ("429": rate limited, "500": a server error) before
    requests are handled normally. Optional strictness, off by default: `application_id` (other
    applications' routes are refused as Discord refuses them), `known_channels` (others are
    "Unknown Channel"), and tokens registered by a linked Interactor (others are "Unknown
    Webhook").
    """

    url: str
    bot_token: str
    application_id: str | None = None
    known_channels: set[str] | None = None
    plan: list[str] = field(default_factory=list)
    commands: dict[tuple[str, str | None], list[dict[str, Any]]] = field(default_factory=dict)
    followups: list[WebhookMessage] = field(default_factory=list)
    edits: list[WebhookMessage] = field(default_factory=list)
    deletions: list[WebhookMessage] = field(default_factory=list)
    channel_messages: list[ChannelMessage] = field(default_factory=list)
    log: list[tuple[str, str, int]] = field(default_factory=list)  # (method, path, status)
    tokens: dict[str, tuple[str, str]] = field(default_factory=dict)  # token -> (app, channel)
    check_tokens: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def register_token(self, app_id: str, token: str, channel_id: str) -> None:
        """Known interaction tokens; once one is registered, unknown ones are refused."""
        with self.lock:
            self.tokens[token] = (app_id, channel_id)
            self.check_tokens = True

    def wait_for(self, kind: str, count: int, deadline_s: float = 10.0) -> list[Any]:
        """The recorded `kind` ("followups", "edits", "deletions", "channel_messages") once
        there are `count` of them, or whatever there is at the deadline (bounded wait)."""
        if kind not in ("followups", "edits", "deletions", "channel_messages"):
            raise ValueError(f"nothing is recorded as {kind!r}")
        deadline = time.monotonic() + deadline_s
        while True:
            with self.lock:
                items: list[Any] = list(getattr(self, kind))
            if len(items) >= count or time.monotonic() >= deadline:
                return items
            time.sleep(0.02)

    def command_id(self, name: str, app_id: str) -> str | None:
        """The id Discord gave the registered chat-input command `name`, if any."""
        with self.lock:
            for (app, _guild), registered in self.commands.items():
                for command in registered:
                    if app == app_id and command["name"] == name and command["type"] == 1:
                        return str(command["id"])
        return None


# (handler, path below /api/v10, methods, whether the bot's token is required)
ROUTES: tuple[tuple[str, re.Pattern[str], frozenset[str], bool], ...] = (
    (
        "commands",
        re.compile(r"^/applications/([^/]+)(?:/guilds/([^/]+))?/commands$"),
        frozenset({"GET", "PUT"}),
        True,
    ),
    ("webhook", re.compile(r"^/webhooks/([^/]+)/([^/]+)$"), frozenset({"POST"}), False),
    (
        "webhook_message",
        re.compile(r"^/webhooks/([^/]+)/([^/]+)/messages/(@original|[^/]+)$"),
        frozenset({"GET", "PATCH", "DELETE"}),
        False,
    ),
    ("channel_messages", re.compile(r"^/channels/([^/]+)/messages$"), frozenset({"POST"}), True),
)

NOT_FOUND = {"message": "404: Not Found", "code": 0}
UNAUTHORIZED = {"message": "401: Unauthorized", "code": 0}
UNKNOWN_WEBHOOK = {"message": "Unknown Webhook", "code": 10015}


class _Answer(Exception):
    """Ends a request early with Discord's answer."""

    def __init__(self, status: int, body: Any = None) -> None:
        super().__init__(status)
        self.status, self.body = status, body


def _api_handler(api: DiscordApi) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_: Any) -> None:  # quiet
            pass

        def _send(self, status: int, body: Any, headers: Mapping[str, str]) -> None:
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            if body is not None:
                self.send_header("Content-Type", "application/json")
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _handle(self, method: str) -> None:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            path = urlsplit(self.path).path
            headers: dict[str, str] = {}
            with api.lock:
                step = api.plan.pop(0) if api.plan else "ok"
            try:
                if step == "429":
                    headers = {"Retry-After": "1", "X-RateLimit-Scope": "user"}
                    raise _Answer(
                        429,
                        {
                            "message": "You are being rate limited.",
                            "retry_after": 0.3,
                            "global": False,
                        },
                    )
                if step == "500":
                    raise _Answer(500, {"message": "500: Internal Server Error", "code": 0})
                status, body = self._route(method, path, raw)
            except _Answer as answer:
                status, body = answer.status, answer.body
            except (AttributeError, TypeError, ValueError):  # a body of the wrong shape
                status, body = 400, {"message": "400: Bad Request", "code": 0}
            with api.lock:
                api.log.append((method, path, status))
            self._send(status, body, headers)

        def _route(self, method: str, path: str, raw: bytes) -> tuple[int, Any]:
            if not path.startswith(API_PREFIX + "/"):
                raise _Answer(404, NOT_FOUND)
            rest = path[len(API_PREFIX) :]
            for name, pattern, methods, needs_bot in ROUTES:
                match = pattern.match(rest)
                if match is None:
                    continue
                if method not in methods:
                    raise _Answer(405, {"message": "405: Method Not Allowed", "code": 0})
                if needs_bot:
                    self._authorize()
                ids = [g for g in match.groups() if g is not None and g != "@original"]
                for value in ids[:1] + ids[2:] if name.startswith("webhook") else ids:
                    if not _is_snowflake(value):
                        raise _Answer(
                            400,
                            FormError(
                                ("id",), "NUMBER_TYPE_COERCE", f'Value "{value}" is not snowflake.'
                            ).body(),
                        )
                handler = getattr(self, f"_{name}")
                result: tuple[int, Any] = handler(method, raw, *match.groups())
                return result
            raise _Answer(404, NOT_FOUND)

        def _authorize(self) -> None:
            if self.headers.get("Authorization") != f"Bot {api.bot_token}":
                raise _Answer(401, UNAUTHORIZED)

        def _json(self, raw: bytes) -> Any:
            try:
                return json.loads(raw)
            except ValueError:
                raise _Answer(
                    400, {"message": "The request body contains invalid JSON.", "code": 50109}
                ) from None

        def _own_application(self, app_id: str) -> None:
            if api.application_id is not None and app_id != api.application_id:
                raise _Answer(403, {"message": "Missing Access", "code": 50001})

        def _commands(
            self, method: str, raw: bytes, app_id: str, guild_id: str | None
        ) -> tuple[int, Any]:
            self._own_application(app_id)
            key = (app_id, guild_id)
            if method == "GET":
                with api.lock:
                    return 200, list(api.commands.get(key, []))
            body = self._json(raw)
            try:
                validate_commands(body)
            except FormError as error:
                raise _Answer(400, error.body()) from None
            if sum(1 for c in body if c.get("type", 1) == 1) > 100:
                raise _Answer(
                    400,
                    {
                        "message": "Maximum number of application commands reached (100)",
                        "code": 30032,
                    },
                )
            with api.lock:
                before = {(c["type"], c["name"]): c["id"] for c in api.commands.get(key, [])}
                stored = []
                for command in body:
                    kind = command.get("type", 1)
                    echoed = {
                        **command,
                        "id": before.get((kind, command["name"])) or snowflake(),
                        "application_id": app_id,
                        "version": snowflake(),
                        "type": kind,
                        "description": command.get("description", ""),
                        "default_member_permissions": command.get("default_member_permissions"),
                        "nsfw": command.get("nsfw", False),
                    }
                    if guild_id is not None:
                        echoed["guild_id"] = guild_id
                    stored.append(echoed)
                api.commands[key] = stored
            return 200, stored

        def _webhook_target(self, app_id: str, token: str) -> str:
            """The interaction's channel, refusing webhooks Discord would not know."""
            with api.lock:
                known = api.tokens.get(token)
                checking = api.check_tokens
            if checking and (known is None or known[0] != app_id):
                raise _Answer(404, UNKNOWN_WEBHOOK)
            if api.application_id is not None and app_id != api.application_id:
                raise _Answer(404, UNKNOWN_WEBHOOK)
            return known[1] if known else "0"

        def _message_body(self, raw: bytes, *, creating: bool) -> dict[str, Any]:
            body = self._json(raw)
            problem = message_problem(body, creating=creating)
            if problem is not None:
                raise _Answer(*problem)
            result: dict[str, Any] = body
            return result

        def _webhook(self, method: str, raw: bytes, app_id: str, token: str) -> tuple[int, Any]:
            channel_id = self._webhook_target(app_id, token)
            body = self._message_body(raw, creating=True)
            message_id = snowflake()
            with api.lock:
                api.followups.append(WebhookMessage(app_id, token, body, message_id))
            return 200, _message_object(message_id, channel_id, app_id, body)

        def _webhook_message(
            self, method: str, raw: bytes, app_id: str, token: str, message_id: str
        ) -> tuple[int, Any]:
            channel_id = self._webhook_target(app_id, token)
            if method == "GET":
                return 200, _message_object(message_id, channel_id, app_id, {})
            if method == "DELETE":
                with api.lock:
                    api.deletions.append(WebhookMessage(app_id, token, {}, message_id))
                return 204, None
            body = self._message_body(raw, creating=False)
            with api.lock:
                api.edits.append(WebhookMessage(app_id, token, body, message_id))
            shown_id = snowflake() if message_id == "@original" else message_id
            return 200, _message_object(shown_id, channel_id, app_id, body)

        def _channel_messages(self, method: str, raw: bytes, channel_id: str) -> tuple[int, Any]:
            if api.known_channels is not None and channel_id not in api.known_channels:
                raise _Answer(404, {"message": "Unknown Channel", "code": 10003})
            body = self._message_body(raw, creating=True)
            message_id = snowflake()
            with api.lock:
                api.channel_messages.append(ChannelMessage(channel_id, body, message_id))
            return 200, _message_object(message_id, channel_id, api.application_id, body)

        def do_GET(self) -> None:
            self._handle("GET")

        def do_POST(self) -> None:
            self._handle("POST")

        def do_PUT(self) -> None:
            self._handle("PUT")

        def do_PATCH(self) -> None:
            self._handle("PATCH")

        def do_DELETE(self) -> None:
            self._handle("DELETE")

    return Handler


def _now_iso() -> str:
    return datetime.now(UTC).isoformat()


def _message_object(
    message_id: str, channel_id: str, app_id: str | None, body: Mapping[str, Any]
) -> dict[str, Any]:
    """The message object Discord answers with (the fields a service may read)."""
    bot_id = app_id or DEFAULT_APPLICATION_ID
    return {
        "id": message_id,
        "type": 0,
        "channel_id": channel_id,
        "content": body.get("content", ""),
        "embeds": body.get("embeds", []),
        "components": body.get("components", []),
        "flags": int(body.get("flags") or 0),
        "author": {
            "id": bot_id,
            "username": "tablelog",
            "discriminator": "0",
            "bot": True,
            "global_name": None,
            "avatar": None,
        },
        "application_id": bot_id,
        "timestamp": _now_iso(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "attachments": [],
        "pinned": False,
    }


@contextmanager
def discord_api(
    bot_token: str = TEST_BOT_TOKEN,
    *,
    application_id: str | None = None,
    known_channels: set[str] | None = None,
) -> Iterator[DiscordApi]:
    """Discord's API on a free 127.0.0.1 port for the duration of the block."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    api = DiscordApi(
        url=f"http://127.0.0.1:{server.server_address[1]}{API_PREFIX}",
        bot_token=bot_token,
        application_id=application_id,
        known_channels=known_channels,
    )
    server.RequestHandlerClass = _api_handler(api)
    server.daemon_threads = True
    thread = threading.Thread(  # a short poll: shutdown() waits for it
        target=server.serve_forever, args=(0.05,), daemon=True
    )
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


# ---------------------------------------------------------------------------------------------
# Discord's side of an interaction


@dataclass(frozen=True)
class DiscordUser:
    """Who interacts. `global_name` is the display name; Discord sends null when none is set."""

    id: str
    username: str
    global_name: str | None = None
    roles: tuple[str, ...] = ()
    permissions: str = "0"

    def as_user(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "username": self.username,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "bot": False,
        }


@dataclass(frozen=True)
class Exchange:
    """One interaction sent and the service's answer, with how long Discord waited for it."""

    payload: dict[str, Any]
    status: int
    body: Any
    content_type: str
    elapsed_s: float


def _option(name: str, value: OptionValue) -> dict[str, Any]:
    """An option as the user filled it in, typed as Discord types it."""
    if isinstance(value, bool):
        kind = BOOLEAN
    elif isinstance(value, int):
        kind = INTEGER
    elif isinstance(value, float):
        kind = NUMBER
    else:
        kind = STRING
    return {"name": name, "type": kind, "value": value}


@dataclass
class Interactor:
    """Discord's side of an interaction, towards the service at `service_url`.

    It signs with its own key, as Discord signs with the application's; give the service
    `public_key_hex`. Linked to a DiscordApi (`api`), it registers every token it issues so the
    API refuses webhooks for unknown tokens, and uses the command id the API handed out.
    """

    service_url: str
    application_id: str = DEFAULT_APPLICATION_ID
    api: DiscordApi | None = None
    endpoint_path: str = "/discord/interactions"
    command_name: str = "tl"
    locale: str = "en-US"
    app_permissions: str = APP_PERMISSIONS
    key: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate, repr=False)
    exchanges: list[Exchange] = field(default_factory=list)

    @property
    def public_key_hex(self) -> str:
        """The 32-byte raw public key in hex: what Discord shows as the "Public Key"."""
        raw = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return raw.hex()

    @property
    def last(self) -> dict[str, Any]:
        """The payload sent most recently (its `token` addresses follow-ups)."""
        return self.exchanges[-1].payload

    def sign(self, timestamp: str, body: bytes) -> str:
        """Discord's X-Signature-Ed25519: the signature of timestamp + body, in hex."""
        return self.key.sign(timestamp.encode() + body).hex()

    # -- sending

    def post(
        self,
        payload: dict[str, Any],
        *,
        timestamp: str | None = None,
        sign: bool = True,
        signature: str | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, Any]:
        """POST an interaction as Discord does; (status, parsed JSON or None).

        `raw` replaces the body sent (and signed); `signature` replaces the good signature;
        `sign=False` sends neither signature header.
        """
        body = raw if raw is not None else json.dumps(payload, separators=(",", ":")).encode()
        stamp = timestamp if timestamp is not None else str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "User-Agent": "Discord-Interactions/1.0 (+https://discord.com)",
        }
        if sign:
            headers["X-Signature-Timestamp"] = stamp
            headers["X-Signature-Ed25519"] = (
                signature if signature is not None else self.sign(stamp, body)
            )
        started = time.monotonic()
        response = httpx.post(
            self.service_url.rstrip("/") + self.endpoint_path,
            content=body,
            headers=headers,
            timeout=10.0,
        )
        elapsed = time.monotonic() - started
        try:
            parsed: Any = response.json()
        except ValueError:
            parsed = None
        self.exchanges.append(
            Exchange(
                payload,
                response.status_code,
                parsed,
                response.headers.get("content-type", ""),
                elapsed,
            )
        )
        return response.status_code, parsed

    def verify_endpoint(self) -> list[str]:
        """Discord's check when the Interactions Endpoint URL is saved; problems, or [].

        A signed PING must be answered 200 `{"type": 1}`, and one with a bad signature 401.
        """
        problems = []
        status, body = self.post(self.ping())
        if status != 200 or not isinstance(body, dict) or body.get("type") != 1:
            problems.append(f"a signed PING was answered {status} {body!r}, not 200 PONG")
        bad = "0" * 128
        status, body = self.post(self.ping(), signature=bad)
        if status != 401:
            problems.append(f"a PING with a bad signature was answered {status}, not 401")
        return problems

    # -- payloads

    def _register(self, token: str, channel_id: str) -> None:
        if self.api is not None:
            self.api.register_token(self.application_id, token, channel_id)

    def _base(
        self, kind: int, user: DiscordUser, channel_id: str, guild_id: str | None
    ) -> dict[str, Any]:
        """The fields every user interaction carries, in a guild channel or the bot's DM."""
        interaction_id = snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)  # "interaction:" + opaque
        self._register(token, channel_id)
        payload: dict[str, Any] = {
            "id": interaction_id,
            "application_id": self.application_id,
            "type": kind,
            "token": token,
            "version": 1,
            "channel_id": channel_id,
            "locale": self.locale,
            "app_permissions": self.app_permissions,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild_id is not None:
            payload["channel"] = {
                "id": channel_id,
                "type": 0,
                "guild_id": guild_id,
                "name": "general",
                "flags": 0,
                "nsfw": False,
                "permissions": self.app_permissions,
            }
            payload["guild_id"] = guild_id
            payload["guild"] = {"id": guild_id, "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["context"] = 0
            payload["authorizing_integration_owners"] = {"0": guild_id}
            payload["member"] = {
                "user": user.as_user(),
                "roles": list(user.roles),
                "permissions": user.permissions,
                "nick": None,
                "avatar": None,
                "joined_at": "2024-01-01T00:00:00.000000+00:00",
                "deaf": False,
                "mute": False,
                "pending": False,
                "flags": 0,
                "premium_since": None,
                "communication_disabled_until": None,
            }
        else:
            payload["channel"] = {
                "id": channel_id,
                "type": 1,
                "flags": 0,
                "recipients": [user.as_user()],
            }
            payload["context"] = 1
            payload["authorizing_integration_owners"] = {"0": "0"}
            payload["user"] = user.as_user()
        return payload

    def _command_data(
        self, path: str, values: Mapping[str, OptionValue], focused: str | None = None
    ) -> dict[str, Any]:
        """`data` of a chat-input interaction for `/tl <path> <options>`."""
        leaf = [_option(name, value) for name, value in values.items()]
        if focused is not None:
            for option in leaf:
                if option["name"] == focused:
                    option["value"] = str(option["value"])  # the partial text, as typed
                    option["focused"] = True
                    break
            else:
                leaf.append({"name": focused, "type": STRING, "value": "", "focused": True})
        parts = path.split()
        if len(parts) > 2:
            raise ValueError(f"a path is a subcommand, or a group and a subcommand: {path!r}")
        options: list[dict[str, Any]] = leaf
        if parts:
            sub: dict[str, Any] = {"name": parts[-1], "type": SUB_COMMAND}
            if leaf:
                sub["options"] = leaf
            options = [sub]
            if len(parts) == 2:
                options = [{"name": parts[0], "type": SUB_COMMAND_GROUP, "options": options}]
        registered = (
            self.api.command_id(self.command_name, self.application_id) if self.api else None
        )
        data: dict[str, Any] = {
            "id": registered or _stable_id(self.command_name),
            "name": self.command_name,
            "type": 1,
        }
        if options:
            data["options"] = options
        return data

    def ping(self) -> dict[str, Any]:
        """Type 1 PING, what Discord sends to check the endpoint."""
        return {
            "id": snowflake(),
            "application_id": self.application_id,
            "type": 1,
            "token": "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96),
            "version": 1,
            "entitlements": [],
            "user": {
                "id": "643945264868098049",
                "username": "discord",
                "global_name": "Discord",
                "discriminator": "0000",
                "avatar": None,
                "public_flags": 1,
                "bot": True,
                "system": True,
            },
        }

    def command(
        self,
        user: DiscordUser,
        channel_id: str,
        path: str,
        opts: Mapping[str, OptionValue] | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        **options: OptionValue,
    ) -> dict[str, Any]:
        """Type 2 APPLICATION_COMMAND: `/tl <path>` with options (`opts` for names like
        "from-deck" that are not Python keywords); guild_id=None for the bot's DM."""
        payload = self._base(2, user, channel_id, guild_id)
        payload["data"] = self._command_data(path, {**(opts or {}), **options})
        return payload

    def autocomplete(
        self,
        user: DiscordUser,
        channel_id: str,
        path: str,
        focused: str,
        opts: Mapping[str, OptionValue] | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        **options: OptionValue,
    ) -> dict[str, Any]:
        """Type 4 APPLICATION_COMMAND_AUTOCOMPLETE while the user types option `focused`
        (its value in the options is the partial text; absent: nothing typed yet)."""
        payload = self._base(4, user, channel_id, guild_id)
        payload["data"] = self._command_data(path, {**(opts or {}), **options}, focused)
        return payload

    def _message(self, channel_id: str, message_id: str | None, flags: int) -> dict[str, Any]:
        return _message_object(
            message_id or snowflake(), channel_id, self.application_id, {"flags": flags}
        )

    def button(
        self,
        user: DiscordUser,
        channel_id: str,
        custom_id: str,
        message_id: str | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        message_flags: int = 0,
    ) -> dict[str, Any]:
        """Type 3 MESSAGE_COMPONENT: a click on a button of the bot's message."""
        payload = self._base(3, user, channel_id, guild_id)
        payload["data"] = {"custom_id": custom_id, "component_type": 2}
        payload["message"] = self._message(channel_id, message_id, message_flags)
        return payload

    def select(
        self,
        user: DiscordUser,
        channel_id: str,
        custom_id: str,
        values: list[str],
        message_id: str | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        message_flags: int = 0,
    ) -> dict[str, Any]:
        """Type 3 MESSAGE_COMPONENT: a choice in a string select menu of the bot's message."""
        payload = self._base(3, user, channel_id, guild_id)
        payload["data"] = {"custom_id": custom_id, "component_type": 3, "values": list(values)}
        payload["message"] = self._message(channel_id, message_id, message_flags)
        return payload

    def modal_submit(
        self,
        user: DiscordUser,
        channel_id: str,
        custom_id: str,
        values: Mapping[str, str],
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
    ) -> dict[str, Any]:
        """Type 5 MODAL_SUBMIT: one text input (type 4) per action row, as Discord sends."""
        payload = self._base(5, user, channel_id, guild_id)
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": name, "value": value}]}
            for name, value in values.items()
        ]
        payload["data"] = {"custom_id": custom_id, "components": rows}
        return payload

    # -- build and send

    def send_ping(self) -> tuple[int, Any]:
        return self.post(self.ping())

    def send_command(
        self,
        user: DiscordUser,
        channel_id: str,
        path: str,
        opts: Mapping[str, OptionValue] | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        **options: OptionValue,
    ) -> tuple[int, Any]:
        return self.post(self.command(user, channel_id, path, opts, guild_id=guild_id, **options))

    def send_autocomplete(
        self,
        user: DiscordUser,
        channel_id: str,
        path: str,
        focused: str,
        opts: Mapping[str, OptionValue] | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        **options: OptionValue,
    ) -> tuple[int, Any]:
        return self.post(
            self.autocomplete(user, channel_id, path, focused, opts, guild_id=guild_id, **options)
        )

    def send_button(
        self,
        user: DiscordUser,
        channel_id: str,
        custom_id: str,
        message_id: str | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        message_flags: int = 0,
    ) -> tuple[int, Any]:
        return self.post(
            self.button(
                user,
                channel_id,
                custom_id,
                message_id,
                guild_id=guild_id,
                message_flags=message_flags,
            )
        )

    def send_select(
        self,
        user: DiscordUser,
        channel_id: str,
        custom_id: str,
        values: list[str],
        message_id: str | None = None,
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
        message_flags: int = 0,
    ) -> tuple[int, Any]:
        return self.post(
            self.select(
                user,
                channel_id,
                custom_id,
                values,
                message_id,
                guild_id=guild_id,
                message_flags=message_flags,
            )
        )

    def send_modal_submit(
        self,
        user: DiscordUser,
        channel_id: str,
        custom_id: str,
        values: Mapping[str, str],
        *,
        guild_id: str | None = DEFAULT_GUILD_ID,
    ) -> tuple[int, Any]:
        return self.post(self.modal_submit(user, channel_id, custom_id, values, guild_id=guild_id))


_stable_ids: dict[str, str] = {}


def _stable_id(name: str) -> str:
    """One id per command name for the whole run, as Discord keeps a registered command's."""
    with _sequence_lock:
        if name not in _stable_ids:
            _stable_ids[name] = str(200000000000000000 + len(_stable_ids) + 1)
        return _stable_ids[name]


# ---------------------------------------------------------------------------------------------
# Would Discord accept the service's answer?

ALLOWED_RESPONSES = {  # interaction type -> response types Discord accepts for it
    1: {1},  # PING: PONG
    2: {4, 5, 9, 12},  # APPLICATION_COMMAND: message, deferred message, modal, launch activity
    3: {4, 5, 6, 7, 9},  # MESSAGE_COMPONENT: also deferred update and update message
    4: {8},  # AUTOCOMPLETE: choices only
    5: {4, 5, 6, 7},  # MODAL_SUBMIT: no modal in answer to a modal
}
RESPONSE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2


def response_problems(interaction: Mapping[str, Any], status: int, body: Any) -> list[str]:
    """Why Discord would show "This interaction failed" for this answer ([] when it would not).

    Checks the status, that the response type suits the interaction, and the response data's
    limits (message, autocomplete choices, modal).
    """
    if not 200 <= status < 300:
        return [f"status {status}"]
    if (
        not isinstance(body, dict)
        or isinstance(body.get("type"), bool)
        or not isinstance(body.get("type"), int)
    ):
        return [f"not a JSON object with an integer type: {body!r}"]
    kind, answer = interaction.get("type"), body["type"]
    if answer not in ALLOWED_RESPONSES.get(int(kind or 0), set()):
        return [f"response type {answer} is not allowed for interaction type {kind}"]
    data = body.get("data")
    if answer in (4, 7):
        if not isinstance(data, dict):
            return ["a message response needs data"]
        if int(data.get("flags") or 0) & ~RESPONSE_FLAGS:
            return [f"flags {data.get('flags')} are not allowed in a response"]
        if answer == 7 and "message" not in interaction:
            return ["UPDATE_MESSAGE answers only an interaction from a message"]
        problem = message_problem(data, creating=answer == 4)
        return [] if problem is None else [json.dumps(problem[1])]
    if answer == 5 and isinstance(data, dict) and int(data.get("flags") or 0) & ~EPHEMERAL:
        return [f"flags {data.get('flags')} are not allowed in a deferred response"]
    if answer == 8:
        choices = data.get("choices") if isinstance(data, dict) else None
        if not isinstance(choices, list):
            return ["an autocomplete response needs data.choices"]
        if len(choices) > 25:
            return [f"{len(choices)} autocomplete choices, at most 25"]
        for choice in choices:
            name, value = choice.get("name"), choice.get("value")
            if not isinstance(name, str) or not 1 <= len(name) <= 100:
                return [f"autocomplete choice name {name!r} is not 1-100 characters"]
            if isinstance(value, str) and not 1 <= len(value) <= 100:
                return [f"autocomplete choice value {value!r} is not 1-100 characters"]
    if answer == 9:
        if not isinstance(data, dict):
            return ["a modal needs data"]
        title, custom_id = str(data.get("title") or ""), str(data.get("custom_id") or "")
        rows = data.get("components") or []
        if not 1 <= len(title) <= 45:
            return [f"modal title {title!r} is not 1-45 characters"]
        if not 1 <= len(custom_id) <= 100:
            return [f"modal custom_id {custom_id!r} is not 1-100 characters"]
        if not 1 <= len(rows) <= 5:
            return [f"a modal holds 1 to 5 rows, not {len(rows)}"]
    return []
