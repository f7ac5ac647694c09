"""The HTTP and websocket layer: one FastAPI router per area, assembled by :mod:`hupai.server.app`."""
