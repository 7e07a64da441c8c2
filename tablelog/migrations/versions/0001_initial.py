"""The first schema: campaigns with their heads, the event log, access tokens.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "campaigns",
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("head_seq", sa.BigInteger(), nullable=False),
        sa.Column("head_hash", sa.LargeBinary(32), nullable=False),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_campaigns")),
    )
    op.create_table(
        "events",
        sa.Column("position", _POSITION, autoincrement=True, nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("event_id", sa.String(36), nullable=False),
        sa.Column("type", sa.String(100), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("recorded_at", sa.BigInteger(), nullable=False),
        sa.Column("payload", sa.LargeBinary(), nullable=False),
        sa.Column("prev_hash", sa.LargeBinary(32), nullable=False),
        sa.Column("hash", sa.LargeBinary(32), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name=op.f("fk_events_campaign_id_campaigns")
        ),
        sa.PrimaryKeyConstraint("position", name=op.f("pk_events")),
        sa.UniqueConstraint("campaign_id", "seq", name=op.f("uq_events_campaign_id_seq")),
        sa.UniqueConstraint("event_id", name=op.f("uq_events_event_id")),
    )
    op.create_table(
        "access_tokens",
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("revoked_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"],
            ["campaigns.name"],
            name=op.f("fk_access_tokens_campaign_id_campaigns"),
        ),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_access_tokens")),
    )
    op.create_index(
        op.f("ix_access_tokens_campaign_id_player"),
        "access_tokens",
        ["campaign_id", "player"],
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_access_tokens_campaign_id_player"), table_name="access_tokens")
    op.drop_table("access_tokens")
    op.drop_table("events")
    op.drop_table("campaigns")
