"""rooms.invite_token, rooms.locked, rooms.watchers: rooms for invited people only

Revision ID: 0012
Revises: 0011

"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.add_column(sa.Column("invite_token", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("locked", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.add_column(
            sa.Column("watchers", sa.String(length=8), server_default="invited", nullable=False)
        )
    # Rooms made before invitations get a token of their own: a room waiting now is as closed to
    # strangers as a new one (its players and host are in already; they share the new link).
    rooms = sa.table("rooms", sa.column("id", sa.Integer), sa.column("invite_token", sa.String))
    connection = op.get_bind()
    missing = list(connection.scalars(sa.select(rooms.c.id).where(rooms.c.invite_token.is_(None))))
    for room_id in missing:
        token = secrets.token_urlsafe(16)
        connection.execute(rooms.update().where(rooms.c.id == room_id).values(invite_token=token))


def downgrade() -> None:
    with op.batch_alter_table("rooms", schema=None) as batch_op:
        batch_op.drop_column("watchers")
        batch_op.drop_column("locked")
        batch_op.drop_column("invite_token")
