"""rooms.claim_seconds: the pause after every discard, a room setting

Revision ID: 0006
Revises: 0005

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Rooms made before this setting existed get the new default.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("claim_seconds", sa.Float(), nullable=False, server_default=sa.text("0.6"))
        )


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("claim_seconds")
