"""The coach where a player sees it: par on a daily game's death screen and in its morgue file, the review
page and its jump to the turn named, par in ``verify --json`` and on the daily boards.

The par here is a real one made small (two planner games of a few dozen turns: ``par``'s own parameters) or a
made-up one kept in the par file; the review uses one short run from each point. Nothing is timed: the
background work is waited for with a generous bound.
"""

from __future__ import annotations

import argparse
import json
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
import tcod.event

from replay_helpers import play
from roguelike.cli.main import main
from roguelike.cli.saves import games_for
from roguelike.coach.par import Par, par
from roguelike.coach.parcache import ParCache
from roguelike.coach.pool import Progress
from roguelike.coach.review import Review, review
from roguelike.core.epoch import RULES_EPOCH
from roguelike.records.coaching import Coaching
from roguelike.records.ending import Ending, end_game
from roguelike.replay.fileformat import read_replay
from roguelike.saves.history import record_of
from roguelike.scores.daily import DailyStart, daily_seed, today
from roguelike.screens.base import Pop, Push, Replace, Screen
from roguelike.screens.death import DyingScreen, RecordScreen
from roguelike.screens.hall import HallScreen
from roguelike.screens.replay import ReplayScreen
from roguelike.screens.review import ReviewScreen
from save_helpers import key, screen_text

DAY = date(2026, 1, 1)  # a daily whose seed the bot dies on quickly
WAIT = 300  # seconds the background work may take at most (never asserted: a bound on a hang)


def tiny_par(seed: int) -> Par:
    """A real par made small: two planner games of at most 40 turns, in one worker."""
    return par(seed, runs=2, jobs=1, limit=40)


def made_up(seed: int, epoch: int = RULES_EPOCH) -> Par:
    """A par as the par file keeps it."""
    return Par(seed, epoch, (100, 300, 500, 900, 900, 1100, 1300, 1500), (100,) * 8, ("overdose",) * 8)


def died_daily(root: Path, day: date = DAY) -> Ending:
    """A daily game of ``day`` played by the bot to its death in ``root``, ended as the in-game screen ends it."""
    start = DailyStart(games_for(argparse.Namespace(data_dir=str(root), seed=None, wizard=False)), day)
    session = start.start("Ann")
    play(session, 20_000)
    assert session.game.state.game_over and session.game.state.origin == "daily"
    return end_game(session)


@pytest.fixture
def tiny_par_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """The death screen's par worked out small (and kept, as the real one is)."""

    def small(root: Path, seed: int, progress: Progress | None = None, method: str = "fork") -> tuple[Par, ParCache]:
        made = par(seed, runs=2, jobs=1, progress=progress, method=method, limit=40)
        cache = ParCache(root)
        cache.keep(made)
        return made, cache

    monkeypatch.setattr("roguelike.records.coaching.par_for", small)


def through_the_dying_screen(ending: Ending) -> RecordScreen:
    """The record screen a key opens once the death has been shown."""
    dying = DyingScreen(ending.game, ending.morgue_line, ending.standing, ending.coaching)
    screen_text(dying)
    dying.last_drawn = 10.0  # the fading is over: keys are taken
    opened = dying.on_event(key(tcod.event.KeySym.SPACE))
    assert isinstance(opened, Replace) and isinstance(opened.screen, RecordScreen)
    return opened.screen


@pytest.mark.usefixtures("tiny_par_for")
def test_a_daily_death_shows_par_once_worked_out_and_adds_it_to_the_morgue_file(tmp_path: Path) -> None:
    ending = died_daily(tmp_path)
    record = through_the_dying_screen(ending)
    coaching = ending.coaching
    assert coaching is not None and coaching.par is not None and coaching.daily
    assert coaching.par.wait(WAIT) and ending.standing is not None
    ending.standing.thread.join(WAIT)
    made = coaching.par.result
    assert made is not None and made.runs == 2 and made.seed == daily_seed(DAY)
    score = ending.game.score().total
    assert made.line(score) in screen_text(record)
    assert f"you beat {made.beaten_by(score)} of 2 runs" in screen_text(record)
    morgue = ending.morgue
    assert morgue is not None and f"Par\n  {made.line(score)} (the planner bot's 2 games" in morgue.read_text("utf-8")
    assert "\nVerified\n" in morgue.read_text("utf-8")  # the proof's lines stay beside par's
    assert ParCache(tmp_path).find(daily_seed(DAY), runs=2) == made  # kept for the next death on that seed


def test_the_par_line_says_it_is_being_worked_out_and_the_screen_redraws_once_it_is(tmp_path: Path) -> None:
    playing, game_over = threading.Event(), threading.Event()
    seed = daily_seed(DAY)

    def held(progress: Progress) -> Par:
        progress(1, 2)
        playing.set()
        game_over.wait(WAIT)
        return made_up(seed)

    coaching = Coaching(tmp_path, tmp_path / "none.replay", seed, 600, daily=True, par_work=held)
    from roguelike.core.game import Game

    game = Game.new(seed, "Ann")
    screen = RecordScreen(record_of(game), died=True, coaching=coaching)
    game.close()
    assert playing.wait(WAIT)
    assert "Working out par for this daily seed: 1 of 2 planner games played..." in screen_text(screen)
    assert screen.animated
    game_over.set()
    assert coaching.par is not None and coaching.par.wait(WAIT)
    assert screen.animated  # the frame on screen still says "working": one more is due
    assert "par 900 (100-1,500): you beat 3 of 8 runs" in screen_text(screen)
    assert not screen.animated


def test_a_game_that_is_not_a_daily_has_no_par_but_the_review_offer(tmp_path: Path) -> None:
    coaching = Coaching(tmp_path, tmp_path / "none.replay", 11, 600, daily=False)
    from roguelike.core.game import Game

    game = Game.new(11, "Ann")
    text = screen_text(RecordScreen(record_of(game), died=True, coaching=coaching))
    game.close()
    assert coaching.par is None and "par " not in text.lower()
    assert "R: where it went wrong" in text


@pytest.fixture(scope="module")
def daily_death(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Ending]:
    ending = died_daily(tmp_path_factory.mktemp("daily"), today())  # its date proved by the replay's own date
    yield ending
    if ending.standing is not None:
        ending.standing.thread.join(WAIT)


def flat(screen: Screen) -> str:
    """A screen's text with its lines run together (wrapped text read as one)."""
    return " ".join(screen_text(screen).split())


def small_review(replay: Path) -> Review:
    """The review made cheap: one run from each point, for 15 turns, a point every 20 turns."""
    return review(read_replay(replay), runs=1, horizon=15, every=20, jobs=1)


def test_the_review_page_shows_progress_then_three_lines_and_jumps_to_the_turn_named(daily_death: Ending) -> None:
    played = daily_death.replay
    assert played is not None and daily_death.coaching is not None
    started, released = threading.Event(), threading.Event()

    def work(progress: Progress) -> Review:
        progress(1, 5)
        started.set()
        released.wait(WAIT)
        return small_review(played)

    coaching = Coaching(daily_death.coaching.root, played, daily_death.coaching.seed, 0, daily=False, review_work=work)
    record = RecordScreen(record_of(daily_death.game), died=True, coaching=coaching)
    opened = record.on_event(key(tcod.event.KeySym.R))
    assert isinstance(opened, Push) and isinstance(opened.screen, ReviewScreen)
    page = opened.screen
    assert started.wait(WAIT)
    assert "Reviewing: the planner takes over from each point of the game, 0 of 4 done..." in flat(page)
    assert page.on_event(key(tcod.event.KeySym.W)) is None  # nothing named yet
    released.set()
    assert page.job.wait(WAIT)
    made = page.review
    assert made is not None and made.named is not None
    text = flat(page)
    for line in made.lines():
        assert line in text
    assert f"W: watch the replay from turn {made.named.turn}" in text
    watched = page.on_event(key(tcod.event.KeySym.W))
    assert isinstance(watched, Push) and isinstance(watched.screen, ReplayScreen)
    viewer = watched.screen
    try:
        assert viewer.paused and viewer.playback.position == made.named.position
        assert viewer.playback.game.state.turn == read_replay(played).steps[made.named.position - 1].turn
    finally:
        viewer.on_close()
    assert record.on_event(key(tcod.event.KeySym.R)) is not None and coaching.start_review() is page.job  # not again


def test_r_in_the_replay_viewer_reviews_the_game_and_w_brings_that_viewer_to_the_turn_named(
    daily_death: Ending,
) -> None:
    from roguelike.cli.replay import review_of
    from roguelike.replay.playback import Playback

    played = daily_death.replay
    assert played is not None
    replay = read_replay(played)
    cheap = review_of(played, replay, lambda progress: small_review(played))
    viewer = ReplayScreen(Playback(replay), review=cheap)
    try:
        assert "r: the coach's review" in flat(viewer)
        opened = viewer.on_event(key(tcod.event.KeySym.R))
        assert isinstance(opened, Push) and isinstance(opened.screen, ReviewScreen) and viewer.paused
        page = opened.screen
        assert page.job.wait(WAIT)
        made = page.review
        assert made is not None and made.named is not None
        went_back = page.on_event(key(tcod.event.KeySym.W))
        assert isinstance(went_back, Pop)  # back to the same viewer, not a second one
        assert viewer.paused and viewer.playback.position == made.named.position
    finally:
        viewer.on_close()


def test_a_kept_par_is_in_the_morgue_file_written_at_death(tmp_path: Path) -> None:
    ParCache(tmp_path).keep(made_up(daily_seed(DAY)))
    ParCache(tmp_path).keep(made_up(daily_seed(DAY), RULES_EPOCH - 1))
    ending = died_daily(tmp_path)
    assert ending.coaching is not None and ending.coaching.par is not None and ending.coaching.par.wait(WAIT)
    assert ending.morgue is not None
    text = ending.morgue.read_text("utf-8")
    assert text.count("\nPar\n") == 1 and "  par 900 (100-1,500): you beat " in text
    twin = json.loads(ending.morgue.with_suffix(".json").read_text("utf-8"))
    assert twin["par"]["epoch"] == RULES_EPOCH and twin["par"]["line"].startswith("par 900 (100-1,500)")
    if ending.standing is not None:
        ending.standing.thread.join(WAIT)


def test_verify_json_gives_a_dailys_par_of_its_own_epoch_only(
    daily_death: Ending, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert daily_death.replay is not None
    seed = daily_seed(today())
    argv = ["--data-dir", str(tmp_path), "replay", "--verify", "--json", str(daily_death.replay)]
    ParCache(tmp_path).keep(made_up(seed, RULES_EPOCH - 1))
    assert main(argv) == 0
    assert "par" not in json.loads(capsys.readouterr().out)  # another epoch's par is never given
    ParCache(tmp_path).keep(made_up(seed))
    assert main(argv) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["daily"] == today().isoformat() and shown["par"]["epoch"] == RULES_EPOCH
    assert shown["par"]["score"] == {"median": 900, "low": 100, "high": 1500}
    assert shown["par"]["line"] == made_up(seed).line(shown["score"])


def test_the_hall_daily_board_shows_the_days_par_when_known(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hall = HallScreen(tmp_path)
    hall.on_event(key(tcod.event.KeySym.TAB))
    assert "Par: not worked out yet" in screen_text(hall)
    ParCache(tmp_path).keep(made_up(daily_seed(today())))
    hall = HallScreen(tmp_path)
    assert "Par " not in screen_text(hall)  # the board of every game has no par
    hall.on_event(key(tcod.event.KeySym.TAB))
    assert "Par 900 (100-1,500) points, 100 (100-100) turns (the planner bot's 8 games" in screen_text(hall)
    assert main(["--data-dir", str(tmp_path), "hall", "--daily", "today", "--cached"]) == 0
    assert capsys.readouterr().out.startswith("Par 900 (100-1,500) points")


def test_hall_daily_json_gives_each_game_its_seeds_par(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    day = today()  # a daily's date is proved by the replay's own date
    ending = died_daily(tmp_path, day)
    if ending.standing is not None:
        ending.standing.thread.join(WAIT)
    command = ["--data-dir", str(tmp_path), "hall", "--daily", day.isoformat(), "--json", "--jobs", "1"]
    assert main(command) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert "par" not in json.loads(line)  # none kept yet
    ParCache(tmp_path).keep(made_up(daily_seed(day)))
    assert main(command) == 0
    entry = json.loads(capsys.readouterr().out)
    assert entry["par"]["seed"] == daily_seed(day) and entry["par"]["epoch"] == RULES_EPOCH
    assert entry["par"]["line"] == made_up(daily_seed(day)).line(entry["score"])
    ParCache(tmp_path).keep(made_up(daily_seed(day), epoch=RULES_EPOCH - 1))  # another epoch's never stands in
    assert main(["--data-dir", str(tmp_path), "hall", "--json", "--jobs", "1"]) == 0
    assert "par" not in json.loads(capsys.readouterr().out)  # the board of every game has no par
