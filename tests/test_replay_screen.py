"""Watching a replay: time drives it, keys pause, change speed, step, jump and leave."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym

from replay_helpers import record_bot_game
from roguelike.cli.main import main
from roguelike.content import formulas
from roguelike.core.commands import Wait
from roguelike.core.snapshot import checksum
from roguelike.render.draw import draw_game
from roguelike.render.look import DEFAULT_LOOK
from roguelike.render.panel import MESSAGES_X
from roguelike.replay.fileformat import CrashRecord, Replay, StepRecord, read_replay
from roguelike.replay.playback import Playback
from roguelike.screens.base import App, Pop
from roguelike.screens.replay import BANNER_ROW, HINTS_ROW, NEWS_ROW, ReplayScreen, speed_label


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """A recorded bot game played to its end."""
    path, _ = record_bot_game(tmp_path_factory.mktemp("data"), seed=3, turns=1000)
    return read_replay(path)


def key(sym: KeySym) -> tcod.event.KeyDown:
    """A key press."""
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=tcod.event.Modifier.NONE)


def draw(screen: ReplayScreen, now: float) -> str:
    """Draw a frame at wall time ``now``; the banner's text (its status and news rows)."""
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    screen.on_draw(console, now)
    return banner_text(console)


def banner_text(console: tcod.console.Console) -> str:
    """The banner's two rows, in the panel's message area."""
    return row_text(console, BANNER_ROW)[MESSAGES_X:] + " " + row_text(console, NEWS_ROW)[MESSAGES_X:]


def play_for(screen: ReplayScreen, start: float, seconds: float) -> str:
    """Draw frames every eighth of a second from ``start`` on; the last top row."""
    frames = int(seconds * 8)
    banner = ""
    for frame in range(frames + 1):
        banner = draw(screen, start + frame / 8)
    return banner


def row_text(console: tcod.console.Console, row: int) -> str:
    """The characters of one console row."""
    return "".join(chr(c) for c in console.rgb["ch"][row])


def test_it_plays_at_the_chosen_speed_with_the_banner(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    banner = play_for(screen, 10.0, 1.0)  # one second at 8 turns a second
    assert screen.playback.position == 8
    assert "REPLAY" in banner and f"turn {screen.playback.game.state.turn} of {replay.final_turn}" in banner
    assert "8 turns/s" in banner
    assert screen.animated


def test_the_banner_names_the_rules_epoch_the_game_was_recorded_under(replay: Replay) -> None:
    older = replace(replay, header=replace(replay.header, epoch=7))
    assert "epoch 7" in draw(ReplayScreen(Playback(older)), 10.0)


def test_space_pauses_and_resumes(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    draw(screen, 0.0)
    screen.on_event(key(KeySym.SPACE))
    assert "paused" in draw(screen, 5.0) and screen.playback.position == 0
    assert not screen.animated or screen.playback.game.palette().psychedelic
    screen.on_event(key(KeySym.SPACE))
    play_for(screen, 6.0, 0.5)
    assert screen.playback.position == 4


def test_plus_and_minus_change_the_speed_within_its_range(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    for _ in range(20):
        screen.on_event(key(KeySym.MINUS))
    assert "1 turn/s" in play_for(screen, 0.0, 2.0)
    assert screen.playback.position == 2
    for _ in range(20):
        screen.on_event(key(KeySym.KP_PLUS))
    assert screen.speed is None and speed_label(screen.speed) == "max speed"
    # A fast machine may play the whole game in the first max-speed frame, so the banner is
    # checked while paused at max, before any frame runs.
    screen.on_event(key(KeySym.SPACE))
    assert "paused" in draw(screen, 3.0) and screen.playback.position == 2
    screen.on_event(key(KeySym.SPACE))
    while not screen.playback.at_end:
        draw(screen, 4.0)
    assert screen.paused and "END: " in draw(screen, 5.0)


def test_a_key_steps_one_turn_while_paused(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    screen.on_event(key(KeySym.PERIOD))
    screen.on_event(key(KeySym.RIGHT))
    assert screen.paused and screen.playback.position == 2
    assert checksum(screen.playback.game) == replay.steps[1].checksum


def type_turn(screen: ReplayScreen, digits: str) -> None:
    """Press g, the digits and Enter."""
    screen.on_event(key(KeySym.G))
    for digit in digits:
        screen.on_event(key(KeySym(ord(digit))))
    screen.on_event(key(KeySym.RETURN))


def first_turn_from(replay: Replay, turn: int) -> int:
    """The game turn of the first step that reaches ``turn``."""
    return next(step.turn for step in replay.steps if step.turn >= turn)


def test_a_typed_turn_number_jumps_there_forward_and_back(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    screen.on_event(key(KeySym.G))
    screen.on_event(key(KeySym.N4))
    assert "go to turn: 4_" in draw(screen, 0.0)
    screen.on_event(key(KeySym.BACKSPACE))
    far = replay.final_turn * 3 // 4
    for digit in str(far):
        screen.on_event(key(KeySym(ord(digit))))
    screen.on_event(key(KeySym.RETURN))
    assert screen.playback.game.state.turn == first_turn_from(replay, far) and screen.paused
    type_turn(screen, "17")
    position = screen.playback.position
    assert screen.playback.game.state.turn == first_turn_from(replay, 17)
    assert checksum(screen.playback.game) == replay.steps[position - 1].checksum


def test_esc_cancels_typing_then_leaves(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    screen.on_event(key(KeySym.G))
    assert screen.on_event(key(KeySym.ESCAPE)) is None and screen.typed is None
    assert screen.on_event(key(KeySym.ESCAPE)) == Pop()


def test_the_keys_are_shown_under_the_map(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    screen.on_draw(console, 0.0)
    hints = row_text(console, HINTS_ROW) + row_text(console, HINTS_ROW + 1)
    for word in ("space", "speed", "a turn", "go to", "Esc"):
        assert word in hints


def test_playback_stops_where_the_game_no_longer_matches(replay: Replay) -> None:
    steps = list(replay.steps)
    steps[5] = replace(steps[5], checksum="0" * 16)
    screen = ReplayScreen(Playback(replay_with(replay, steps)))
    for _ in range(10):
        screen.on_event(key(KeySym.PERIOD))
    assert screen.playback.position == 6
    assert "DIVERGED at step 6" in draw(screen, 0.0)


def replay_with(replay: Replay, steps: list[StepRecord]) -> Replay:
    """The replay with other steps."""
    return replace(replay, steps=steps)


def test_hedonic_replay_opens_the_screen_in_the_chosen_frontend(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, _ = record_bot_game(tmp_path, seed=3, turns=30)
    seen: list[str] = []

    def frontend(app: App) -> int:
        console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
        for frame in range(9):
            app.draw(console, frame / 8)
        seen.append(banner_text(console))
        app.handle(key(KeySym.ESCAPE))
        return 0 if not app.running else 1

    monkeypatch.setattr("roguelike.cli.play.choose_frontend", lambda args: frontend)
    assert main(["replay", str(path)]) == 0
    assert "REPLAY" in seen[0] and "turn 8 of" in seen[0]


def test_hedonic_replay_refuses_a_bad_file_before_opening_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("roguelike.cli.play.choose_frontend", lambda args: pytest.fail("opened a frontend"))
    bad = tmp_path / "x.replay"
    bad.write_bytes(b"HHREPLAY\x00\x01garbage!!!!!!!!")
    assert main(["replay", str(bad)]) == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_the_end_of_a_crashed_game_says_it_crashed_next(replay: Replay) -> None:
    cut = replace(replay, steps=replay.steps[:20], crash=CrashRecord(21, Wait(), "RuntimeError: the floor gave way"))
    screen = ReplayScreen(Playback(cut))
    type_turn(screen, "9999")
    assert "END: then it crashed (RuntimeError)" in draw(screen, 0.0)


def test_the_banner_and_keys_cover_no_row_of_the_map(replay: Replay) -> None:
    screen = ReplayScreen(Playback(replay))
    shown = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    screen.on_draw(shown, 0.0)
    game = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    draw_game(game, screen.playback.game, 0.0, DEFAULT_LOOK)
    assert (shown.rgb[: formulas.MAP_HEIGHT] == game.rgb[: formulas.MAP_HEIGHT]).all()
    assert [row_text(shown, row)[:MESSAGES_X] for row in range(formulas.MAP_HEIGHT, formulas.SCREEN_HEIGHT)] == [
        row_text(game, row)[:MESSAGES_X] for row in range(formulas.MAP_HEIGHT, formulas.SCREEN_HEIGHT)
    ]  # the panel too
    screen.on_close()
