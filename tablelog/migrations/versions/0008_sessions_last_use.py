"""When each web session was last used: the service ends sessions idle too long.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # NULL for every token issued before: a session's idle time then counts from its creation.
    with op.batch_alter_table("access_tokens") as batch:
        batch.add_column(sa.Column("last_used_at", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("access_tokens") as batch:
        batch.drop_column("last_used_at")
