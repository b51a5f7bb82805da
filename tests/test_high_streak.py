"""A bonus for a long High without Withdrawal: the streak, what it pays, and where it shows."""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import pytest

from bestiary_helpers import arena, set_player
from components import HighStreak, Record, Score
from roguelike.assist.readout import condition
from roguelike.content import formulas
from roguelike.core.commands import Wait
from roguelike.core.game import Game
from roguelike.core.plain import encode
from roguelike.core.score import bank, breakdown, floor_percent
from roguelike.render.screenshot import game_console
from roguelike.saves import load_save
from roguelike.saves.container import RECORD_MAGIC, seal
from roguelike.saves.history import read_record, record_of
from roguelike.saves.savefile import decode
from roguelike.saves.slots import newest_slot
from roguelike.screens.death import highs_line, score_line


def waited(game: Game, turns: int) -> HighStreak:
    """Wait ``turns`` turns; the streak after them."""
    for _ in range(turns):
        game.apply(Wait())
    return game.player_component(HighStreak)


def test_a_streak_pays_at_each_milestone_more_each_time_up_to_the_top() -> None:
    step, points = formulas.HIGH_STREAK_STEP, formulas.HIGH_STREAK_POINTS
    top = formulas.HIGH_STREAK_TOP_LEVEL
    assert [formulas.high_streak_points(step * n) for n in (1, 2, 3, top, top + 1)] == [
        points,
        2 * points,
        3 * points,
        top * points,
        top * points,
    ]
    assert formulas.high_streak_points(step - 1) == 0 and formulas.high_streak_points(0) == 0
    assert formulas.high_streak_bonus(3 * step + step - 1) == 6 * points  # 1 + 2 + 3 milestones
    # One long High pays more than the same turns cut in two by a Withdrawal.
    assert formulas.high_streak_bonus(4 * step) > 2 * formulas.high_streak_bonus(2 * step)


@pytest.mark.parametrize(
    ("som", "goes_on"), [(61, True), (100, True), (60, None), (50, None), (49, False), (101, None)]
)
def test_high_adds_a_turn_sober_pauses_withdrawal_ends(som: int, goes_on: bool | None) -> None:
    assert formulas.streak_goes_on(som) is goes_on


def test_turns_ending_high_count_and_pay_as_they_go() -> None:
    game = arena()
    set_player(game, state_of_mind=60 + formulas.HIGH_STREAK_STEP + 5)
    streak = waited(game, formulas.HIGH_STREAK_STEP)
    points = formulas.HIGH_STREAK_POINTS
    assert (streak.turns, streak.best, streak.bonus) == (formulas.HIGH_STREAK_STEP, formulas.HIGH_STREAK_STEP, points)
    parts = game.score()
    assert parts.rows()[-3] == ("Longest High", f"{formulas.HIGH_STREAK_STEP} turns", points)
    kept = formulas.banked_points(points, half_seen(game))  # kept by the floor's explored share
    parts = breakdown(game.state.floor, game.player_component(Record), game.player_component(Score), streak)
    assert parts.raw == points and 0 < parts.total == kept < points and parts.unexplored == kept - points


def test_sober_pauses_the_streak_and_withdrawal_ends_it_with_its_points_said() -> None:
    game = arena()
    set_player(game, state_of_mind=61 + formulas.HIGH_STREAK_STEP)
    waited(game, formulas.HIGH_STREAK_STEP)  # down to 61, still High
    streak = waited(game, 5)  # Sober from 60: paused
    assert streak.turns == formulas.HIGH_STREAK_STEP
    set_player(game, state_of_mind=50)
    streak = waited(game, 1)  # 49: Withdrawal
    assert streak.turns == 0 and streak.best == formulas.HIGH_STREAK_STEP and streak.bonus == 60
    assert game.state.messages[-1].text == "Withdrawal ends your High streak of 25 turns (your longest: 60 points)."


def test_a_new_streak_starts_from_nothing_and_the_best_is_kept() -> None:
    game = arena()
    set_player(game, state_of_mind=70)
    waited(game, 3)
    set_player(game, state_of_mind=45)
    waited(game, 1)
    set_player(game, state_of_mind=70)
    streak = waited(game, 2)
    assert (streak.turns, streak.best) == (2, 3)


def half_seen(game: Game) -> int:
    """Forget every other row of the floor as seen; the share of it explored now."""
    floor = game.state.floor
    floor.explored[::2, :] = False
    return floor_percent(floor)


def high_for(game: Game, turns: int) -> HighStreak:
    """``turns`` turns ending High (the State of Mind held at 90); the streak after them."""
    for _ in range(turns):
        set_player(game, state_of_mind=90)
        game.apply(Wait())
    return game.player_component(HighStreak)


def withdrawal(game: Game) -> None:
    """One turn ending in Withdrawal."""
    set_player(game, state_of_mind=45)
    game.apply(Wait())


def test_only_a_streak_longer_than_the_longest_pays_and_only_past_it() -> None:
    game = arena()
    step, points = formulas.HIGH_STREAK_STEP, formulas.HIGH_STREAK_POINTS
    assert high_for(game, 2 * step).bonus == 3 * points  # the first streak: two milestones, 1 + 2
    withdrawal(game)
    streak = high_for(game, 2 * step)  # as long again: not longer, nothing more
    assert (streak.turns, streak.best, streak.bonus) == (2 * step, 2 * step, 3 * points)
    streak = high_for(game, step)  # past the longest, to the third milestone: it pays
    assert (streak.best, streak.bonus) == (3 * step, 6 * points)
    withdrawal(game)
    high_for(game, step)
    withdrawal(game)
    assert game.state.messages[-1].text == (
        f"Withdrawal ends your High streak of {step} turns (longest {3 * step}: {6 * points} points)."
    )


def test_the_longest_high_is_kept_by_the_explored_share_like_the_floors_points() -> None:
    game = arena()
    record, score = game.player_component(Record), game.player_component(Score)
    record.doses_used, record.kills = 4, 2
    streak, share = HighStreak(turns=10, best=80, bonus=30), half_seen(game)
    parts = breakdown(game.state.floor, record, score, streak)
    assert parts.high_streaks == 30 and parts.best_streak == 80 and parts.raw == 50 + 30
    assert parts.total == formulas.banked_points(80, share) < 80
    assert parts.unexplored == parts.total - 80 and parts.kept_percent == parts.total * 100 // 80
    assert [label for label, _, _ in parts.rows()] == [
        "Doses",
        "Close calls",
        "Monsters slain",
        "Floors reached",
        "Longest High",
        "Unexplored",
        "Score",
    ]


def test_each_milestone_is_kept_by_the_share_of_the_floor_it_was_reached_on() -> None:
    game = arena()
    step, points = formulas.HIGH_STREAK_STEP, formulas.HIGH_STREAK_POINTS
    record, score = game.player_component(Record), game.player_component(Score)
    streak = high_for(game, step)  # the first milestone, then the stairs from a floor half seen
    share = half_seen(game)
    bank(game.state.floor, record, score, streak)
    assert score.banked == formulas.banked_points(points, share) < points and score.floor_start == points
    streak = high_for(game, step)  # the second, on the floor after: it counts there, not twice
    assert streak.bonus == 3 * points
    assert game.score().total == score.banked + formulas.banked_points(2 * points, floor_percent(game.state.floor))


def test_the_panel_the_condition_and_the_death_record_show_the_streak() -> None:
    game = arena()
    set_player(game, state_of_mind=60 + formulas.HIGH_STREAK_STEP + 3)
    waited(game, formulas.HIGH_STREAK_STEP + 1)
    console = game_console(game)
    bar_row = "".join(chr(c) for c in console.rgb["ch"][formulas.MAP_HEIGHT + 1, :31])
    assert "Streak 26 +60" in bar_row
    assert "High streak 26 turns; longest 26, 60 points." in condition(game)
    record = record_of(game)
    assert (record.best_streak, record.streak_points, record.score) == (26, 60, 60)
    assert highs_line(record) == "Best High 26 turns (+60)   Finds: none"
    assert score_line(record) == "Score 60: doses 0, close calls 0, kills 0, floors 0, 100% kept"


def test_nothing_about_streaks_shows_before_the_first_high() -> None:
    game = arena()
    set_player(game, state_of_mind=40)
    waited(game, 2)
    console = game_console(game)
    assert "Streak" not in "".join(chr(c) for c in console.rgb["ch"][formulas.MAP_HEIGHT + 1])
    assert "High streak" not in condition(game)


def test_a_record_from_before_streaks_reads_with_none_and_shows_no_highs_line(tmp_path: Path) -> None:
    game = arena()
    path = tmp_path / "old.record"
    old = {
        key: value
        for key, value in asdict(record_of(game)).items()
        if key not in ("best_streak", "streak_points", "finds", "origin")
    }
    path.write_bytes(seal(RECORD_MAGIC, 3, encode({}), encode(old)))
    record = read_record(path)
    assert (record.best_streak, record.streak_points, record.finds) == (None, None, {})
    assert highs_line(record) is None


def test_a_format_14_save_upgrades_showing_the_score_it_showed() -> None:
    path = Path(__file__).resolve().parent.parent / "saves" / "v14.save"
    sealed = newest_slot(path.read_bytes()).sealed
    assert sealed.version == 14
    player = dict(
        next(packed for _, packed in decode(sealed.payload)["entities"] if any(name == "player" for name, _ in packed))
    )
    banked, floor_start = player["score"]
    game = load_save(path)
    record, streak = game.player_component(Record), game.player_component(HighStreak)
    assert streak.bonus > 0, "the fixture's longest High had paid"
    earned = formulas.raw_points(record.doses_used, record.close_calls, record.kills, record.deepest_floor)
    shown_then = banked + formulas.banked_points(earned - floor_start, floor_percent(game.state.floor)) + streak.bonus
    assert game.score().total == shown_then  # what the streak paid so far counts as banked whole
    game.apply(Wait())
    game.close()
