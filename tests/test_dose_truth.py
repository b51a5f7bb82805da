"""The panel never misstates a dose: for any seed, floor, Tolerance and State of Mind, the
range shown (look, Help, the confirmation and the readouts all use ``dose_odds``) holds
what taking each generated dose gives, and "no risk" is never said of a dose that can kill."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from components import Dose
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, Risk, dose_odds
from roguelike.core.mapgen import generate_floor
from roguelike.core.packing import unpack_entity


def doses_of(seed: int, depth: int) -> list[Dose]:
    """The doses map generation lays on a floor."""
    floor = generate_floor(seed, depth, None)
    found = [c for packed in floor.dormant for c in unpack_entity(packed) if isinstance(c, Dose)]
    assert found, "every floor holds doses"
    return found


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    depth=st.integers(1, 40),
    tolerance=st.integers(0, 80),
    state_of_mind=st.integers(1, 100),
)
def test_the_range_shown_holds_what_every_dose_gives(seed: int, depth: int, tolerance: int, state_of_mind: int) -> None:
    for dose in doses_of(seed, depth):
        odds = dose_odds(DOSE_KINDS[dose.kind], depth, state_of_mind, tolerance)
        gives = formulas.dose_gain(dose.strength, tolerance)  # what the dose system adds (systems/doses.py)
        assert odds.low <= gives <= odds.purest, (dose, odds)
        pure = dose.strength > DOSE_KINDS[dose.kind].strength[1] + formulas.dose_strength_bonus(depth)
        assert pure or gives <= odds.high, (dose, odds)  # above the usual range only a purer batch
        if formulas.is_overdose(state_of_mind + gives):
            assert odds.risk is not Risk.NONE, (dose, odds)
        if odds.risk is Risk.WILL:
            assert formulas.is_overdose(state_of_mind + gives)


def test_a_deep_small_dose_is_shown_with_its_depth_bonus() -> None:
    # The audit's case: deep down a small dose judged by floor 1's range ("no risk") killed.
    odds = dose_odds(DOSE_KINDS["small_dose"], 10, 50, 10)
    weakest, strongest = DOSE_KINDS["small_dose"].strength
    bonus = formulas.dose_strength_bonus(10)
    assert (odds.low, odds.high) == (weakest + bonus - 10, strongest + bonus - 10)
    assert odds.risk is Risk.COULD
    assert dose_odds(DOSE_KINDS["small_dose"], 1, 50, 10).risk is Risk.NONE  # what floor 1's range would say


def test_doses_stop_growing_stronger_below_floor_20() -> None:
    # Rules epoch 15: below DOSE_STRENGTH_GROWS_TO_FLOOR only Tolerance grows, dose by dose.
    deepest = formulas.DOSE_STRENGTH_GROWS_TO_FLOOR
    assert formulas.dose_strength_bonus(deepest) == formulas.DOSE_STRENGTH_PER_FLOOR * (deepest - 1)
    assert formulas.dose_strength_bonus(deepest + 15) == formulas.dose_strength_bonus(deepest)
    for seed in range(30):
        for dose in doses_of(seed, deepest + 10):
            usual_most = DOSE_KINDS[dose.kind].strength[1] + formulas.dose_strength_bonus(deepest)
            assert dose.strength <= usual_most + formulas.PURE_BATCH_EXTRA, dose
    small = DOSE_KINDS["small_dose"]
    assert dose_odds(small, deepest + 10, 50, 0) == dose_odds(small, deepest, 50, 0)  # what the panel says
