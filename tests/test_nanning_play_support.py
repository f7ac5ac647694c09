"""A scenario shared by Nanning tests: built with the record generator's script (tools/)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hupai.game.match import Match
from hupai.game.scripting import run_moves
from hupai.rules import load_ruleset
from hupai.tiles import parse_tiles

sys.path.insert(0, str(Path(__file__).parent.parent / "tools"))
from make_nanning_records import quanqiu_pao


def four_melds_deal_in(options: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    script, _ = quanqiu_pao("plain")
    deal, wall, moves = script.finish("nanning", options)
    state = Match(load_ruleset("nanning", options)).start_hand(deal=deal, wall=wall)
    run_moves(state, moves)
    return [(t.payer, t.payee, t.amount, t.reason) for t in state.transfers if t.payee == 1]


def concealed_bloom_with_code(code: str) -> list[tuple[int, int, int, str]]:
    """A 门清 暗杠杠上花 by seat 1 with one 摸码 code, which lies next at the kong end of the wall."""
    from make_nanning_records import concealed_bloom

    options: dict[str, Any] = {"moma": 1}
    script, _ = concealed_bloom("menqing", 1)
    script.replacements.append(parse_tiles(code)[0])
    deal, wall, moves = script.finish("nanning", options)
    state = Match(load_ruleset("nanning", options)).start_hand(deal=deal, wall=wall)
    run_moves(state, moves)
    return [(t.payer, t.payee, t.amount, t.reason) for t in state.transfers if t.reason == "win_self_drawn"]
