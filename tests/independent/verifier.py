"""An independent verifier of hupai's fair deals, written from the documentation alone.

Sources: docs/fairness.md (the bytes, the record-level checks, hupai-fair/1), docs/record-format.md
(fields, actions, escapes and dissolves) and the "Following the tiles" section for
docs/fairness.md's "## Checking the actions" (the tile flow). Nothing here imports hupai: it is the
specification written as code, standard library only.

    python verifier.py record.json

prints one line per hand (and its problems) and exits 0 only when no hand fails and at least one
hand verifies.

Where the documents leave something open, the reading taken is marked "Reading:" below.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any, TypeGuard

# --------------------------------------------------------------------------------------------
# Rule sets and tile lists (fairness.md, "Tile lists"; tile flow, "What the rule set decides")
# --------------------------------------------------------------------------------------------

RULESET_NAMES = {
    "nanning": ("nanning", "nanning-004", "nn", "南宁", "南宁麻将", "nn-004", "nanning-s004"),
    "nanjing": ("nanjing", "nanjing-002", "nj", "南京", "南京麻将", "nj-002", "nanjing-s002"),
    "enshi": ("enshi", "es", "恩施", "恩施麻将", "一痞二赖"),
}
FAMILY = {alias: family for family, aliases in RULESET_NAMES.items() for alias in aliases}

SUITED = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
HONOURS = [f"{rank}z" for rank in range(1, 8)]
FLOWER_TILES = [f"{rank}f" for rank in range(1, 9)]
ACTION_TILES = frozenset(SUITED + HONOURS)  # an action's tile is one tile of 1m-7z
MAX_RANK = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

# Reading: the documents give no default for these options (records written by hupai list every
# option). Absent, they are taken as off / not "s000_predraw".
DEFAULTS: dict[str, Any] = {
    "honours": False,
    "chow": True,
    "pizi_flip": "back",
    "honour_successor": "winds_dragons",
    "forbid_keeping_pizi": False,
    "laizi_in_melds": False,
    "fishing": None,
    "dihu_allow_kong_same_waits": False,
}


def ruleset_family(name: Any) -> str | None:
    """The rule set a record's `ruleset` names (nanjing, nanning or enshi), None if unknown."""
    if not isinstance(name, str):
        return None
    return FAMILY.get(name) or FAMILY.get(name.lower())  # Reading: the case of an alias is not said


def option(options: dict[str, Any], name: str) -> Any:
    return options.get(name, DEFAULTS[name])


def tile_list(family: str, options: dict[str, Any]) -> list[str]:
    """The rule set's tiles, sorted: each kind four times in a row, each flower once."""
    kinds = list(SUITED)
    if family in ("nanning", "nanjing") or (family == "enshi" and option(options, "honours") is True):
        kinds += HONOURS
    tiles = [kind for kind in kinds for _ in range(4)]
    if family == "nanjing":
        tiles += FLOWER_TILES
    return tiles


# --------------------------------------------------------------------------------------------
# Notation (fairness.md, "Notation")
# --------------------------------------------------------------------------------------------


class NotationError(ValueError):
    pass


def read_notation(text: Any) -> list[str]:
    """Digits until a letter: each digit is a tile of that letter's suit; spaces between groups
    are ignored."""
    if not isinstance(text, str):
        raise NotationError("not a string")
    tiles: list[str] = []
    digits = ""
    for position, char in enumerate(text, start=1):
        if char.isspace():
            if digits:  # Reading: spaces are allowed between groups only, not inside one
                raise NotationError(f"position {position}: a space inside a group")
            continue
        if char in "0123456789":
            digits += char
        elif char in MAX_RANK:
            if not digits:
                raise NotationError(f"position {position}: a suit letter with no digits")
            for digit in digits:
                if not 1 <= int(digit) <= MAX_RANK[char]:
                    raise NotationError(f"position {position}: there is no tile {digit}{char}")
                tiles.append(digit + char)
            digits = ""
        else:
            raise NotationError(f"position {position}: {char!r} is neither a digit nor a suit letter")
    if digits:
        raise NotationError("digits at the end have no suit letter")
    return tiles


def write_notation(tiles: list[str]) -> str:
    """Tiles in a row that share a suit share one letter, written after the run; order is kept."""
    text = ""
    for position, tile in enumerate(tiles):
        text += tile[0]
        if position == len(tiles) - 1 or tiles[position + 1][1] != tile[1]:
            text += tile[1]
    return text


# --------------------------------------------------------------------------------------------
# The bytes (fairness.md, "The bytes")
# --------------------------------------------------------------------------------------------

HEX64 = re.compile(r"[0-9a-f]{64}")
HEX_UP_TO_64 = re.compile(r"[0-9a-f]{0,64}")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def commitment_v2(room: str, hand: int, secret: str) -> str:
    return sha256_hex(f"hupai-fair/2|{room}|{hand}|{secret}".encode("ascii"))


def commitment_v1(secret: str) -> str:
    return sha256_hex(bytes.fromhex(secret))  # over the 32 bytes, not the text


def key_v2(room: str, hand: int, secret: str, contributions: list[str]) -> bytes:
    text = "|".join(["hupai-fair/2", room, str(hand), secret, *contributions])
    return hashlib.sha256(text.encode("ascii")).digest()


def key_v1(secret: str, contributions: list[str]) -> bytes:
    text = "|".join(["hupai-fair/1", secret, *contributions])
    return hashlib.sha256(text.encode("ascii")).digest()


def numbers(key: bytes) -> Iterator[int]:
    """Block n is SHA-256(key + n as 8 bytes big-endian), read 4 bytes at a time, big-endian."""
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for start in range(0, 32, 4):
            yield int.from_bytes(block[start : start + 4], "big")
        counter += 1


def below(stream: Iterator[int], n: int) -> int:
    """The next number u with u < 2^32 - (2^32 mod n), mod n; the ones thrown away are used up."""
    limit = 2**32 - 2**32 % n
    while True:
        u = next(stream)
        if u < limit:
            return u % n


def dealing_order(tiles: list[str], key: bytes) -> list[str]:
    """Fisher-Yates over the sorted tile list: for i from N-1 down to 1 swap i with below(i+1)."""
    order, stream = list(tiles), numbers(key)
    for i in range(len(order) - 1, 0, -1):
        j = below(stream, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def wall_hash(secret: str, order: list[str]) -> str:
    return sha256_hex(f"{secret}:{write_notation(order)}".encode("ascii"))


def record_order(dealer: int, deal: list[list[str]], wall: list[str]) -> list[str]:
    """The record's tiles in dealing order: the dealer's, then the seats after it, then the wall."""
    order: list[str] = []
    for step in range(4):
        order += deal[(dealer + step) % 4]
    return order + wall


def check_fair(
    fair: Any, family: str | None, options: dict[str, Any], order: list[str] | None
) -> tuple[str | None, list[str]]:
    """Check one hand's `fair` object against its tiles. Returns (algorithm, problems)."""
    if not isinstance(fair, dict):
        return None, ["'fair' is not an object"]
    algorithm = fair.get("algorithm")
    if algorithm not in ("hupai-fair/2", "hupai-fair/1"):
        return None, [f"unknown fair-deal algorithm {algorithm!r}"]  # Reading: refused, not "unverifiable"
    problems: list[str] = []
    secret = fair.get("secret")
    contributions = fair.get("contributions")
    # Reading: a secret or contribution not written as the table says (uppercase, too long) is refused
    if not isinstance(secret, str) or not HEX64.fullmatch(secret):
        problems.append("the secret is not 64 lowercase hex digits")
    if not (
        isinstance(contributions, list)
        and len(contributions) == 4
        and all(isinstance(c, str) and HEX_UP_TO_64.fullmatch(c) for c in contributions)
    ):
        problems.append("'contributions' is not four strings of 0-64 lowercase hex digits")
    for field in ("commitment", "wall_hash"):
        if not isinstance(fair.get(field), str):
            problems.append(f"'{field}' is missing or not a string")
    if algorithm == "hupai-fair/2":
        if not isinstance(fair.get("room"), str) or not fair["room"].isascii() or not fair["room"].isdigit():
            problems.append("'room' is missing or not a string of digits")
        if not is_int(fair.get("hand")) or fair["hand"] < 0:
            problems.append("'hand' is missing or not a non-negative integer")
    if problems:
        return algorithm, problems
    assert isinstance(secret, str) and isinstance(contributions, list)

    # 1. Commitment, 2. key. Reading: over fair.room and fair.hand as written (the record's own room
    # and the hand's place are compared with them separately, in Placing)
    if algorithm == "hupai-fair/2":
        commitment = commitment_v2(fair["room"], fair["hand"], secret)
        key = key_v2(fair["room"], fair["hand"], secret, contributions)
    else:
        commitment = commitment_v1(secret)
        key = key_v1(secret, contributions)
    if commitment != fair["commitment"]:
        problems.append(f"the secret does not hash to the commitment ({commitment[:8]} computed)")

    # 3-6. The dealing order the secret and contributions give, against the record's
    if family is None:
        problems.append("unknown rule set: the tile list to shuffle is not known")
    elif order is not None:
        expected = dealing_order(tile_list(family, options), key)
        if order != expected:
            differ = [i for i in range(min(len(order), len(expected))) if order[i] != expected[i]]
            if len(order) != len(expected):
                problems.append(
                    f"the deal and wall hold {len(order)} tiles, the {family} list {len(expected)}"
                )
            if differ:
                first = differ[0]
                problems.append(
                    "the deal and wall are not the ones the secret and contributions give: "
                    f"{len(differ)} of {len(expected)} positions differ, the first at position "
                    f"{first + 1} of the dealing order ({order[first]} played, {expected[first]} expected)"
                )
    # 7. Wall hash, over the record's dealing order
    if order is not None and wall_hash(secret, order) != fair["wall_hash"]:
        problems.append("the dealing order, salted with the secret, does not hash to the wall hash")
    return algorithm, problems


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------------------------
# The tile flow ("Following the tiles")
# --------------------------------------------------------------------------------------------

ACTS = frozenset(["discard", "pong", "kong", "hu", "pass", "ready", "chow", "lay", "escape", "dissolve"])
NANJING_FLOWERS = frozenset(["5z", "6z", "7z", *FLOWER_TILES])

HONOUR_SUCCESSORS = {
    "winds_dragons": {"1z": "2z", "2z": "3z", "3z": "4z", "4z": "1z", "7z": "6z", "6z": "5z", "5z": "7z"},
    "riichi": {"1z": "2z", "2z": "3z", "3z": "4z", "4z": "1z", "5z": "6z", "6z": "7z", "7z": "5z"},
    "single_cycle": {"1z": "2z", "2z": "3z", "3z": "4z", "4z": "7z", "7z": "6z", "6z": "5z", "5z": "1z"},
}


def successor(tile: str, honour_successor: str) -> str:
    """Enshi's 赖子: the 痞子's next rank in its suit (9 -> 1), or for an honour by the option."""
    rank, suit = int(tile[0]), tile[1]
    if suit in "mps":
        return f"{rank % 9 + 1}{suit}"
    return HONOUR_SUCCESSORS[honour_successor][tile]


class Refused(Exception):
    """The hand is refused at this point: the first problem stops the check of its actions."""


class MatchOver(Exception):
    """An escape or a dissolve: the hand stops where it is and the match ends."""


def show(action: Any) -> str:
    return json.dumps(action, ensure_ascii=False)


class TileFlow:
    """Follows where every tile goes in one hand and refuses what the tiles do not allow."""

    def __init__(
        self, family: str, options: dict[str, Any], dealer: int, deal: list[list[str]], wall: list[str]
    ) -> None:
        self.family = family
        self.options = options
        self.wall = wall
        self.flowers = NANJING_FLOWERS if family == "nanjing" else frozenset()
        self.reserved = 16 if family == "nanjing" else 0
        set_aside = 4 if family == "nanning" and option(options, "fishing") == "s000_predraw" else 0
        self.front = 0
        self.back = len(wall) - 1 - set_aside
        self.concealed = [Counter(t for t in tiles if t not in self.flowers) for tiles in deal]
        self.pungs: list[set[str]] = [set() for _ in range(4)]
        self.ready = [False] * 4
        self.last_drawn: list[str | None] = [None] * 4
        self.turn = dealer
        self.window: dict[str, Any] | None = None  # kind, who, tile, decisions {seat: action}
        self.ended: str | None = None  # "won", "drawn", "abandoned"
        self.special: frozenset[str] = frozenset()
        self.pizi: str | None = None
        self.laizi: str | None = None
        self.before_play(dealer, deal)

    # -- the wall ------------------------------------------------------------------------------

    def live(self) -> int:
        return self.back - self.front + 1 - self.reserved

    def take(self, end: str) -> str:
        if end == "front":
            tile, self.front = self.wall[self.front], self.front + 1
        else:
            tile, self.back = self.wall[self.back], self.back - 1
        return tile

    def draw(self, seat: int, end: str = "front") -> None:
        """A draw (or a replacement from the back); flowers are laid aside and replaced."""
        while True:
            if self.live() <= 0:
                self.ended = "drawn"
                return
            tile = self.take(end)
            if tile in self.flowers:
                end = "back"
                continue
            self.concealed[seat][tile] += 1
            self.last_drawn[seat] = tile
            self.turn, self.window = seat, None
            return

    # -- 2. Before the first action ------------------------------------------------------------

    def before_play(self, dealer: int, deal: list[list[str]]) -> None:
        if self.family == "enshi":
            flip = option(self.options, "pizi_flip")
            self.pizi = self.take("front" if flip == "front" else "back")
            self.laizi = successor(self.pizi, option(self.options, "honour_successor"))
            self.special = frozenset([self.pizi, self.laizi])
        pending = [[t for t in tiles if t in self.flowers] for tiles in deal]
        while any(pending):
            kept: list[list[str]] = [[] for _ in range(4)]
            for step in range(4):
                seat = (dealer + step) % 4
                for _flower in pending[seat]:
                    if self.live() <= 0:
                        self.ended = "drawn"
                        return
                    tile = self.take("back")
                    if tile in self.flowers:
                        kept[seat].append(tile)
                    else:
                        self.concealed[seat][tile] += 1
            pending = kept
        if self.family == "nanjing":
            deciders = {(dealer + step) % 4 for step in (1, 2, 3)}
            self.window = {"kind": "ready", "who": dealer, "deciders": deciders, "decisions": {}}

    # -- 3. Each action --------------------------------------------------------------------------

    def play(self, action: Any) -> None:
        self.readable(action)
        act = action["act"]
        if act in ("escape", "dissolve"):
            self.ended, self.window = "abandoned", None
            raise MatchOver
        if self.ended:
            raise Refused("the hand is already over (" + self.ended + ")")
        if self.window is not None:
            why = self.decision(action)
            if why is None:
                self.window["decisions"][action["seat"]] = action
                return
            closed: dict[str, Any] = self.window
            self.close_window()
            if self.ended:
                raise Refused(f"the hand is already over ({self.ended})")
            self.on_turn(action, closed, why)
        else:
            self.on_turn(action, None, None)

    def readable(self, action: Any) -> None:
        if not isinstance(action, dict) or action.get("act") not in ACTS:
            raise Refused("unknown act")
        if action["act"] == "dissolve":
            if "seat" in action:  # record-format.md: a dissolve is {"act": "dissolve"}
                raise Refused("a dissolve has no seat")
            return
        seat = action.get("seat")
        if not is_int(seat) or seat not in (0, 1, 2, 3):
            raise Refused("the seat is not 0-3")
        act = action["act"]
        takes_tile = act in ("discard", "chow", "lay") or (act == "kong" and "tile" in action)
        if takes_tile and action.get("tile") not in ACTION_TILES:
            raise Refused("the tile is not one tile of 1m-7z")

    def decision(self, action: dict[str, Any]) -> str | None:
        """None when the action is a decision on the open window, else why it is not."""
        window = self.window
        assert window is not None
        seat, act = action["seat"], action["act"]
        if window["kind"] == "ready":
            if seat not in window["deciders"]:
                return "the dealer does not decide on 报听"
        elif seat == window["who"]:
            return f"seat {seat} opened the window"
        if seat in window["decisions"]:
            return f"seat {seat} has already decided"
        if window["kind"] == "ready":
            return None if act in ("ready", "pass") else "at 报听 only ready or pass"
        if window["kind"] == "kong":
            return None if act in ("hu", "pass") else "on an added kong only hu or pass"
        tile = window["tile"]
        if act in ("hu", "pass"):
            return None
        if act == "pong" or (act == "kong" and "tile" not in action):
            # Reading: "no claim is by a seat that declared ready" means pong, kong and chow, not hu
            if self.ready[seat]:
                return f"seat {seat} declared ready"
            if tile in self.special:
                return f"{tile} is special"
            held = self.concealed[seat][tile]
            if act == "pong":
                return None if held >= 2 else f"seat {seat} holds {held} {tile}, a pong takes 2"
            if held != 3:
                return f"seat {seat} holds {held} {tile}, a kong takes 3"
            return None if self.live() > 0 else "no live tile for a kong"
        if act == "chow":
            return self.chow_problem(seat, window["who"], tile, action["tile"])
        return f"{act} is no decision on a discard"

    def close_window(self) -> None:
        """Every seat still undecided passes."""
        window, self.window = self.window, None
        assert window is not None
        decisions: dict[int, dict[str, Any]] = window["decisions"]
        who = window["who"]
        if window["kind"] == "ready":
            for seat, decided in decisions.items():
                if decided["act"] == "ready":
                    self.ready[seat] = True
            self.turn = who
            return
        if any(decided["act"] == "hu" for decided in decisions.values()):
            self.ended = "won"
            return
        tile = window["tile"]
        if window["kind"] == "kong":  # nobody robbed it: the added kong is completed
            self.concealed[who][tile] -= 1
            self.pungs[who].discard(tile)
            self.draw(who, "back")
            return
        for step in (1, 2, 3):
            seat = (who + step) % 4
            claim = decisions.get(seat, {}).get("act")
            if claim == "pong":
                self.concealed[seat][tile] -= 2
                self.pungs[seat].add(tile)
                self.last_drawn[seat] = None
                self.turn = seat
                return
            if claim == "kong":
                self.concealed[seat][tile] -= 3
                self.last_drawn[seat] = None
                self.draw(seat, "back")
                return
        for seat, decided in decisions.items():
            if decided["act"] == "chow":
                self.take_chow(seat, tile, decided["tile"])
                self.last_drawn[seat] = None
                self.turn = seat
                return
        self.draw((who + 1) % 4, "front")

    def on_turn(self, action: dict[str, Any], closed: dict[str, Any] | None, why: str | None) -> None:
        t, seat, act = self.turn, action.get("seat"), action["act"]
        tile: str = action.get("tile", "")
        if act in ("pong", "chow", "pass") or (act == "kong" and "tile" not in action):
            reason = f" ({why})" if closed is not None and closed["kind"] == "discard" and why else ""
            raise Refused(f"there is no discard to claim{reason}")
        if act == "ready":
            raise Refused("报听 comes before play")
        if seat != t:
            raise Refused(f"it is seat {t}'s turn, not seat {seat}'s")
        if (
            self.pizi is not None
            and option(self.options, "forbid_keeping_pizi") is True
            and self.concealed[t][self.pizi] > 0
            and self.live() > 0
            and act != "lay"
        ):
            raise Refused(f"seat {t} holds a 痞子 ({self.pizi}) and may only lay it")
        if act == "hu":
            self.ended = "won"
        elif act == "discard":
            self.discard(t, tile)
        elif act == "kong":
            self.kong(t, tile)
        elif act == "lay":
            self.lay(t, tile)

    def discard(self, t: int, tile: str) -> None:
        hand = self.concealed[t]
        if hand[tile] < 1:
            raise Refused(f"seat {t} does not hold {tile}")
        if self.ready[t] and tile != self.last_drawn[t]:
            raise Refused(f"seat {t} declared ready and may discard only the tile it drew last")
        if tile in self.special and not (
            self.live() <= 0 and all(kind in self.special for kind, n in hand.items() if n > 0)
        ):
            raise Refused(f"{tile} is special and may not be discarded")
        hand[tile] -= 1
        self.last_drawn[t] = None
        if tile in self.special:
            self.draw((t + 1) % 4, "front")
        else:
            self.window = {"kind": "discard", "who": t, "tile": tile, "decisions": {}}

    def kong(self, t: int, tile: str) -> None:
        if tile in self.special:
            raise Refused(f"{tile} is special: no kong of it")
        dihu = self.family == "nanjing" and option(self.options, "dihu_allow_kong_same_waits") is True
        if self.ready[t] and not dihu:
            raise Refused(f"seat {t} declared ready")
        if self.live() <= 0:
            raise Refused("no live tile for a kong's replacement")
        hand = self.concealed[t]
        if hand[tile] == 4:
            hand[tile] -= 4
            self.last_drawn[t] = None
            self.draw(t, "back")
        elif tile in self.pungs[t] and hand[tile] >= 1:
            self.last_drawn[t] = None
            self.window = {"kind": "kong", "who": t, "tile": tile, "decisions": {}}
        else:
            raise Refused(f"seat {t} holds neither four {tile} nor a pung of it and one more")

    def lay(self, t: int, tile: str) -> None:
        if tile not in self.special:
            raise Refused(f"{tile} is neither the 痞子 nor the 赖子")
        if self.concealed[t][tile] < 1:
            raise Refused(f"seat {t} does not hold {tile}")
        if self.live() <= 0:
            raise Refused("no live tile for a replacement")
        self.concealed[t][tile] -= 1
        self.last_drawn[t] = None
        self.draw(t, "back")

    # -- 5. Chow -----------------------------------------------------------------------------------

    def chow_others(self, tile: str, low: str) -> list[str] | None:
        """The run's two kinds other than the discard, or None when the run does not fit."""
        rank, suit = int(tile[0]), tile[1]
        low_rank = int(low[0])
        if suit not in "mps" or low[1] != suit or not low_rank <= rank <= low_rank + 2 or low_rank > 7:
            return None
        return [f"{r}{suit}" for r in range(low_rank, low_rank + 3) if r != rank]

    def chow_problem(self, seat: int, discarder: int, tile: str, low: str) -> str | None:
        if self.family != "enshi" or option(self.options, "chow") is not True:
            return "no chow in these rules"
        if seat != (discarder + 1) % 4:
            return "only the discarder's next seat may chow"
        if self.ready[seat]:
            return f"seat {seat} declared ready"
        if tile in self.special:
            return f"{tile} is special"
        others = self.chow_others(tile, low)
        if others is None:
            return f"no run from {low} holds {tile}"
        hand = self.concealed[seat]
        missing = [kind for kind in others if hand[kind] == 0 or kind in self.special]
        if not missing:
            return None
        laizi = self.laizi
        laizi_ok = option(self.options, "laizi_in_melds") is True and laizi is not None and hand[laizi] > 0
        if len(missing) == 1 and laizi_ok:
            return None
        return f"seat {seat} lacks {' '.join(missing)} for the chow"

    def take_chow(self, seat: int, tile: str, low: str) -> None:
        hand = self.concealed[seat]
        others = self.chow_others(tile, low)
        assert others is not None
        for kind in others:
            # As written: "gives that kind if it holds one and it is not special, else a 赖子"
            if hand[kind] > 0 and kind not in self.special:
                hand[kind] -= 1
            else:
                assert self.laizi is not None
                hand[self.laizi] -= 1

    # -- 4. At the end ---------------------------------------------------------------------------------

    def finish(self) -> None:
        if self.ended is None and self.window is not None:
            self.close_window()
        if self.ended is None:
            raise Refused(f"the record stops before the hand is over (seat {self.turn} is to play)")


# --------------------------------------------------------------------------------------------
# One hand's tiles: "1. The deal" and the actions
# --------------------------------------------------------------------------------------------


def read_deal(
    hand: dict[str, Any], family: str | None, options: dict[str, Any]
) -> tuple[int, list[list[str]], list[str], list[str]]:
    """Reads dealer, deal and wall; raises Refused when the check of the hand must stop (1.1, 1.2).
    Returns also the problems that do not stop it (1.3)."""
    dealer = hand.get("dealer", 0)
    if not is_int(dealer) or not 0 <= dealer <= 3:
        raise Refused("the dealer is not a seat 0-3")
    deal = hand.get("deal")
    if not isinstance(deal, list) or len(deal) != 4:
        raise Refused("'deal' is not four strings")
    try:
        seats = [read_notation(text) for text in deal]
    except NotationError as error:
        raise Refused(f"'deal': {error}") from None
    try:
        wall = read_notation(hand.get("wall"))
    except NotationError as error:
        raise Refused(f"'wall': {error}") from None
    for seat, tiles in enumerate(seats):
        want = 14 if seat == dealer else 13
        if len(tiles) != want:
            raise Refused(f"seat {seat} is dealt {len(tiles)} tiles, not {want}")
    problems = []
    if family is not None:
        full = Counter(tile_list(family, options))
        have = Counter(tile for tiles in seats for tile in tiles) + Counter(wall)
        if have != full:
            missing = " ".join(sorted((full - have).elements()))
            extra = " ".join(sorted((have - full).elements()))
            text = f"deal + wall must be exactly the {family} set of tiles:"
            text += f" missing {missing}" if missing else ""
            text += f" extra {extra}" if extra else ""
            problems.append(text)
    return dealer, seats, wall, problems


def follow_actions(flow: TileFlow, actions: Any) -> tuple[list[str], str | None]:
    """Plays the actions; returns (problems, how the match ended here, if it did)."""
    if not isinstance(actions, list):
        return ["'actions' is not a list"], None
    for index, action in enumerate(actions):
        try:
            flow.play(action)
        except Refused as refused:
            return [f"action {index} ({show(action)}): {refused}"], None
        except MatchOver:
            rest = actions[index + 1 :]
            ended = (
                f"the match was dissolved (解散) at action {index}"
                if action["act"] == "dissolve"
                else f"the match ended when seat {action['seat']} left (逃跑) at action {index}"
            )
            if rest:
                return [f"action {index + 1} ({show(rest[0])}): {ended}; nothing may follow"], ended
            return [], ended
    try:
        flow.finish()
    except Refused as refused:
        return [str(refused)], None
    return [], None


# --------------------------------------------------------------------------------------------
# The whole record
# --------------------------------------------------------------------------------------------

V1_CAVEAT = (
    "hupai-fair/1 does not tie a hand to its room and place in the match: a hand moved, repeated "
    "or taken from another room is not detected"
)


def verify(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Per hand: {"verified": True / False / None, "problems": [...]} (None: no fair data),
    with "index" (the hand's index in its match) and, for hupai-fair/1, "caveats"."""
    hands = record.get("hands") if isinstance(record, dict) else None
    if not isinstance(hands, list):
        return []
    family = ruleset_family(record.get("ruleset"))
    options = record.get("options") or {}
    if not isinstance(options, dict):
        options = {}
    first_index = record.get("hand_index", 0)
    placing = Placing(record.get("room"))
    # "In a record where any hand is hupai-fair/2, a hand without its fair object had it removed: it
    # is not verified" (docs/fairness.md).
    all_fair = any(
        isinstance(hand, dict)
        and isinstance(hand.get("fair"), dict)
        and hand["fair"].get("algorithm") == "hupai-fair/2"
        for hand in hands
    )
    results: list[dict[str, Any]] = []
    match_ended: str | None = None
    for position, hand in enumerate(hands):
        index = first_index + position if is_int(first_index) else None
        if not isinstance(hand, dict):
            results.append({"index": index, "verified": False, "problems": ["a hand is not an object"]})
            continue
        problems = [] if family is not None else [f"unknown rule set {record.get('ruleset')!r}"]
        order: list[str] | None = None
        if match_ended is not None:
            problems.append(f"{match_ended}; nothing may follow")
        else:
            order, tile_problems, ended = follow_hand(hand, family, options)
            problems += tile_problems
            if ended is not None:
                match_ended = f"{ended} of hand {index}"
        fair = hand.get("fair")
        if fair is None:
            # "not verifiable" — unless its actions fail, which makes it NOT verified (docs/fairness.md)
            if all_fair:
                problems = ["no 'fair' object in a record of hupai-fair/2 hands: removed", *problems]
            results.append({"index": index, "verified": False if problems else None, "problems": problems})
            continue
        algorithm, fair_problems = check_fair(fair, family, options, order)
        result: dict[str, Any] = {"index": index}
        if algorithm == "hupai-fair/2":
            fair_problems += placing.problems(fair, index)
        elif algorithm == "hupai-fair/1":
            result["caveats"] = [V1_CAVEAT]
        problems = fair_problems + problems
        results.append({**result, "verified": not problems, "problems": problems})
    return results


def follow_hand(
    hand: dict[str, Any], family: str | None, options: dict[str, Any]
) -> tuple[list[str] | None, list[str], str | None]:
    """The deal checked and the actions followed: (the record's dealing order, if it reads; the
    problems; how the match ended in this hand, if it did)."""
    if "seed" in hand and "deal" not in hand:
        problems = ["a fair deal goes with 'deal' and 'wall', not a 'seed'"] if "fair" in hand else []
        return None, problems, None  # a hand dealt from a seed has no tiles to follow
    try:
        dealer, deal, wall, problems = read_deal(hand, family, options)
    except Refused as refused:
        return None, [str(refused)], None
    order = record_order(dealer, deal, wall)
    if family is None:
        return order, problems, None
    try:
        flow = TileFlow(family, options, dealer, deal, wall)
        action_problems, ended = follow_actions(flow, hand.get("actions", []))
    except IndexError:  # a wall with nothing to turn up as the 痞子
        action_problems, ended = ["the wall is empty"], None
    return order, problems + action_problems, ended


class Placing:
    """ "The whole record": room, index, order and uniqueness of the hupai-fair/2 hands."""

    def __init__(self, room: Any) -> None:
        self.room = room
        self.previous: int | None = None  # the last hupai-fair/2 hand's fair.hand
        self.seen: dict[str, dict[str, Any]] = {"commitment": {}, "secret": {}}

    def problems(self, fair: dict[str, Any], index: int | None) -> list[str]:
        problems = []
        if not isinstance(self.room, str):
            problems.append("the record has no 'room': it cannot show whose hands it holds")
        elif fair.get("room") != self.room:
            problems.append(
                f"it was dealt for room {fair.get('room')!r}, not this record's room {self.room!r}"
            )
        hand = fair.get("hand")
        if index is None:
            problems.append("the record's 'hand_index' is not an integer")
        elif hand != index:
            problems.append(f"it was dealt as hand index {hand!r}, but stands at index {index}")
        if is_int(hand):
            # Reading: "the one before it" is the last hupai-fair/2 hand before it in the record
            if self.previous is not None and hand <= self.previous:
                problems.append(f"it comes after hand index {self.previous}, not before it")
            self.previous = hand
        # Reading: of two hands that share a commitment or a secret, the later one fails
        for field, seen in self.seen.items():
            value = fair.get(field)
            if value in seen:
                problems.append(f"its {field} is also the one of hand index {seen[value]}")
            elif isinstance(value, str):
                seen[value] = hand
        return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python verifier.py RECORD.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as file:
        record = json.load(file)
    results = verify(record)
    for position, result in enumerate(results):
        label = result["index"] if result["index"] is not None else position
        verdict = {True: "verified", False: "NOT verified", None: "not verifiable (no fair data)"}
        print(f"hand {label} (第{label + 1}局): {verdict[result['verified']]}")
        for problem in result["problems"]:
            print(f"  - {problem}")
        for caveat in result.get("caveats", []):
            print(f"  note: {caveat}")
    verdicts = [result["verified"] for result in results]
    if False in verdicts:
        return 1
    return 0 if True in verdicts else 3  # 3: nothing failed, nothing verifiable (docs/fairness.md)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
