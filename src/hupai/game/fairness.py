"""Fair deals (``hupai-fair/2``, and ``hupai-fair/1`` before it): a wall that neither the server nor
any player chooses alone.

Before a hand is dealt the server announces a *commitment* to that hand's 32-byte secret. Each human
seat then sends a random *contribution*; the wall is shuffled from the secret together with all four
contributions, and after the hand the secret and the contributions are written in the record, so
anyone can recompute the commitment and the wall (:func:`verify_deal`). Every byte is in
``docs/fairness.md``; in short, with ``place = room + "|" + hand`` (the room number, and the hand's
0-based index in the match in decimal):

1. ``commitment = SHA-256("hupai-fair/2|" + place + "|" + secret)`` and
   ``key = SHA-256("hupai-fair/2|" + place + "|" + secret + "|" + c0 + "|" + c1 + "|" + c2 + "|" + c3)``,
   over ASCII, the secret and the contributions written in lowercase hex (an absent one is "").
   ``hupai-fair/1`` had no place: its commitment is SHA-256 of the secret's 32 bytes and its key
   ``SHA-256("hupai-fair/1|" + secret + "|" + c0 + … + c3)``, so a v1 hand is not tied to its room
   and place in the match.
2. A byte stream: ``SHA-256(key || counter)`` for counter = 0, 1, 2, … as 8 bytes big-endian.
3. A number below *n* from it: the next 4 bytes as a big-endian integer *u*, drawn again while
   ``u >= 2**32 - 2**32 % n`` (so every number is equally likely), then ``u % n``.
4. Fisher–Yates over the rule set's sorted tile list: for *i* from the last position down to 1,
   swap position *i* with position ``below(i + 1)``.
5. The shuffled list is the dealing order: 14 to the dealer, 13 to each next seat in turn order,
   and the rest is the wall, front (next draw) first.

The salted wall hash ``SHA-256(secret + ":" + notation of the dealing order)`` is announced with
the deal (the secret is the salt), so a player can check later that the wall played is the one
announced. It is the same in both versions.

>>> secret = "00" * 32
>>> commitment(secret)[:16]  # hupai-fair/1
'66687aadf862bd77'
>>> commitment(secret, room="200358", hand=0)[:16]  # hupai-fair/2
'29751ba8b852ea83'
>>> len(fair_order(list(range(136)), secret, ["", "", "", ""], room="200358", hand=0))
136
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets as _secrets
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hupai.tiles import format_tiles

__all__ = [
    "ALGORITHM",
    "ALGORITHMS",
    "ALGORITHM_V1",
    "ALGORITHM_V2",
    "CONTRIBUTION_MAX",
    "V1_CAVEAT",
    "FairDeal",
    "FairDealError",
    "commitment",
    "contribution_or_error",
    "dealing_order",
    "fair_order",
    "fingerprint",
    "hand_secret",
    "new_room_secret",
    "room_algorithm",
    "shuffle_key",
    "verify_deal",
    "wall_hash",
]

ALGORITHM_V1 = "hupai-fair/1"
ALGORITHM_V2 = "hupai-fair/2"
ALGORITHM = ALGORITHM_V2  # what new rooms deal with
ALGORITHMS = (ALGORITHM_V1, ALGORITHM_V2)
V1_CAVEAT = (
    "hupai-fair/1 does not tie a hand to its room and place in the match: a hand moved, repeated or "
    "taken from another room is not detected"
)
SEATS = 4  # (not imported from the game model, which carries a FairDeal: no import cycle)
SECRET_HEX = 64  # 32 bytes
CONTRIBUTION_MAX = 64  # hex digits: up to 32 bytes from each seat
ROOM_MAX = 32  # digits of a room number (hupai's are 6)
_HEX = re.compile(r"[0-9a-f]*")
_ROOM = re.compile(r"[0-9]+")
_UINT32 = 1 << 32
_ROOM_TAG = 8  # hex digits at the end of a hupai-fair/2 room's secret (room_algorithm)


class FairDealError(ValueError):
    """Fair-deal data of the wrong shape (a secret that is not 64 hex digits, …)."""


# --- the server's side -----------------------------------------------------------------------------


def new_room_secret() -> str:
    """A room's master secret; each hand's secret is derived from it (:func:`hand_secret`).

    Its last 8 hex digits are a tag saying that the room deals with ``hupai-fair/2``
    (:func:`room_algorithm`): 224 random bits, and the algorithm stays with the room however often
    its table is rebuilt, so a match begun under ``hupai-fair/1`` goes on dealing the same walls."""
    body = _secrets.token_hex((SECRET_HEX - _ROOM_TAG) // 2)
    return body + _room_tag(body)


def room_algorithm(room_secret: str) -> str:
    """The algorithm a room's hands are dealt with: ``hupai-fair/2`` when its secret carries the tag
    :func:`new_room_secret` writes, ``hupai-fair/1`` for a room made before (its secret is 32 random
    bytes, which carry the tag by chance once in 2**32)."""
    body, tag = _secret_or_error(room_secret)[:-_ROOM_TAG], room_secret[-_ROOM_TAG:]
    return ALGORITHM_V2 if hmac.compare_digest(tag, _room_tag(body)) else ALGORITHM_V1


def _room_tag(body: str) -> str:
    return hashlib.sha256(f"{ALGORITHM_V2} room|{body}".encode("ascii")).hexdigest()[:_ROOM_TAG]


def hand_secret(room_secret: str, index: int) -> str:
    """The secret of hand ``index``: HMAC-SHA-256 of the room's secret, so revealing one hand's
    secret tells nothing about the next one, and a restarted server deals the same hand again.
    (The label names ``hupai-fair/1`` in every room: the secret is the server's own business, and
    hands already dealt stay the same.)"""
    key = bytes.fromhex(_secret_or_error(room_secret))
    return hmac.new(key, f"{ALGORITHM_V1} hand {index}".encode(), hashlib.sha256).hexdigest()


def contribution_or_error(value: object) -> str:
    """A seat's contribution as sent by its client: 0 to 64 lowercase hex digits."""
    if not isinstance(value, str):
        raise FairDealError("a contribution is a string of hex digits")
    if len(value) > CONTRIBUTION_MAX or not _HEX.fullmatch(value):
        raise FairDealError(f"a contribution is 0 to {CONTRIBUTION_MAX} lowercase hex digits")
    return value


# --- the algorithm ---------------------------------------------------------------------------------


def _head(secret: str, room: str | None, hand: int | None) -> list[str]:
    """What the commitment and the key begin with: ``hupai-fair/2``, the room, the hand and the
    secret; ``hupai-fair/1`` and the secret when no place is given."""
    secret = _secret_or_error(secret)
    if room is None and hand is None:
        return [ALGORITHM_V1, secret]
    return [ALGORITHM_V2, _room_or_error(room), str(_hand_or_error(hand)), secret]


def commitment(secret: str, room: str | None = None, hand: int | None = None) -> str:
    """Announced before anyone contributes, in hex. ``hupai-fair/2`` (with the room and the hand's
    index): SHA-256 of ``hupai-fair/2|room|hand|secret`` in ASCII; ``hupai-fair/1`` (neither):
    SHA-256 of the secret's 32 bytes."""
    head = _head(secret, room, hand)
    if head[0] == ALGORITHM_V1:
        return hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    return hashlib.sha256("|".join(head).encode("ascii")).hexdigest()


def fingerprint(digest: str) -> str:
    """A short form of a hash for people to compare at a glance: ``66687aad f862bd77``."""
    return f"{digest[:8]} {digest[8:16]}"


def shuffle_key(
    secret: str, contributions: Sequence[str], room: str | None = None, hand: int | None = None
) -> bytes:
    """Step 1: the key every random number of the shuffle comes from (``hupai-fair/2`` with the
    room and the hand's index, ``hupai-fair/1`` without)."""
    if len(contributions) != SEATS:
        raise FairDealError(f"give {SEATS} contributions, one a seat ('' for none)")
    parts = [*_head(secret, room, hand), *(contribution_or_error(c) for c in contributions)]
    return hashlib.sha256("|".join(parts).encode("ascii")).digest()


def _stream(key: bytes) -> Iterator[int]:
    """Step 2 and the first half of step 3: 32-bit numbers from SHA-256 in counter mode."""
    counter = 0
    while True:
        block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
        for start in range(0, len(block), 4):
            yield int.from_bytes(block[start : start + 4], "big")
        counter += 1


def _below(numbers: Iterator[int], n: int) -> int:
    """Step 3: a number in [0, n), each equally likely (draws past the last whole multiple of n
    are thrown away rather than folded, which would favour small numbers)."""
    limit = _UINT32 - _UINT32 % n
    while True:
        value = next(numbers)
        if value < limit:
            return value % n


def fair_order(
    tiles: Sequence[int],
    secret: str,
    contributions: Sequence[str],
    room: str | None = None,
    hand: int | None = None,
) -> list[int]:
    """Step 4: the dealing order. ``tiles`` is the rule set's tile list (sorted here)."""
    order = sorted(tiles)
    numbers = _stream(shuffle_key(secret, contributions, room, hand))
    for position in range(len(order) - 1, 0, -1):
        other = _below(numbers, position + 1)
        order[position], order[other] = order[other], order[position]
    return order


def wall_hash(secret: str, order: Sequence[int]) -> str:
    """SHA-256 of ``secret:notation`` of the dealing order, announced with the deal."""
    return hashlib.sha256(f"{_secret_or_error(secret)}:{format_tiles(order)}".encode("ascii")).hexdigest()


def dealing_order(dealer: int, deal: Sequence[Sequence[int]], wall: Sequence[int]) -> list[int]:
    """Step 5 backwards: the tiles in the order they were dealt (dealer first), then the wall."""
    order: list[int] = []
    for offset in range(SEATS):
        order.extend(deal[(dealer + offset) % SEATS])
    order.extend(wall)
    return order


# --- what a record carries -------------------------------------------------------------------------

_V1_FIELDS = ("algorithm", "commitment", "wall_hash", "secret", "contributions")
_V2_FIELDS = ("algorithm", "room", "hand", "commitment", "wall_hash", "secret", "contributions")


@dataclass(frozen=True, slots=True)
class FairDeal:
    """A hand's fair-deal facts, as the record's ``fair`` object writes them. ``room`` and ``hand``
    (the room number and the hand's 0-based index in its match) are ``hupai-fair/2``'s; a
    ``hupai-fair/1`` deal has neither."""

    secret: str
    contributions: tuple[str, str, str, str]
    commitment: str
    wall_hash: str
    algorithm: str = ALGORITHM_V1
    room: str | None = None
    hand: int | None = None

    @classmethod
    def make(
        cls,
        secret: str,
        contributions: Sequence[str],
        order: Sequence[int],
        room: str | None = None,
        hand: int | None = None,
    ) -> FairDeal:
        """The facts of a hand dealt by this algorithm (``order`` is its dealing order):
        ``hupai-fair/2`` with a room and a hand index, ``hupai-fair/1`` without."""
        c0, c1, c2, c3 = (contribution_or_error(value) for value in contributions)
        algorithm = _head(secret, room, hand)[0]
        return cls(
            secret,
            (c0, c1, c2, c3),
            commitment(secret, room, hand),
            wall_hash(secret, order),
            algorithm,
            room,
            hand,
        )

    def as_dict(self) -> dict[str, Any]:
        place: dict[str, Any] = {}
        if self.algorithm != ALGORITHM_V1:
            place = {"room": self.room, "hand": self.hand}
        return {
            "algorithm": self.algorithm,
            **place,
            "commitment": self.commitment,
            "wall_hash": self.wall_hash,
            "secret": self.secret,
            "contributions": list(self.contributions),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> FairDeal:
        """Read a record's ``fair`` object; shapes are checked here, values by :func:`verify_deal`."""
        if not isinstance(data, Mapping):
            raise FairDealError("'fair' is an object")
        algorithm = data.get("algorithm")
        if algorithm not in ALGORITHMS:
            known = " or ".join(repr(name) for name in ALGORITHMS)
            raise FairDealError(f"'fair.algorithm' is {known}, not {algorithm!r}: an algorithm hupai knows")
        fields = _V1_FIELDS if algorithm == ALGORITHM_V1 else _V2_FIELDS
        unknown = sorted(str(key) for key in data if key not in fields)
        if unknown:
            raise FairDealError(
                f"'fair' has unknown fields for {algorithm}: {', '.join(unknown)} "
                f"(it has {', '.join(fields)})"
            )
        room: str | None = None
        hand: int | None = None
        if algorithm == ALGORITHM_V2:
            room = _room_or_error(data.get("room"), "'fair.room'")
            hand = _hand_or_error(data.get("hand"), "'fair.hand'")
        contributions = data.get("contributions")
        if not isinstance(contributions, list) or len(contributions) != SEATS:
            raise FairDealError(f"'fair.contributions' lists {SEATS} strings of hex digits")
        c0, c1, c2, c3 = (contribution_or_error(value) for value in contributions)
        return cls(
            secret=_secret_or_error(data.get("secret"), "'fair.secret'"),
            contributions=(c0, c1, c2, c3),
            commitment=_secret_or_error(data.get("commitment"), "'fair.commitment'"),
            wall_hash=_secret_or_error(data.get("wall_hash"), "'fair.wall_hash'"),
            algorithm=str(algorithm),
            room=room,
            hand=hand,
        )


def verify_deal(
    tiles: Sequence[int], dealer: int, deal: Sequence[Sequence[int]], wall: Sequence[int], fair: FairDeal
) -> list[str]:
    """What does not match, in words (empty when the hand verifies): the commitment, the deal and
    wall, the wall hash. Whether ``fair.room`` and ``fair.hand`` are the record's own room and the
    hand's place in it is for the whole record to say (:func:`hupai.replay.verify_record`).

    ``tiles`` is the rule set's tile list; ``deal`` and ``wall`` are the ones the hand was played with.
    """
    problems = []
    expected_commitment = commitment(fair.secret, fair.room, fair.hand)
    if expected_commitment != fair.commitment:
        hashed = (
            "SHA-256 of the secret"
            if fair.algorithm == ALGORITHM_V1
            else f'SHA-256 of "{ALGORITHM_V2}|{fair.room}|{fair.hand}|" and the secret'
        )
        problems.append(
            f"the secret does not hash to the commitment announced before the deal "
            f"({hashed} is {fingerprint(expected_commitment)}, "
            f"the commitment is {fingerprint(fair.commitment)})"
        )
    played = dealing_order(dealer, deal, wall)
    expected = fair_order(tiles, fair.secret, fair.contributions, fair.room, fair.hand)
    if played != expected:
        problems.append(_first_difference(played, expected))
    if wall_hash(fair.secret, played) != fair.wall_hash:
        problems.append("the wall played does not hash to the wall hash announced with the deal")
    return problems


def _first_difference(played: Sequence[int], expected: Sequence[int]) -> str:
    if len(played) != len(expected):
        return f"the hand was dealt {len(played)} tiles, the rule set has {len(expected)}"
    differ = [index for index, (a, b) in enumerate(zip(played, expected, strict=True)) if a != b]
    first = differ[0]
    return (
        f"the deal and wall are not the ones the secret and contributions give: "
        f"{len(differ)} of {len(played)} positions differ, the first at position {first + 1} of the "
        f"dealing order ({format_tiles([played[first]])} played, {format_tiles([expected[first]])} expected)"
    )


def _secret_or_error(value: object, name: str = "a secret") -> str:
    if not isinstance(value, str) or len(value) != SECRET_HEX or not _HEX.fullmatch(value):
        raise FairDealError(f"{name} is {SECRET_HEX} lowercase hex digits")
    return value


def _room_or_error(value: object, name: str = "the room") -> str:
    if not isinstance(value, str) or len(value) > ROOM_MAX or not _ROOM.fullmatch(value):
        raise FairDealError(f"{name} is a room number: 1 to {ROOM_MAX} digits 0-9, as a string")
    return value


def _hand_or_error(value: object, name: str = "the hand") -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FairDealError(f"{name} is the hand's index in its match: a whole number from 0")
    return value
