"""Opening the log, choosing the campaign, and the schema commands (`db upgrade/current`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import msgspec

from tablelog import rulesets
from tablelog.errors import NotFound, SchemaMismatch
from tablelog.migrations import HEAD
from tablelog.rules.names import campaign_name
from tablelog.storage import DEFAULT_TARGET, EventStore, open_store
from tablelog.storage import migrate as _migrate
from tablelog.storage.engine import POOL_MOST

__all__ = [
    "DEFAULT_TARGET",
    "POOL_MOST",
    "EventStore",
    "Revision",
    "current",
    "open_store",
    "opened",
    "resolve_campaign",
    "upgrade",
]


class Revision(msgspec.Struct, frozen=True, kw_only=True):
    database: str
    revision: str | None
    head: str

    @property
    def is_current(self) -> bool:
        return self.revision == self.head

    @property
    def is_newer(self) -> bool:
        """Written by a newer tablelog: a revision this one does not know."""
        return self.revision is not None and self.revision not in _migrate.known_revisions()


@contextmanager
def opened(
    target: str | EventStore, *, create: bool = False, check_schema: bool = True
) -> Iterator[EventStore]:
    """The log at `target` for the length of one command; see `tablelog.storage.open_store`.

    An already open store (the what-if scratch copy) is used as it is and left open."""
    if isinstance(target, EventStore):
        yield target
        return
    store = open_store(target, create=create, check_schema=check_schema)
    try:
        yield store
    finally:
        store.close()


def upgrade(target: str | EventStore) -> Revision:
    """Migrate the database at `target` to this tablelog's newest revision."""
    with opened(target, create=True, check_schema=False) as store:
        found = Revision(
            database=store.label, revision=_migrate.current_revision(store.engine), head=HEAD
        )
        if found.is_newer:
            raise SchemaMismatch(
                f"{store.label} is at schema revision {found.revision}, which this tablelog "
                f"(newest {HEAD}) does not know; it was written by a newer tablelog: upgrade "
                "tablelog itself, not the database"
            )
        reached = _migrate.upgrade(store.engine)
        return Revision(database=store.label, revision=reached, head=HEAD)


def current(target: str | EventStore) -> Revision:
    with opened(target, check_schema=False) as store:
        revision = _migrate.current_revision(store.engine)
        return Revision(database=store.label, revision=revision, head=HEAD)


def resolve_campaign(store: EventStore, given: str | None) -> str:
    """The campaign named by --campaign / TABLELOG_CAMPAIGN, or the only one there is."""
    if given is not None:
        name = campaign_name(given)
        if store.head(name) is None:
            raise NotFound(f"there is no campaign {given!r} in {store.label}")
        return name
    names = [c.name for c in store.campaigns()]
    if len(names) == 1:
        return names[0]
    if not names:
        raise NotFound(
            f"{store.label} holds no campaign yet; "
            f"`tablelog campaign create NAME --ruleset {rulesets.names()[0]}` starts one",
            code="no-campaign",
        )
    raise NotFound(
        f"{store.label} holds {len(names)} campaigns ({', '.join(names)}); "
        "name one with --campaign or TABLELOG_CAMPAIGN",
        code="campaign-required",
    )
