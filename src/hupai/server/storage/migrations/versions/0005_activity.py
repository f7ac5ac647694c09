"""when players and waiting rooms were last active (for quotas and the cleanup)

Revision ID: 0005
Revises: 0004

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("seen_at", sa.DateTime(), nullable=True))
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("active_at", sa.DateTime(), nullable=True))
        batch.create_index("ix_rooms_host_status", ["host_id", "status"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_index("ix_rooms_host_status")
        batch.drop_column("active_at")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("seen_at")
