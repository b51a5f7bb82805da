"""Films: a replay's screens kept as frames, played back anywhere without the rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym

from replay_helpers import record_bot_game
from roguelike.cli.main import main
from roguelike.frontend import frames
from roguelike.frontend.film.fileformat import FRAMES_PER_CHUNK, MAGIC, Film, FilmError, is_film
from roguelike.frontend.film.maker import film_of
from roguelike.frontend.film.screen import FilmScreen
from roguelike.frontend.web.live import LiveGame
from roguelike.render.draw import draw_game
from roguelike.render.look import Look, finish_frame
from roguelike.replay.fileformat import read_replay
from roguelike.replay.playback import Playback
from roguelike.screens.base import App
from roguelike.settings import Settings
from save_helpers import key
from web_helpers import connect, served

COMMANDS = FRAMES_PER_CHUNK + 60  # two chunks
SEED = 1  # the bot lives past COMMANDS commands on it (rules epoch 14)


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, bytes]:
    """A bot game's replay and its film."""
    path, _ = record_bot_game(tmp_path_factory.mktemp("film"), seed=SEED, turns=COMMANDS)
    return path, film_of(read_replay(path))


def screen_at(path: Path, step: int) -> frames.Cells:
    """The in-game screen after ``step`` commands of the replay, drawn now in the default look."""
    playback = Playback(read_replay(path))
    playback.seek_step(step)
    console = tcod.console.Console(80, 25, order="C")
    look = Look.of(Settings())
    draw_game(console, playback.game, 0.0, look)
    finish_frame(console, look)
    playback.close()
    return frames.cells_of(console)


def test_a_film_holds_the_screen_after_every_command(recorded: tuple[Path, bytes]) -> None:
    path, data = recorded
    film = Film(data)
    replay = read_replay(path)
    assert film.frame_count == len(replay.steps) + 1 and len(film.header.chunks) == 2
    assert film.final_turn == replay.steps[-1].turn and film.header.seed == SEED and film.header.name == "Bot"
    for step in (0, 1, FRAMES_PER_CHUNK - 1, FRAMES_PER_CHUNK, FRAMES_PER_CHUNK + 1, len(replay.steps)):
        turn, cells = film.frame(step)
        assert (cells == screen_at(path, step)).all(), step
        assert turn == (replay.steps[step - 1].turn if step else 0)


def test_a_film_is_the_same_bytes_each_time_and_small(recorded: tuple[Path, bytes]) -> None:
    path, data = recorded
    assert film_of(read_replay(path)) == data
    assert data.startswith(MAGIC)
    assert len(data) < 1024 * COMMANDS


def test_going_to_a_turn_finds_its_first_frame(recorded: tuple[Path, bytes]) -> None:
    film = Film(recorded[1])
    for turn in (0, 1, 50, film.frame(FRAMES_PER_CHUNK)[0], film.final_turn):
        index = film.first_frame_of_turn(turn)
        assert film.frame(index)[0] >= turn
        assert index == 0 or film.frame(index - 1)[0] < turn
    assert film.first_frame_of_turn(film.final_turn + 100) == film.frame_count - 1


def damaged(data: bytes) -> list[bytes]:
    """Ways a film file goes wrong."""
    header_end = len(MAGIC) + 4 + int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "little")
    middle = header_end + 40
    return [
        b"",
        b"HHREPLAY" + data[8:],
        MAGIC[:-1] + b"\x09" + data[len(MAGIC) :],
        data[: len(MAGIC) + 2],
        data[: header_end - 3],
        data[:header_end] + data[header_end + 100 :],
        data[:-1],
        data[:middle] + bytes(byte ^ 0x5A for byte in data[middle : middle + 30]) + data[middle + 30 :],
        data.replace(b'"columns":80', b'"columns":99'),
        data.replace(b'"frames":', b'"frames":9'),
        data.replace(b'"seed":%d' % SEED, b'"seed":true'),
    ]


def test_a_damaged_or_foreign_film_is_a_film_error(recorded: tuple[Path, bytes]) -> None:
    for broken in damaged(recorded[1]):
        with pytest.raises(FilmError):
            film = Film(broken)
            for index in range(0, film.frame_count, FRAMES_PER_CHUNK):
                film.frame(index)


def draw(app: App, now: float) -> tcod.console.Console:
    """The app drawn on a fresh console."""
    console = tcod.console.Console(80, 25, order="C")
    app.draw(console, now)
    return console


def test_the_film_screen_plays_pauses_steps_back_and_goes_to_a_turn(recorded: tuple[Path, bytes]) -> None:
    film = Film(recorded[1])
    screen = FilmScreen(film)
    app = App(screen)
    for frame in range(9):
        draw(app, frame * 0.125)  # a second, at the default speed of 8 frames a second
    assert (screen.index, screen.paused) == (8, False)
    app.handle(key(KeySym.SPACE))
    shown = draw(app, 2.0)
    assert (screen.paused, screen.index) == (True, 8) and "FILM" in "".join(chr(c) for c in shown.rgb["ch"][0])
    app.handle(key(KeySym.LEFT))
    app.handle(key(KeySym.LEFT))
    app.handle(key(KeySym.RIGHT))
    assert screen.index == 7
    turn = film.frame(FRAMES_PER_CHUNK + 10)[0]
    app.handle(key(KeySym.G))
    for digit in str(turn):
        app.handle(key(KeySym[f"N{digit}"]))
    app.handle(key(KeySym.RETURN))
    assert screen.index == film.first_frame_of_turn(turn) and film.frame(screen.index)[0] == turn
    shown = draw(app, 10.0)  # the bar has hidden by now, but it stays while paused
    body = frames.cells_of(shown)[1:24]
    assert (body == film.frame(screen.index)[1][1:24]).all()
    app.handle(key(KeySym.END))
    app.handle(key(KeySym.SPACE))
    assert screen.index == 0 and not screen.paused  # at the end, play starts over
    app.handle(key(KeySym.ESCAPE))
    assert not app.running


def test_the_film_screen_draws_the_stored_frame_exactly_once_the_bar_hides(recorded: tuple[Path, bytes]) -> None:
    film = Film(recorded[1])
    screen = FilmScreen(film)
    app = App(screen)
    shown = draw(app, 0.0)
    assert "FILM" in "".join(chr(c) for c in shown.rgb["ch"][0])
    for frame in range(1, 41):
        shown = draw(app, frame * 0.125)  # five seconds of playing: the bar hides after three
    assert screen.index == 40 and not screen.paused
    assert (frames.cells_of(shown) == film.frame(40)[1]).all()


def test_the_command_writes_a_film_that_any_frontend_plays(
    recorded: tuple[Path, bytes], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, data = recorded
    out = tmp_path / "game.film"
    assert main(["replay", str(path), "--film", str(out)]) == 0
    assert out.read_bytes() == data and is_film(out) and not is_film(path)
    assert f"{COMMANDS} commands" in capsys.readouterr().out
    assert main(["replay", str(tmp_path / "nothing.replay"), "--film", str(out)]) == 2
    (tmp_path / "bad.film").write_bytes(data[:100])
    assert main(["replay", str(tmp_path / "bad.film"), "--terminal"]) == 2
    assert "bad.film" in capsys.readouterr().err


def test_a_film_plays_in_the_browser(recorded: tuple[Path, bytes]) -> None:
    film = Film(recorded[1])
    live = LiveGame(App(FilmScreen(film)), "f1")
    with served(live) as client, connect(client) as player:
        player.press("End")
        last = film.frame(film.frame_count - 1)[1]
        player.until(lambda rows: player.cells is not None and (player.cells[1:24] == last[1:24]).all())
        player.press("Home")
        player.until(lambda rows: player.cells is not None and (player.cells[1:24] == film.frame(0)[1][1:24]).all())
        assert "FILM" in player.rows()[0]
        assert live.title == "the film of Bot"
