"""Snapshots of folded state, so a command need not replay a campaign's whole log.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("projection", sa.String(100), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.LargeBinary(32), nullable=False),
        sa.Column("state", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name=op.f("fk_snapshots_campaign_id_campaigns")
        ),
        sa.PrimaryKeyConstraint("campaign_id", "projection", name=op.f("pk_snapshots")),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
