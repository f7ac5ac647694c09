"""rooms.next_hand_seconds: the pause between hands, a room setting

Revision ID: 0002
Revises: 0001

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rooms made before this setting existed get the new default.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("next_hand_seconds", sa.Integer(), nullable=False, server_default=sa.text("15"))
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("next_hand_seconds")
