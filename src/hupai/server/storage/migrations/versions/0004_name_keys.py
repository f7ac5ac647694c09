"""registered names are unique by their look-alike key

Revision ID: 0004
Revises: 0003

``users.login`` held the case-folded name; it now holds :func:`hupai.server.names.name_key`, so the
unique constraint refuses ``Аlice`` (Cyrillic А) beside ``alice``. Two accounts registered before
this whose names now share a key: the older keeps the key; the newer (the likely impostor) gets a
login no name produces (``<id>key``) and can no longer log in by name.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from hupai.server.names import name_key

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users") as batch:
        batch.alter_column("login", type_=sa.String(length=64), existing_nullable=True)
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name"), sa.column("login"))
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(users.c.id, users.c.name).where(users.c.login.is_not(None)).order_by(users.c.id)
    ).all()
    # Two passes, so that no key is written while another row still holds it as its old login.
    for row_id, _name in rows:
        connection.execute(users.update().where(users.c.id == row_id).values(login=f"<{row_id}>"))
    seen: set[str] = set()
    for row_id, name in rows:
        key = name_key(name)
        login = key if key not in seen else f"<{row_id}>{key}"[:64]
        seen.add(key)
        connection.execute(users.update().where(users.c.id == row_id).values(login=login))


def downgrade() -> None:
    users = sa.table("users", sa.column("id", sa.Integer), sa.column("name"), sa.column("login"))
    connection = op.get_bind()
    rows = connection.execute(sa.select(users.c.id, users.c.name).where(users.c.login.is_not(None))).all()
    for row_id, name in rows:
        connection.execute(users.update().where(users.c.id == row_id).values(login=str(name).casefold()))
    with op.batch_alter_table("users") as batch:
        batch.alter_column("login", type_=sa.String(length=32), existing_nullable=True)
