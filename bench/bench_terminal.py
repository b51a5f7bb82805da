"""The terminal frontend, measured on the real program in a pseudo-terminal.

Run: ``python -m bench.bench_terminal [--palette NAME]``. Figures go in docs/performance.md ("Terminal").

For each colour mode the game is started in an 80x25 pty as a player would start it,
a new game is begun, and the player walks: each step is a key written to the pty, and
the time until the frame's closing synchronized-output marker comes back is the
keypress-to-frame latency; the bytes of that frame are the frame size. Idle CPU is the
CPU time the process uses while it sits on the first turn with no key pressed. Inside
the game process a small wrapper (``CHILD``) times the parts of each step: decoding and
the screens' handling (the game's turn, autosave included), the screens' drawing, the
ANSI diff, and the write.
"""

from __future__ import annotations

import argparse
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pyte
import tcod.console

from bench.common import ROOT, figure
from components import StateOfMind
from roguelike import settings
from roguelike.core.commands import Wait
from roguelike.core.game import Game
from roguelike.frontend.ansi import AnsiRenderer
from roguelike.frontend.palette import ColourMode
from roguelike.render.draw import draw_game
from roguelike.render.look import Look

SYNC_END = b"\x1b[?2026l"
STEPS = 150
ANIMATED_FRAMES = 100
IDLE_SECONDS = 5.0
LIMIT = 30.0
NO_FRAME = 2.0  # seconds after a key with no frame: the key changed nothing on screen
PLAY_OPTIONS: list[str] = []  # --palette NAME when one is measured
WALK_LIMIT = 300.0  # seconds for all the steps of one colour mode, whatever happens on screen
KEYS_LIMIT = STEPS * 10  # keys pressed in one colour mode, frames or not
ARROWS = {(0, -1): b"\x1bOA", (0, 1): b"\x1bOB", (1, 0): b"\x1bOC", (-1, 0): b"\x1bOD"}
# The game as ``hedonic play --terminal`` runs it, with the parts of each step timed.
CHILD = """
import sys, time
import roguelike.frontend.terminal as terminal
import roguelike.frontend.termsession as termsession
from roguelike.cli.main import main

log = open(sys.argv[1], "w", buffering=1)

def timed(name, function):
    def measured(*args):
        start = time.perf_counter()
        result = function(*args)
        log.write(f"{name} {time.perf_counter() - start}\\n")
        return result
    return measured

terminal.TerminalLoop.handle_input = timed("input", terminal.TerminalLoop.handle_input)
terminal.App.draw = timed("draw", terminal.App.draw)
terminal.AnsiRenderer.render = timed("diff", terminal.AnsiRenderer.render)
termsession.TerminalSession.write = timed("write", termsession.TerminalSession.write)
sys.exit(main(["play", "--terminal", *sys.argv[2:]]))
"""
PARTS = ("input", "draw", "diff", "write")
MODES = {
    "truecolour": {"COLORTERM": "truecolor"},
    "256 colours": {"COLORTERM": "", "TERM": "xterm-256color"},
    "16 colours": {"COLORTERM": "", "TERM": "linux"},
}


class PtyGame:
    """The game in an 80x25 pty, its screen followed by pyte."""

    def __init__(self, data: Path, env: dict[str, str], log: Path) -> None:
        self.master, slave = os.openpty()
        os.set_blocking(self.master, True)
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 25, 80, 0, 0))
        full_env = {key: value for key, value in os.environ.items() if key not in ("DISPLAY", "SDL_VIDEODRIVER")}
        full_env.update(TERM="xterm-256color", LANG="C.UTF-8", HEDONIC_DATA_DIR=str(data), PYTHONPATH=str(ROOT))
        full_env.update(env)
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(log), *PLAY_OPTIONS],
            cwd=ROOT,
            env=full_env,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
        )
        os.close(slave)
        self.screen = pyte.Screen(80, 25)
        self.stream = pyte.ByteStream(self.screen)

    def read_until(self, marker: bytes, limit: float = LIMIT) -> bytes:
        """Output up to and including ``marker``."""
        received = b""
        deadline = time.monotonic() + limit
        while not received.endswith(marker):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {marker!r}; screen:\n" + "\n".join(self.screen.display))
            ready, _, _ = select.select([self.master], [], [], min(1.0, max(0.0, deadline - time.monotonic())))
            if ready:
                received += os.read(self.master, 65536)
        self.stream.feed(received)
        return received

    def wait_for(self, text: str) -> None:
        """Read frames until the screen shows ``text``."""
        deadline = time.monotonic() + LIMIT
        while text not in "\n".join(self.screen.display):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {text!r}; screen:\n" + "\n".join(self.screen.display))
            self.read_until(SYNC_END)

    def key(self, data: bytes) -> tuple[float, int]:
        """Press a key; seconds until its frame was written, and the frame's bytes (0 and 0
        if nothing changed on screen: a confused walker bumping into a wall)."""
        start = time.perf_counter()
        os.write(self.master, data)
        try:
            frame = self.read_until(SYNC_END, limit=NO_FRAME)
        except TimeoutError:
            return 0.0, 0
        return time.perf_counter() - start, len(frame)

    def step(self, wait: bool = False) -> tuple[float, int] | None:
        """Walk to a free neighbouring floor cell (or wait, if asked or there is none); None once the walker is dead."""
        rows = self.screen.display
        players = [(line.index("@"), y) for y, line in enumerate(rows) if "@" in line]
        if len(players) != 1 or "died" in "\n".join(rows):
            return None
        ((x, y),) = players
        for (dx, dy), key in ARROWS.items():
            if not wait and rows[y + dy][x + dx] == ".":
                return self.key(key)
        return self.key(b".")

    def cpu_seconds(self) -> float:
        """User and system CPU time the game has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        """Quit with Ctrl-C and wait (bounded) for the program to end; kill it if it does not."""
        try:
            os.write(self.master, b"\x03")
            self.process.wait(timeout=LIMIT)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait(timeout=LIMIT)
        finally:
            os.close(self.master)


def start_game(game: PtyGame) -> None:
    """From the title to the first turn of a new game."""
    game.wait_for("New game")
    game.key(b"n")
    if "Turn" not in "\n".join(game.screen.display):
        game.key(b"\r")
    game.wait_for("Turn")


@dataclass
class Figures:
    """What one colour mode measured."""

    latencies: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    idle_cpu: float = 0.0
    parts: dict[str, float] = field(default_factory=dict)


def walk(env: dict[str, str]) -> Figures:
    """Idle CPU on the first turn, then STEPS steps, in one colour mode."""
    figures = Figures()
    with tempfile.TemporaryDirectory() as data:
        log = Path(data) / "parts.log"
        game = PtyGame(Path(data), env, log)
        try:
            start_game(game)
            before = game.cpu_seconds()
            time.sleep(IDLE_SECONDS)
            figures.idle_cpu = (game.cpu_seconds() - before) / IDLE_SECONDS
            walk_steps(game, figures)
        finally:
            game.close()
        figures.parts = part_medians(log.read_text())
    return figures


def walk_steps(game: PtyGame, figures: Figures) -> None:
    """Take STEPS steps, starting a new game whenever the walker dies; every wait is bounded
    (a walker whose keys change nothing on screen, stuck or confused, cannot hang the bench)."""
    deadline, keys, stuck = time.monotonic() + WALK_LIMIT, 0, False
    while len(figures.latencies) < STEPS:
        keys += 1
        if keys > KEYS_LIMIT or time.monotonic() > deadline:
            raise TimeoutError(
                f"only {len(figures.latencies)} of {STEPS} steps drew a frame; screen:\n"
                + "\n".join(game.screen.display)
            )
        measured = game.step(wait=stuck)
        if measured is None:  # withdrawal killed the walker: begin another game
            game.key(b"\r")
            start_game(game)
            continue
        # A step that drew nothing went into a wall, which takes no turn: a confused walker would
        # press the same key for ever, its confusion never wearing off, so it waits a turn instead.
        stuck = not measured[1]
        if measured[1]:
            figures.latencies.append(measured[0])
            figures.sizes.append(measured[1])


def part_medians(log: str) -> dict[str, float]:
    """Median seconds of each timed part, from the game's log."""
    seconds: dict[str, list[float]] = {part: [] for part in PARTS}
    for line in log.splitlines():
        part, value = line.split()
        seconds[part].append(float(value))
    return {part: statistics.median(values) for part, values in seconds.items() if values}


def describe(name: str, figures: Figures) -> str:
    """One mode's figures as text."""
    ordered, sizes = sorted(figures.latencies), sorted(figures.sizes)
    parts = ", ".join(f"{part} {seconds * 1e3:.2f} ms" for part, seconds in figures.parts.items())
    return (
        f"{name}: frame after a step median {statistics.median(sizes):.0f} B (p90 {sizes[len(sizes) * 9 // 10]} B); "
        f"key to frame median {statistics.median(ordered) * 1e3:.2f} ms (p90 "
        f"{ordered[len(ordered) * 9 // 10] * 1e3:.2f} ms); idle CPU {figures.idle_cpu * 100:.1f}%; "
        f"parts (medians): {parts}"
    )


def animated_frames(mode: ColourMode) -> tuple[float, float]:
    """Median bytes and diff seconds of the frames an animated (High) in-game screen
    writes at 20 frames a second, drawn in-process as the in-game screen draws them."""
    game = Game.new(2024, "Bench")
    game.player_component(StateOfMind).value = 90
    game.apply(Wait())
    console = tcod.console.Console(80, 25, order="C")
    renderer = AnsiRenderer(mode, unicode=True)
    sizes, seconds = [], []
    for frame in range(ANIMATED_FRAMES + 1):
        draw_game(console, game, frame / 20, Look.of(settings.current()))
        start = time.perf_counter()
        sizes.append(len(renderer.render(console)))
        seconds.append(time.perf_counter() - start)
    return statistics.median(sizes[1:]), statistics.median(seconds[1:])


def main() -> None:
    """Print the figures for every colour mode (in one palette)."""
    parser = argparse.ArgumentParser(description="Terminal frame figures.")
    parser.add_argument("--palette", choices=[name.value for name in settings.PaletteName], default="classic")
    palette = settings.PaletteName(parser.parse_args().palette)
    PLAY_OPTIONS[:] = ["--palette", palette.value]
    settings.use(settings.Preferences(None, overrides={"palette": palette}))
    print(f"palette: {palette.value}")
    for name, env in MODES.items():
        figures = walk(env)
        print(describe(name, figures))
        figure(f"{name}: key to frame (median)", statistics.median(figures.latencies) * 1e3, "ms")
    for mode in ColourMode:
        size, seconds = animated_frames(mode)
        print(f"animated (High) frame, {mode.value}: median {size:.0f} B, diff {seconds * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
