"""clubs, club_members: 亲友圈, standing groups of players (issue 49)

Revision ID: 0014
Revises: 0013

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("number", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=False),
        sa.Column("invite_token", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["owner_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("number"),
    )
    op.create_index("ix_clubs_owner_id", "clubs", ["owner_id"])
    op.create_table(
        "club_members",
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=8), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("club_id", "user_id"),
    )
    op.create_index("ix_club_members_user_id", "club_members", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_club_members_user_id", table_name="club_members")
    op.drop_table("club_members")
    op.drop_index("ix_clubs_owner_id", table_name="clubs")
    op.drop_table("clubs")
