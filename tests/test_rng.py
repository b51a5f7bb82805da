"""The game's RNG: a run of outputs drawn at once is the same run drawn one at a time."""

from __future__ import annotations

import pytest

from roguelike.core.rng import Rng


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
