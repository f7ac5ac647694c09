"""rooms.summary: a finished match's 大结算, kept with its room

Revision ID: 0013
Revises: 0012

"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A room reloaded (or its link opened again) after its match ended shows its result, whichever
    # process serves it and however long after: the summary is written with the match's end.
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("summary", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("summary")
