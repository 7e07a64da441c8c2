"""Discord's slash commands: the channel bound to each campaign, and one-time link codes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "discord_channels",
        sa.Column("channel_id", sa.String(20), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("bound_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name="fk_discord_channels_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("channel_id", name="pk_discord_channels"),
    )
    op.create_index("ix_discord_channels_campaign_id", "discord_channels", ["campaign_id"])
    op.create_table(
        "discord_codes",
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("made_by", sa.String(16), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name="fk_discord_codes_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("digest", name="pk_discord_codes"),
    )


def downgrade() -> None:
    op.drop_table("discord_codes")
    op.drop_index("ix_discord_channels_campaign_id", table_name="discord_channels")
    op.drop_table("discord_channels")
