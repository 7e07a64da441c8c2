"""Remembered responses for the service's Idempotency-Key.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "idempotency",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("caller", sa.String(64), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("request", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("response", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name=op.f("fk_idempotency_campaign_id_campaigns")
        ),
        sa.PrimaryKeyConstraint("campaign_id", "caller", "key", name=op.f("pk_idempotency")),
    )


def downgrade() -> None:
    op.drop_table("idempotency")
