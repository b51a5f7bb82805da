"""The game's RNG: the SplitMix64 stream, and draws that follow from it alone, one at a time or many at once."""

from __future__ import annotations

import pytest

from roguelike.core.rng import Rng

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
