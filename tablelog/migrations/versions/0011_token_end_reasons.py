"""Why each token stopped working: a page signed out by a re-issue says so on that device.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # NULL for every token revoked before: its refusal keeps the general sentence.
    with op.batch_alter_table("access_tokens") as batch:
        batch.add_column(sa.Column("revoked_why", sa.String(32), nullable=True))
        batch.add_column(sa.Column("revoked_seq", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("access_tokens") as batch:
        batch.drop_column("revoked_seq")
        batch.drop_column("revoked_why")
