"""Sound: building the effects at start-up, mixing, and what sound costs a turn and a key.

Run: ``python -m bench.bench_sound``. Figures go in docs/performance.md ("Sound").

- *Build*: :func:`roguelike.sound.bank.build` as the game calls it once when a speaker
  opens, timed in a fresh interpreter each launch (the first call pays numpy's first use
  of each function), median of LAUNCHES launches, CPU and wall; then in-process repeats.
- *Mix*: one 20 ms chunk (what the speaker's thread mixes each time it wakes) of the drone
  with an effect playing, CPU; the thread's share of one core follows.
- *Turn and frame*: a bot game's commands through the in-game screen and a frame drawn
  after each (``App.draw``, where the drone follows the mind), silent, then with the
  speaker open on SDL's dummy driver and its thread feeding, alternately for ROUNDS rounds;
  wall time, because the cost to look for is the feeding thread taking the GIL.
- *Key to frame*: :mod:`bench.bench_terminal`'s walk in truecolour, the real program in a
  pty, with ``--mute`` and then with sound on (dummy driver); also its idle CPU.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import tcod.console
from tcod.cffi import lib

from bench import bench_terminal
from bench.common import ROOT, figure
from roguelike import settings, sound
from roguelike.bots.bot import Bot
from roguelike.core.commands import Command
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.frontend.speaker import speaking
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.sound import Mind, bank
from roguelike.sound.mixer import Levels, Mixer

LAUNCHES = 7
REPEATS = 30
ROUNDS = 3
WALK_ROUNDS = 2
TURNS = 300
BUILD_ONCE = (
    "import time; from roguelike.sound import bank; cpu, wall = time.process_time(), time.perf_counter(); "
    "bank.build(); print(time.process_time() - cpu, time.perf_counter() - wall)"
)


def build_in_fresh_processes() -> tuple[float, float]:
    """Median CPU and wall seconds of the first build in a new interpreter."""
    cpu, wall = [], []
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OPENBLAS_NUM_THREADS": "1"}
    for _ in range(LAUNCHES):
        out = subprocess.run([sys.executable, "-c", BUILD_ONCE], env=env, capture_output=True, text=True, check=True)
        first, second = out.stdout.split()
        cpu.append(float(first))
        wall.append(float(second))
    return statistics.median(cpu), statistics.median(wall)


def build_repeated() -> float:
    """Median CPU seconds of a build in a warm interpreter."""
    times = []
    for _ in range(REPEATS):
        start = time.process_time()
        bank.build()
        times.append(time.process_time() - start)
    return statistics.median(times)


def mix_chunk() -> float:
    """Median CPU seconds to mix 20 ms of the drone (High) with an effect under way."""
    effects, mixer, times = bank.build(), Mixer(), []
    mixer.set_levels(Levels(0.36))
    mixer.follow(Mind(80, 5))
    for index in range(REPEATS * 20):
        if index % 20 == 0:
            mixer.play(effects["dose_large"])
        start = time.process_time()
        mixer.mix(882)
        times.append(time.process_time() - start)
    return statistics.median(times)


def play_game(audio: sound.Audio, commands: list[Command]) -> list[float]:
    """Wall seconds of each command and the frame after it, through the in-game screen."""
    sound.use(audio)
    game = Game.new(1, "Bench")
    screen = InGameScreen(Session(game))
    app, console, seconds = App(screen), tcod.console.Console(80, 25, order="C"), []
    for command in commands:
        start = time.perf_counter()
        app.apply(screen.play(command))
        app.draw(console, 0.0)
        seconds.append(time.perf_counter() - start)
        if game.state.game_over:
            break
    game.close()
    return seconds


def bot_commands() -> list[Command]:
    """The bot's commands in the benched game."""
    session, bot, commands = Session(Game.new(1, "Bench")), Bot(), list[Command]()
    while len(commands) < TURNS and not session.game.state.game_over:
        commands.append(bot.choose(session.game))
        session.apply(commands[-1])
    session.game.close()
    return commands


def turns_with_and_without_sound() -> tuple[float, float]:
    """Median wall seconds of a command and its frame: silent, and with the speaker feeding."""
    lib.SDL_SetHint(b"SDL_AUDIO_DRIVER", b"dummy")  # SDL read the environment when tcod loaded
    commands, silent, heard = bot_commands(), list[float](), list[float]()
    for _ in range(ROUNDS):
        silent += play_game(sound.Audio(), commands)
        audio = sound.Audio()
        with speaking(audio, settings.current()):
            assert audio.playing, "the dummy driver is a device"
            heard += play_game(audio, commands)
    return statistics.median(silent), statistics.median(heard)


def key_to_frame(options: list[str]) -> bench_terminal.Figures:
    """The terminal bench's truecolour walk with these play options and a dummy audio device."""
    bench_terminal.PLAY_OPTIONS[:] = options
    return bench_terminal.walk({**bench_terminal.MODES["truecolour"], "SDL_AUDIO_DRIVER": "dummy"})


def main() -> None:
    """Print every figure."""
    cpu, wall = build_in_fresh_processes()
    figure("build every effect, first call in a new process (CPU)", cpu * 1e3, "ms", f"wall {wall * 1e3:.1f} ms")
    figure("build every effect, warm (CPU)", build_repeated() * 1e3, "ms")
    chunk = mix_chunk()
    figure("mix 20 ms of drone and effect (CPU)", chunk * 1e6, "us", f"{chunk / 0.02 * 100:.1f}% of a core")
    silent, heard = turns_with_and_without_sound()
    figure("command and frame, silent (wall, median)", silent * 1e3, "ms")
    figure("command and frame, sound on (wall, median)", heard * 1e3, "ms", f"ratio {heard / silent:.2f}")
    walks: dict[str, list[bench_terminal.Figures]] = {"muted": [], "sound on": []}
    for _ in range(WALK_ROUNDS):  # alternately, so both see the same load
        for label, options in (("muted", ["--mute"]), ("sound on", [])):
            walks[label].append(key_to_frame(options))
    for label, walked in walks.items():
        latencies = [seconds for walk in walked for seconds in walk.latencies]
        idle = statistics.median(walk.idle_cpu for walk in walked)
        figure(
            f"key to frame, {label} (median)", statistics.median(latencies) * 1e3, "ms", f"idle CPU {idle * 100:.1f}%"
        )


if __name__ == "__main__":
    main()
