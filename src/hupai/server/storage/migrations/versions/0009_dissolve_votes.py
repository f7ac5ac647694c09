"""dissolve_votes: the 解散 vote as players know it (who asked, each answer, a countdown, the result);
rooms.dissolve_seconds, the countdown; room_seats.wants_dissolve gives way to it

Revision ID: 0009
Revises: 0008

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("dissolve_seconds", sa.Integer(), nullable=False, server_default=sa.text("60"))
        )
    op.create_table(
        "dissolve_votes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False),
        sa.Column("asked_by", sa.Integer(), nullable=False),
        sa.Column("hand_index", sa.Integer(), nullable=False),
        sa.Column("after_move", sa.Integer(), nullable=False),
        sa.Column("answers", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=False),
        sa.Column("result", sa.String(10), nullable=True),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_dissolve_votes_room_id", "dissolve_votes", ["room_id"])
    # A vote in progress when this runs was a set of flags; it is dropped (its players ask again).
    with op.batch_alter_table("room_seats", schema=None) as batch_op:
        batch_op.drop_column("wants_dissolve")


def downgrade() -> None:
    with op.batch_alter_table("room_seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("wants_dissolve", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.drop_index("ix_dissolve_votes_room_id", table_name="dissolve_votes")
    op.drop_table("dissolve_votes")
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("dissolve_seconds")
