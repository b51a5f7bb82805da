"""The score: points banked per floor by its explored share, live on the floor, and close calls at both edges."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bestiary_helpers import set_player
from components import Dose, HighStreak, Record, Score, StateOfMind
from helpers import drawn_game
from roguelike.content import formulas
from roguelike.content.doses import SMALL_DOSE
from roguelike.core.commands import Move, Wait, Wizard
from roguelike.core.floor import Floor, Tile
from roguelike.core.game import Game
from roguelike.core.score import breakdown, current_score, depth_sum, floor_percent

BALANCE_DOC = Path(__file__).resolve().parent.parent / "docs" / "balance.md"


def explore(floor: Floor, percent: int) -> None:
    """Mark exactly ``percent`` of the floor's open tiles as seen (row by row)."""
    ys, xs = np.nonzero(floor.tiles != Tile.WALL)
    floor.explored[:] = False
    seen = -(-len(ys) * percent // 100)  # the fewest tiles that make the percentage
    floor.explored[ys[:seen], xs[:seen]] = True
    assert floor_percent(floor) == percent


def earn(game: Game, doses: int, close_calls: int, kills: int) -> None:
    """Add to what the character has done."""
    record = game.player_component(Record)
    record.doses_used += doses
    record.close_calls += close_calls
    record.kills += kills


def test_the_worked_example_of_docs_balance_plays_out_in_the_game() -> None:
    game = drawn_game(["@>" + "." * 48, "." * 50])  # 100 open tiles
    earn(game, doses=4, close_calls=1, kills=6)
    explore(game.state.floor, 80)
    game.apply(Move(1, 0))  # down the stairs: floor 1's points are banked
    assert game.state.depth == 2
    assert game.player_component(Score).banked == 76
    earn(game, doses=3, close_calls=0, kills=2)
    explore(game.state.floor, 45)
    parts = game.score()
    assert [points for _, _, points in parts.rows()] == [70, 25, 40, 20, 0, -52, 103]
    text = BALANCE_DOC.read_text(encoding="utf-8")
    assert "Score = 76 + 27 = **103**" in text
    assert parts.kept_percent == 66  # 103 of 155, rounded down
    assert "monsters slain 8 × 5 = 40, floors reached 10 × 2 = 20, unexplored −52 (66% kept), score 103" in text
    # The High streak example: one streak of 60 turns (milestones at 25 and 50), then a shorter second of 30.
    streak = game.player_component(HighStreak)
    game.apply(Wizard("still"))  # floor 2's monsters keep out of it
    for som, turns in ((100, 39), (100, 21)):  # a dose halfway keeps it going: 60 turns in all
        set_player(game, state_of_mind=som)
        for _ in range(turns):
            game.apply(Wait())
    set_player(game, state_of_mind=45)
    game.apply(Wait())  # Withdrawal ends it
    set_player(game, state_of_mind=61 + 30)
    for _ in range(30):
        game.apply(Wait())
    assert (streak.turns, streak.best, streak.bonus) == (30, 60, 180)  # shorter than the longest: nothing
    explore(game.state.floor, 45)  # as it was: the waits saw more of floor 2
    parts = game.score()
    assert parts.rows()[-3:] == [
        ("Longest High", "60 turns", 180),
        ("Unexplored", "54% kept", -151),
        ("Score", "", 184),
    ]
    assert "Longest High: 60 + 120 for the first streak, nothing for the second: **+180**" in text
    assert "floor 2's 60 + 180 = 240 points at 45% explored keep 108: score 76 + 108 = **184**" in text


def test_the_score_of_the_floor_underfoot_grows_as_it_is_explored() -> None:
    game = drawn_game(["@" + "." * 49, "." * 50])
    earn(game, doses=2, close_calls=0, kills=0)
    floor, record, score = game.state.floor, game.player_component(Record), game.player_component(Score)
    explore(floor, 10)
    assert current_score(floor, record, score, HighStreak()) == 2
    explore(floor, 100)
    assert current_score(floor, record, score, HighStreak()) == 20


def test_nothing_earned_before_arriving_is_counted_twice() -> None:
    game = drawn_game(["@>" + "." * 48, "." * 50])
    earn(game, doses=5, close_calls=0, kills=0)
    explore(game.state.floor, 100)
    game.apply(Move(1, 0))
    explore(game.state.floor, 100)
    score = game.player_component(Score)
    assert (score.banked, score.floor_start) == (50, 50)  # floor 2's own worth is its own
    assert (
        current_score(game.state.floor, game.player_component(Record), score, HighStreak())
        == 50 + 2 * formulas.POINTS_PER_DEPTH
    )


def test_a_floor_below_the_last_that_grows_is_worth_as_much_as_it() -> None:
    # Rules epoch 15: floor N is worth 10 x N down to floor 12, and 120 each below it.
    deepest = formulas.FLOOR_WORTH_GROWS_TO_FLOOR
    each = formulas.POINTS_PER_DEPTH
    assert formulas.depth_points(3) == each * (2 + 3)
    assert formulas.depth_points(deepest) == each * sum(range(2, deepest + 1))
    assert formulas.depth_points(deepest + 5) == formulas.depth_points(deepest) + 5 * each * deepest
    assert depth_sum(deepest) == f"{each} x (2+...+{deepest})"
    assert depth_sum(deepest + 5) == f"{each} x (2+...+{deepest}) + {each * deepest} x 5"  # what the death screen shows


def take_dose_at(state_of_mind: int, strength: int) -> int:
    """Close calls after taking one dose of ``strength`` at ``state_of_mind`` (Tolerance 0)."""
    game = drawn_game(["@i."], dose=Dose(SMALL_DOSE.key, strength, 0, 0, 0))
    game.player_component(StateOfMind).value = state_of_mind
    game.apply(Move(1, 0))
    assert game.player_component(Record).doses_used == 1
    return game.player_component(Record).close_calls


def test_a_dose_that_nearly_overdoses_is_a_close_call() -> None:
    assert take_dose_at(60, 40) == 1  # 100: the very limit
    assert take_dose_at(60, 35) == 1  # 95: within the margin
    assert take_dose_at(60, 34) == 0  # 94


def test_a_dose_taken_at_the_edge_of_exhaustion_is_a_close_call() -> None:
    assert take_dose_at(formulas.CLOSE_CALL_LOW, 40) == 1
    assert take_dose_at(formulas.CLOSE_CALL_LOW + 1, 40) == 0


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_an_older_save_upgrades_to_a_player_who_keeps_a_score(version: int) -> None:
    from roguelike.saves import load_save

    game = load_save(Path(__file__).resolve().parent.parent / "saves" / f"v{version}.save")
    score = game.player_component(Score)
    assert (score.banked, score.floor_start) == (0, 0)  # what was done so far counts on this floor
    record = game.player_component(Record)
    streak = game.player_component(HighStreak)
    assert (streak.turns, streak.best, streak.bonus) == (0, 0, 0)  # no streak before format 10
    assert (
        current_score(game.state.floor, record, score, streak)
        == breakdown(game.state.floor, record, score, streak).total
        > 0
    )
    game.close()


def test_the_death_screen_breaks_the_score_down_and_old_records_have_none() -> None:
    from roguelike.saves import CharacterRecord
    from roguelike.screens.death import numbers, score_line

    record = CharacterRecord("Ann", 900, 2, 2, "overdose", 7, 1, 8, 1, 0, score=103)
    assert score_line(record) == "Score 103: doses 70, close calls 25, kills 40, floors 20, 66% kept"
    assert ("Score", 103) in numbers(record)
    old = CharacterRecord("Bo", 900, 2, 2, "overdose", 7, 1, 8, 1, 0)
    assert score_line(old) is None and all(label != "Score" for label, _ in numbers(old))
