"""The multiplayer server: private rooms, seats, bots, timers, reconnects and storage.

The only part of hupai that uses web and database libraries (FastAPI/Starlette, uvicorn,
SQLAlchemy + Alembic, pydantic, argon2). Start it with ``hupai serve``; see ``docs/protocol.md``.
"""
