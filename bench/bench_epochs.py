"""What each earlier rules epoch costs ``tests/test_epochs.py``, in CPU seconds (user + system,
children included), which load stretches less than wall time.

- ``add-history``: ``hedonic runtimes --add-history`` into an empty cache, less ``hedonic
  runtimes`` into another (the command's own start and the game keeping its own runtime), by
  earlier epoch; and again once all are kept.
- ``start-up``: each earlier epoch's verification child booting its runtime, importing what
  verifying needs and exiting, started fresh (``python -I -B -c BOOT``) and forked from one forker
  (its own start included, as a run of the test pays it), alternating, median of the rounds.
- ``verify`` (``--verify``): each epoch's corpus verified in its runtime as the test does (forked),
  less that epoch's start-up: the turns themselves, which no sharing removes.

Run: ``python -m bench.bench_epochs [--rounds N] [--verify]``; figures go in docs/performance.md.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from roguelike.core.epoch import FIRST_EPOCH, RULES_EPOCH
from roguelike.runtimes.dispatch import BOOT, child_environment
from roguelike.runtimes.forker import Forker
from roguelike.runtimes.launch import run_guarded
from roguelike.runtimes.store import CACHE_ENV, Runtime, kept_runtimes

ROOT = Path(__file__).resolve().parent.parent
OFFLINE = {"PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}
# The boot, stopped once what verifying needs is imported (the modules' names changed over the epochs).
START_UP = BOOT.replace(
    "raise SystemExit(main(sys.argv[1:]))\n",
    "for name in ('roguelike.cli.verifying', 'roguelike.cli.replay', 'roguelike.replay.verify'):\n"
    "    try:\n        __import__(name)\n    except ImportError:\n        pass\n",
)


def children_cpu() -> float:
    """The CPU seconds of every child reaped so far (and theirs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def spent(work: Callable[[], object]) -> float:
    """The children's CPU seconds a piece of work took."""
    before = children_cpu()
    work()
    return children_cpu() - before


def hedonic(args: list[str], cache: Path) -> None:
    """Run the game's command line from the checkout with a cache folder; it must succeed."""
    environment = {**os.environ, CACHE_ENV: str(cache), **OFFLINE}
    subprocess.run(
        [sys.executable, "-m", "roguelike", *args], cwd=ROOT, env=environment, check=True, capture_output=True
    )


def add_history(rounds: int) -> tuple[float, float, float]:
    """Median CPU of ``--add-history`` into an empty cache, of the command alone, and of ``--add-history`` again."""
    made, alone, again = [], [], []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as full, tempfile.TemporaryDirectory() as empty:
            alone.append(spent(lambda: hedonic(["runtimes"], Path(empty))))
            made.append(spent(lambda: hedonic(["runtimes", "--add-history"], Path(full))))
            again.append(spent(lambda: hedonic(["runtimes", "--add-history"], Path(full))))
    return statistics.median(made), statistics.median(alone), statistics.median(again)


def fresh(runtimes: list[Runtime], boot: str, argv: Callable[[Runtime], list[str]]) -> None:
    """Each runtime's child started fresh."""
    python = sys.executable
    for runtime in runtimes:
        command = [python, "-I", "-B", "-c", boot, str(runtime.code), *argv(runtime)]
        done = run_guarded(command, child_environment(), True)
        assert done.returncode == 0, done.stderr


def forked(runtimes: list[Runtime], boot: str, argv: Callable[[Runtime], list[str]]) -> None:
    """Each runtime's child forked from one forker (started here, stopped and reaped at the end)."""
    forker = Forker(Path(sys.executable), child_environment(), boot)
    try:
        for runtime in runtimes:
            done = forker.run(runtime.code, argv(runtime))
            assert done.returncode == 0, done.stderr
    finally:
        forker.close()


def corpus(runtime: Runtime) -> list[str]:
    """The command verifying an epoch's corpus, as the test runs it."""
    files = sorted((ROOT / "replays" / "epochs" / str(runtime.epoch)).glob("*.replay"))
    return ["replay", "--verify", "--jobs", "1", *map(str, files)]


def main() -> None:
    """Print each figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument(
        "--verify", action="store_true", help="also verify each epoch's corpus (about 30 CPU-s a round)"
    )
    args = parser.parse_args()
    earlier = RULES_EPOCH - FIRST_EPOCH
    print(f"rules epoch {RULES_EPOCH}: {earlier} earlier epochs; load average {os.getloadavg()[0]:.1f}")
    made, alone, again = add_history(args.rounds)
    print(f"add-history {made:.2f} CPU-s, the command alone {alone:.2f}: {(made - alone) / earlier:.3f} an epoch;")
    print(f"  again with all kept {again:.2f}")
    with tempfile.TemporaryDirectory() as cache:
        hedonic(["runtimes", "--add-history"], Path(cache))
        os.environ[CACHE_ENV] = str(cache)
        runtimes = [r for r in kept_runtimes()[0] if r.source.startswith("git ") and r.epoch > FIRST_EPOCH]
        ways = {"fresh": fresh, "forked": forked}
        figures: dict[str, list[float]] = {"fresh": [], "forked": []}
        for round_ in range(args.rounds):
            for name in ("fresh", "forked") if round_ % 2 == 0 else ("forked", "fresh"):
                way = ways[name]
                figures[name].append(spent(lambda: way(runtimes, START_UP, lambda runtime: [])))
        for name, values in figures.items():
            median = statistics.median(values)
            print(
                f"start-up {name}: {median:.2f} CPU-s for {len(runtimes)} epochs, {median / len(runtimes):.3f} an epoch"
            )
        if args.verify:
            verify = statistics.median(spent(lambda: forked(runtimes, BOOT, corpus)) for _ in range(args.rounds))
            turns = verify - statistics.median(figures["forked"])
            print(
                f"verify forked: {verify:.2f} CPU-s, {verify / len(runtimes):.3f} an epoch; the turns {turns / len(runtimes):.3f}"
            )
        os.environ.pop(CACHE_ENV)


if __name__ == "__main__":
    main()
