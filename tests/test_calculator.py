"""The score calculator against the engine.

Every record whose hand ended in a single win is replayed, the winning situation is described again as a
player would tell it (:func:`spec_from_win`), and :func:`score_win` must give the very score sheet and
payments the engine gave. Hand-written descriptions of the seeds' worked examples
(``data/calculator/worked-examples.jsonl``) give the seeds' figures. Impossible descriptions are refused
with a message; wins the rules refuse come back with the rule set's reason. :func:`win_values` agrees with
the wins then played through the engine.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hupai.bots import make_bot
from hupai.calculator import Calculation, MeldSpec, WinHow, WinSpec, hints, score_win, win_values
from hupai.game import legal_actions, read_record, step, view
from hupai.game.actions import Action, Pass
from hupai.game.contract import Transfer
from hupai.game.match import Match
from hupai.game.model import HandState, Meld, MeldKind, Phase, WinKind, WinResult, next_seat
from hupai.game.record import Dissolve, Escape, MatchRecord, apply_action
from hupai.hand import waits
from hupai.replay import ReplayResult, replay
from hupai.rules import RuleError, load_ruleset
from hupai.rules.nanning.scoring import extra_tiles, situation
from hupai.sim import acting_seat
from hupai.tiles import parse_tiles

from .conftest import DATA, load_jsonl

RECORDS = sorted((DATA / "records").glob("*/*.json"))
EXAMPLES = load_jsonl(DATA / "calculator" / "worked-examples.jsonl")


def tile(text: str) -> int:
    return parse_tiles(text)[0]


# --- describing a win the engine played -----------------------------------------------------------


def melds_of(melds: Sequence[Meld]) -> tuple[MeldSpec, ...]:
    return tuple(
        MeldSpec(kind=meld.kind, tile=meld.tile, feeder=meld.feeder, laizi_for=meld.laizi_for)
        for meld in melds
    )


def spec_from_win(preset: str, options: Mapping[str, Any], state: HandState, win: WinResult) -> WinSpec:
    """What a player at the table could say about a win the engine played: tiles, melds, flowers, how it
    came, the kongs (and Enshi lays) before it, whether it was in the first go-round, 报听, the
    multiplier, the tiles left, what lies on the table (Enshi: the 痞子 turned up and every seat's lays),
    and the code/horse/fish tiles turned."""
    context = win.context
    seat = context.seat
    player = state.seats[seat]
    kongs = tuple(feeder for what, feeder in context.replacement_chain if what == "kong")
    lays = sum(1 for what, _ in context.replacement_chain if what == "lay")
    steps = {what for what, _ in context.replacement_chain}
    if context.kind is WinKind.SELF_DRAWN:
        if kongs or lays:
            how = WinHow.KONG_REPLACEMENT
        elif "flower_kong" in steps:
            how = WinHow.FLOWER_KONG_REPLACEMENT
        elif "flower" in steps:
            how = WinHow.FLOWER_REPLACEMENT
        else:
            how = WinHow.SELF_DRAWN
        first = how is WinHow.SELF_DRAWN and (
            context.first_turn or (seat != state.dealer and player.turns == 0 and state.claims_made == 0)
        )
    else:
        # A 快照/三清 is told as what it looks like at the table: a win on a discard.
        how = WinHow.ROBBED_KONG if context.kind is WinKind.ROBBED_KONG else WinHow.DISCARD
        first = (
            context.kind is WinKind.DISCARD
            and context.discarder == state.dealer
            and state.discards_made == 1
            and state.claims_made == 0
        )
    counts = list(context.counts)
    if context.kind is not WinKind.INSTANT:
        counts[context.tile] -= 1
    extras: dict[str, list[int]] = {}
    if state.ruleset.name == "nanning":
        options_ = state.ruleset.options
        extras = extra_tiles(state, situation(state, context, options_), context.kind, options_)
    return WinSpec(
        ruleset=preset,
        options=dict(options),
        seat=seat,
        dealer=state.dealer,
        hand=tuple(kind for kind, count in enumerate(counts) for _ in range(count)),
        win_tile=context.tile,
        how=how,
        from_seat=context.discarder,
        melds=melds_of(player.melds),
        flowers=tuple(player.flowers),
        kong_chain=kongs,
        first_turn=first,
        ready=player.ready,
        multiplier=state.multiplier,
        tiles_left=context.live_tiles,
        others_melds={
            other: melds_of(state.seats[other].melds)
            for other in range(4)
            if other != seat and state.seats[other].melds
        },
        discarded=tuple(
            out
            for other in state.seats
            for out, claimed in zip(other.discards, other.discard_claimed, strict=True)
            if not claimed
        ),
        code_tiles=tuple(extras.get("moma", ())),
        horse_tiles=tuple(extras.get("maima", ())),
        fish_tiles=tuple(extras.get("fishing", ())),
        previous_winner=state.previous_winner,
        pizi=state.pizi,
        laid={other: tuple(state.seats[other].laid) for other in range(4) if state.seats[other].laid},
        lays_before=lays,
    )


def same_as_engine(calculation: Calculation, win: WinResult) -> None:
    assert calculation.allowed, calculation.reason
    assert calculation.kind is win.context.kind
    assert calculation.sheet == win.sheet
    assert calculation.transfers == win.transfers


def deltas_of(transfers: Sequence[Transfer]) -> list[int]:
    totals = [0, 0, 0, 0]
    for transfer in transfers:
        totals[transfer.payer] -= transfer.amount
        totals[transfer.payee] += transfer.amount
    return totals


@cache
def replayed(path: Path) -> tuple[MatchRecord, ReplayResult]:
    record = read_record(path)
    return record, replay(record)


# --- every worked example, described again -----------------------------------------------------------


@pytest.mark.parametrize("path", RECORDS, ids=[f"{path.parent.name}/{path.stem}" for path in RECORDS])
def test_record_described_again_scores_the_same(path: Path) -> None:
    record, result = replayed(path)
    state = result.states[-1]
    if state.outcome != "win":
        assert state.outcome in ("draw", "abandoned")
        return
    if len(state.wins) > 1:  # 一炮多响: each winner's win, described alone, is paid as the engine paid it
        for each in state.wins:
            same_as_engine(score_win(spec_from_win(record.ruleset, record.options, state, each)), each)
        return
    win = state.wins[0]
    spec = spec_from_win(record.ruleset, record.options, state, win)
    calculation = score_win(spec)
    same_as_engine(calculation, win)
    # The record's deltas are the win's plus the money paid during play (kongs, penalties).
    paid_during_play = state.transfers[: len(state.transfers) - len(win.transfers)]
    assert tuple(state.transfers[len(paid_during_play) :]) == win.transfers
    expected = [a + b for a, b in zip(calculation.deltas, deltas_of(paid_during_play), strict=True)]
    assert list(result.results[-1].deltas) == expected
    assert calculation.total == sum(t.amount for t in win.transfers if t.payee == win.context.seat)
    # The same description through JSON.
    again = WinSpec.from_dict(json.loads(json.dumps(spec.as_dict(), ensure_ascii=False)))
    assert score_win(again) == calculation
    json.dumps(calculation.as_dict(), ensure_ascii=False)


def test_every_single_win_record_is_cross_checked() -> None:
    counted = {"nanjing": 0, "nanning": 0, "enshi": 0}
    for path in RECORDS:
        _, result = replayed(path)
        state = result.states[-1]
        if state.outcome == "win" and len(state.wins) == 1:
            counted[path.parent.name] += 1
    # 11 of Nanjing's 12 worked examples end in a win (NJ-02 is a player leaving), 180 of the 184
    # Nanning records (four are draws), and 19 of the 20 Enshi records (ES-P2 is a draw).
    assert counted["nanjing"] >= 11
    assert counted["nanning"] >= 180
    assert counted["enshi"] >= 19


@pytest.mark.parametrize("example", EXAMPLES, ids=[str(example["name"])[:24] for example in EXAMPLES])
def test_worked_example_as_a_player_tells_it(example: dict[str, Any]) -> None:
    calculation = score_win(WinSpec.from_dict(example["input"]))
    expect = example["expect"]
    assert calculation.allowed is expect["allowed"], calculation.reason
    assert list(calculation.deltas) == expect["deltas"]
    if "reason" in expect:
        assert calculation.reason.startswith(expect["reason"])
    if "kind" in expect:
        assert calculation.kind is not None
        assert calculation.kind.value == expect["kind"]
    if "items" in expect:
        assert calculation.sheet is not None
        assert {entry.key: entry.value for entry in calculation.sheet.items} == expect["items"]
    if "transfers" in expect:
        assert [[t.payer, t.payee, t.amount, t.reason] for t in calculation.transfers] == expect["transfers"]
    data = calculation.as_dict()
    assert data["allowed"] is expect["allowed"]
    assert data["deltas"] == expect["deltas"]
    assert json.loads(json.dumps(data, ensure_ascii=False)) == data


def test_as_dict_explains_the_score() -> None:
    data = score_win(WinSpec.from_dict(EXAMPLES[0]["input"])).as_dict()
    assert data["total"] == 264
    assert data["share"] == 88
    assert data["kind"] == "self_drawn"
    assert data["sheet"]["items"][0] == {
        "key": "base",
        "zh": "跑20",
        "en": "Base (跑20)",
        "value": 20,
        "count": 1,
        "multiply": False,
        "source": "S000a, S002, S003a",
    }
    assert {"from": 2, "to": 1, "amount": 88, "reason": "win_self_drawn", "zh": "自摸"}.items() <= data[
        "transfers"
    ][0].items()


# --- refusals ----------------------------------------------------------------------------------------

NANJING = {"preset": "nanjing", "seat": 1, "hand": "12233456789m11z", "win_tile": "7m", "how": "self_drawn"}
NANNING = {"preset": "nanning", "seat": 1, "hand": "123456m345p1789s", "win_tile": "1s", "how": "self_drawn"}
PUNG_5P = {"kind": "pung", "tile": "5p", "from": 0}

BAD: list[tuple[dict[str, Any], str]] = [
    ({**NANJING, "hand": "1223345678m11z"}, "hand: 12 concealed tiles given; with 0 melds the hand holds 13"),
    (
        {**NANJING, "melds": [PUNG_5P]},
        "hand: 13 concealed tiles given; with 1 meld the hand holds 10 before the winning tile",
    ),
    ({**NANJING, "hand": "11112345678m11z", "win_tile": "1m"}, "1m (一万) is used 5 times"),
    (
        {**NANJING, "melds": [{"kind": "exposed_kong", "tile": "1m", "from": 0}], "hand": "12345678m11z"},
        "1m (一万) is used 5 times",
    ),
    ({**NANNING, "flowers": "1f"}, "flowers: nanning mahjong has no flowers (1f (春) given)"),
    ({**NANJING, "flowers": "1m"}, "flowers: 1m (一万) is not a flower in nanjing mahjong"),
    (
        {**NANJING, "hand": "12233456789m15z"},
        "hand: 5z (白板) is a flower in nanjing mahjong; list it under flowers",
    ),
    ({**NANNING, "hand": "123456m345p178s1f"}, "hand: 1f (春) is not a tile of nanning mahjong"),
    ({**NANJING, "how": "tsumogiri"}, "how: unknown 'tsumogiri'"),
    ({**NANJING, "colour": "red"}, "unknown field(s) colour"),
    ({**NANJING, "win_tile": "7m8m"}, "win_tile is one tile"),
    ({**NANJING, "hand": "12x"}, "hand: position 3: 'x' is not a suit letter"),
    ({**NANJING, "seat": 4}, "seat is a seat 0-3, not 4"),
    ({**NANJING, "seat": "1"}, "seat is a whole number, not '1'"),
    ({k: v for k, v in NANJING.items() if k != "seat"}, "seat: say which seat (0-3) won"),
    ({**NANJING, "how": "discard"}, "from: a discard win needs the seat who discarded the winning tile"),
    ({**NANJING, "how": "discard", "from": 1}, "from: a discard win needs the seat"),
    ({**NANJING, "from": 2}, "from: a self_drawn win has no discarder"),
    ({**NANNING, "how": "robbed_kong"}, "from: a robbed_kong win needs the seat whose kong was robbed"),
    (
        {**NANNING, "melds": [{"kind": "pung", "tile": "5p"}], "hand": "123456m1789s"},
        "melds: the pung of 5p (五筒) needs 'from'",
    ),
    (
        {**NANNING, "melds": [{"kind": "concealed_kong", "tile": "5p", "from": 2}], "hand": "123456m1789s"},
        "melds: a concealed kong of 5p (五筒) has no feeder",
    ),
    ({**NANNING, "melds": [{"kind": "chow", "tile": "5p", "from": 0}]}, "melds: these rules have no chow"),
    ({**NANNING, "how": "kong_replacement"}, "a kong_replacement win (杠开) needs the kong"),
    ({**NANNING, "kongs": [None]}, "kongs: a chain of kongs goes with kong_replacement"),
    ({**NANJING, "how": "flower_replacement"}, "a flower_replacement win needs the flower"),
    (
        {**NANJING, "how": "flower_kong_replacement", "flowers": "5z1f"},
        "a flower_kong_replacement win (花杠开) needs a complete flower kong",
    ),
    ({**NANNING, "ready": True}, "ready: nanning mahjong has no 报听 declaration"),
    ({**NANJING, "seat": 0, "ready": True}, "ready: only non-dealers declare 报听"),
    (
        {**NANNING, "first_turn": True, "melds": [PUNG_5P], "hand": "123456m1789s"},
        "first_turn: the first go-round",
    ),
    (
        {**NANNING, "first_turn": True, "how": "discard", "from": 2},
        "first_turn on a discard means the dealer's",
    ),
    ({**NANNING, "multiplier": 0}, "multiplier is a whole number of at least 1"),
    ({**NANNING, "haidi": True, "tiles_left": 5}, "give haidi or tiles_left, not both"),
    ({**NANNING, "tiles_left": 90}, "tiles_left: 90 tiles cannot still be in the wall"),
    (
        {**NANNING, "options": {"moma": 2}},
        "code_tiles: this win turns 2 code tiles (摸码); give exactly 2, not 0",
    ),
    ({**NANNING, "code_tiles": "1m"}, "code_tiles: no code tiles (摸码) are turned for this win"),
    ({**NANNING, "others_melds": {"1": [PUNG_5P]}}, "others_melds: 1 is not another seat"),
    ({**NANNING, "preset": "riichi"}, "unknown rule set or preset 'riichi'"),
    ({**NANNING, "options": {"qidui_bonus": 40}}, "unknown option 'qidui_bonus'"),
]


@pytest.mark.parametrize(("data", "message"), BAD, ids=[message[:40] for _, message in BAD])
def test_impossible_descriptions_are_refused(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        score_win(WinSpec.from_dict(data))


def test_bad_preset_is_a_rule_error() -> None:
    with pytest.raises(RuleError):
        score_win(WinSpec.from_dict({**NANNING, "preset": "riichi"}))


def test_not_allowed_wins_give_the_rule_sets_reason() -> None:
    refused = score_win(WinSpec.from_dict(EXAMPLES[5]["input"]))
    assert not refused.allowed
    assert refused.reason == (
        "小胡需门清或4个硬花: a small hand needs 门清 or at least 4 hard flowers (this one has 0)"
    )
    assert refused.sheet is None
    assert refused.transfers == ()
    assert refused.total == 0
    with_flowers = score_win(WinSpec.from_dict({**EXAMPLES[5]["input"], "flowers": "1f2f3f5z"}))
    assert with_flowers.allowed
    # 诈胡: the tile does not complete the hand.
    false_win = score_win(WinSpec.from_dict({**NANNING, "win_tile": "2s"}))
    assert not false_win.allowed
    assert false_win.reason.startswith("诈胡")
    on_discard = score_win(WinSpec.from_dict({**NANNING, "win_tile": "2s", "how": "discard", "from": 3}))
    assert on_discard.reason == "诈胡: 二条 does not complete seat 1's hand"
    # Seed 004: a plain hand may not win on an ordinary discard.
    chicken = score_win(
        WinSpec.from_dict(
            {
                **NANNING,
                "preset": "nanning-004",
                "how": "discard",
                "from": 2,
                "hand": "123456m1789s",
                "melds": [PUNG_5P],
            }
        )
    )
    assert chicken.reason.startswith("鸡胡不可放炮")
    # 快照/三清 are Nanjing's: a claim alone wins nothing in Nanning.
    claim = score_win(WinSpec.from_dict({**NANNING, "how": "claim", "from": 2}))
    assert not claim.allowed
    assert "is not a win by itself (快照/三清)" in claim.reason
    # Nanning: after a concealed kong in the row, the added kong cannot be robbed.
    rob = score_win(
        WinSpec.from_dict(
            {
                **NANNING,
                "hand": "23456m345p11789s",
                "win_tile": "1m",
                "how": "robbed_kong",
                "from": 2,
                "kongs": [None],
            }
        )
    )
    assert not rob.allowed
    assert "cannot be robbed" in rob.reason


def test_a_discard_that_also_completes_kuaizhao_pays_the_better_one() -> None:
    """As the engine does: a tile that completes the hand and whose claim is also 快照 is scored both
    ways; the one paying the winner more stands."""
    data = {
        "preset": "nanjing",
        "seat": 1,
        "hand": "33m88s",
        "win_tile": "3m",
        "how": "discard",
        "from": 0,
        "melds": [
            {"kind": "pung", "tile": "5p", "from": 0},
            {"kind": "pung", "tile": "7s", "from": 0},
            {"kind": "pung", "tile": "2z", "from": 0},
        ],
    }
    best = score_win(WinSpec.from_dict(data))
    claim = score_win(WinSpec.from_dict({**data, "how": "claim"}))
    assert best.allowed
    assert claim.allowed
    assert best.kind is WinKind.INSTANT
    assert best == claim


# --- hints -------------------------------------------------------------------------------------------


def play_until(path: Path, keep: int) -> tuple[HandState, list[Action]]:
    """The record's (single) hand played up to ``keep`` actions from its end, and those actions."""
    record = read_record(path)
    assert len(record.hands) == 1
    hand = record.hands[0]
    ruleset = load_ruleset(record.ruleset, record.options)
    match = Match(ruleset, dealer=hand.dealer)
    assert hand.deal is not None
    assert hand.wall is not None
    state = match.start_hand(deal=hand.deal, wall=hand.wall)
    actions = [action for action in hand.actions if not isinstance(action, Escape | Dissolve)]
    for action in actions[: len(actions) - keep]:
        apply_action(state, action)
    return state, actions[len(actions) - keep :]


def test_win_values_self_drawn_matches_the_win_played() -> None:
    state, rest = play_until(DATA / "records" / "nanjing" / "nj01-menqing-hunyise-88.json", 2)
    assert state.phase is Phase.TURN
    assert state.turn == 0
    before = state.copy()
    values = win_values(state, 1)
    assert state == before  # nothing changed
    assert sorted(values) == waits(state.seats[1].counts) == [tile("1m"), tile("4m"), tile("7m")]
    seven = values[tile("7m")]
    assert seven.discarder == 2
    assert seven.self_drawn.allowed
    assert seven.self_drawn.total == 264
    for action in rest:
        apply_action(state, action)
    win = state.wins[0]
    assert win.context.tile == tile("7m")
    same_as_engine(seven.self_drawn, win)
    # On a discard: the same share, from the discarder alone.
    assert seven.discard.allowed
    assert seven.discard.deltas == (0, 88, -88, 0)


def test_win_values_discard_matches_the_win_played() -> None:
    state, rest = play_until(DATA / "records" / "nanning" / "nn-001.json", 2)
    assert state.phase is Phase.TURN
    assert state.turn == 2  # the next seat has drawn and is to discard
    before = state.copy()
    values = win_values(state, 1)
    assert state == before
    one = values[tile("1s")]
    assert one.unseen == 3
    for action in rest:
        apply_action(state, action)
    same_as_engine(one.discard, state.wins[0])
    assert one.discard.total == 2
    assert one.self_drawn.total == 9  # 3 from each: the seed's 自摸 普通


def test_win_values_after_a_passed_win() -> None:
    state, rest = play_until(DATA / "records" / "nanning" / "nn-001.json", 1)
    assert state.phase is Phase.CLAIM
    step(state, Pass(seat=1))  # lets the win go: 卖胡 until its own next draw
    values = win_values(state, 1)
    one = values[tile("1s")]
    assert not one.discard.allowed
    assert one.discard.reason.startswith("过胡不胡")
    assert one.self_drawn.allowed
    assert rest[0].seat == 1


def test_win_values_for_a_seat_holding_a_drawn_tile() -> None:
    state, _ = play_until(DATA / "records" / "nanjing" / "nj01-menqing-hunyise-88.json", 2)
    with pytest.raises(ValueError, match="name the tile it would discard"):
        win_values(state, 0)
    with pytest.raises(ValueError, match="does not hold"):
        win_values(state, 0, discard=tile("9m"))
    with pytest.raises(ValueError, match="has nothing to discard"):
        win_values(state, 1, discard=tile("1m"))
    held = next(kind for kind, count in enumerate(state.seats[0].counts) if count)
    before = state.copy()
    values = win_values(state, 0, discard=held)
    assert state == before
    for tile_, value in values.items():
        assert value.tile == tile_
        json.dumps(value.as_dict(), ensure_ascii=False)


def test_win_values_scores_each_winning_tile_twice_and_nothing_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hints ask for this at every turn, so its work is bounded: one scoring per winning tile and
    way to win it (self-drawn, on the discard), and none for a hand that waits on nothing. (Counted,
    not timed: about 1 ms a call here, which a busy machine would not show.)"""
    state, _ = play_until(DATA / "records" / "nanjing" / "nj01-menqing-hunyise-88.json", 2)
    scorings: list[WinHow] = []
    score = hints._hint

    def counted(base: WinSpec, ruleset: Any, tile: int, **given: Any) -> Any:
        scorings.append(given["how"])
        return score(base, ruleset, tile, **given)

    monkeypatch.setattr(hints, "_hint", counted)
    values = win_values(state, 1)
    assert values
    assert Counter(scorings) == {WinHow.SELF_DRAWN: len(values), WinHow.DISCARD: len(values)}
    scorings.clear()
    idle = [
        seat
        for seat in range(4)
        if sum(state.seats[seat].counts) % 3 == 1 and not waits(state.seats[seat].counts)
    ]
    assert idle
    assert all(win_values(state, seat) == {} for seat in idle)
    assert scorings == []


@pytest.mark.parametrize("preset", ["nanjing", "nanning-004"])
def test_self_play_wins_and_hints_agree_with_the_engine(preset: str) -> None:
    """Bots play a match: every win, described again, scores the same; and the last hint shown to the
    winner before its win (a plain self-draw, or the next seat's discard) gave that very score."""
    ruleset = load_ruleset(preset)
    match = Match(ruleset, seed=11)
    bots = [make_bot(level, 100 + seat) for seat, level in enumerate(["strong", "efficiency"] * 2)]
    checked = hinted = 0
    for _ in range(8):
        state = match.start_hand()
        latest: dict[int, dict[int, Any]] = {}
        while state.phase is not Phase.ENDED:
            for seat, player in enumerate(state.seats):
                if sum(player.counts) % 3 == 1 and waits(player.counts):
                    latest[seat] = win_values(state, seat)
            seat = acting_seat(state)
            step(state, bots[seat].choose(view(state, seat), legal_actions(state, seat)))
        for win in state.wins:
            same_as_engine(score_win(spec_from_win(preset, {}, state, win)), win)
            checked += 1
            context = win.context
            value = latest.get(context.seat, {}).get(context.tile)
            if value is None or any(what == "kong" for what, _ in context.replacement_chain):
                continue
            if context.kind is WinKind.SELF_DRAWN and not context.replacement_chain:
                same_as_engine(value.self_drawn, win)
                hinted += 1
            elif context.kind is not WinKind.SELF_DRAWN and context.discarder == next_seat(context.seat):
                same_as_engine(value.discard, win)
                hinted += 1
        match.finish_hand(state)
    assert checked >= 4
    assert hinted >= 1


def test_spec_fields_round_trip() -> None:
    spec = WinSpec.from_dict(EXAMPLES[3]["input"])
    assert spec.how is WinHow.KONG_REPLACEMENT
    assert spec.melds[0] == MeldSpec(kind=MeldKind.ADDED_KONG, tile=tile("2m"), feeder=0)
    assert spec.kong_chain == (0, 2)
    assert WinSpec.from_dict(spec.as_dict()) == spec
