"""The death screen's tip: every one is shown whole in its box beside the numbers, and a takeover
that was steering at the end (fleeing at the panic line) is named with its own tip."""

from __future__ import annotations

import textwrap
from dataclasses import asdict
from pathlib import Path

import pytest

from bestiary_helpers import add_monster, arena, set_player
from roguelike.content import formulas
from roguelike.content.bestiary import DEPRESSION_COUNSEL
from roguelike.content.tips import GENERAL_TIP, TAKEOVER_TIPS, TIPS, tip_for
from roguelike.core.commands import Wait
from roguelike.core.plain import encode
from roguelike.saves.container import RECORD_MAGIC, seal
from roguelike.saves.history import read_record, record_of
from roguelike.screens.death import TIP_LINES, TIP_WIDTH, tip_lines


@pytest.mark.parametrize("cause", [*TIPS, "hunger"])
def test_every_tip_fits_its_box_whole(cause: str) -> None:
    tip = TIPS.get(cause, GENERAL_TIP)
    assert len(textwrap.wrap(tip, TIP_WIDTH)) <= TIP_LINES, f"the {cause} tip is cut on the death screen"
    assert " ".join(tip_lines(cause)) == " ".join(tip.split())


@pytest.mark.parametrize("takeover", TAKEOVER_TIPS)
def test_every_takeover_tip_fits_its_box_whole_and_names_the_nerve(takeover: str) -> None:
    tip = tip_for("depression", takeover, nerve=1)
    assert len(textwrap.wrap(tip, TIP_WIDTH)) <= TIP_LINES, f"the {takeover} tip is cut on the death screen"
    assert " ".join(tip_lines("depression", takeover, 1)) == " ".join(tip.split())
    assert "{" not in tip


def test_a_death_while_fleeing_at_the_panic_line_names_it_and_the_way_back() -> None:
    game = arena()
    set_player(game, nerve=1)
    add_monster(game, "depression", 12, 4)
    for _ in range(50):
        if game.state.game_over:
            break
        set_player(game, state_of_mind=60)
        game.apply(Wait())
    assert game.state.game_over and game.state.cause_of_death == "depression"
    record = record_of(game)
    assert record.takeover == "nerve_panic" and record.nerve == 1
    told = " ".join(tip_lines(record.cause, record.takeover, record.nerve))
    assert told.startswith("You were fleeing: Nerve 1.")
    assert f"every {formulas.NERVE_STEADY_TURNS}th turn" in told
    assert "parity" not in told and DEPRESSION_COUNSEL not in told  # not the Depression's tip


def test_a_death_with_the_player_steering_keeps_the_causes_tip() -> None:
    game = arena()
    set_player(game, nerve=8)
    add_monster(game, "depression", 10, 4, hunting=True)
    for _ in range(50):
        if game.state.game_over:
            break
        set_player(game, state_of_mind=60)
        game.apply(Wait())
    record = record_of(game)
    assert record.cause == "depression" and record.takeover is None
    assert " ".join(tip_lines(record.cause, record.takeover, record.nerve)) == " ".join(TIPS["depression"].split())


def test_a_record_from_before_takeovers_were_kept_reads_and_keeps_the_causes_tip(tmp_path: Path) -> None:
    old = {k: v for k, v in asdict(record_of(arena())).items() if k not in ("takeover", "nerve", "origin")}
    path = tmp_path / "old.record"
    path.write_bytes(seal(RECORD_MAGIC, 4, encode({}), encode({**old, "cause": "exhaustion"})))
    record = read_record(path)
    assert (record.takeover, record.nerve) == (None, None)
    assert " ".join(tip_lines(record.cause, record.takeover, record.nerve)) == " ".join(TIPS["exhaustion"].split())
