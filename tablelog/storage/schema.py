"""The tables, described once: Alembic revisions are checked against this MetaData.

`payload` is a binary column, never JSON/JSONB, because the hash covers the exact bytes and
a JSON column would reorder keys. Hashes are stored as their 32 raw bytes.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING_CONVENTION)

# SQLite only auto-increments an INTEGER PRIMARY KEY (the rowid alias), not a BIGINT one.
Position = BigInteger().with_variant(Integer(), "sqlite")

campaigns = Table(
    "campaigns",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("head_seq", BigInteger, nullable=False),
    Column("head_hash", LargeBinary(32), nullable=False),
    Column("updated_at", BigInteger, nullable=False),
)

events = Table(
    "events",
    metadata,
    Column("position", Position, primary_key=True, autoincrement=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("seq", BigInteger, nullable=False),
    Column("event_id", String(36), nullable=False),
    Column("type", String(100), nullable=False),
    Column("schema_version", Integer, nullable=False),
    Column("actor", String(100), nullable=False),
    Column("recorded_at", BigInteger, nullable=False),
    Column("payload", LargeBinary, nullable=False),
    Column("prev_hash", LargeBinary(32), nullable=False),
    Column("hash", LargeBinary(32), nullable=False),
    UniqueConstraint("campaign_id", "seq"),
    UniqueConstraint("event_id"),
)

# Service access: tokens are secrets, so they live beside the log, never in it (the log is
# exported to forums), and only their SHA-256 digests are kept.
access_tokens = Table(
    "access_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("player", String(100), nullable=False),
    Column("role", String(16), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("revoked_at", BigInteger, nullable=True),
    # `token`: a bearer token (the CLI, scripts); `link`: a sign-in link's token, good for
    # one trade for a browser session and nothing else; `session`: a browser's session,
    # held in an HttpOnly cookie. All stored as digests; `revoke` ends each kind at once.
    Column("kind", String(16), nullable=False, server_default="token"),
    # A session's last request as last recorded (microseconds UTC; written at most once a
    # minute, commands/access.py's SessionPolicy): the service ends a session idle too long.
    # NULL for other kinds, and for sessions of before revision 0008 (then created_at counts).
    Column("last_used_at", BigInteger, nullable=True),
    # Why it stopped working (revision 0010; NULL while live, and for tokens revoked before):
    # `reissued-gm`, `revoked-operator`, `ended-self`, `signed-out`, ... (commands/ended.py),
    # and the seq of the event that says so in the log, if one does. A page signed out by a
    # re-issue tells its reader why.
    Column("revoked_why", String(32), nullable=True),
    Column("revoked_seq", BigInteger, nullable=True),
    Index(None, "campaign_id", "player"),
)

# The service's own tokens, which belong to no campaign: the server admin's, who may create
# campaigns through the service (`tablelog serve` prints one on its first start; `tablelog
# admin-token` replaces it). Digests only, as for access tokens; `role` is `admin`.
service_tokens = Table(
    "service_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("role", String(16), nullable=False),
    Column("created_at", BigInteger, nullable=False),
    Column("revoked_at", BigInteger, nullable=True),
    # As for access tokens: `token`, the admin's bearer token; `link`, a one-use sign-in
    # link for the admin page (`serve` prints one), traded once for a `session`, a browser's
    # HttpOnly cookie scoped to /admin (commands/admin_web.py). Revision 0010.
    Column("kind", String(16), nullable=False, server_default="token"),
    Column("last_used_at", BigInteger, nullable=True),  # a session's last use, as recorded
)

# A write through the service with an Idempotency-Key: a retry of the same request by the same
# caller gets this stored response instead of a second decision (written in the transaction
# that appends the events, so a response is remembered exactly when its events exist).
idempotency = Table(
    "idempotency",
    metadata,
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), primary_key=True),
    Column("caller", String(64), primary_key=True),  # the caller's token hash
    Column("key", String(200), primary_key=True),
    Column("request", String(64), nullable=False),  # SHA-256 of method, path and body
    Column("status", Integer, nullable=False),
    Column("response", LargeBinary, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

# A campaign's folded state at a seq, per projection (`ruleset:version`): a cache that spares
# a command the replay of the whole log. Never trusted for history: the audit, replay, export
# and verify read the events; a snapshot whose seq and hash no longer match the log is ignored.
snapshots = Table(
    "snapshots",
    metadata,
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), primary_key=True),
    Column("projection", String(100), primary_key=True),
    Column("seq", BigInteger, nullable=False),
    Column("hash", LargeBinary(32), nullable=False),  # the hash of the event at seq
    Column("state", LargeBinary, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

# The server seeds of committed shuffles (events/rng.py): only their commitments are in the
# log until the reveal, so they live here, beside it, never in an export. `committed_seq` is
# the seq of the request's rng.committed event; `state` is open (awaiting contributions),
# drawn (its command ran), held (it ran and dealt hidden cards: revealed once every one of
# its shuffles was shuffled again) or revealed (the seed is in the log too).
rng_seeds = Table(
    "rng_seeds",
    metadata,
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), primary_key=True),
    Column("request", String(64), primary_key=True),
    Column("seed", LargeBinary(32), nullable=False),
    Column("committed_seq", BigInteger, nullable=False),
    Column("state", String(16), nullable=False),
    Column("conflict", String(100), nullable=True),  # set when drawn: what ends its secrecy
    # Held: the card lists of its draws no later draw has shuffled again yet (JSON).
    Column("unretired", Text, nullable=True),
)

# Webhooks: where a campaign's posts go (Discord or a generic JSON receiver). The URL and the
# HMAC secret are secrets, so they are kept encrypted (Fernet, with a key beside the
# database, never in it) and only `url_hint`, a redacted form, is ever shown again.
webhooks = Table(
    "webhooks",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("format", String(16), nullable=False),  # discord or json
    Column("triggers", String(64), nullable=False),  # e.g. "reveal,close,session"
    Column("url_sealed", LargeBinary, nullable=False),
    Column("url_hint", String(200), nullable=False),
    Column("secret_sealed", LargeBinary, nullable=True),  # json only: the HMAC key
    Column("created_at", BigInteger, nullable=False),
    Column("failing_since", BigInteger, nullable=True),
    Column("last_error", String(300), nullable=True),
    Column("disabled_at", BigInteger, nullable=True),
    Column("disabled_reason", String(300), nullable=True),
    Index(None, "campaign_id"),
)

# What is still to be posted: one row per matching webhook per post, written in the
# transaction that appends the events it posts (so a restart loses none), sent in `id` order
# per webhook. A Discord post is several messages: `parts_sent` says how many went out, so
# a retry after a crash never sends one twice.
outbox = Table(
    "outbox",
    metadata,
    Column("id", Position, primary_key=True, autoincrement=True),
    Column("webhook_id", String(16), ForeignKey("webhooks.id"), nullable=False),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("first_seq", BigInteger, nullable=False),  # the command's first event
    Column("seq", BigInteger, nullable=False),  # its last: the event that made the post due
    Column("trigger", String(16), nullable=False),  # reveal, close or session
    Column("parts_sent", Integer, nullable=False, server_default="0"),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_attempt_at", BigInteger, nullable=False),
    Column("sent_at", BigInteger, nullable=True),
    Column("created_at", BigInteger, nullable=False),
    Index(None, "webhook_id", "sent_at", "id"),
)

# How to reach each player when the table waits on them (issue 28): beside the log, never in
# it (the log is exported and posted). `player` is the seat's key (`gm` for the GM). The
# address is sealed like a webhook's URL (commands/webhooks.py), with a redacted hint.
player_contacts = Table(
    "player_contacts",
    metadata,
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), primary_key=True),
    Column("player", String(100), primary_key=True),
    Column("discord_id", String(20), nullable=True),
    Column("email_sealed", LargeBinary, nullable=True),
    Column("email_hint", String(200), nullable=True),
    Column("unsubscribed_at", BigInteger, nullable=True),
    Column("updated_at", BigInteger, nullable=False),
)

# Discord (issue 30): the channel bound to each campaign, where its slash commands act (one
# campaign per channel), and the one-time codes a player trades with `/tl link CODE` for
# their seat's Discord user (kept in `player_contacts.discord_id`). A code is kept only as
# its digest, like every token.
discord_channels = Table(
    "discord_channels",
    metadata,
    Column("channel_id", String(20), primary_key=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("bound_at", BigInteger, nullable=False),
    Index(None, "campaign_id"),
)

discord_codes = Table(
    "discord_codes",
    metadata,
    Column("digest", String(64), primary_key=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("player", String(100), nullable=False),
    Column("made_by", String(16), nullable=False),  # gm, player or operator: said when used
    Column("expires_at", BigInteger, nullable=False),
    Column("created_at", BigInteger, nullable=False),
)

# Turn notices and reminders still to be sent, one row per await, channel and number, written
# in the transaction that began the await (a turn notice) or by the sender (a reminder); the
# unique constraint makes each exactly once, a restart included. `channel` is a webhook's id
# or `mail`; `number` 0 for the turn notice, 1.. for its reminders; `step_key` the digest of
# the await's key. A mail's one-click unsubscribe link carries a random token whose digest
# only is kept (`unsubscribe_digest`).
notices = Table(
    "notices",
    metadata,
    Column("id", Position, primary_key=True, autoincrement=True),
    Column("campaign_id", String(64), ForeignKey("campaigns.name"), nullable=False),
    Column("player", String(100), nullable=False),
    Column("channel", String(16), nullable=False),
    Column("kind", String(16), nullable=False),  # turn or reminder
    Column("step_key", String(64), nullable=False),
    Column("sentence", Text, nullable=False),
    Column("conflict", String(64), nullable=True),
    Column("since_seq", BigInteger, nullable=False),
    Column("number", Integer, nullable=False),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_attempt_at", BigInteger, nullable=False),
    Column("sent_at", BigInteger, nullable=True),
    Column("dropped_at", BigInteger, nullable=True),
    Column("last_error", String(300), nullable=True),
    Column("unsubscribe_digest", String(64), nullable=True),
    Column("created_at", BigInteger, nullable=False),
    UniqueConstraint("campaign_id", "player", "step_key", "since_seq", "channel", "number"),
    Index(None, "sent_at", "dropped_at", "next_attempt_at"),
    Index(None, "unsubscribe_digest"),
)

# What several services on one database must count together (revision 0013): a failed
# sign-in or a campaign created, per client address (`kind` `sign-in` or `campaign`), kept
# for the limit's window (http/throttle.py) ...
limit_hits = Table(
    "limit_hits",
    metadata,
    Column("id", Position, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),
    Column("subject", String(64), nullable=False),
    Column("at", BigInteger, nullable=False),
    Index(None, "kind", "subject", "at"),
)

# ... and the live feeds open now, per token digest and address, each held by one service,
# which holds a lease (`feed_leases`, one row per service) and renews it while it runs: the
# feeds of a service that died stop counting when its lease runs out (http/feeds.py).
open_feeds = Table(
    "open_feeds",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("service", String(32), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("address", String(64), nullable=False),
    Index(None, "token_hash"),
    Index(None, "address"),
    Index(None, "service"),
)
feed_leases = Table(
    "feed_leases",
    metadata,
    Column("service", String(32), primary_key=True),
    Column("lease_until", BigInteger, nullable=False),
)
