"""club_rules (a club's 玩法) and rooms.club_id (a club's tables), issue 49

Revision ID: 0015
Revises: 0014

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "club_rules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("card", sa.JSON(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["clubs.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_id", "name", name="uq_club_rules_club_name"),
    )
    op.create_index("ix_club_rules_club_id", "club_rules", ["club_id"])
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key("fk_rooms_club_id_clubs", "clubs", ["club_id"], ["id"])
        batch_op.create_index("ix_rooms_club_id", ["club_id"])


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_index("ix_rooms_club_id")
        batch_op.drop_constraint("fk_rooms_club_id_clubs", type_="foreignkey")
        batch_op.drop_column("club_id")
    op.drop_index("ix_club_rules_club_id", table_name="club_rules")
    op.drop_table("club_rules")
