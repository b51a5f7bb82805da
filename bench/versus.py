"""Run benches against this checkout and another (today's code, say), taking turns, and print ratios.

Run: ``python -m bench.versus OTHER_CHECKOUT [bench_core bench_replay ...]``, where the other
checkout has its own ``.venv`` (``python3 -m venv .venv && .venv/bin/pip install -e .``).
Each bench runs ROUNDS times in each checkout, alternately, so both see the same machine;
the other checkout runs *these* bench scripts (copied aside) against *its* game. Every
figure a bench prints (``label: value unit``) is given as the median of its rounds in
both, and their ratio (this checkout over the other; for times, lower is better).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
ROUNDS = 3
LIMIT = 1800
BENCHES = ["bench_core", "bench_monsters", "bench_replay", "bench_saves", "bench_sight", "bench_startup"]
FIGURE = re.compile(r"^(?P<label>[^ ].*?): (?P<value>[\d,]+\.\d+) (?P<unit>\S+)")

Figures = dict[str, list[float]]


def run(python: Path, bench: str, pythonpath: str, cwd: Path) -> dict[str, tuple[float, str]]:
    """The figures one run of a bench prints."""
    env = {**os.environ, "PYTHONPATH": pythonpath}
    done = subprocess.run(
        [str(python), "-m", f"bench.{bench}"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=LIMIT,
    )
    if done.returncode != 0:  # say why: the other checkout may lack what the bench uses
        sys.stderr.write(done.stderr)
        raise SystemExit(f"{python} -m bench.{bench} in {cwd} failed ({done.returncode})")
    found = {}
    for line in done.stdout.splitlines():
        match = FIGURE.match(line)
        if match:
            found[match["label"]] = (float(match["value"].replace(",", "")), match["unit"])
    return found


def shown(value: float) -> str:
    """A figure with three significant digits at least (0.27 ms, 5,878.6 turns/s)."""
    return f"{value:,.1f}" if abs(value) >= 100 else f"{value:.3g}"


def compare(bench: str, other: Path, aside: Path) -> None:
    """Print one bench's figures in both checkouts and their ratios."""
    mine: Figures = {}
    theirs: Figures = {}
    units: dict[str, str] = {}
    for _ in range(ROUNDS):
        for into, python, path, cwd in (
            (mine, HERE / ".venv/bin/python", str(HERE), HERE),
            (theirs, other / ".venv/bin/python", f"{aside}{os.pathsep}{other}", aside),
        ):
            for label, (value, unit) in run(python, bench, path, cwd).items():
                into.setdefault(label, []).append(value)
                units[label] = unit
    print(f"## {bench} ({ROUNDS} rounds each, medians)")
    for label, values in mine.items():
        now, before = statistics.median(values), statistics.median(theirs.get(label, [float("nan")]))
        print(f"- {label}: {shown(now)} {units[label]} (other: {shown(before)}; ratio {now / before:.2f})")


def main() -> None:
    """Compare the benches named (default: all but the terminal one)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path, help="the other checkout, with its own .venv")
    parser.add_argument("benches", nargs="*", default=BENCHES, help=f"default: {' '.join(BENCHES)}")
    args = parser.parse_args()
    other = args.other.resolve()
    if not (other / ".venv/bin/python").exists():  # before a round of benches here, not after
        parser.error(f"{other} has no .venv/bin/python")
    with tempfile.TemporaryDirectory(prefix="bench-versus-") as folder:
        aside = Path(folder)
        shutil.copytree(HERE / "bench", aside / "bench")
        for bench in args.benches:
            compare(bench, other, aside)


if __name__ == "__main__":
    main()
