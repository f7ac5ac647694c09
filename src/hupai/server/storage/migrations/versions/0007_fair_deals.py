"""fair deals: each room's deal secret, and the players' contributions to each hand's wall

Revision ID: 0007
Revises: 0006

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rooms made before fair deals keep no secret (NULL): they go on dealing from their seed, so a game
    # in play when the server is upgraded resumes with the very same walls.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deal_secret", sa.String(length=64), nullable=True))
    op.create_table(
        "contributions",
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("hand_index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("value", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["room_id"], ["rooms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("room_id", "hand_index", "seat"),
    )


def downgrade() -> None:
    op.drop_table("contributions")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("deal_secret")
