"""Errors a user may meet: each carries a stable code and one sentence.

The sentence names the rule, the value given and the value allowed, so the CLI can print
`code: sentence` and the HTTP service can return the same pair as JSON. Nothing here carries
a driver exception: storage translates those before they leave it.
"""

from __future__ import annotations


class TablelogError(Exception):
    """A refusal the user can act on: nothing was written."""

    code: str = "error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class RuleViolation(TablelogError):
    """A rule of the campaign's ruleset forbids the action."""

    code = "rule-violation"


class InvalidInput(TablelogError):
    """The input is malformed: a bad name, option, card code or file line."""

    code = "invalid-input"


class NotFound(TablelogError):
    """A named campaign, conflict, player or event does not exist."""

    code = "not-found"


class AlreadyExists(TablelogError):
    """A name that must be unique is already taken."""

    code = "already-exists"


class ConcurrencyConflict(TablelogError):
    """The campaign moved on since the caller read it (optimistic concurrency)."""

    code = "concurrency-conflict"

    def __init__(self, message: str, *, expected: int, actual: int) -> None:
        super().__init__(message)
        self.expected = expected
        self.actual = actual


class DuplicateEventId(TablelogError):
    """An event id is reused with a different payload: a retry must be byte-identical."""

    code = "event-id-reused"


class StorageError(TablelogError):
    """The database cannot be opened, read or written."""

    code = "storage"


# What a client of the service (HTTP, the page, Discord) is told when the database fails: the
# error's own sentence names the database (host, user, name), which is the operator's
# business and goes to the service's log instead.
DATABASE_FAILED = (
    "the service's database failed or cannot be reached; try again in a moment (the "
    "service's log says why)"
)


def for_clients(exc: TablelogError) -> str:
    """The sentence a remote client gets for `exc`."""
    return DATABASE_FAILED if isinstance(exc, StorageError) else exc.message


class SchemaMismatch(StorageError):
    """The database schema is not the revision this tablelog expects."""

    code = "schema-revision"


class DamagedDatabase(StorageError):
    """The database file itself is corrupt: `verify` reports this as a broken log."""

    code = "damaged-database"


class Unauthenticated(TablelogError):
    """The service does not know the access token (or it was revoked): HTTP 401."""

    code = "unknown-token"


class TooManyFailures(TablelogError):
    """Too many failed sign-ins (or campaigns created) from one address: HTTP 429, with the
    seconds to wait."""

    code = "too-many-failures"

    def __init__(self, message: str, *, retry_after: int, code: str | None = None) -> None:
        super().__init__(message, code=code)
        self.retry_after = retry_after


class TooManyFeeds(TablelogError):
    """Too many live feeds open at once for one access token or one address: HTTP 429 (no
    wait to name: a slot frees when one of them closes)."""

    code = "too-many-feeds"


class Forbidden(TablelogError):
    """The caller is known but may not do this (another player's character, an observer
    writing, a player running the GM's part): HTTP 403."""

    code = "forbidden"
