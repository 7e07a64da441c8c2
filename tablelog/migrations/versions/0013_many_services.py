"""Many services on one database: the limits they count together, and (PostgreSQL) a
notification for every committed append and revocation, so live feeds need no polling.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The channel and the payloads the services listen for (storage/listen.py): `e CAMPAIGN SEQ
# SCHEMA` when a campaign's head moves (an append, an import, a new campaign), `a CAMPAIGN
# SCHEMA` when one of its tokens stops working (the schema last: a channel is the whole
# database's, and several logs may share one in schemas of their own). A trigger, not the
# appending code: every writer tells, the CLI and an import too. PostgreSQL delivers a
# transaction's notifications at its commit only.
_FUNCTIONS = """
CREATE OR REPLACE FUNCTION tablelog_head_moved() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify(
        'tablelog', 'e ' || NEW.name || ' ' || NEW.head_seq || ' ' || TG_TABLE_SCHEMA);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE OR REPLACE FUNCTION tablelog_access_ended() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('tablelog', 'a ' || OLD.campaign_id || ' ' || TG_TABLE_SCHEMA);
    ELSIF NEW.revoked_at IS NOT NULL AND OLD.revoked_at IS NULL THEN
        PERFORM pg_notify('tablelog', 'a ' || NEW.campaign_id || ' ' || TG_TABLE_SCHEMA);
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER tablelog_head_moved AFTER INSERT OR UPDATE OF head_seq ON campaigns
    FOR EACH ROW EXECUTE FUNCTION tablelog_head_moved();
CREATE TRIGGER tablelog_access_ended AFTER UPDATE OF revoked_at OR DELETE ON access_tokens
    FOR EACH ROW EXECUTE FUNCTION tablelog_access_ended();
"""
_DROP = """
DROP TRIGGER IF EXISTS tablelog_access_ended ON access_tokens;
DROP TRIGGER IF EXISTS tablelog_head_moved ON campaigns;
DROP FUNCTION IF EXISTS tablelog_access_ended();
DROP FUNCTION IF EXISTS tablelog_head_moved();
"""


def upgrade() -> None:
    op.create_table(
        "limit_hits",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("subject", sa.String(64), nullable=False),
        sa.Column("at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_limit_hits"),
    )
    op.create_index("ix_limit_hits_kind_subject_at", "limit_hits", ["kind", "subject", "at"])
    op.create_table(
        "open_feeds",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("service", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_open_feeds"),
    )
    op.create_table(
        "feed_leases",
        sa.Column("service", sa.String(32), nullable=False),
        sa.Column("lease_until", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("service", name="pk_feed_leases"),
    )
    op.create_index("ix_open_feeds_token_hash", "open_feeds", ["token_hash"])
    op.create_index("ix_open_feeds_address", "open_feeds", ["address"])
    op.create_index("ix_open_feeds_service", "open_feeds", ["service"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_FUNCTIONS)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_DROP)
    op.drop_table("feed_leases")
    op.drop_index("ix_open_feeds_service", table_name="open_feeds")
    op.drop_index("ix_open_feeds_address", table_name="open_feeds")
    op.drop_index("ix_open_feeds_token_hash", table_name="open_feeds")
    op.drop_table("open_feeds")
    op.drop_index("ix_limit_hits_kind_subject_at", table_name="limit_hits")
    op.drop_table("limit_hits")
