"""Players' contacts and the notices' outbox: the table tells a player it waits on them.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# SQLite only auto-increments an INTEGER PRIMARY KEY (the rowid alias), not a BIGINT one.
_POSITION = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "player_contacts",
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("discord_id", sa.String(20), nullable=True),
        sa.Column("email_sealed", sa.LargeBinary(), nullable=True),
        sa.Column("email_hint", sa.String(200), nullable=True),
        sa.Column("unsubscribed_at", sa.BigInteger(), nullable=True),
        sa.Column("updated_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name="fk_player_contacts_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("campaign_id", "player", name="pk_player_contacts"),
    )
    op.create_table(
        "notices",
        sa.Column("id", _POSITION, autoincrement=True, nullable=False),
        sa.Column("campaign_id", sa.String(64), nullable=False),
        sa.Column("player", sa.String(100), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("step_key", sa.String(64), nullable=False),
        sa.Column("sentence", sa.Text(), nullable=False),
        sa.Column("conflict", sa.String(64), nullable=True),
        sa.Column("since_seq", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("attempts", sa.Integer(), server_default="0", nullable=False),
        sa.Column("next_attempt_at", sa.BigInteger(), nullable=False),
        sa.Column("sent_at", sa.BigInteger(), nullable=True),
        sa.Column("dropped_at", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("unsubscribe_digest", sa.String(64), nullable=True),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["campaign_id"], ["campaigns.name"], name="fk_notices_campaign_id_campaigns"
        ),
        sa.PrimaryKeyConstraint("id", name="pk_notices"),
        sa.UniqueConstraint(
            "campaign_id",
            "player",
            "step_key",
            "since_seq",
            "channel",
            "number",
            name="uq_notices_campaign_id_player_step_key_since_seq_channel_number",
        ),
    )
    op.create_index(
        "ix_notices_sent_at_dropped_at_next_attempt_at",
        "notices",
        ["sent_at", "dropped_at", "next_attempt_at"],
    )
    op.create_index("ix_notices_unsubscribe_digest", "notices", ["unsubscribe_digest"])


def downgrade() -> None:
    op.drop_index("ix_notices_unsubscribe_digest", table_name="notices")
    op.drop_index("ix_notices_sent_at_dropped_at_next_attempt_at", table_name="notices")
    op.drop_table("notices")
    op.drop_table("player_contacts")
