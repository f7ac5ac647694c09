"""Fair deals (``hupai-fair/1``): a wall that neither the server nor any player chooses alone.

Before a hand is dealt the server announces ``commitment = SHA-256(secret)`` for that hand's
32-byte secret. Each human seat then sends a random *contribution*; the wall is shuffled from the
secret together with all four contributions, and after the hand the secret and the contributions
are written in the record, so anyone can recompute the commitment and the wall
(:func:`verify_deal`). The algorithm, step by step, is in ``docs/fairness.md``:

1. ``key = SHA-256("hupai-fair/1|" + secret + "|" + c0 + "|" + c1 + "|" + c2 + "|" + c3)`` over
   ASCII, the secret and the contributions written in lowercase hex (an absent one is "").
2. A byte stream: ``SHA-256(key || counter)`` for counter = 0, 1, 2, … as 8 bytes big-endian.
3. A number below *n* from it: the next 4 bytes as a big-endian integer *u*, drawn again while
   ``u >= 2**32 - 2**32 % n`` (so every number is equally likely), then ``u % n``.
4. Fisher–Yates over the rule set's sorted tile list: for *i* from the last position down to 1,
   swap position *i* with position ``below(i + 1)``.
5. The shuffled list is the dealing order: 14 to the dealer, 13 to each next seat in turn order,
   and the rest is the wall, front (next draw) first.

The salted wall hash ``SHA-256(secret + ":" + notation of the dealing order)`` is announced with
the deal (the secret is the salt), so a player can check later that the wall played is the one
announced.

>>> secret = "00" * 32
>>> commitment(secret)[:16]
'66687aadf862bd77'
>>> len(fair_order(list(range(136)), secret, ["", "", "", ""]))
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
    "CONTRIBUTION_MAX",
    "FairDeal",
    "FairDealError",
    "commitment",
    "contribution_or_error",
    "dealing_order",
    "fair_order",
    "fingerprint",
    "hand_secret",
    "new_room_secret",
    "shuffle_key",
    "verify_deal",
    "wall_hash",
]

ALGORITHM = "hupai-fair/1"
SEATS = 4  # (not imported from the game model, which carries a FairDeal: no import cycle)
SECRET_HEX = 64  # 32 bytes
CONTRIBUTION_MAX = 64  # hex digits: up to 32 bytes from each seat
_HEX = re.compile(r"[0-9a-f]*")
_UINT32 = 1 << 32


class FairDealError(ValueError):
    """Fair-deal data of the wrong shape (a secret that is not 64 hex digits, …)."""


# --- the server's side -----------------------------------------------------------------------------


def new_room_secret() -> str:
    """A room's master secret; each hand's secret is derived from it (:func:`hand_secret`)."""
    return _secrets.token_hex(32)


def hand_secret(room_secret: str, index: int) -> str:
    """The secret of hand ``index``: HMAC-SHA-256 of the room's secret, so revealing one hand's
    secret tells nothing about the next one, and a restarted server deals the same hand again."""
    key = bytes.fromhex(_secret_or_error(room_secret))
    return hmac.new(key, f"{ALGORITHM} hand {index}".encode(), hashlib.sha256).hexdigest()


def contribution_or_error(value: object) -> str:
    """A seat's contribution as sent by its client: 0 to 64 lowercase hex digits."""
    if not isinstance(value, str):
        raise FairDealError("a contribution is a string of hex digits")
    if len(value) > CONTRIBUTION_MAX or not _HEX.fullmatch(value):
        raise FairDealError(f"a contribution is 0 to {CONTRIBUTION_MAX} lowercase hex digits")
    return value


# --- the algorithm ---------------------------------------------------------------------------------


def commitment(secret: str) -> str:
    """SHA-256 of the secret's 32 bytes, in hex: announced before anyone contributes."""
    return hashlib.sha256(bytes.fromhex(_secret_or_error(secret))).hexdigest()


def fingerprint(digest: str) -> str:
    """A short form of a hash for people to compare at a glance: ``66687aad f862bd77``."""
    return f"{digest[:8]} {digest[8:16]}"


def shuffle_key(secret: str, contributions: Sequence[str]) -> bytes:
    """Step 1: the key every random number of the shuffle comes from."""
    if len(contributions) != SEATS:
        raise FairDealError(f"give {SEATS} contributions, one a seat ('' for none)")
    parts = [ALGORITHM, _secret_or_error(secret), *(contribution_or_error(c) for c in contributions)]
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


def fair_order(tiles: Sequence[int], secret: str, contributions: Sequence[str]) -> list[int]:
    """Step 4: the dealing order. ``tiles`` is the rule set's tile list (sorted here)."""
    order = sorted(tiles)
    numbers = _stream(shuffle_key(secret, contributions))
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


@dataclass(frozen=True, slots=True)
class FairDeal:
    """A hand's fair-deal facts, as the record's ``fair`` object writes them."""

    secret: str
    contributions: tuple[str, str, str, str]
    commitment: str
    wall_hash: str
    algorithm: str = ALGORITHM

    @classmethod
    def make(cls, secret: str, contributions: Sequence[str], order: Sequence[int]) -> FairDeal:
        """The facts of a hand dealt by this algorithm (``order`` is its dealing order)."""
        c0, c1, c2, c3 = (contribution_or_error(value) for value in contributions)
        return cls(secret, (c0, c1, c2, c3), commitment(secret), wall_hash(secret, order))

    def as_dict(self) -> dict[str, Any]:
        return {
            "algorithm": self.algorithm,
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
        unknown = sorted(set(data) - {"algorithm", "commitment", "wall_hash", "secret", "contributions"})
        if unknown:
            raise FairDealError(f"'fair' has unknown fields: {', '.join(unknown)}")
        algorithm = data.get("algorithm")
        if algorithm != ALGORITHM:
            raise FairDealError(f"'fair.algorithm' is {ALGORITHM!r}, not {algorithm!r}")
        contributions = data.get("contributions")
        if not isinstance(contributions, list) or len(contributions) != SEATS:
            raise FairDealError(f"'fair.contributions' lists {SEATS} strings of hex digits")
        c0, c1, c2, c3 = (contribution_or_error(value) for value in contributions)
        return cls(
            secret=_secret_or_error(data.get("secret"), "'fair.secret'"),
            contributions=(c0, c1, c2, c3),
            commitment=_secret_or_error(data.get("commitment"), "'fair.commitment'"),
            wall_hash=_secret_or_error(data.get("wall_hash"), "'fair.wall_hash'"),
            algorithm=algorithm,
        )


def verify_deal(
    tiles: Sequence[int], dealer: int, deal: Sequence[Sequence[int]], wall: Sequence[int], fair: FairDeal
) -> list[str]:
    """What does not match, in words (empty when the hand verifies).

    ``tiles`` is the rule set's tile list; ``deal`` and ``wall`` are the ones the hand was played with.
    """
    problems = []
    if commitment(fair.secret) != fair.commitment:
        problems.append(
            f"the secret does not hash to the commitment announced before the deal "
            f"(SHA-256 of the secret is {fingerprint(commitment(fair.secret))}, "
            f"the commitment is {fingerprint(fair.commitment)})"
        )
    played = dealing_order(dealer, deal, wall)
    expected = fair_order(tiles, fair.secret, fair.contributions)
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
