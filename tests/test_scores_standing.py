"""The death screen's standing: the game's replay proved as it dies, its place on the boards, its feats in the morgue file."""

from __future__ import annotations

import argparse
from pathlib import Path

import tcod.console

from replay_helpers import play
from roguelike.cli.saves import games_for
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.records.morguefile import morgue_file
from roguelike.replay.recorder import recording_observers
from roguelike.saves.history import record_of
from roguelike.scores.daily import DailyStart, today
from roguelike.scores.standing import Standing
from roguelike.screens.death import RecordScreen
from save_helpers import screen_text


def died(root: Path, session: Session) -> tuple[Game, Path]:
    """Play the bot to the end; the game and its replay, its morgue file written."""
    play(session, 3000)
    session.close()
    replay = next((root / "replays").glob("*.replay"))
    assert session.game.state.game_over
    assert morgue_file(session.game, replay).line.startswith("Morgue file: ")
    return session.game, replay


def test_a_death_is_verified_placed_and_its_feats_go_in_the_morgue_file(tmp_path: Path) -> None:
    game = Game.new(11, "Ann")
    game, replay = died(tmp_path, Session(game, recording_observers(tmp_path, game, "ann")))
    standing = Standing(tmp_path, replay)
    screen = RecordScreen(record_of(game), died=True, standing=standing)
    standing.thread.join(timeout=300)
    assert standing.proof is not None and standing.proof.ranked
    assert standing.line() == f"Verified: {standing.proof.score} points, #1 of 1 in the hall."
    assert "Verified: " in screen_text(screen) and "Feats: " in screen_text(screen)
    (morgue,) = (tmp_path / "morgue").glob("*.txt")
    assert "\nVerified\n" in morgue.read_text(encoding="utf-8") and "  feats: " in morgue.read_text(encoding="utf-8")


def test_a_daily_death_says_where_it_stands_on_its_dates_board(tmp_path: Path) -> None:
    start = DailyStart(games_for(argparse.Namespace(data_dir=str(tmp_path), seed=None, wizard=False)), today())
    game, replay = died(tmp_path, start.start("Ann"))
    standing = Standing(tmp_path, replay)
    standing.thread.join(timeout=300)
    assert standing.line().endswith(f"in the hall; #1 of 1 on the {today().isoformat()} daily board.")


def test_a_bots_death_is_verified_but_unranked(tmp_path: Path) -> None:
    from roguelike.core.commands import Mark

    game = Game.new(11, "Bot")
    session = Session(game, recording_observers(tmp_path, game, "bot"))
    session.apply(Mark("bot"))
    _, replay = died(tmp_path, session)
    standing = Standing(tmp_path, replay)
    standing.thread.join(timeout=300)
    assert standing.line().endswith("unranked (bot).")
    console = tcod.console.Console(80, 25, order="C")
    RecordScreen(record_of(game), died=True, standing=standing).on_draw(console, 0)


def test_character_stats_show_a_dead_characters_verdict_and_feats_once_the_hall_verified_it(tmp_path: Path) -> None:
    from roguelike.scores.hall import hall
    from roguelike.scores.proof import prove_file
    from roguelike.scores.standing import NOT_YET, known_standing

    game = Game.new(11, "Ann")
    game, _ = died(tmp_path, Session(game, recording_observers(tmp_path, game, "ann")))
    record = record_of(game)
    assert known_standing(tmp_path, record.name, record.seed, record.turns).line() == NOT_YET
    hall(tmp_path, lambda paths: [prove_file(path) for path in paths])
    known = known_standing(tmp_path, record.name, record.seed, record.turns)
    assert known.line().startswith("Verified: ") and known.feats_line().startswith("Feats: ")
