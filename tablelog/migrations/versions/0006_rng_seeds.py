"""The server seeds of committed shuffles, kept beside the log until their reveal.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rng_seeds",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("request", sa.String(64), nullable=False),
        sa.Column("seed", sa.LargeBinary(32), nullable=False),
        sa.Column("committed_seq", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("conflict", sa.String(100), nullable=True),
        sa.Column("unretired", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["campaign_id"], ["campaigns.name"]),
        sa.PrimaryKeyConstraint("campaign_id", "request"),
    )


def downgrade() -> None:
    op.drop_table("rng_seeds")
