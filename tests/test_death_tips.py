"""The death screen's tip: every one is shown whole in its box beside the numbers."""

from __future__ import annotations

import textwrap

import pytest

from roguelike.content.tips import GENERAL_TIP, TIPS
from roguelike.screens.death import TIP_LINES, TIP_WIDTH, tip_lines


@pytest.mark.parametrize("cause", [*TIPS, "hunger"])
def test_every_tip_fits_its_box_whole(cause: str) -> None:
    tip = TIPS.get(cause, GENERAL_TIP)
    assert len(textwrap.wrap(tip, TIP_WIDTH)) <= TIP_LINES, f"the {cause} tip is cut on the death screen"
    assert " ".join(tip_lines(cause)) == " ".join(tip.split())
