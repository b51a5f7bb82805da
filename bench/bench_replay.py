"""Replay verification speed on a game that crosses several floors, and what it is made of.

Run: ``python -m bench.bench_replay``. Figures go in docs/performance.md ("Replays").
Uses the corpus replay ``replays/floors.replay`` (re-recorded with the current game by
``hedonic replay --rerecord replays/``); the target is ``--verify`` at 5,000 turns/s.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from roguelike.core.game import Game
from roguelike.replay.fileformat import Replay, read_replay, step_bytes
from roguelike.replay.verify import Outcome, verify
from roguelike.replay.witness import changes, witness
from roguelike.core.snapshot import digest, snapshot_bytes

CORPUS_FILE = Path(__file__).resolve().parent.parent / "replays" / "floors.replay"
RUNS = 7
TARGET = 5000


def best_of(runs: int, once: Callable[[], object]) -> float:
    """The median wall time of several runs."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        once()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def verify_once(replay: Replay) -> None:
    """One full verification, which must match."""
    if verify(replay).outcome is not Outcome.MATCHED:
        raise SystemExit("the corpus replay no longer verifies: re-record it first")


def parts(replay: Replay) -> tuple[float, float, float]:
    """Seconds spent in game logic, snapshot + checksum, and making the record, over one replay."""
    game = Game.new(replay.header.seed, replay.header.name)
    logic = snapshot = record = 0.0
    facts: dict[str, object] = {}
    for step in replay.steps:
        start = time.perf_counter()
        game.apply(step.command)
        applied = time.perf_counter()
        checksum = digest(snapshot_bytes(game))
        summed = time.perf_counter()
        now = witness(game)
        step_bytes(step.index, step.command, game.state.turn, checksum, changes(facts, now))
        facts = now
        logic, snapshot = logic + applied - start, snapshot + summed - applied
        record += time.perf_counter() - summed
    game.close()
    return logic, snapshot, record


def main() -> None:
    """Print the figures as the rows of the docs table."""
    replay = read_replay(CORPUS_FILE)
    steps, turns = len(replay.steps), replay.final_turn
    floors = max(s.changes.get("depth", 1) for s in replay.steps)
    print(f"replay: {CORPUS_FILE.name}, {turns} turns, {steps} commands, {floors} floors, "
          f"{CORPUS_FILE.stat().st_size / steps:.0f} bytes a command")
    verify_s = best_of(RUNS, lambda: verify_once(replay))
    read_s = best_of(RUNS, lambda: read_replay(CORPUS_FILE))
    measured = [parts(replay) for _ in range(RUNS)]
    logic, snapshot, record = (statistics.median(run[i] for run in measured) for i in range(3))
    rows = [
        ("`--verify`, whole replay", verify_s, f"{turns / verify_s:,.0f} turns/s"),
        ("… game logic", logic, f"{logic / steps * 1e6:.0f} µs a command"),
        ("… snapshot + checksum", snapshot, f"{snapshot / steps * 1e6:.0f} µs a command"),
        ("… reading and checking the file", read_s, f"{read_s / steps * 1e6:.1f} µs a record"),
        ("recording: witness + record (besides the above)", record, f"{record / steps * 1e6:.0f} µs a command"),
    ]
    print("| measure | total | rate |\n| --- | --- | --- |")
    for label, seconds, rate in rows:
        print(f"| {label} | {seconds * 1000:.0f} ms | {rate} |")
    met = turns / verify_s >= TARGET
    print(f"target {TARGET:,} turns/s: {'met' if met else 'NOT met'}", file=sys.stderr)


if __name__ == "__main__":
    main()
