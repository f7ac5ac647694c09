"""The shipped suit table agrees with the dynamic programme it was built from."""

from __future__ import annotations

import random

from hupai.hand import tables


def test_shipped_table_is_complete_and_matches_the_programme() -> None:
    vectors, numbers = tables._shipped_table()
    assert len(numbers) == 2 * 5**tables.SUIT_SIZE  # two bytes per configuration
    assert len(vectors) == 383
    rng = random.Random(7)
    checked = 0
    while checked < 400:
        config = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(tables.SUIT_SIZE))
        if sum(config) > 14:
            continue
        assert tables.suit_distance_vector(config) == tables.distance_vector(config, runs=True), config
        checked += 1


def test_configurations_beyond_the_table_are_computed() -> None:
    config = (4, 4, 4, 3, 0, 0, 0, 0, 0)  # 15 tiles: never in a hand, still answered
    assert tables.suit_distance_vector(config) == tables.distance_vector(config, runs=True)


def test_the_compiled_builds_reading_of_the_shipped_table() -> None:
    numbers, interned = tables.shipped_suit_ids()
    assert len(interned) == 383
    rng = random.Random(8)
    for _ in range(200):
        config = tuple(rng.choice((0, 0, 1, 1, 2, 3, 4)) for _ in range(tables.SUIT_SIZE))
        index = 2 * sum(count * 5**kind for kind, count in enumerate(config))
        number = numbers[index] | numbers[index + 1] << 8
        if sum(config) > 14:
            assert number == 0xFFFF
        else:
            vector = tables.VECTORS[interned[number]]
            assert vector[: tables.TILES_INDEX + 1] == tables.suit_distance_vector(config)


def test_the_class_tables_combine_parts_as_the_vectors_do() -> None:
    """Every hand size without wildcards: the class tables' shanten (the compiled build's way) is the
    one the combined vectors give."""
    from hupai.hand import analysis

    built = tables.build_class_tables(*tables._shipped_table())
    assert (built.suits, built.honours) == (126, 55)
    assert len(built.pair) == 126**2 and max(built.triple) < 180 and len(built.final) == 180 * 55 * 5
    rng = random.Random(9)
    for size in (1, 2, 4, 5, 7, 8, 10, 11, 13, 14):
        for _ in range(300):
            counts = [0] * 34
            for tile in rng.sample(range(136), size):
                counts[tile // 4] += 1
            assert analysis._shanten_by_classes(counts, 0) == analysis.shanten(tuple(counts)), counts
            jokers = rng.choice((1, 2, 3, 4, 5, 6, 7, 8))
            if (size + jokers) % 3 and size + jokers <= 14:
                by_classes = analysis._shanten_by_classes(counts, jokers)
                assert by_classes == analysis.shanten(tuple(counts), jokers=jokers), (counts, jokers)


def test_honour_keys_count_the_kinds_by_copies() -> None:
    assert tables.honour_key((0, 0, 0, 0, 0, 0, 0)) == 0
    assert tables.honour_key((1, 0, 2, 2, 3, 4, 1)) == 2 | 2 << 3 | 1 << 6 | 1 << 9


def test_the_shipped_class_tables_are_the_ones_built_from_the_suit_table() -> None:
    vectors, numbers = tables._shipped_table()
    built = tables.build_class_tables(vectors, numbers)
    suit_file = tables._suit_table_file()
    shipped = tables.decode_class_tables(tables._package_file("class_tables.bin"), suit_file, numbers)
    assert shipped is not None, "run tools/make_suit_table.py --classes"
    assert tables._class_blobs(shipped) == tables._class_blobs(built)
    assert (shipped.suits, shipped.honours) == (built.suits, built.honours)
    raw = tables.encode_class_tables(built, suit_file)
    assert tables.decode_class_tables(raw, suit_file, numbers) is not None
    # Class tables of another suit table, or damaged ones, are never read: they are built instead.
    assert tables.decode_class_tables(raw, suit_file + b"x", numbers) is None
    assert tables.decode_class_tables(raw[:-9], suit_file, numbers) is None
    assert tables.decode_class_tables(b"", suit_file, numbers) is None
