"""Write the Nanning worked examples as scenario records (rules-notes §4B and §4C).

    python tools/make_nanning_records.py

Every line of seed 001's tables (NN-001 … NN-124), the further examples (NN-125 … NN-153) and seed
004's examples (N4-01 … N4-29) that can occur in play becomes a record in
``tests/data/records/nanning/``. Each scenario builds the hand the line describes, plays the
situation (a discard, a self-draw, kongs in a row, a robbed kong …) and states the payment the seed
prints — the figure comes from the seed's table, never from hupai's formula. The script plays the
moves, checks the engine against that figure and writes the record; the tests replay the records
and check them again. Lines that cannot occur in play are listed in ``UNREACHABLE`` with the reason
(docs/rules/nanning.md repeats them).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from hupai.game.match import Match
from hupai.game.record import HandRecord, MatchRecord, close_open_window, read_record, write_record
from hupai.game.scripting import run_moves
from hupai.replay import replay
from hupai.rules import load_ruleset
from hupai.tiles import parse_tiles
from nanning_scenarios import Script

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "records" / "nanning"
W = 1  # the winner, unless a scenario says otherwise

# --- hands ----------------------------------------------------------------------------------
# A hand type: the winner's concealed tiles when ready (a single tile waiting for its pair), the
# pungs it claims first (tile, feeder), and the tile it waits on.


@dataclass(frozen=True)
class HandType:
    concealed: str
    pungs: tuple[tuple[str, int], ...] = ()
    wait: str = ""


HANDS: dict[str, HandType] = {
    "plain": HandType("123m456m789s1s", (("5p", 0),), "1s"),
    "menqing": HandType("123m456m789s345p1s", (), "1s"),
    "pp": HandType("111m555m999s1s", (("5p", 0),), "1s"),
    "pp_m": HandType("111m555m999s777p1s", (), "1s"),
    "qys": HandType("123m456m678m2m", (("9m", 0),), "2m"),
    "qys_m": HandType("123m456m678m999m2m", (), "2m"),
    "pp_qys": HandType("111m333m555m7m", (("9m", 0),), "7m"),
    "pp_qys_m": HandType("111m333m555m999m7m", (), "7m"),
    "qxd": HandType("1133m5577p2299s4s", (), "4s"),
    "qxd_qys": HandType("1122335566889m", (), "9m"),
    "qdd1": HandType("111133m5577p99s2s", (), "2s"),
    "qdd1_qys": HandType("1111223355779m", (), "9m"),
    "qdd2": HandType("11113333m5577p9s", (), "9s"),
    "qdd2_qys": HandType("1111222233557m", (), "7m"),
    "qdd3": HandType("11113333m5555p7p", (), "7p"),
    "qdd3_qys": HandType("1111222233335m", (), "5m"),
    "qqr": HandType("1s", (("5p", 0), ("7s", 2), ("3m", 3), ("9m", 0)), "1s"),
    "qqr_qys": HandType("9m", (("1m", 0), ("3m", 2), ("5m", 3), ("7m", 0)), "9m"),
}
JUNK = ("1z", "2z", "3z", "4z")  # what the winner lets go after each pung


def winner_hand(kind: str) -> str:
    hand = HANDS[kind]
    return hand.concealed + "".join(tile * 2 for tile, _ in hand.pungs) + "".join(JUNK[: len(hand.pungs)])


def feed(script: Script, feeder: int, tile: str) -> None:
    """``feeder`` discards ``tile`` (holding it from the start): at once if it is to play, else on its turn."""
    script.give(feeder, tile)
    if not (script.turn == feeder and script.holding):
        script.until(feeder).draw(feeder)
    script.discard(feeder, tile)


def claim_pungs(script: Script, seat: int, pungs: tuple[tuple[str, int], ...], junk: tuple[str, ...]) -> None:
    for (tile, feeder), thrown in zip(pungs, junk, strict=False):
        feed(script, feeder, tile)
        script.pong(seat).discard(seat, thrown)


def opening(script: Script) -> None:
    """The dealer's first discard, a harmless tile, when nothing else starts the hand."""
    if script.turn == 0 and script.holding:
        script.give(0, "6z").discard(0, "6z")


def setup(kind: str, *, winner: int = W) -> Script:
    hand = HANDS[kind]
    script = Script(avoid=set(parse_tiles(hand.wait)))
    script.hand(winner, winner_hand(kind))
    claim_pungs(script, winner, hand.pungs, JUNK)
    opening(script)
    return script


def unused(kind: str, count: int, *, also: str = "") -> list[str]:
    """Suited tiles the winner's hand does not use, for other players' kongs and pungs."""
    taken = set(parse_tiles(winner_hand(kind) + HANDS[kind].wait + also))
    order = "9p8p7p6p4p3p2p1p8s7s6s5s4s3s2s9m8m7m6m5m4m3m2m1m"
    found = [
        tile
        for tile in (order[i : i + 2] for i in range(0, len(order), 2))
        if parse_tiles(tile)[0] not in taken
    ]
    return found[:count]


# --- situations -----------------------------------------------------------------------------


def ron(kind: str, discarder: int = 2) -> tuple[Script, int]:
    script = setup(kind)
    script.until(discarder).tsumogiri(discarder, HANDS[kind].wait).hu(W)
    return script, W


def self_drawn(kind: str) -> tuple[Script, int]:
    script = setup(kind)
    if not HANDS[kind].pungs:  # let the winner play once, so the win is not 地胡
        script.until(W).tsumogiri(W)
    script.until(W).draw(W, HANDS[kind].wait).hu(W)
    return script, W


def gang_shang_pao(kind: str, kongs: int = 1, discarder: int = 2) -> tuple[Script, int]:
    """The discarder makes ``kongs`` concealed kongs in a row, then lets the winning tile go (杠上炮)."""
    script = setup(kind)
    tiles = unused(kind, kongs)
    script.give(discarder, tiles[0] * 4 + "".join(tile * 3 for tile in tiles[1:]))
    script.until(discarder).draw(discarder)
    for index, tile in enumerate(tiles):
        following = tiles[index + 1] if index + 1 < kongs else HANDS[kind].wait
        script.kong(discarder, tile, following)
    script.after(discarder, HANDS[kind].wait).hu(W)
    return script, W


def quanqiu_pao(kind: str, discarder: int = 2) -> tuple[Script, int]:
    """The discarder has laid down four pungs (全求人) and deals in (全求炮)."""
    script = setup(kind)
    pairs = unused(kind, 4)
    script.give(discarder, "".join(tile * 2 for tile in pairs) + "4z5z6z7z")
    if script.turn != discarder or script.holding:
        script.until(discarder)
    script.tsumogiri(discarder)
    for tile, thrown in zip(pairs, ("4z", "5z", "6z", "7z"), strict=True):
        feed(script, 3, tile)
        script.pong(discarder).discard(discarder, thrown)
    script.until(discarder).tsumogiri(discarder, HANDS[kind].wait).hu(W)
    return script, W


def ren_hu(kind: str) -> tuple[Script, int]:
    """The winner takes the dealer's very first discard (人胡)."""
    hand = HANDS[kind]
    script = Script(avoid=set(parse_tiles(hand.wait)))
    script.hand(W, winner_hand(kind))
    script.give(0, hand.wait).discard(0, hand.wait).hu(W)
    return script, W


# Kong blooms: the winner's kongs (the first one claimed when exposed), the other sets, the tanki.
BLOOM_KONGS = {
    "plain": ("5p", "7s", "3m", "9m"),
    "menqing": ("5p", "7s", "3m", "9m"),
    "pp": ("5p", "7s", "3m", "9m"),
    "pp_m": ("5p", "7s", "3m", "9m"),
    "qys": ("9m", "8m", "7m", "6m"),
    "qys_m": ("9m", "8m", "7m", "6m"),
    "pp_qys": ("9m", "8m", "7m", "6m"),
    "pp_qys_m": ("9m", "8m", "7m", "6m"),
}
BLOOM_SETS = {
    "plain": ("234s", "678m", "123p"),
    "menqing": ("234s", "678m", "123p"),
    "pp": ("111s", "666m", "222p"),
    "pp_m": ("111s", "666m", "222p"),
    "qys": ("123m", "234m", "345m"),
    "qys_m": ("123m", "234m", "345m"),
    "pp_qys": ("111m", "222m", "333m"),
    "pp_qys_m": ("111m", "222m", "333m"),
}
BLOOM_TANKI = {
    "plain": "9s",
    "menqing": "9s",
    "pp": "9s",
    "pp_m": "9s",
    "qys": "1m",
    "qys_m": "1m",
    "pp_qys": "5m",
    "pp_qys_m": "5m",
}
BLOOM_PUNG = {"plain": "4p", "pp": "4p", "qys": "5m", "pp_qys": "4m"}  # opens a hand that is not 门清


def exposed_bloom(kind: str, kongs: int) -> tuple[Script, int]:
    """A kong on the dealer's discard, then ``kongs - 1`` concealed kongs on the replacements, and the
    last replacement wins (明杠杠上花, the dealer pays)."""
    tiles = BLOOM_KONGS[kind][:kongs]
    others = BLOOM_SETS[kind][: 4 - kongs]
    tanki = BLOOM_TANKI[kind]
    script = Script(avoid=set(parse_tiles(tanki)))
    script.hand(W, "".join(tile * 3 for tile in tiles) + "".join(others) + tanki)
    script.give(0, tiles[0]).discard(0, tiles[0])
    following = [*tiles[1:], tanki]
    script.kong_claim(W, following[0])
    for index, tile in enumerate(tiles[1:]):
        script.kong(W, tile, following[index + 1])
    script.hu(W)
    return script, W


def concealed_bloom(kind: str, kongs: int) -> tuple[Script, int]:
    """Concealed kongs in a row, the last replacement wins (暗杠杠上花, each pays); a hand that is
    not 门清 claims a pung first."""
    tiles = BLOOM_KONGS[kind][:kongs]
    tanki = BLOOM_TANKI[kind]
    pung = BLOOM_PUNG.get(kind)
    sets = BLOOM_SETS[kind][: 4 - kongs - (1 if pung else 0)]
    script = Script(avoid=set(parse_tiles(tanki)))
    extra = pung * 2 + "1z" if pung else ""
    script.hand(W, "".join(tile * 3 for tile in tiles) + "".join(sets) + tanki + extra)
    if pung:
        claim_pungs(script, W, ((pung, 0),), ("1z",))
    else:
        opening(script)
    script.until(W).draw(W, tiles[0])
    following = [*tiles[1:], tanki]
    for index, tile in enumerate(tiles):
        script.kong(W, tile, following[index])
    script.hu(W)
    return script, W


# Robbing: the winner waits on 5m in the middle of 46m (a wait a pung-based hand cannot have).
ROB_HANDS = {
    "plain": HandType("123p789s11s46m", (("5p", 0),), "5m"),
    "menqing": HandType("123p789s11s46m345s", (), "5m"),
    "qys": HandType("123m789m22m46m", (("9m", 0),), "5m"),
}


def robbed(kind: str, row: int = 1, robbed_seat: int = 2) -> tuple[Script, int]:
    """The robbed player adds a kong to its pung of 5m — as the ``row``-th kong in a row after a kong on
    the dealer's 8p and added kongs — and the winner robs it (抢杠胡; 抢连杠 doubles per kong before)."""
    hand = ROB_HANDS[kind]
    script = Script(avoid={parse_tiles("5m")[0]})
    script.hand(
        W, hand.concealed + "".join(tile * 2 for tile, _ in hand.pungs) + "".join(JUNK[: len(hand.pungs)])
    )
    claim_pungs(script, W, hand.pungs, JUNK)
    opening(script)
    added = ["6s", "2s"][: max(row - 2, 0)]
    pungs = [*added, "5m"]
    direct = "8p" if row > 1 else ""
    junk = ("5z", "6z", "7z")
    script.give(robbed_seat, "".join(tile * 2 for tile in pungs) + "".join(junk[: len(pungs)]) + direct * 3)
    for tile, thrown in zip(pungs, junk, strict=False):
        feed(script, 3, tile)
        script.pong(robbed_seat).discard(robbed_seat, thrown)
    # A full round, so that the winner, who let 5m go, may win again (卖胡 lasts until its next draw).
    script.until(W).tsumogiri(W)
    if direct:
        feed(script, 0, direct)
        following = [*added, "5m"]
        script.kong_claim(robbed_seat, following[0])
        for index, tile in enumerate(added):
            script.kong(robbed_seat, tile, following[index + 1])
        script.kong(robbed_seat, "5m")
    else:
        script.until(robbed_seat).draw(robbed_seat, "5m").kong(robbed_seat, "5m")
    script.hu(W)
    return script, W


def sealed(how: str, *, preset: str = "nanning") -> tuple[Script, int]:
    """封胡: the winner (seat 1) has ponged three times from the dealer, who may not win this hand.
    ``how``: "other" (seat 2 deals in: 双飞), "sealed" (the dealer deals in), "self" (self-drawn),
    "bloom" (a concealed kong and a win on its replacement)."""
    script = Script(avoid={parse_tiles("1s")[0]})
    script.hand(W, "999s1s" + "5p5p7s7s3m3m" + "1z2z3z")
    claim_pungs(script, W, (("5p", 0), ("7s", 0), ("3m", 0)), JUNK)
    if how == "other":
        script.until(2).tsumogiri(2, "1s").hu(W)
    elif how == "sealed":
        script.until(0).tsumogiri(0, "1s").hu(W)
    elif how == "self":
        script.until(W).draw(W, "1s").hu(W)
    else:
        script.until(W).draw(W, "9s").kong(W, "9s", "1s").hu(W)
    return script, W


def heavenly() -> tuple[Script, int]:
    return Script().hand(0, "123m456m789s345p11s").hu(0), 0


def earthly() -> tuple[Script, int]:
    script = Script(avoid={parse_tiles("1s")[0]}).hand(W, winner_hand("menqing"))
    opening(script)
    script.until(W).draw(W, "1s").hu(W)
    return script, W


def bloom_row() -> tuple[Script, int]:
    """Seed 004's 連槓 bloom: pungs fed by seat 0 and seat 2, then in a row two added kongs and a concealed
    kong, and the last replacement wins."""
    script = Script(avoid={parse_tiles("9s")[0]})
    script.hand(W, "5p5p7s7s1z2z" + "3m3m3m" + "789p" + "9s")
    claim_pungs(script, W, (("5p", 0), ("7s", 2)), JUNK)
    script.until(W).draw(W, "5p").kong(W, "5p", "7s").kong(W, "7s", "3m").kong(W, "3m", "9s").hu(W)
    return script, W


def fishing_win() -> tuple[Script, int]:
    """The dealer (who won the last hand) wins self-drawn on its second turn."""
    script = Script(avoid={parse_tiles("1s")[0]}).hand(0, winner_hand("menqing") + "6z")
    script.discard(0, "6z").until(0).draw(0, "1s").hu(0)
    return script, 0


WALL = 136 - 14 - 3 * 13  # Nanning: every tile is drawn


def last_tile(kind: str, how: str) -> tuple[Script, int]:
    """A win on the last tile of the wall: drawn by the winner (海底捞月) or discarded by the player
    who drew it (海底炮). With no claims, seat 3 draws the last tile; a pung moves that on."""
    hand = HANDS[kind]
    script = Script(avoid=set(parse_tiles(hand.wait)))
    if how == "self":
        # Seat 3 draws last when nobody claims; with the winner's pung from seat 3 it is the dealer.
        winner = 3 if not hand.pungs else 0
        script.hand(winner, winner_hand(kind) + ("6z" if winner == 0 else ""))
        if winner == 0:
            feeder_tile, _ = hand.pungs[0]
            script.discard(0, "6z")
            feed(script, 3, feeder_tile)
            script.pong(0).discard(0, JUNK[0])
        else:
            opening(script)
        script.until_end(WALL - 1)
        script.until(winner).draw(winner, hand.wait).hu(winner)
        return script, winner
    script.hand(W, winner_hand(kind))
    claim_pungs(script, W, hand.pungs, JUNK)
    opening(script)
    script.until_end(WALL - 1)
    last = script.turn
    script.tsumogiri(last, hand.wait).hu(W)
    return script, W


def moma() -> tuple[Script, int]:
    """摸码 with two codes: seat 3 (the dealer's 上家: 4/8/北) wins self-drawn; the codes are 4万 and 8条."""
    script = Script(avoid={parse_tiles("1s")[0]}).hand(3, winner_hand("menqing"))
    opening(script)
    script.until(3).tsumogiri(3)
    script.until(3).draw(3, "1s").hu(3).then_wall("4m8s")
    return script, 3


def dealer_with_fish(how: str) -> tuple[Script, int]:
    """钓鱼 (seed 000): four tiles set aside; one of them (9条) points at the dealer, who wins."""
    script = Script(avoid={parse_tiles("1s")[0]}).hand(0, winner_hand("menqing") + "6z")
    script.discard(0, "6z")
    if how == "discard":
        script.until(2).tsumogiri(2, "1s").hu(0)
    else:
        script.until(0).draw(0, "1s").hu(0)
    return script, 0


def kong_row(
    kongs: str, feeders: tuple[int, ...], *, concealed: str = "", before: str = "", first: str = ""
) -> tuple[Script, int]:
    """Seed 004's 連槓 examples: seat 1 has pungs fed by ``feeders``. It may make a concealed kong of
    ``before`` on an earlier turn. Then, in a row: a concealed kong of ``first``, added kongs to those
    pungs, concealed kongs of ``concealed``; it lets the last replacement go, and the wall runs out."""
    pung_tiles = [kongs[i : i + 2] for i in range(0, len(kongs), 2)]
    quads = [concealed[i : i + 2] for i in range(0, len(concealed), 2)]
    row = ([first] if first else []) + pung_tiles + quads
    script = Script()
    held = "".join(tile * 2 for tile in pung_tiles) + "".join(JUNK[: len(pung_tiles)])
    held += (
        "".join(tile * 3 for tile in quads) + (first * 3 if first else "") + (before * 4 if before else "")
    )
    script.give(W, held)
    claim_pungs(script, W, tuple(zip(pung_tiles, feeders, strict=True)), JUNK)
    opening(script)
    if before:
        script.until(W).draw(W).kong(W, before, "9p").after(W, "9p")
    script.until(W).draw(W, row[0])
    following = [*row[1:], "8p"]
    for index, tile in enumerate(row):
        script.kong(W, tile, following[index])
    script.after(W, "8p")
    script.until_end(WALL)
    return script, W


def kong_on_a_kongers_discard(ending: str) -> tuple[Script, int]:
    """Seat 1 lets 8p go and seat 2 kongs it; seat 2 lets its replacement 9p go and seat 3 kongs that,
    starting a row of its own. ``ending``: "bloom" (seat 3 wins on its replacement), "cannon" (seat 3
    lets its replacement 1s go and seat 1 wins on it), "three" (seat 3 lets 7p go, the dealer kongs it
    and wins on its replacement)."""
    winner = {"bloom": 3, "cannon": W, "three": 0}[ending]
    script = Script(avoid={parse_tiles("1s" if ending == "cannon" else "9s")[0]})
    bloom_hand = "234s678m123p9s"
    if ending == "cannon":
        script.hand(W, winner_hand("menqing"))
    script.hand(3, ("9p9p9p" + bloom_hand) if ending == "bloom" else "9p9p9p1z1z2z2z3z3z4z4z5z6z")
    script.hand(0, ("7p7p7p" + bloom_hand + "6z") if ending == "three" else "1m4m7m2p5p3s6s9s1z2z3z4z5z6z")
    script.give(2, "8p8p8p")
    script.discard(0, "6z")
    script.tsumogiri(W, "8p")
    script.kong_claim(2, "9p").after(2, "9p")
    if ending == "bloom":
        script.kong_claim(3, "9s").hu(3)
    elif ending == "cannon":
        script.kong_claim(3, "1s").after(3, "1s").hu(W)
    else:
        script.kong_claim(3, "7p").after(3, "7p")
        script.kong_claim(0, "9s").hu(0)
    return script, winner


# --- the lines -----------------------------------------------------------------------------------


@dataclass
class Line:
    id: str
    source: str
    title: str
    build: Callable[[], tuple[Script | Rotated, int]]
    expect: dict[
        int, int
    ]  # payer -> what it pays the winner, kong points included where the seed counts them
    preset: str = "nanning"
    options: dict[str, Any] = field(default_factory=dict)
    fish: str = ""
    outcome: str = "win"
    previous: Callable[[], tuple[Script | Rotated, int]] | None = None  # a hand played before this one
    kong_points: tuple[tuple[int, int, int], ...] = ()  # (payer, payee, amount) of every kong point


def each(amount: int, winner: int = W) -> dict[int, int]:
    return {seat: amount for seat in range(4) if seat != winner}


LINES: list[Line] = []


def line(
    id: str,
    source: str,
    title: str,
    build: Callable[[], tuple[Script | Rotated, int]],
    expect: dict[int, int],
    **kw: Any,
) -> None:
    LINES.append(Line(id, source, title, build, expect, **kw))


TYPE_NAMES = {
    "plain": "普通",
    "menqing": "门清",
    "pp": "碰碰胡",
    "pp_m": "碰碰胡门清",
    "qys": "清一色",
    "qys_m": "清一色门清",
    "pp_qys": "碰碰胡清一色",
    "pp_qys_m": "碰碰胡清一色门清",
    "qxd": "七小对",
    "qxd_qys": "七小对清一色",
    "qdd1": "七大对一组",
    "qdd1_qys": "七大对一组清一色",
    "qdd2": "七大对二组 豪华大七对",
    "qdd2_qys": "豪华大七对清一色",
    "qdd3": "七大对三组 超级豪华大七对",
    "qdd3_qys": "超级豪华大七对清一色",
    "qqr": "全求人",
    "qqr_qys": "全求人清一色",
}


def table_lines() -> None:
    s = "S001+S000b"
    line("NN-001", s, "二、放炮 普通（鸡胡）: 2", lambda: ron("plain"), {2: 2})
    line("NN-002", s, "二、放炮 门清: 4", lambda: ron("menqing"), {2: 4})
    line("NN-003", s, "二、放炮 普通大炮 (杠上炮): 3×3 = 9", lambda: gang_shang_pao("plain"), {2: 9})
    line("NN-004", s, "二、放炮 门清大炮 (杠上炮): 4×3 = 12", lambda: gang_shang_pao("menqing"), {2: 12})
    line("NN-005", s, "三、自摸 普通: 3 each", lambda: self_drawn("plain"), each(3))
    line("NN-006", s, "三、自摸 门清: 4 each", lambda: self_drawn("menqing"), each(4))
    numbered = iter(range(7, 31))
    for kind, ron_value, each_value in (
        ("pp", 9, 6), ("pp_qys", 18, 12), ("pp_m", 12, 8), ("pp_qys_m", 24, 16),
        ("qxd", 12, 8), ("qxd_qys", 24, 16),
        ("qdd1", 24, 16), ("qdd1_qys", 48, 32), ("qdd2", 48, 32), ("qdd2_qys", 96, 64),
        ("qdd3", 96, 64), ("qdd3_qys", 192, 128),
    ):  # fmt: skip
        section = (
            "四、碰碰胡"
            if kind.startswith("pp")
            else "五、七小对"
            if kind.startswith("qxd")
            else "六、七大对"
        )
        name = TYPE_NAMES[kind]
        line(
            f"NN-{next(numbered):03d}",
            s,
            f"{section} {name} 放炮: {ron_value}",
            partial(ron, kind),
            {2: ron_value},
        )
        line(
            f"NN-{next(numbered):03d}",
            s,
            f"{section} {name} 自摸: {each_value}×3",
            partial(self_drawn, kind),
            each(each_value),
        )
    # 七、杠上花 明杠: the dealer, whose tile was konged first, pays everything (win + kong points).
    exposed = {
        1: {"plain": 19, "qys": 37, "pp": 37, "pp_qys": 73},
        2: {"plain": 38, "qys": 74, "pp": 74, "pp_qys": 146},
        3: {"plain": 75, "qys": 147, "pp": 147, "pp_qys": 291},
        4: {"plain": 292, "qys": 580},
    }
    number = 31
    for kongs, values in exposed.items():
        for kind, total in values.items():
            row = {1: "单", 2: "双连杠", 3: "三连杠", 4: "四连杠"}[kongs]
            line(
                f"NN-{number:03d}",
                s,
                f"七、杠上花 明杠{row} {TYPE_NAMES[kind]}: {total}",
                partial(exposed_bloom, kind, kongs),
                {0: total},
            )
            number += 1
    # 七、杠上花 暗杠: each pays (2^n × unit + n). NN-060 as corrected (66 each, 198).
    concealed = {
        1: {
            "plain": 7,
            "menqing": 9,
            "qys": 13,
            "qys_m": 17,
            "pp": 13,
            "pp_m": 17,
            "pp_qys": 25,
            "pp_qys_m": 33,
        },
        2: {
            "plain": 14,
            "menqing": 18,
            "qys": 26,
            "qys_m": 34,
            "pp": 26,
            "pp_m": 34,
            "pp_qys": 50,
            "pp_qys_m": 66,
        },
        3: {
            "plain": 27,
            "menqing": 35,
            "qys": 51,
            "qys_m": 67,
            "pp": 51,
            "pp_m": 67,
            "pp_qys": 99,
            "pp_qys_m": 131,
        },
        4: {"plain": 100, "pp_m": 132, "pp_qys": 196, "pp_qys_m": 260},
    }
    for kongs, values in concealed.items():
        for kind, amount in values.items():
            row = {1: "单", 2: "双连杠", 3: "三连杠", 4: "四连杠"}[kongs]
            ident = f"NN-{number:03d}"
            number += 1
            if ident in UNREACHABLE:
                continue
            line(
                ident,
                s,
                f"七、杠上花 暗杠{row} {TYPE_NAMES[kind]}: {amount}×3",
                partial(concealed_bloom, kind, kongs),
                each(amount),
            )
    # 八、杠上炮 (single kong), the konger pays.
    pao = (
        ("plain", 9), ("menqing", 12), ("qys", 18), ("qys_m", 24), ("pp", 18), ("pp_m", 24),
        ("pp_qys", 36), ("pp_qys_m", 48), ("qxd", 24), ("qxd_qys", 48), ("qdd1", 48), ("qdd1_qys", 96),
        ("qdd2", 96), ("qdd2_qys", 192), ("qdd3", 192), ("qdd3_qys", 384), ("qqr", 36), ("qqr_qys", 72),
    )  # fmt: skip
    for offset, (kind, amount) in enumerate(pao):
        line(
            f"NN-{73 + offset:03d}",
            s,
            f"八、杠上炮 {TYPE_NAMES[kind]}: {amount}",
            partial(gang_shang_pao, kind),
            {2: amount},
        )
    # 九、抢杠胡: the robbed player pays.
    for ident, kind, amount in (("NN-091", "plain", 9), ("NN-092", "menqing", 12), ("NN-093", "qys", 18)):
        line(ident, s, f"九、抢杠胡 {TYPE_NAMES[kind]}: {amount}", partial(robbed, kind), {2: amount})
    # 十、全求人.
    line("NN-099", s, "十、全求人 普通 放炮: 18", lambda: ron("qqr"), {2: 18})
    line("NN-100", s, "十、全求人 普通 自摸 (as 碰碰胡): 6×3", lambda: self_drawn("qqr"), each(6))
    line("NN-101", s, "十、全求人 清一色 放炮: 36", lambda: ron("qqr_qys"), {2: 36})
    line("NN-102", s, "十、全求人 清一色 自摸: 12×3", lambda: self_drawn("qqr_qys"), each(12))
    # 十一、全求炮: the discarder has four melds; the winner's hand is shown.
    qq = (("plain", 9), ("menqing", 12), ("pp", 18), ("pp_m", 24), ("pp_qys", 36), ("pp_qys_m", 48),
          ("qxd", 24), ("qdd1", 48), ("qdd2", 96), ("qdd3", 192))  # fmt: skip
    for offset, (kind, amount) in enumerate(qq):
        line(
            f"NN-{103 + offset:03d}",
            s,
            f"十一、全求炮 {TYPE_NAMES[kind]}: {amount}",
            partial(quanqiu_pao, kind),
            {2: amount},
        )
    # 人胡 (S000b): the dealer pays a 门清大炮.
    renhu = (("menqing", 12), ("qys_m", 24), ("pp_m", 24), ("pp_qys_m", 48), ("qxd", 24), ("qxd_qys", 48),
             ("qdd1", 48), ("qdd1_qys", 96), ("qdd2", 96), ("qdd2_qys", 192), ("qdd3", 192), ("qdd3_qys", 384))  # fmt: skip
    for offset, (kind, amount) in enumerate(renhu):
        line(
            f"NN-{113 + offset:03d}",
            "S000b",
            f"人胡 {TYPE_NAMES[kind]}: {amount}",
            partial(ren_hu, kind),
            {0: amount},
        )
    further_lines()
    seed_004_lines()


def further_lines() -> None:
    line(
        "NN-126",
        "S001 三、注",
        "门清 暗杠杠上花 by the base-4 method: (4×2+1)×3 = 27",
        lambda: concealed_bloom("menqing", 1),
        each(9),
    )
    for number, kongs, kind, amount in (
        (127, 2, "plain", 18), (128, 2, "menqing", 24), (129, 3, "plain", 36),
        (130, 3, "menqing", 48), (131, 4, "plain", 72), (132, 4, "menqing", 96),
    ):  # fmt: skip
        line(
            f"NN-{number}",
            "S001 八",
            f"{kongs} kongs in a row, then a deal-in ({TYPE_NAMES[kind]}): {amount}",
            partial(gang_shang_pao, kind, kongs),
            {2: amount},
        )
    for number, row, amount in ((133, 2, 18), (134, 3, 36), (135, 4, 72)):
        line(
            f"NN-{number}",
            "S001 九",
            f"抢{row}连杠 (普通): 9 × {amount // 9} = {amount}",
            partial(robbed, "plain", row),
            {2: amount},
        )
    line(
        "NN-136",
        "S001 十二",
        "封胡, another player deals in a 碰碰胡: the discarder 9 and the sealed player 9 (双飞)",
        lambda: sealed("other"),
        {2: 9, 0: 9},
    )
    line(
        "NN-137",
        "S001 十二",
        "封胡, the sealed player deals in a 碰碰胡: 9 × 2",
        lambda: sealed("sealed"),
        {0: 18},
    )
    line(
        "NN-138",
        "S001 十二",
        "封胡, self-drawn 碰碰胡: the sealed player pays all three shares, 6 × 3",
        lambda: sealed("self"),
        {0: 18},
    )
    line(
        "NN-139",
        "S001 十二",
        "封胡, 暗杠杠上花 碰碰胡: the sealed player pays the bloom, (12 × 3) + its kong point",
        lambda: sealed("bloom"),
        {0: 37, 2: 1, 3: 1},
    )
    line(
        "NN-140",
        "S001 十三 例1",
        "死双, self-drawn 碰碰胡: (6×3)×2 = 36",
        lambda: sealed("self"),
        {0: 36},
        options={"sishuang": True},
    )
    line(
        "NN-141",
        "S001 十三 例2",
        "死双, the sealed player deals in: (9×2)×2 = 36",
        lambda: sealed("sealed"),
        {0: 36},
        options={"sishuang": True},
    )
    line(
        "NN-142",
        "S001 十三 例3",
        "死双, another player deals in: sealed 9×2 = 18, discarder 9",
        lambda: sealed("other"),
        {0: 18, 2: 9},
        options={"sishuang": True},
    )
    line("NN-143", "S000b 天胡", "天胡 普通: (4×3)×2 = 24, 8 each", heavenly, each(8, 0))
    line("NN-144", "S000b 地胡", "地胡 普通: (4×3)×2 = 24, 8 each", earthly, each(8))
    line(
        "NN-145",
        "S000b 海底捞月",
        "海底捞月 普通: (3×3)×2 = 18, 6 each",
        lambda: last_tile("plain", "self"),
        each(6, 0),
    )
    line(
        "NN-146",
        "S000b 海底捞月",
        "海底捞月 门清: (4×3)×2 = 24, 8 each",
        lambda: last_tile("menqing", "self"),
        each(8, 3),
    )
    line("NN-147", "S000b 海底炮", "海底炮 普通: 9", lambda: last_tile("plain", "discard"), {0: 9})
    line("NN-148", "S000b 海底炮", "海底炮 门清: 12", lambda: last_tile("menqing", "discard"), {3: 12})
    line("NN-149", "S000b 海底炮", "海底炮 碰碰胡: 9×2 = 18", lambda: last_tile("pp", "discard"), {0: 18})
    line(
        "NN-151",
        "S000b 摸码",
        "摸码, two codes 4万 8条 both pointing at the winner (上家 of the dealer): 门清 4 × 3 each",
        moma,
        each(12, 3),
        options={"moma": 2},
    )
    line(
        "NN-152",
        "S000b 钓鱼 例1",
        "钓鱼: the dealer wins on a discard with one fish pointing at it: 门清 4 × 2",
        lambda: dealer_with_fish("discard"),
        {2: 8},
        options={"fishing": "s000_predraw"},
        fish="5z2z4m9s",
    )
    line(
        "NN-153",
        "S000b 钓鱼 例2",
        "钓鱼: the dealer wins self-drawn with one fish pointing at it: 4 × 2 each",
        lambda: dealer_with_fish("self"),
        each(8, 0),
        options={"fishing": "s000_predraw"},
        fish="5z2z4m9s",
    )


def seed_004_lines() -> None:
    p = "nanning-004"
    allow = {"chicken_ron": "allow"}
    line("N4-01a", "S004 推倒胡", "推倒胡 自摸 3 each", lambda: self_drawn("plain"), each(3), preset=p)
    line(
        "N4-01b",
        "S004 推倒胡",
        "推倒胡 放衝 2 (with plain wins on a discard allowed)",
        lambda: ron("plain"),
        {2: 2},
        preset=p,
        options=allow,
    )
    line("N4-01c", "S004 推倒胡", "門清 自摸 4 each", lambda: self_drawn("menqing"), each(4), preset=p)
    line(
        "N4-01d",
        "S004 推倒胡",
        "門清 放衝 3 (plain wins on a discard allowed, 門清 +1)",
        lambda: ron("menqing"),
        {2: 3},
        preset=p,
        options={**allow, "menqing_ron": "plus1"},
    )
    for ident, kind, name in (("N4-02", "pp", "對對胡"), ("N4-03", "qys", "清一色")):
        line(f"{ident}a", "S004", f"{name} 自摸 6 each", partial(self_drawn, kind), each(6), preset=p)
        line(f"{ident}b", "S004", f"{name} 放衝 9", partial(ron, kind), {2: 9}, preset=p)
        line(
            f"{ident}c",
            "S004",
            f"{name} 門清 自摸 8 each",
            partial(self_drawn, f"{kind}_m"),
            each(8),
            preset=p,
        )
        line(
            f"{ident}d",
            "S004",
            f"{name} 門清 放衝 12 (門清 counted on a discard)",
            partial(ron, f"{kind}_m"),
            {2: 12},
            preset=p,
            options={"menqing_ron": "base4"},
        )
    for ident, kind, tsumo, ron_value in (
        ("N4-04", "qxd", 8, 12),
        ("N4-05", "qdd1", 16, 24),
        ("N4-06", "qdd2", 32, 48),
        ("N4-07", "qdd3", 64, 96),
    ):
        line(
            f"{ident}a",
            "S004",
            f"{TYPE_NAMES[kind]} 自摸 {tsumo} each",
            partial(self_drawn, kind),
            each(tsumo),
            preset=p,
        )
        line(
            f"{ident}b",
            "S004",
            f"{TYPE_NAMES[kind]} 放衝 {ron_value}",
            partial(ron, kind),
            {2: ron_value},
            preset=p,
        )
    line("N4-08", "S004", "全球人 放衝 18", lambda: ron("qqr"), {2: 18}, preset=p)
    line("N4-09", "S004 table", "天胡 100 each", heavenly, each(100, 0), preset=p)
    line("N4-10", "S004 table", "地胡 100 each", earthly, each(100), preset=p)
    line("N4-11a", "S004 table", "槓開 明槓 18+1", lambda: exposed_bloom("plain", 1), {0: 19}, preset=p)
    line(
        "N4-11b",
        "S004 table",
        "槓開 暗槓 18+3: 6+1 each",
        lambda: concealed_bloom("plain", 1),
        each(7),
        preset=p,
        options={"concealed_bloom": "doubled_unit"},
    )
    line("N4-12", "S004", "搶槓 9", lambda: robbed("plain"), {2: 9}, preset=p)
    line(
        "N4-13",
        "S004",
        "明槓槓上花: 18, and the kong point 1",
        lambda: exposed_bloom("plain", 1),
        {0: 19},
        preset=p,
    )
    line(
        "N4-14",
        "S004",
        "暗槓槓上花: 9 each, and the kong point (9+1)",
        lambda: concealed_bloom("plain", 1),
        each(10),
        preset=p,
    )
    line(
        "N4-15",
        "S004",
        "槓上炮 對對胡: 9+9 = 18 (the kong point goes to the konger)",
        lambda: gang_shang_pao("pp"),
        {2: 18},
        preset=p,
    )
    line(
        "N4-17",
        "S004",
        "海底撈月 對對胡: 6+6 = 12 each",
        lambda: last_tile("pp", "self"),
        each(12, 0),
        preset=p,
    )
    line("N4-18", "S004", "海底炮 對對胡: 9+9 = 18", lambda: last_tile("pp", "discard"), {0: 18}, preset=p)
    line(
        "N4-19",
        "S004 points",
        "天胡: 6 each (the points list)",
        heavenly,
        each(6, 0),
        preset=p,
        options={"tianhu_each": 6},
    )
    line(
        "N4-20",
        "S004 連槓",
        "B adds kongs to pungs fed by A, C and D in a row, A's first: A pays all three kong points",
        lambda: kong_row("5p7s3m", (0, 2, 3)),
        {0: 3},
        preset=p,
        outcome="draw",
    )
    line(
        "N4-21",
        "S004 連槓",
        "B adds a kong to A's pung, then two concealed kongs: A pays 1 + 3 + 3 = 7",
        lambda: kong_row("5p", (0,), concealed="7s3m"),
        {0: 7},
        preset=p,
        outcome="draw",
    )
    line(
        "N4-22",
        "S004 連槓",
        "B's concealed kong first (1 from each), later two added kongs (A's pung first) and a concealed kong in a row: A pays 1 + 1 + 3 = 5 more",
        lambda: kong_row("5p7s", (0, 2), concealed="3m", before="9m"),
        {0: 6, 2: 1, 3: 1},
        preset=p,
        outcome="draw",
    )
    line(
        "N4-23",
        "S004 連槓",
        "B's concealed kong (1 from each) and then two added kongs in a row (A's first): A pays 1 + 1 = 2 more",
        lambda: kong_row("5p7s", (0, 2), first="9m"),
        {0: 3, 2: 1, 3: 1},
        preset=p,
        outcome="draw",
    )
    line(
        "N4-24",
        "S004 連槓",
        "C adds kongs to pungs fed by A and B, then a concealed kong, and wins on the replacement (推倒胡): A pays 18×2×2 + 5 = 77",
        bloom_row,
        {0: 77},
        preset=p,
    )
    line(
        "N4-29",
        "S004 釣魚",
        "釣魚: the dealer won the last hand and self-draws again; the last three tiles 7條 紅中 5萬 count 7, 5, 5 from it and land on it twice: ×3",
        fishing_win,
        each(12, 0),
        preset=p,
        options={"fishing": "s004_count"},
        fish="5m7z7s",
        previous=heavenly,
    )
    line(
        "N4-25",
        "S004 封胡",
        "A fed B three pungs: A may not win (B wins on C's discard: C 9, A 9)",
        lambda: sealed("other"),
        {2: 9, 0: 9},
        preset=p,
    )
    line("N4-26", "S004 封胡", "A sealed, A deals in to B: ×2", lambda: sealed("sealed"), {0: 18}, preset=p)
    line(
        "N4-27",
        "S004 封胡",
        "A sealed, C deals in to B: A pays as much as C (旅遊)",
        lambda: sealed("other"),
        {2: 9, 0: 9},
        preset=p,
    )
    line(
        "N4-28",
        "S004 封胡",
        "A sealed, B self-drawn: A pays for all three (包牌), 6×3",
        lambda: sealed("self"),
        {0: 18},
        preset=p,
    )
    kong_rows()
    option_lines()


def kong_rows() -> None:
    """A direct kong on a discard that itself follows a kong starts the claimer's own row: its
    discarder pays its point (S001 七 "第一个被杠者付全部分" and S004 連槓 speak of one player's kongs)."""
    s = "S001 七, 八; S004 連槓"
    line(
        "NNK-1",
        s,
        "丙杠乙的8筒, 打出补来的9筒; 丁杠9筒, 杠上花: 丙付 18 + 杠分 1",
        partial(kong_on_a_kongers_discard, "bloom"),
        {2: 19},
        kong_points=((1, 2, 1), (2, 3, 1)),
    )
    line(
        "NNK-2",
        s,
        "丙杠乙的8筒, 打出9筒; 丁杠9筒, 打出补来的1条, 乙胡 (杠上炮, 门清): 丁付 12; 丁的杠分由丙付",
        partial(kong_on_a_kongers_discard, "cannon"),
        {3: 12},
        kong_points=((1, 2, 1), (2, 3, 1)),
    )
    line(
        "NNK-3",
        s,
        "三家连着杠: 丙杠乙, 丁杠丙, 甲 (庄) 杠丁, 杠上花: 丁付 18 + 杠分 1",
        partial(kong_on_a_kongers_discard, "three"),
        {3: 19},
        kong_points=((1, 2, 1), (2, 3, 1), (3, 0, 1)),
    )


# --- each option shown (docs/rules/nanning.md §9 "Each option shown") ---------------------------------
# Hands for tests/data/options/nanning.jsonl: each is played under the card it is stored with, and the
# option test replays it again with one option changed. Their figures are worked from the docs.


@dataclass
class Rotated:
    """A script written with seat 0 dealing, played with ``dealer`` dealing: every seat moves on by
    ``dealer`` (a later hand of a match, whose dealer the rules give)."""

    script: Script
    dealer: int

    def finish(
        self, preset: str = "nanning", options: dict[str, Any] | None = None, *, fish: str = ""
    ) -> tuple[list[list[int]], list[int], list[str]]:
        deal, wall, moves = self.script.finish(preset, options, fish=fish)
        turned = [deal[(seat - self.dealer) % 4] for seat in range(4)]
        shifted = []
        for move in moves:
            seat, rest = move.split(" ", 1)
            shifted.append(f"{(int(seat) + self.dealer) % 4} {rest}")
        return turned, wall, shifted


def heavenly_by(dealer: int) -> tuple[Rotated, int]:
    """天胡 of a plain 门清 hand by ``dealer`` (the second hand of a match)."""
    script, _ = heavenly()
    return Rotated(script, dealer), dealer


def reserved_tail() -> tuple[Script, int]:
    """The dealer self-draws a 门清 hand on the fourth tile from the end of the wall (three still to draw)."""
    script = Script(avoid={parse_tiles("1s")[0]}).hand(0, winner_hand("menqing") + "6z")
    script.discard(0, "6z").until_end(WALL - 4)
    script.until(0).draw(0, "1s").hu(0)
    return script, 0


def two_winners() -> tuple[Script, int]:
    """Seat 2 lets 1s go; seat 1 (门清, waiting on 1s) and seat 3 (七小对, waiting on 1s) both win on it."""
    script = Script(avoid={parse_tiles("1s")[0]})
    script.hand(W, winner_hand("menqing")).hand(3, "1133m5577p2299s1s")
    opening(script)
    script.until(2).tsumogiri(2, "1s").hu(W).hu(3)
    return script, W


def dealer_among_two_winners() -> tuple[Script, int]:
    """Seat 3 lets 1s go; the dealer (七小对, waiting on 1s) and seat 1 (门清, waiting on 1s) both win on it."""
    script = Script(avoid={parse_tiles("1s")[0]})
    script.hand(0, "1133m5577p2299s1s6z").hand(W, winner_hand("menqing"))
    script.discard(0, "6z").until(3).tsumogiri(3, "1s").hu(0).hu(W)
    return script, 0


def passed_win(*, wins_on_next: bool) -> tuple[Script, int]:
    """Seat 1 (门清, waiting on 1s) lets seat 2's 1s go (卖胡). Seat 3 lets 1s go too: seat 1 takes it
    (``wins_on_next``: the card without 卖胡), or lets it go and self-draws the last 1s on its turn."""
    script = Script(avoid={parse_tiles("1s")[0]}).hand(W, winner_hand("menqing"))
    opening(script)
    script.tsumogiri(W)
    script.tsumogiri(2, "1s")
    script.moves.append(f"{W} pass")
    script.tsumogiri(3, "1s")
    if wins_on_next:
        return script.hu(W), W
    script.until(W).draw(W, "1s").hu(W)
    return script, W


def passed_pung() -> tuple[Script, int]:
    """Seat 1 lets seat 2's 5p go without punging it, pungs seat 3's 5p (过碰 then 碰) before its own next
    discard, and wins a plain hand on seat 2's 1s."""
    script = Script(avoid={parse_tiles("1s")[0]}).hand(W, "123m456m789s1s5p5p1z")
    opening(script)
    script.tsumogiri(W)
    script.tsumogiri(2, "5p")
    script.moves.append(f"{W} pass")
    script.tsumogiri(3, "5p").pong(W).discard(W, "1z")
    script.until(2).tsumogiri(2, "1s").hu(W)
    return script, W


def a_drawn_hand() -> tuple[Script, int]:
    """Nobody wins: every tile is drawn and let go; seat 3 draws the last one (荒庄)."""
    script = Script()
    opening(script)
    script.until_end(WALL)
    return script, 3


def option_lines() -> None:
    s = "docs/rules/nanning.md §9 Each option shown"
    line(
        "OPT-RESERVED-TAIL",
        s,
        "The dealer self-draws 门清 with three tiles still in the wall: 4 each (海底捞月 when they are reserved)",
        reserved_tail,
        each(4, 0),
    )
    line(
        "OPT-MULTI-RON",
        s,
        "一炮双响: seat 3 pays the dealer (七小对 12) and seat 1 (门清 4); the dealer won, stays (the card's "
        "dealer_if_won_else_next), and has 天胡: 8 each",
        heavenly,
        each(8, 0),
        options={"next_dealer_on_multiron": "dealer_if_won_else_next"},
        previous=dealer_among_two_winners,
    )
    line(
        "OPT-PASS-WIN",
        s,
        "卖胡: seat 1 lets seat 2's 1s go, may not take seat 3's 1s, and self-draws the last 1s: 4 each",
        partial(passed_win, wins_on_next=False),
        each(4),
    )
    line(
        "OPT-PASS-WIN-LIFTED",
        s,
        "Without 卖胡: seat 1 lets seat 2's 1s go and wins on seat 3's 1s (门清 on a discard, 4)",
        partial(passed_win, wins_on_next=True),
        {3: 4},
        options={"pass_win_restriction": False},
    )
    line(
        "OPT-PASS-PUNG",
        s,
        "Seat 1 lets seat 2's 5p go, pungs seat 3's 5p and wins a plain hand on seat 2's 1s: 2",
        passed_pung,
        {2: 2},
    )
    line(
        "OPT-CHAIN-KONG",
        s,
        "B adds a kong to A's pung, then two concealed kongs in a row: A pays 1 + 1 + 1 = 3 (the hand is drawn)",
        lambda: kong_row("5p", (0,), concealed="7s3m"),
        {0: 3},
        outcome="draw",
    )
    line(
        "OPT-MULTIRON-DEALER",
        s,
        "一炮双响 (seat 2 deals in to seats 1 and 3), so seat 2 deals the next hand, and has 天胡: 8 each",
        lambda: heavenly_by(2),
        each(8, 2),
        previous=two_winners,
    )
    line(
        "OPT-DRAW-DEALER",
        s,
        "荒庄, seat 3 drew the last tile and deals the next hand, and has 天胡: 8 each",
        lambda: heavenly_by(3),
        each(8, 3),
        previous=a_drawn_hand,
    )
    line(
        "OPT-MOMA",
        s,
        "Seat 3 self-draws 门清, 4 each; the next two tiles are 4万 and 8条 (摸码 codes, when it is on)",
        moma,
        each(4, 3),
    )
    line(
        "OPT-EXTRAS",
        s,
        "The dealer wins 门清 on seat 2's discard: 4; the back of the wall is 白 南 4万 9条 (fish or horses, when on)",
        lambda: dealer_with_fish("discard"),
        {2: 4},
        fish="5z2z4m9s",
    )
    line(
        "OPT-FISHING-COUNT",
        s,
        "The dealer wins 天胡 (8 each), then self-draws 门清 again (4 each); the back of the wall is 5万 红中 7条",
        fishing_win,
        each(4, 0),
        fish="5m7z7s",
        previous=heavenly,
    )


UNREACHABLE = {
    "NN-061": "暗杠三连杠 普通: a hand that is not 门清 needs a pung besides the three kongs, so all four sets are pungs or kongs (碰碰胡)",
    "NN-063": "暗杠三连杠 清一色: as NN-061, the hand is always 碰碰胡",
    "NN-069": "暗杠四连杠 普通: four concealed kongs and no pung is always 门清 (A-18)",
    "NN-071": "暗杠四连杠 碰碰胡清一色 (not 门清): four concealed kongs are always 门清",
    "NN-094": "抢杠胡 碰碰胡: robbing needs a run wait; the pung holds three copies and the added kong the fourth (A-18)",
    "NN-095": "抢杠胡 碰碰胡门清: as NN-094",
    "NN-096": "抢杠胡 全求人: a 全求人 hand waits on its pair, and all four copies are in the kong (A-18)",
    "NN-097": "抢杠胡 七小对 (S000b only): seven pairs wait on a pair tile, all four copies are in the kong",
    "NN-098": "抢杠胡 七大对 (S000b only): as NN-097",
    "NN-125": "S001's example of the rejected 3+1 门清 method; hupai uses base 4 (NN-126 = NN-046)",
    "NN-150": "诈胡: hupai never lets a false win happen, so its 10-point fine cannot arise",
    "N4-16": "抢杠 对对胡: as NN-094",
}


def main() -> int:
    table_lines()
    OUT.mkdir(parents=True, exist_ok=True)
    for path in OUT.glob("*.json"):
        path.unlink()
    for entry in LINES:
        data = build(entry)
        name = f"{entry.id.lower()}.json"
        (OUT / name).write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(LINES)} records to {OUT}")
    return 0


def build(entry: Line) -> dict[str, Any]:
    ruleset = load_ruleset(entry.preset, entry.options)
    match = Match(ruleset, seats=("甲", "乙", "丙", "丁"))
    hands = []
    for builder, fish in ((entry.previous, ""), (entry.build, entry.fish)):
        if builder is None:
            continue
        try:
            script, winner = builder()
            deal, wall, moves = script.finish(entry.preset, entry.options, fish=fish)
        except ValueError as error:
            raise SystemExit(f"{entry.id}: {error}") from None
        state = match.start_hand(deal=deal, wall=wall)
        try:
            run_moves(state, moves)
        except ValueError as error:
            raise SystemExit(f"{entry.id}: {error}") from None
        close_open_window(state)
        hands.append(
            HandRecord(
                dealer=state.dealer, actions=tuple(state.actions), deal=state.deal, wall=tuple(state.wall)
            )
        )
        match.finish_hand(state)
    record = MatchRecord(
        ruleset=entry.preset,
        options=ruleset.options_dict(),
        seats=tuple(match.seats),
        hands=tuple(hands),
        extra={
            "scenario": {
                "example": entry.id,
                "source": entry.source,
                "title": entry.title,
                "outcome": entry.outcome,
                "payee": winner,
                "expect": {str(payer): amount for payer, amount in entry.expect.items()},
                **(
                    {"kong_points": [list(point) for point in entry.kong_points]} if entry.kong_points else {}
                ),
            }
        },
    )
    data = write_record(record)
    problems = check(data)
    if problems:
        raise SystemExit(f"{entry.id} ({entry.title}): " + "; ".join(problems))
    return data


def check(data: dict[str, Any]) -> list[str]:
    """Replay a scenario record; compare what each payer paid the winner with the seed's figure."""
    scenario = data["scenario"]
    payee = scenario["payee"]
    result = replay(read_record(data))
    hand = result.results[-1]
    if hand.outcome != scenario["outcome"] or (hand.outcome == "win" and payee not in hand.winners):
        return [
            f"outcome {hand.outcome}, winners {list(hand.winners)}; expected seat {payee} to {scenario['outcome']}"
        ]
    paid: dict[str, int] = {}
    for transfer in hand.transfers:
        if transfer.payee == payee:
            paid[str(transfer.payer)] = paid.get(str(transfer.payer), 0) + transfer.amount
    if paid != scenario["expect"]:
        return [f"paid the winner {paid}, the seed says {scenario['expect']}"]
    if "kong_points" in scenario:
        kong_reasons = {"exposed_kong", "concealed_kong", "chain_kong"}
        points = [
            [transfer.payer, transfer.payee, transfer.amount]
            for transfer in hand.transfers
            if transfer.reason in kong_reasons
        ]
        if points != scenario["kong_points"]:
            return [f"kong points {points} (payer, payee, amount); expected {scenario['kong_points']}"]
    return []


if __name__ == "__main__":
    sys.exit(main())
