"""Resuming a hosted game of 5,000 real commands: the issue's "resume of a 5,000-command game <= 2 s".

The game is the careful bot's on seed 80, which lives 5,074 commands at rules epoch 16 (most of its
games end before 5,000, the standard bot's by about 900; seed 76's, 5,617 commands at epoch 13, ends
at 1,953 at 16, and 77-79 before 4,000): its first N commands are every
command the server accepted, the same commands a browser's keys would make (steps, waits, pick-ups,
doses taken: no filler). Its log is written as the server writes it (``hosted_inputs`` rows under a
live game of the seed, and the save its process sends after each 500th command), then timed:

- the rebuild alone, in-process (CPU): the seed and every command, as a process does with no save;
  then the newest save and the commands after it, as a process does with one;
- the resume a player waits for, through ``bench.bench_hosted serve`` (wall): from the start of
  ``/play`` (which forks the game's process and sends it the log) to the first frame showing the
  game's turn, with no save and then with the save. Each try is on a fresh server, its fork server
  warmed by another account's game: a server that has shown the game keeps its screen and sends it
  to a new socket at once, before the process is rebuilt.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import update
from websockets.sync.client import connect
from websockets.typing import Origin

from bench.common import figure
from bench.hosted_players import ACCOUNT_HEADER, ANSWER_SECONDS, Player, Served, Tally, turn_shown
from roguelike.bots.careful import CarefulBot
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.ground.frames import Cells, apply, text_rows
from roguelike.saves.savefile import read_save, write_save
from roguelike.server.hosted import log
from roguelike.server.hosted.playing import command_bytes, command_of

SEED = 80
NAME = "resume"  # the account, and so the character's name
SAVE_EVERY = 500  # PlayOptions.snapshot_every's default: the process sends its save after each 500th command


def long_game(commands: int) -> tuple[list[bytes], int, dict[int, bytes]]:
    """The careful bot's first ``commands`` commands, the turn they reach, and the saves its process would send."""
    game, bot = Game.new(SEED, NAME), CarefulBot()
    session, played, saves = Session(game), list[bytes](), dict[int, bytes]()
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "snapshot.save"
        while len(played) < commands and not game.state.game_over:
            command = bot.choose(game)
            step = session.apply(command)
            played.append(command_bytes(command))
            if step.index % SAVE_EVERY == 0:
                write_save(path, step.snapshot, steps=step.index)  # as the game's process sends it
                saves[step.index] = path.read_bytes()
    if game.state.game_over:
        raise RuntimeError(f"the careful bot's game on seed {SEED} ended at {len(played)} commands")
    return played, game.state.turn, saves


def rebuild_times(played: list[bytes], saved_at: int | None, saved: bytes, repeats: int) -> list[float]:
    """CPU seconds to rebuild the game from its seed (``saved_at`` None) or a save and the commands after it."""
    times = []
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "snapshot.save"
        for _ in range(repeats):
            started = time.process_time()
            if saved_at is None:
                session = Session(Game.new(SEED, NAME))
            else:
                path.write_bytes(saved)
                session = Session(read_save(path).game(), steps=saved_at)
            for data in played[saved_at or 0 :]:
                session.apply(command_of(data))
            times.append(time.process_time() - started)
            session.game.close()
    return times


def plant(served: Served, played: list[bytes]) -> str:
    """The game's log on the server: a live game of the seed and every command accepted; its id."""
    assert served.engine is not None
    row = log.start_or_resume(served.engine, NAME, RULES_EPOCH)
    stamp = log.stamp()
    rows = [{"game": row.id, "seq": seq, "command": data, "received_at": stamp} for seq, data in enumerate(played, 1)]
    with served.engine.begin() as connection:
        connection.execute(update(log.hosted_games).where(log.hosted_games.c.id == row.id).values(seed=SEED))
        connection.execute(log.hosted_inputs.insert(), rows)
    return row.id


def resumed_in(served: Served, turn: int) -> float:
    """Wall seconds from ``/play`` to the first frame showing ``turn``."""
    started = time.perf_counter()
    status, _ = served.get("/play", NAME)
    if status != 200:
        raise RuntimeError(f"/play answered {status}")
    origin, url = Origin(served.url("")), f"ws://127.0.0.1:{served.port}/ws/play"
    with connect(url, origin=origin, additional_headers={ACCOUNT_HEADER: NAME}, max_size=None) as socket:
        cells: Cells | None = None
        while cells is None or turn_shown(text_rows(cells)) != turn:
            message = socket.recv(timeout=ANSWER_SECONDS)
            if isinstance(message, bytes):
                cells = apply(cells, message)
        return time.perf_counter() - started


def served_times(played: list[bytes], turn: int, saved: tuple[int, bytes] | None, repeats: int) -> list[float]:
    """Resume the game ``repeats`` times, each on a fresh server (whose screen of the game is blank till its
    process shows it), warmed up first by another account's game (the fork server's first fork)."""
    times = []
    for _ in range(repeats):
        with Served(Path(tempfile.mkdtemp(prefix="hedonic-bench-resume-"))) as served:
            warm = Player(served, "warm", (0.0, 0.0), 0.0, Tally())
            warm.open_game()
            warm.hang_up()
            game = plant(served, played)
            if saved is not None:
                assert served.engine is not None
                log.keep_snapshot(served.engine, game, *saved)
            times.append(resumed_in(served, turn))
    return times


def measure(commands: int, repeats: int) -> None:
    """Print the figures: the log's size, the rebuild in-process, and the resume through the server."""
    played, turn, saves = long_game(commands)
    figure("commands logged", len(played), "commands", f"the careful bot's game on seed {SEED}, turn {turn}")
    newest = max(saves)
    kinds = [(None, "the seed"), (newest, f"the newest save (command {newest})")]
    if newest - SAVE_EVERY in saves:  # the most a process replays after a save: one short of SAVE_EVERY commands
        kinds.append((newest - SAVE_EVERY, f"the save before it (command {newest - SAVE_EVERY})"))
    for saved_at, label in kinds:
        times = rebuild_times(played, saved_at, saves.get(saved_at or 0, b""), repeats)
        figure(f"rebuild from {label}, median", statistics.median(times), "s", f"CPU, in-process, of {repeats}")
    for saved_at, label in kinds[:2]:
        saved = None if saved_at is None else (saved_at, saves[saved_at])
        times = served_times(played, turn, saved, repeats)
        figure(f"resume from {label}, /play to its first frame, median", statistics.median(times), "s", "wall")
        figure(f"resume from {label}, /play to its first frame, most", max(times), "s", f"of {repeats}")
