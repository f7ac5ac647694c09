"""rooms.bot_pace: how long the room's bots seem to think (quick, natural, relaxed)

Revision ID: 0010
Revises: 0009

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rooms made before this setting existed get the natural pace.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bot_pace", sa.String(10), nullable=False, server_default=sa.text("'natural'"))
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("bot_pace")
