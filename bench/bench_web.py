"""The web frontend and films, measured. Figures go in docs/performance.md ("Web and films").

Run: ``python -m bench.bench_web [--browser] [--screenshot OUT.png]``.

- **Frames**: the corpus's longest game drawn as the in-game screen after each command;
  each frame's message (raw; on the wire, deflated once for every viewer by
  ``frames.deflated``; and, to compare, as a per-connection permessage-deflate stream with
  context takeover would send it, which the server used before), the keyframe, and the
  frontend's work per step (draw, finish, diff, deflate: the game's own turn is in bench_core).
- **Films**: the film of the corpus's longest replay: bytes a command, the time to make it,
  and seeking: a film opened afresh, then one frame read at random, ``SEEKS`` times.
- **Spectators**: ``hedonic play --web`` in its own process; a player client presses a key
  (wait a turn) and times until the next frame arrives, ``KEYS`` times, with no spectator
  and with ``SPECTATORS`` reading every frame; the server's CPU a key from /proc. Twice: keys
  as fast as the server answers (a key every few ms: spectators' frames merge on their tick),
  then at a player's pace, a key every ``PACE`` seconds (each key's frames, animation included,
  mostly reach spectators as they come).
- ``--browser``: the same in Debian's chromium (key-to-frame measured inside the page, from
  the key event to the frame drawn); ``--screenshot`` saves the canvas as the README shows it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import tcod.console
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from bench.common import ROOT, figure
from roguelike.frontend import frames
from roguelike.frontend.film.fileformat import Film
from roguelike.frontend.film.maker import film_of
from roguelike.render.draw import draw_game
from roguelike.render.look import DEFAULT_LOOK, finish_frame
from roguelike.replay.fileformat import read_replay
from roguelike.replay.playback import Playback

SEED = 18  # its character waits KEYS turns alive (at rules epoch 16 seed 11's dies of exhaustion at turn 65)
SEEKS = 30
WINDOW_BITS = 12  # what uvicorn (websockets) agrees with browsers: server_max_window_bits=12
KEYS = 150
PACE = 0.2  # seconds between keys at a player's pace
PACED_KEYS = 60
DRAIN_SECONDS = 10  # at most this long waiting for the start's frames to stop before timing keys
SPECTATORS = 20
FILM_REPLAY = "death-depression.replay"


def p95(values: Sequence[float]) -> float:
    """The 95th percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


class Deflater:
    """What permessage-deflate puts on the wire for each message (context kept between messages)."""

    def __init__(self) -> None:
        self.stream = zlib.compressobj(wbits=-WINDOW_BITS)

    def size(self, message: bytes) -> int:
        """Compressed bytes of one message (the flush marker is not sent)."""
        return len(self.stream.compress(message) + self.stream.flush(zlib.Z_SYNC_FLUSH)) - 4


def bench_frames() -> None:
    """Message sizes and the frontend's work per step, over the corpus's longest game."""
    replay = read_replay(ROOT / "replays" / FILM_REPLAY)
    playback = Playback(replay)
    console = tcod.console.Console(80, 25, order="C")
    screenful, deflater, look = frames.Screenful(80, 25), Deflater(), DEFAULT_LOOK
    raw, wire, stream, work = [], [], [], []
    while playback.step():
        start = time.process_time()
        console.clear()
        draw_game(console, playback.game, 0.0, look)
        finish_frame(console, look)
        message = screenful.update(console) or b""
        sent = frames.deflated(message) if message else b""
        work.append(time.process_time() - start)
        raw.append(len(message))
        wire.append(len(sent))
        stream.append(deflater.size(message) if message else 0)
    turns = playback.game.state.turn
    keyframe = screenful.keyframe()
    print(f"frames: {FILM_REPLAY}, {len(raw)} commands, {turns} turns")
    figure("bytes a turn, raw (mean)", sum(raw[1:]) / turns, "B")
    figure("bytes a turn, on the wire (mean)", sum(wire[1:]) / turns, "B", "deflated once for every viewer")
    figure("bytes a command, on the wire (p95)", p95(wire[1:]), "B")
    figure(
        "bytes a turn, with permessage-deflate instead (mean)",
        sum(stream[1:]) / turns,
        "B",
        "one stream a connection, context kept",
    )
    figure("keyframe, raw", len(keyframe), "B")
    figure("keyframe, on the wire", len(frames.deflated(keyframe)), "B")
    figure("frontend work a step (mean)", statistics.mean(work) * 1e3, "ms", "draw + finish + diff + deflate")
    figure("frontend work a step (p95)", p95(work) * 1e3, "ms")
    playback.close()


def bench_films() -> None:
    """A long replay's film: size, making, seeking."""
    replay = read_replay(ROOT / "replays" / FILM_REPLAY)
    start = time.process_time()
    data = film_of(replay)
    made = time.process_time() - start
    commands = len(replay.steps)
    print(f"film: {FILM_REPLAY}, {commands} commands, {len(data):,} bytes")
    figure("film bytes a command", len(data) / commands, "B")
    figure("film making a command", made / commands * 1e3, "ms")
    chooser = random.Random(1)
    seeks, walls = [], []
    for _ in range(SEEKS):
        index = chooser.randrange(commands + 1)
        start, wall = time.process_time(), time.perf_counter()
        Film(data).frame(index)
        seeks.append(time.process_time() - start)
        walls.append(time.perf_counter() - wall)
    figure("film seek, open and show a random frame (median)", statistics.median(seeks) * 1e3, "ms", "CPU")
    figure("film seek (max)", max(seeks) * 1e3, "ms", "CPU")
    figure("film seek, wall (max)", max(walls) * 1e3, "ms")
    film, start = Film(data), time.process_time()
    for index in range(commands + 1):
        film.frame(index)
    figure("film playing a frame", (time.process_time() - start) / (commands + 1) * 1e3, "ms")


def server_cpu(pid: int) -> float:
    """CPU seconds a process's threads have run so far (Linux: schedstat, in nanoseconds, not 10 ms ticks)."""
    total = 0
    for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
        try:
            total += int(stat.read_text().split()[0])
        except (OSError, IndexError, ValueError):
            continue  # a thread that ended meanwhile
    return total / 1e9


def next_frame(socket: ClientConnection) -> bytes:
    """The next binary message (notes skipped)."""
    while True:
        message = socket.recv(timeout=30)
        if isinstance(message, bytes):
            return message


def key(socket: ClientConnection, code: str, text: str | None = None) -> None:
    """A key pressed and released, as the browser sends it."""
    socket.send(bytes([0x10, 0]) + code.encode())
    if text is not None:
        socket.send(bytes([0x11]) + text.encode())
    socket.send(bytes([0x14, 0]) + code.encode())


def spectate(url: str, origin: str, stop: threading.Event) -> None:
    """A spectator reading every frame until told to stop."""
    with connect(url, origin=Origin(origin)) as socket:
        while not stop.is_set():
            try:
                socket.recv(timeout=0.2)
            except TimeoutError:
                continue


def bench_spectators(spectators: int, pace: float = 0.0) -> tuple[list[float], float]:
    """Key-to-frame latencies and server CPU a key, with ``spectators`` watching, a key every ``pace`` s."""
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "roguelike",
                "play",
                "--web",
                "--no-browser",
                "--port",
                "0",
                "--data-dir",
                folder,
                "--seed",
                str(SEED),
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert server.stdout is not None
        play = server.stdout.readline().split()[-1]
        watch = server.stdout.readline().split()[-1]
        base = play.rsplit("/", 1)[0]
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=spectate, args=(watch.replace("http", "ws").replace("/watch", "/ws/watch"), base, stop)
            )
            for _ in range(spectators)
        ]
        try:
            return play_keys(play, server.pid, threads, pace)
        finally:
            stop.set()
            for thread in threads:
                thread.join()
            server.terminate()
            server.wait()


def play_keys(play: str, pid: int, threads: list[threading.Thread], pace: float = 0.0) -> tuple[list[float], float]:
    """Start a game, let the spectators in, then time ``KEYS`` waits (``PACED_KEYS``, one every ``pace`` s)."""
    socket_url, origin = play.replace("http", "ws", 1).replace("/play", "/ws/play", 1), play.rsplit("/", 1)[0]
    with connect(socket_url, origin=Origin(origin)) as socket:
        next_frame(socket)
        key(socket, "KeyN", "n")
        for char in "Bench":
            socket.send(bytes([0x11]) + char.encode())
        key(socket, "Enter")
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        quiet_by = time.perf_counter() + DRAIN_SECONDS
        while time.perf_counter() < quiet_by:  # drain what the start and the spectators brought
            try:
                socket.recv(timeout=0.5)
            except TimeoutError:
                break
        keys = PACED_KEYS if pace else KEYS
        latencies, cpu = [], server_cpu(pid)
        for _ in range(keys):
            start = time.perf_counter()
            key(socket, "Period")
            next_frame(socket)
            latencies.append(time.perf_counter() - start)
            while pace and time.perf_counter() < start + pace:  # the frames that follow (animation) come meanwhile
                try:
                    socket.recv(timeout=max(0.001, start + pace - time.perf_counter()))
                except TimeoutError:
                    break
        return latencies, (server_cpu(pid) - cpu) / keys


def bench_watching() -> None:
    """The player's latency and the server's CPU, alone and watched, keys as fast as they go and at a pace."""
    for pace, name in ((0.0, "keys back to back"), (PACE, f"a key every {PACE:g} s")):
        alone, alone_cpu = bench_spectators(0, pace)
        watched, watched_cpu = bench_spectators(SPECTATORS, pace)
        figure(f"{name}: key to frame, no spectator (p95)", p95(alone) * 1e3, "ms", "a client on loopback")
        figure(f"{name}: key to frame, {SPECTATORS} spectators (p95)", p95(watched) * 1e3, "ms")
        figure(f"{name}: server CPU a key, no spectator", alone_cpu * 1e3, "ms")
        figure(
            f"{name}: server CPU a key, {SPECTATORS} spectators",
            watched_cpu * 1e3,
            "ms",
            f"+{(watched_cpu / alone_cpu - 1) * 100:.0f}%",
        )


def bench_browser(screenshot: Path | None) -> None:
    """Key-to-frame in chromium, measured in the page."""
    from bench.browser import chromium, open_page, served_game, start_new_game

    with tempfile.TemporaryDirectory() as folder, served_game(Path(folder), SEED) as server, chromium() as browser:
        page = open_page(browser, server.url("/play"))
        start_new_game(page, server, "Bench")
        for _ in range(KEYS):
            count = page.evaluate("() => hedonic.state.frames")
            page.keyboard.press(".")
            page.wait_for_function(f"() => hedonic.state.frames > {count}")
        latencies = [value / 1e3 for value in page.evaluate("() => hedonic.state.latencies")]
        figure("browser key to frame (median)", statistics.median(latencies) * 1e3, "ms", "chromium, loopback")
        figure("browser key to frame (p95)", p95(latencies) * 1e3, "ms")
        if screenshot is not None:
            page.locator("#screen").screenshot(path=str(screenshot))


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description="Web frontend and film figures.")
    parser.add_argument("--browser", action="store_true", help="also measure in chromium")
    parser.add_argument("--screenshot", type=Path, help="with --browser: save the canvas here")
    parser.add_argument("--only", choices=["frames", "films", "watching", "browser"], help="one part only")
    args = parser.parse_args()
    parts: dict[str, Callable[[], None]] = {
        "frames": bench_frames,
        "films": bench_films,
        "watching": bench_watching,
        "browser": lambda: bench_browser(args.screenshot),
    }
    for name, run in parts.items():
        if (args.only is None and (name != "browser" or args.browser)) or args.only == name:
            run()


if __name__ == "__main__":
    main()
