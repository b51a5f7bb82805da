"""The one schedule of a turn: its listing, and monsters acting as its own systems."""

from __future__ import annotations

import pytest

from roguelike.cli.main import main
from roguelike.core.ecs import Round
from systems import TURN


def test_simulate_systems_prints_every_phase_and_system_in_turn_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--systems"]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = []
    for phase in TURN:
        expected.append(phase.name)
        expected += [step.name for step in phase.steps]
    shown = [line.split()[0].rstrip(":") for line in lines]
    assert shown == expected
    assert "clock (when the turn ends):" in lines
    assert any(
        "each monster in id order, per action point: choose_monster_step | move_monster" in line for line in lines
    )


def test_monsters_decide_and_step_in_a_round_of_the_schedule() -> None:
    rounds = [step for phase in TURN for step in phase.steps if isinstance(step, Round)]
    assert [r.name for r in rounds] == ["act_monsters"]
    assert [s.name for s in rounds[0].systems] == ["choose_monster_step", "move_monster"]
