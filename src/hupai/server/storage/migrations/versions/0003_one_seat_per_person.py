"""one seat per person in a room, and why a room was closed

Revision ID: 0003
Revises: 0002

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rooms from before the index where a race seated one person twice keep their lowest seat.
    op.execute(
        "UPDATE room_seats SET user_id = NULL, ready = false WHERE user_id IS NOT NULL AND seat > "
        "(SELECT MIN(other.seat) FROM room_seats AS other "
        "WHERE other.room_id = room_seats.room_id AND other.user_id = room_seats.user_id)"
    )
    with op.batch_alter_table("room_seats", schema=None) as batch_op:
        batch_op.create_index("uq_room_seats_room_user", ["room_id", "user_id"], unique=True)
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("closed_reason", sa.String(length=200), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("closed_reason")
    with op.batch_alter_table("room_seats", schema=None) as batch_op:
        batch_op.drop_index("uq_room_seats_room_user")
