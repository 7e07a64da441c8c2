"""Kinds of access token: bearer tokens, one-use sign-in links, browser sessions.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every token issued before is a bearer token.
    with op.batch_alter_table("access_tokens") as batch:
        batch.add_column(sa.Column("kind", sa.String(16), nullable=False, server_default="token"))


def downgrade() -> None:
    with op.batch_alter_table("access_tokens") as batch:
        batch.drop_column("kind")
