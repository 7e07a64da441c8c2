"""Webhooks and their durable outbox.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# SQLite only auto-increments an INTEGER PRIMARY KEY (the rowid alias), not a BIGINT one.
_POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "webhooks",
        sa.Column("id", sa.String(16), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("triggers", sa.String(64), nullable=False),
        sa.Column("url_sealed", sa.LargeBinary(), nullable=False),
        sa.Column("url_hint", sa.String(200), nullable=False),
        sa.Column("secret_sealed", sa.LargeBinary(), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("failing_since", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("disabled_at", sa.BigInteger(), nullable=True),
        sa.Column("disabled_reason", sa.String(300), nullable=True),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name="fk_webhooks_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_webhooks"),
    )
    op.create_index("ix_webhooks_campaign_id", "webhooks", ["campaign_id"])
    op.create_table(
        "outbox",
        sa.Column("id", _POSITION, autoincrement=True, nullable=False),
        sa.Column("webhook_id", sa.String(16), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("trigger", sa.String(16), nullable=False),
        sa.Column("parts_sent", sa.Integer(), server_default="0", nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("next_attempt_at", sa.BigInteger(), nullable=False),
        sa.Column("sent_at", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name="fk_outbox_campaign_id_campaigns"
        ),
        sa.ForeignKeyConstraint(
            ["webhook_id"], ["webhooks.id"], name="fk_outbox_webhook_id_webhooks"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_outbox"),
    )
    op.create_index("ix_outbox_webhook_id_sent_at_id", "outbox", ["webhook_id", "sent_at", "id"])


def downgrade() -> None:
    op.drop_index("ix_outbox_webhook_id_sent_at_id", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_webhooks_campaign_id", table_name="webhooks")
    op.drop_table("webhooks")
