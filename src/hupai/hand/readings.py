"""Every reading (decomposition) of a complete hand, so that scoring can pick the best one.

A reading splits the concealed tiles into groups: a pair and sets (pungs, runs) in the standard form,
or seven pairs. Wildcards (赖子) are assigned the tile they stand for in each group, and a reading
never uses a kind more than four times.

>>> from hupai.tiles import parse_counts
>>> for reading in decompositions(parse_counts("11122233344455m")):
...     print(reading)
22m 111m 234m 345m 345m
55m 111m 222m 333m 444m
55m 111m 234m 234m 234m
55m 123m 123m 123m 444m
>>> [str(r) for r in decompositions(parse_counts("1123m"), jokers=1)]
['11m 23m(1m)', '11m 23m(4m)', '1m(1m) 123m']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from hupai.hand.analysis import HandSizeError, is_win
from hupai.tiles import NUM_KINDS, format_tiles, is_honour

__all__ = ["Form", "Group", "GroupKind", "Reading", "WaitShape", "decompositions"]

_COPIES = 4


class GroupKind(Enum):
    """What a group of a reading is."""

    PAIR = "pair"  # 将/对子
    PUNG = "pung"  # 刻子
    RUN = "run"  # 顺子


class WaitShape(Enum):
    """How the winning tile completed its group in a reading."""

    PAIR = "pair"  # 单钓 / 独占: the winning tile completed the pair
    PUNG = "pung"  # 对倒 / 双碰: it completed a pung (two pairs were waiting)
    MIDDLE = "middle"  # 嵌张 / 压档: the middle of a run, e.g. 79m waiting 8m
    EDGE = "edge"  # 边张 / 边枝: 12m waiting 3m, or 89m waiting 7m
    TWO_SIDED = "two_sided"  # 两面: 23m waiting 1m or 4m


class Form(Enum):
    """The overall shape of a reading."""

    STANDARD = "standard"  # 四组一对
    SEVEN_PAIRS = "seven_pairs"  # 七对


@dataclass(frozen=True, slots=True)
class Group:
    """One group of a reading: ``tile`` is the pair's or pung's tile, or the lowest tile of a run.

    ``wild`` lists the tiles that wildcards stand for in this group (empty without wildcards).
    """

    kind: GroupKind
    tile: int
    wild: tuple[int, ...] = ()

    # Spelled out (the same as dataclass writes them), so that the compiled build (hupai._native)
    # compiles them: readings are made, compared and hashed by the hundred for each scored win.
    def __init__(self, kind: GroupKind, tile: int, wild: tuple[int, ...] = ()) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tile", tile)
        object.__setattr__(self, "wild", wild)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Group:
            return NotImplemented
        return self.kind is other.kind and self.tile == other.tile and self.wild == other.wild

    def __hash__(self) -> int:
        return hash((self.kind._value_, self.tile, self.wild))

    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles the group stands for, wildcards included as what they represent."""
        if self.kind is GroupKind.RUN:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (2 if self.kind is GroupKind.PAIR else 3)

    def __str__(self) -> str:
        # The real tiles, then in brackets what the wildcards stand for: "11m(1m)", "(123p)".
        real = list(self.tiles)
        for stand_in in self.wild:
            real.remove(stand_in)
        shown = format_tiles(real)
        return f"{shown}({format_tiles(self.wild)})" if self.wild else shown


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a complete hand. Standard readings list the pair first."""

    form: Form
    groups: tuple[Group, ...]

    def __init__(self, form: Form, groups: tuple[Group, ...]) -> None:
        object.__setattr__(self, "form", form)
        object.__setattr__(self, "groups", groups)

    @property
    def pair(self) -> Group | None:
        """The pair of a standard reading (None for seven pairs)."""
        return self.groups[0] if self.form is Form.STANDARD else None

    @property
    def sets(self) -> tuple[Group, ...]:
        """The pungs and runs of a standard reading."""
        return self.groups[1:] if self.form is Form.STANDARD else ()

    @property
    def wild(self) -> tuple[int, ...]:
        """What every wildcard stands for, group by group."""
        return tuple(tile for group in self.groups for tile in group.wild)

    def __str__(self) -> str:
        return " ".join(str(group) for group in self.groups)

    def wait_shapes(self, winning_tile: int) -> set[WaitShape]:
        """Every way the winning tile can have completed a group of this reading (a tile found in
        several groups gives several shapes; scoring picks the one its rules favour).

        >>> from hupai.tiles import parse_counts
        >>> (reading,) = decompositions(parse_counts("123m456p789s11z79m8m"))
        >>> sorted(shape.value for shape in reading.wait_shapes(7))
        ['middle']
        """
        shapes: set[WaitShape] = set()
        for group in self.groups:
            if winning_tile not in group.tiles or group.wild.count(winning_tile) == group.tiles.count(
                winning_tile
            ):
                continue
            if group.kind is GroupKind.PAIR:
                shapes.add(WaitShape.PAIR)
            elif group.kind is GroupKind.PUNG:
                shapes.add(WaitShape.PUNG)
            elif winning_tile == group.tile + 1:
                shapes.add(WaitShape.MIDDLE)
            elif (winning_tile == group.tile + 2 and group.tile % 9 == 0) or (
                winning_tile == group.tile and group.tile % 9 == 6
            ):
                shapes.add(WaitShape.EDGE)
            else:
                shapes.add(WaitShape.TWO_SIDED)
        return shapes


def decompositions(counts: Sequence[int], *, jokers: int = 0) -> list[Reading]:
    """Every distinct reading of a complete hand (an empty list when the hand is not complete).

    Readings of the standard form come first, then seven pairs; within a form the order is fixed
    (fewest wildcards first, then by the groups' tiles), so the result is deterministic. A group of
    wildcards alone is listed once for every tile it could stand for.
    """
    if len(counts) != NUM_KINDS:
        raise HandSizeError(f"a counts vector has {NUM_KINDS} entries, not {len(counts)}")
    if not is_win(counts, jokers=jokers):
        return []
    work = list(counts)
    represented = list(counts)
    standard = {
        tuple(sorted(groups, key=_group_order))
        for groups in _standard(work, represented, jokers, pair_needed=True, start=0)
    }
    readings = [Reading(Form.STANDARD, groups) for groups in sorted(standard, key=_reading_order)]
    if sum(counts) + jokers == 14:
        sevens = {
            tuple(sorted(groups, key=_group_order))
            for groups in _seven_pairs(list(counts), list(counts), jokers)
        }
        readings.extend(Reading(Form.SEVEN_PAIRS, groups) for groups in sorted(sevens, key=_reading_order))
    return readings


def _group_order(group: Group) -> tuple[int, int, tuple[int, ...], str]:
    # The pair first, then sets by tile.
    return (0 if group.kind is GroupKind.PAIR else 1, group.tile, group.wild, group.kind._value_)


def _reading_order(groups: tuple[Group, ...]) -> list[tuple[int, int, tuple[int, ...], str]]:
    return [(len(group.wild), group.tile, group.wild, group.kind._value_) for group in groups]


def _fits(represented: list[int], tiles: Sequence[int]) -> bool:
    """Whether wildcards may stand for ``tiles`` without a fifth copy of any kind."""
    extra = [0] * NUM_KINDS
    for tile in tiles:
        extra[tile] += 1
        if represented[tile] + extra[tile] > _COPIES:
            return False
    return True


def _shapes_with(tile: int) -> Iterator[tuple[GroupKind, int, tuple[int, ...]]]:
    """The groups that contain ``tile`` as their lowest real tile: (kind, group tile, other members)."""
    yield GroupKind.PAIR, tile, (tile,)
    yield GroupKind.PUNG, tile, (tile, tile)
    if is_honour(tile):
        return
    rank = tile % 9
    if rank <= 6:
        yield GroupKind.RUN, tile, (tile + 1, tile + 2)
    if 1 <= rank <= 7:
        yield GroupKind.RUN, tile - 1, (tile - 1, tile + 1)
    if rank >= 2:
        yield GroupKind.RUN, tile - 2, (tile - 2, tile - 1)


def _standard(
    work: list[int], represented: list[int], jokers: int, *, pair_needed: bool, start: int
) -> Iterator[list[Group]]:
    """Readings of ``work`` (mutated and restored) as sets plus the pair if still needed."""
    tile = next((kind for kind in range(start, NUM_KINDS) if work[kind]), None)
    if tile is None:
        yield from _wild_only(represented, jokers, pair_needed=pair_needed)
        return
    work[tile] -= 1
    for kind, group_tile, others in _shapes_with(tile):
        if kind is GroupKind.PAIR and not pair_needed:
            continue
        # Members below the lowest real tile can only be wildcards; others may be real or wild.
        options = _member_choices(work, others, tile)
        for taken, wild in options:
            if len(wild) > jokers or not _fits(represented, wild):
                continue
            for member in taken:
                work[member] -= 1
            for stand_in in wild:
                represented[stand_in] += 1
            group = Group(kind, group_tile, tuple(sorted(wild)))
            still_needs_pair = pair_needed and kind is not GroupKind.PAIR
            for rest in _standard(
                work, represented, jokers - len(wild), pair_needed=still_needs_pair, start=tile
            ):
                yield [group, *rest]
            for stand_in in wild:
                represented[stand_in] -= 1
            for member in taken:
                work[member] += 1
    work[tile] += 1


def _member_choices(
    work: list[int], others: tuple[int, ...], lowest_real: int
) -> list[tuple[list[int], list[int]]]:
    """Ways to fill a group's other members from real tiles or wildcards: (real taken, wild)."""
    choices: list[tuple[list[int], list[int]]] = [([], [])]
    for member in others:
        extended: list[tuple[list[int], list[int]]] = []
        for taken, wild in choices:
            available = work[member] - taken.count(member)
            if member >= lowest_real and available > 0:
                extended.append(([*taken, member], wild))
            extended.append((taken, [*wild, member]))
        choices = extended
    return choices


def _wild_only(represented: list[int], jokers: int, *, pair_needed: bool) -> Iterator[list[Group]]:
    """Groups made of wildcards alone, standing for any tile that still has copies to spare."""
    if jokers == 0:
        if not pair_needed:
            yield []
        return
    if pair_needed:
        if jokers < 2:
            return
        for tile in range(NUM_KINDS):
            if represented[tile] + 2 <= _COPIES:
                represented[tile] += 2
                for rest in _wild_only(represented, jokers - 2, pair_needed=False):
                    yield [Group(GroupKind.PAIR, tile, (tile, tile)), *rest]
                represented[tile] -= 2
        return
    if jokers % 3:
        return
    for kind, tile, members in _wild_sets():
        if _fits(represented, members):
            for member in members:
                represented[member] += 1
            for rest in _wild_only(represented, jokers - 3, pair_needed=False):
                yield [Group(kind, tile, members), *rest]
            for member in members:
                represented[member] -= 1


def _wild_sets() -> Iterator[tuple[GroupKind, int, tuple[int, int, int]]]:
    for tile in range(NUM_KINDS):
        yield GroupKind.PUNG, tile, (tile, tile, tile)
        if not is_honour(tile) and tile % 9 <= 6:
            yield GroupKind.RUN, tile, (tile, tile + 1, tile + 2)


def _seven_pairs(work: list[int], represented: list[int], jokers: int) -> Iterator[list[Group]]:
    """Seven pairs: every real tile pairs with its twin or a wildcard; spare wildcards pair up."""
    pairs: list[Group] = []
    for tile in range(NUM_KINDS):
        count = work[tile]
        pairs.extend(Group(GroupKind.PAIR, tile) for _ in range(count // 2))
        if count % 2:
            if jokers == 0:
                return
            jokers -= 1
            represented[tile] += 1
            pairs.append(Group(GroupKind.PAIR, tile, (tile,)))
    yield from _spare_pairs(pairs, represented, jokers, 0)


def _spare_pairs(
    pairs: list[Group], represented: list[int], jokers: int, start: int
) -> Iterator[list[Group]]:
    if jokers < 2:
        if jokers == 0:
            yield list(pairs)
        return
    for tile in range(start, NUM_KINDS):
        if represented[tile] + 2 <= _COPIES:
            represented[tile] += 2
            pairs.append(Group(GroupKind.PAIR, tile, (tile, tile)))
            yield from _spare_pairs(pairs, represented, jokers - 2, tile)
            pairs.pop()
            represented[tile] -= 2
