"""Replay verification speed on a game that crosses several floors, and what it is made of.

Run: ``python -m bench.bench_replay``. Figures go in docs/performance.md ("Replays").
Uses the corpus replay ``replays/floors.replay`` (re-recorded with the current game by
``hedonic replay --rerecord replays/``); the target is ``--verify`` at 5,000 turns/s.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from roguelike.game import Game
from roguelike.replay.fileformat import Replay, read_replay
from roguelike.replay.recorder import ReplayRecorder
from roguelike.replay.verify import Outcome, verify
from roguelike.session import Session, digest
from roguelike.snapshot import encode, to_plain

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


def apply_only(replay: Replay) -> None:
    """The game logic alone: every command, no snapshot."""
    game = Game.new(replay.header.seed, replay.header.name)
    for record in replay.steps:
        game.apply(record.command)
    game.close()


def apply_and_checksum(replay: Replay) -> None:
    """Game logic plus the per-turn snapshot and checksum (what verify does, minus comparing)."""
    game = Game.new(replay.header.seed, replay.header.name)
    for record in replay.steps:
        game.apply(record.command)
        digest(encode(to_plain(game)))
    game.close()


def record_once(replay: Replay, folder: Path) -> None:
    """Play the replay's commands through a recording session (as a frontend does)."""
    game = Game.new(replay.header.seed, replay.header.name)
    path = folder / f"bench-{time.perf_counter_ns()}.replay"
    session = Session(game, [ReplayRecorder.start(path, game, "bench")])
    for record in replay.steps:
        session.apply(record.command)
    session.close()
    game.close()


def main() -> None:
    """Print the figures as the rows of the docs table."""
    replay = read_replay(CORPUS_FILE)
    steps, turns = len(replay.steps), replay.final_turn
    floors = max(s.changes.get("depth", 1) for s in replay.steps)
    print(f"replay: {CORPUS_FILE.name}, {turns} turns, {steps} commands, {floors} floors, "
          f"{CORPUS_FILE.stat().st_size / steps:.0f} bytes a command")
    verify_s = best_of(RUNS, lambda: verify_once(replay))
    apply_s = best_of(RUNS, lambda: apply_only(replay))
    checksum_s = best_of(RUNS, lambda: apply_and_checksum(replay)) - apply_s
    read_s = best_of(RUNS, lambda: read_replay(CORPUS_FILE))
    with tempfile.TemporaryDirectory() as folder:
        record_s = best_of(RUNS, lambda: record_once(replay, Path(folder)))
    rows = [
        ("`--verify` (whole replay)", verify_s, f"{turns / verify_s:,.0f} turns/s"),
        ("game logic alone", apply_s, f"{apply_s / steps * 1e6:.0f} µs a command"),
        ("snapshot + checksum", checksum_s, f"{checksum_s / steps * 1e6:.0f} µs a command"),
        ("reading and checking the file", read_s, f"{read_s / steps * 1e6:.1f} µs a record"),
        ("recording session (logic + checksum + record)", record_s, f"{record_s / steps * 1e6:.0f} µs a command"),
    ]
    print("| measure | total | rate |\n| --- | --- | --- |")
    for label, seconds, rate in rows:
        print(f"| {label} | {seconds * 1000:.0f} ms | {rate} |")
    met = turns / verify_s >= TARGET
    print(f"target {TARGET:,} turns/s: {'met' if met else 'NOT met'}", file=sys.stderr)


if __name__ == "__main__":
    main()
