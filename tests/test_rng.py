"""The game's RNG: the SplitMix64 stream, and draws that follow from it alone, one at a time or many at once."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.core.rng import Purpose, Rng, WorldClock, derive_seed, derive_seeds

# SplitMix64's published first outputs for seed 0: a save made anywhere replays anywhere.
SPLITMIX64_SEED_0 = (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F)
MASK = (1 << 64) - 1


@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5, 2**64 - 1, 123456789123456789])
def test_many_outputs_at_once_equal_as_many_single_draws(seed: int) -> None:
    at_once, one_by_one = Rng(seed), Rng(seed)
    assert at_once.many64(777).tolist() == [one_by_one.next64() for _ in range(777)]
    assert at_once.state == one_by_one.state, "the stream goes on where the single draws would have left it"
    assert at_once.next64() == one_by_one.next64()


def test_no_outputs_leave_the_stream_where_it_was() -> None:
    rng = Rng(42)
    assert rng.many64(0).tolist() == []
    assert rng.state == 42


def test_the_raw_stream_is_splitmix64() -> None:
    rng = Rng(0)
    assert tuple(rng.next64() for _ in SPLITMIX64_SEED_0) == SPLITMIX64_SEED_0


def test_below_is_the_raw_stream_without_modulo_bias() -> None:
    # below() computes the stream inline (for speed): it must take the very draws next64 gives.
    for seed in range(20):
        fast, reference = Rng(seed), Rng(seed)
        for bound in (1, 2, 3, 8, 10, 100, 1 << 63, (1 << 63) + 1, MASK):
            limit = MASK - (MASK % bound)
            value = reference.next64()
            while value >= limit:
                value = reference.next64()
            assert fast.below(bound) == value % bound
            assert fast.state == reference.state


# Salts at the edges of 64 bits and around the table of small salts, and anywhere between.
salts = st.one_of(st.sampled_from([0, 1, 255, 256, 2**63 - 1, 2**63, 2**64 - 1]), st.integers(0, 2**64 - 1))
small = st.integers(0, 300)  # a floor's columns and rows, and just past the table


@settings(max_examples=400, deadline=None, derandomize=True)
@given(
    salts,
    st.lists(salts, max_size=3),
    st.integers(1, 3).flatmap(
        lambda width: st.lists(
            st.lists(st.one_of(small, salts), min_size=width, max_size=width), min_size=1, max_size=30
        )
    ),
)
def test_seeds_derived_at_once_are_those_derived_one_by_one(
    seed: int, shared: list[int], rows: list[list[int]]
) -> None:
    at_once = derive_seeds(seed, shared, np.array(rows, dtype=np.uint64))
    assert at_once.tolist() == [derive_seed(seed, *shared, *row) for row in rows]


def test_seeds_derived_at_once_take_negative_salts_modulo_2_64_as_one_by_one() -> None:
    rows = [[-1, 0], [-(2**63), 5], [7, -300]]
    assert derive_seeds(9, [4], np.array(rows, dtype=np.int64)).tolist() == [derive_seed(9, 4, *row) for row in rows]


@pytest.mark.parametrize("seed", [0, 2**64 - 1, 31337])
def test_a_turns_streams_at_many_places_at_once_are_its_streams_at_each(seed: int) -> None:
    clock = WorldClock(seed, 3, 120)
    on_a_floor = [(x, y) for x in range(0, 80, 7) for y in range(0, 21, 4)]
    for places in (on_a_floor, [*on_a_floor, (300, 2), (4, 1000)]):  # small salts are looked up, others mixed
        for purpose in Purpose:
            seeds = clock.seeds_at(purpose, places)
            assert [Rng(value).state for value in seeds] == [clock.at(purpose, x, y).state for x, y in places]
            assert seeds == [derive_seed(derive_seed(seed, 3, 120), purpose, x, y) for x, y in places]
    assert clock.seeds_at(Purpose.WANDER, []) == []
