"""The installable app (issue 47): the page, its web app manifest and its service worker.

The service worker keeps a copy of the app's shell — the page, its styles, scripts and icons — so that
an installed hupai opens with the network gone and says it is offline (the table itself is live only).
Its version is a digest of the shell's files, written into the worker's script: a new release changes
the script, the browser installs the new worker on the next load, and it replaces the old shell as a
whole (never a mix of two releases)."""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

router = APIRouter()

WEB = Path(__file__).parent.parent / "web"
SHELL_SUFFIXES = (".html", ".js", ".css", ".svg", ".png", ".webmanifest")
NO_CACHE = {"Cache-Control": "no-cache"}  # always asked again (answered from the cache offline)


def web_dir(request: Request) -> Path:
    """Where the page's files are: the package's, or the settings' ``web_dir`` (tests of a new build)."""
    folder: Path = getattr(request.app.state, "web", WEB)
    return folder


def shell_files(folder: Path) -> list[str]:
    """The URLs of the shell: the page (``/``), the manifest and every static file of the page."""
    found = sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file()
        and path.suffix in SHELL_SUFFIXES
        and path.name not in ("index.html", "sw.js", "manifest.webmanifest")
    )
    return ["/", "/manifest.webmanifest", *(f"/static/{name}" for name in found)]


def shell_version(folder: Path) -> str:
    """A digest of every shell file's name and bytes (recomputed only when one of them changed)."""
    stamps = tuple(
        (path.as_posix(), stat.st_mtime_ns, stat.st_size)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix in SHELL_SUFFIXES
        for stat in (path.stat(),)
    )
    return _digest(folder, stamps)


@lru_cache(maxsize=8)
def _digest(folder: Path, stamps: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for name, _mtime, _size in stamps:
        path = Path(name)
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@router.get("/", include_in_schema=False)
async def home(request: Request) -> FileResponse:
    """The browser client: one page of plain ES modules (no build step)."""
    return FileResponse(web_dir(request) / "index.html", headers=NO_CACHE)


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest(request: Request) -> FileResponse:
    """The web app manifest: what a phone needs to install hupai on its home screen."""
    return FileResponse(
        web_dir(request) / "manifest.webmanifest", media_type="application/manifest+json", headers=NO_CACHE
    )


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker, at the root so that it may serve the whole app, with this build's shell."""
    folder = web_dir(request)
    script = (folder / "sw.js").read_text(encoding="utf-8")
    script = script.replace('"__SHELL_VERSION__"', json.dumps(shell_version(folder)))
    script = script.replace('["__SHELL_FILES__"]', json.dumps(shell_files(folder)))
    return Response(script, media_type="text/javascript", headers=NO_CACHE)
