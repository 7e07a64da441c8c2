"""Kinds of service token: the admin's bearer token, its one-use sign-in links for the
admin page, and the browser sessions they are traded for (with their last use, as for a
campaign's sessions).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every service token issued before is a bearer token (the admin token), and stays one.
    with op.batch_alter_table("service_tokens") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="token"))
        batch.add_column(sa.Column("last_used_at", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("service_tokens") as batch:
        batch.drop_column("last_used_at")
        batch.drop_column("kind")
