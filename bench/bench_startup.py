"""Start-up: how long each command takes from launch, against importing its libraries.

Run: ``python -m bench.bench_startup``. Figures go in docs/performance.md ("Start-up").

Every command runs in a new process, as a user starts it (``python -m roguelike ...``,
the same as the ``hedonic`` script), in an empty data directory, except ``hedonic saves``
and the window's second first frame, which find one save of SAVED_TURNS turns (as a
returning player has; the title's Resume then tries its first turn). Each is timed as the
median of RUNS launches (after one untimed launch), both as CPU time of the process
(steady under load) and as wall time. Compiled modules are cached (in a folder of the
bench's own) as they are for a player after the first launch; one figure shows
``simulate`` compiling the game's modules at every launch, as where
``PYTHONDONTWRITEBYTECODE`` is set. ``hedonic`` runs numpy with one BLAS thread, so the
libraries are timed both as Python imports them and that way. The window's first frame is
timed from launch to the return of the first ``present`` (the title screen), under SDL's
dummy video driver; the process then exits. "over its imports" is a command's CPU
less python's (commands that load no tcod or numpy) or less the libraries' import, as
Python does it / with one BLAS thread. Left out: the first launch after installing
(compiling), and a display's own start-up (X11, Wayland).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, children_cpu, figure

RUNS = 7
SAVED_TURNS = 200
LIMIT = 60.0
LIBRARIES = "import tcod, numpy, esper, msgpack"
FIRST_FRAME = """
import os, sys
from roguelike.cli.main import main  # first, as the hedonic script does: it loads no tcod
import tcod.context
shown = tcod.context.Context.present
def present(self, *args, **kwargs):
    shown(self, *args, **kwargs)
    os._exit(0)
tcod.context.Context.present = present
sys.exit(main(["play", "--window"]))
"""


def launch(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Median CPU and wall seconds of a command run to its end, RUNS times, after one untimed run."""
    cpu, wall = [], []
    for run in range(RUNS + 1):
        before, start = children_cpu(), time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, env=env, check=True, capture_output=True, timeout=LIMIT)
        if run:  # the first run caches the bytecode, as a player's first launch after installing does
            wall.append(time.perf_counter() - start)
            cpu.append(children_cpu() - before)
    return statistics.median(cpu), statistics.median(wall)


def environment(data: Path, bytecode: Path, **extra: str) -> dict[str, str]:
    """A launch's environment: the data directory, and compiled modules kept in ``bytecode``.

    Without the cache (``PYTHONDONTWRITEBYTECODE``, set on some machines) every launch
    compiles the game's modules again while the libraries load theirs from pip's cache.
    """
    env = {**os.environ, "HEDONIC_DATA_DIR": str(data), "PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(bytecode)}
    for unset in ("PYTHONDONTWRITEBYTECODE", "OPENBLAS_NUM_THREADS"):  # as a player's shell has them
        env.pop(unset, None)
    return {**env, **extra}


def returning_player(data: Path, env: dict[str, str]) -> None:
    """A data directory holding one living character's save, listed as sound.

    The first seed whose standard bot is still alive after SAVED_TURNS turns: which one that is
    changes with the rules (seed 3 lived 200 turns until rules epoch 16).
    """
    for seed in range(1, 100):
        done = hedonic(data, env, "simulate", "--seed", str(seed), "--turns", str(SAVED_TURNS), "--name", f"Ann{seed}")
        listed = hedonic(data, env, "saves")
        if f"Ann{seed}  turn {SAVED_TURNS}  floor" in listed.stdout:
            assert " ok" in listed.stdout, listed.stdout
            return
        assert "no saves" in listed.stdout or "turn" in listed.stdout, (done.stdout, listed.stdout)
    raise AssertionError(f"no seed under 100 lives {SAVED_TURNS} turns")


def hedonic(data: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run a ``hedonic`` command in ``data``, checked."""
    return subprocess.run(
        [sys.executable, "-m", "roguelike", "--data-dir", str(data), *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )


def commands(bare: float, libraries: tuple[float, float]) -> dict[str, tuple[list[str], tuple[float, ...]]]:
    """Each command timed, with the imports it is compared with."""
    verify = ["replay", "--verify", str(ROOT / "replays" / "death-overdose.replay")]
    return {
        "hedonic --version": (["--version"], (bare,)),
        "hedonic --help": (["--help"], (bare,)),
        f"hedonic saves (one save of {SAVED_TURNS} turns)": (["saves"], (bare,)),
        "hedonic simulate --turns 1": (["simulate", "--seed", "1", "--turns", "1"], libraries),
        "hedonic replay --verify (death-overdose.replay)": (verify, libraries),
    }


def first_frames(empty: dict[str, str], saved: dict[str, str]) -> None:
    """The window's first frame, for a first-time player and for one with a save to resume."""
    for label, env in (("window", empty), ("window with a save to resume", saved)):
        cpu, wall = launch(["-c", FIRST_FRAME], {**env, "SDL_VIDEODRIVER": "dummy"})
        figure(f"{label}: launch to first frame, CPU", cpu * 1e3, "ms")
        figure(f"{label}: launch to first frame, wall", wall * 1e3, "ms")


def imports(env: dict[str, str]) -> tuple[float, tuple[float, float]]:
    """CPU seconds of python alone, and of importing the libraries (as Python does, with one BLAS thread)."""
    bare, _ = launch(["-c", "pass"], env)
    libraries, _ = launch(["-c", LIBRARIES], env)
    one_thread, _ = launch(["-c", LIBRARIES], {**env, "OPENBLAS_NUM_THREADS": "1"})
    figure("python itself", bare * 1e3, "ms", "CPU")
    figure("importing tcod, numpy, esper and msgpack", libraries * 1e3, "ms", "CPU")
    figure("the same imports with one BLAS thread (as hedonic sets it)", one_thread * 1e3, "ms", "CPU")
    return bare, (libraries, one_thread)


def main() -> None:
    """Print every command's start-up, and what it adds to the import of its libraries."""
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as folder:
        bytecode, data, saved = (Path(folder) / name for name in ("bytecode", "empty", "saved"))
        data.mkdir()
        empty_env, saved_env = environment(data, bytecode), environment(saved, bytecode)
        returning_player(saved, saved_env)
        bare, libraries = imports(empty_env)
        for label, (args, bases) in commands(bare, libraries).items():
            cpu, wall = launch(["-m", "roguelike", *args], saved_env if args == ["saves"] else empty_env)
            over = " / ".join(f"{(cpu - base) * 1e3:+.0f}" for base in bases)
            figure(label, cpu * 1e3, "ms", f"CPU; {over} ms over its imports; wall {wall * 1e3:.0f} ms")
        uncached = {**empty_env, "PYTHONDONTWRITEBYTECODE": "1"}
        del uncached["PYTHONPYCACHEPREFIX"]
        cpu, _ = launch(["-m", "roguelike", "simulate", "--seed", "1", "--turns", "1"], uncached)
        figure("hedonic simulate --turns 1, game's bytecode not cached", cpu * 1e3, "ms", "CPU")
        first_frames(empty_env, saved_env)


if __name__ == "__main__":
    main()
