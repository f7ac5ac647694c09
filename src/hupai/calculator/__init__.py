"""The score calculator (算分器): what a win is worth, described the way a player at a real table sees it.

:func:`score_win` takes a :class:`WinSpec` (the winner's concealed tiles and melds, the winning tile,
how it came, and the few facts the rules need that the tiles cannot show), builds the
:class:`~hupai.game.model.HandState` and :class:`~hupai.game.model.WinContext` the engine would hold
at that moment, and asks the rule set (``judge_win``, then ``win_transfers``). Nothing is scored
here, so the calculator and the table always agree.

:func:`win_values` is the in-game hint: for each tile a seat of a real game waits on, what a
self-drawn win and a win on the next seat's discard would bring, or why that win is not allowed.

>>> spec = WinSpec.from_dict(
...     {"preset": "nanjing", "seat": 1, "dealer": 0, "hand": "12233456789m11z", "win_tile": "7m",
...      "flowers": "6z7z7z1f", "how": "self_drawn"}
... )
>>> calculation = score_win(spec)
>>> [(item.zh, item.value) for item in calculation.sheet.items]
[('跑20', 20), ('硬花', 8), ('混一色', 40), ('门清', 20)]
>>> calculation.deltas
(-88, 264, -88, -88)
>>> refused = score_win(WinSpec.from_dict({"preset": "nanjing", "seat": 1, "hand": "123456m78m11z",
...     "melds": [{"kind": "pung", "tile": "9p", "from": 2}], "win_tile": "9m", "how": "discard", "from": 2}))
>>> refused.allowed, refused.reason[:10]
(False, '小胡需门清或4个硬花')

Enshi (一痞二赖) tables name the 痞子 turned up (its successor, here 6m, is the wildcard 赖子) and the tiles
each seat laid; ``lays_before`` says the winning replacement came right after a lay (杠开). ES-11: seat 2
laid the 痞子, seat 0 a 赖子, and each loser pays by their own multiplier:

>>> es11 = score_win(WinSpec.from_dict(
...     {"preset": "enshi", "pizi": "5m", "laid": {"0": "6m", "2": "5m"}, "seat": 2,
...      "hand": "12m6m345p678p4s", "melds": [{"kind": "pung", "tile": "7s", "from": 0}],
...      "win_tile": "4s", "how": "kong_replacement", "lays_before": 1}))
>>> [(item.zh, item.value) for item in es11.sheet.items], es11.deltas
([('小斜', 3), ('下痞子', 2), ('杠开', 2)], (-48, -12, 72, -12))
"""

from __future__ import annotations

from hupai.calculator.hints import WaitValue, win_values
from hupai.calculator.scoring import Calculation, score_win
from hupai.calculator.spec import MeldSpec, SpecError, WinHow, WinSpec, error_details

__all__ = [
    "Calculation",
    "MeldSpec",
    "SpecError",
    "WaitValue",
    "WinHow",
    "WinSpec",
    "error_details",
    "score_win",
    "win_values",
]
