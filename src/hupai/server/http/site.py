"""The page itself and what needs no account: health, the rule sets' cards, the score calculator
(算分器) and a room's invitation QR code."""

from __future__ import annotations

import functools
import io
import re
from pathlib import Path
from typing import Any, Literal

import segno
from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from hupai import __version__
from hupai.calculator import WinSpec, error_details, score_win
from hupai.rules import load_ruleset, presets
from hupai.rules.labels import option_labels
from hupai.rules.options import option_range
from hupai.server.errors import BadRequest
from hupai.server.http.deps import RoomDep
from hupai.server.schemas import RuleCardOut, ScoreIn
from hupai.server.settings import Settings
from hupai.server.storage.outputs import rule_card

WEB = Path(__file__).parent.parent / "web"
MAX_INVITE_HOST = 100  # characters of host[:port] in an invitation link (bounds the QR code's size)
HOST_PATTERN = re.compile(r"(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?")
QR_SCALE = 4  # pixels per module: about 130-200 px wide

router = APIRouter()


@router.get("/", include_in_schema=False)
async def home() -> FileResponse:
    """The browser client: one page of plain ES modules (no build step)."""
    return FileResponse(WEB / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/api/health")
async def health() -> dict[str, Any]:
    return {"ok": True, "version": __version__}


@router.get("/api/rulesets")
async def rulesets() -> list[RuleCardOut]:
    """Every preset's rule card: the options in force, their values, and their names in 中文 and
    English (``labels``: option -> zh, en, help, and names of the values where they are words)."""
    cards = [rule_card(name, {}) for name in presets()]
    return [card.model_copy(update={"labels": _labels_with_ranges(card)}) for card in cards]


@router.post("/api/score", response_model=None)
async def score(
    body: ScoreIn, refusals: Literal["status", "inline"] = "status"
) -> dict[str, Any] | JSONResponse:
    """The score calculator (算分器): a win described as at a real table, scored and paid under any
    rule set, preset and options — the items, the payments with reasons, each player's change.
    ``refusals=inline``: a description that cannot be is an answer (200), as the page's calculator
    wants it — a hand someone typed wrong is no failed request."""
    try:
        spec = WinSpec.from_dict(body.model_dump(by_alias=True))
        return score_win(spec).as_dict()
    except ValueError as error:
        # The field at fault and a code with its params: clients explain it in their own words.
        refused = {"error": {**error_details(error), "message": str(error)}}
        return refused if refusals == "inline" else JSONResponse(refused, status_code=BadRequest.status)


@router.get("/api/rooms/{number}/qr.svg")
async def room_qr(number: str, request: Request, found: RoomDep) -> Response:
    """The room's invitation link as a QR code (SVG). The link is built here from the address the
    page was served from — never from a URL the caller names, so the server cannot be made to
    draw someone else's link. Drawn once per link, in a worker thread (it costs ~15 ms of CPU), and
    each call is a counted room lookup."""
    link = _invite_link(request, number)
    return Response(
        await run_in_threadpool(qr_svg, link),
        media_type="image/svg+xml",
        headers={"Cache-Control": "private, max-age=3600"},
    )


@router.get("/api/rooms/{number}/invite")
async def room_invite(number: str, request: Request, found: RoomDep) -> dict[str, Any]:
    """The room's invitation: the link its QR code draws, and whether a friend on another device can
    open it (not when the server listens on this machine only and knows no public address)."""
    settings: Settings = request.app.state.settings
    return {"link": _invite_link(request, number), "reachable": settings.reachable_by_friends}


def _labels_with_ranges(card: RuleCardOut) -> dict[str, Any]:
    """The rule set's option labels, with ``min`` and ``max`` for every whole-number option (or list
    of them), so a client's number inputs refuse what the server would."""
    labels: dict[str, Any] = option_labels(card.ruleset)
    options_class = load_ruleset(card.preset).options_class
    for name, value in card.options.items():
        values = value if isinstance(value, list) else [value]
        if values and all(isinstance(item, int) and not isinstance(item, bool) for item in values):
            low, high = option_range(options_class, name)
            labels.setdefault(name, {}).update({"min": low, "max": high})
    return labels


def _invite_link(request: Request, number: str) -> str:
    """``{public URL}/#/join/{number}`` when the server was given its public address, else
    ``{scheme}://{host}/#/join/{number}`` for the host the request came to (a host that is not a
    plain host name or address, or is too long for a small code, is refused)."""
    settings: Settings = request.app.state.settings
    if settings.public_url is not None:
        return f"{settings.public_url}/#/join/{number}"
    host = request.headers.get("host", "")
    scheme = request.url.scheme
    if scheme not in ("http", "https") or len(host) > MAX_INVITE_HOST or not HOST_PATTERN.fullmatch(host):
        raise BadRequest("this address cannot be put in an invitation")
    return f"{scheme}://{host}/#/join/{number}"


@functools.lru_cache(maxsize=1024)
def qr_svg(link: str) -> bytes:
    """A QR code drawn by segno: pure Python, well kept, no image library needed, and SVG out of the
    box. The link is at most ~130 characters (MAX_INVITE_HOST), so the code stays a small version
    (at most 8 at level M) and the drawing a few kilobytes."""
    code = segno.make_qr(link, error="m")
    out = io.BytesIO()
    code.save(out, kind="svg", scale=QR_SCALE, border=2, xmldecl=False, dark="#000", light="#fff")
    return out.getvalue()
