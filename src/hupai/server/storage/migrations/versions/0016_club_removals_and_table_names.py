"""club_removals (who was taken out, and when), clubs.invite_made_at and rooms.club_rules_name (the
玩法 a club's table was opened from), issue 49

Revision ID: 0016
Revises: 0015

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "club_removals",
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("removed_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "user_id"),
    )
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invite_made_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("club_rules_name", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("club_rules_name")
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.drop_column("invite_made_at")
    op.drop_table("club_removals")
