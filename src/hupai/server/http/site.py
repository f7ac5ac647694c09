"""What needs no account: health, the rule sets' cards and the score calculator (算分器). The page
itself, its manifest and service worker: :mod:`hupai.server.http.app_shell`."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from hupai import __version__
from hupai.calculator import WinSpec, error_details, score_win
from hupai.rules import load_ruleset, presets
from hupai.rules.labels import option_labels
from hupai.rules.options import conflicts, option_specs
from hupai.server.errors import BadRequest
from hupai.server.schemas import RuleCardOut, ScoreIn
from hupai.server.storage.outputs import rule_card

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, Any]:
    return {"ok": True, "version": __version__}


@router.get("/api/rulesets")
async def rulesets() -> list[RuleCardOut]:
    """Every preset's rule card: the options in force, their values, and their names in 中文 and
    English (``labels``: option -> zh, en, help, and names of the values where they are words)."""
    cards = [rule_card(name, {}) for name in presets()]
    return [
        card.model_copy(
            update={
                "labels": _labels_with_ranges(card),
                "conflicts": [
                    conflict.as_dict() for conflict in conflicts(load_ruleset(card.preset).options_class)
                ],
            }
        )
        for card in cards
    ]


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


def _labels_with_ranges(card: RuleCardOut) -> dict[str, Any]:
    """The rule set's option labels, with ``min`` and ``max`` for every whole-number option (or list
    of them), so a client's number inputs refuse what the server would."""
    labels: dict[str, Any] = option_labels(card.ruleset)
    for name, spec in option_specs(load_ruleset(card.preset).options_class).items():
        if spec.kind in ("whole", "wholes"):
            labels.setdefault(name, {}).update({"min": spec.low, "max": spec.high})
    return labels
