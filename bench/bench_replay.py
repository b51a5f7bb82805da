"""Replay verification speed on a game that crosses several floors, and what it is made of.

Run: ``python -m bench.bench_replay``. Figures go in docs/performance.md ("Replays").
Uses the corpus replay ``replays/floors.replay`` (re-recorded with the current game by
``hedonic replay --rerecord replays/``).

Two figures a user waits for: the command itself (``hedonic replay --verify`` on that
file and on the whole corpus, in a new process: start-up and reading included; its rate
is by wall time, since several files are verified side by side in worker processes, with
the CPU time of all of them beside it, and the corpus once more one file at a time), and
``verify()`` in-process (what a long replay's time is made of, CPU time): on the corpus
file as it is (its replay format, 3 today) and on it and the deep ``death-depression.replay``
(18 floors today) recorded afresh by the game under test (its newest format; format 2's checksum does not
grow with the floors left behind).
Then one replay taken apart: game logic, snapshot + checksum, reading, and what the
recorder adds during play.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench.common import ROOT, children_cpu, figure, rate
from roguelike.core.game import Game
from roguelike.core.snapshot import digest, snapshot_bytes
from roguelike.replay.fileformat import Replay, read_replay, step_bytes
from roguelike.replay.verify import Outcome, verify
from roguelike.replay.witness import changes, witness

CORPUS = ROOT / "replays"
CORPUS_FILE = CORPUS / "floors.replay"
# the deepest corpus game (18 floors at epoch 16): what the checksum costs deep down
DEEP_FILE = CORPUS / "death-depression.replay"
RUNS = 7
COMMAND_RUNS = 5


def best_of(runs: int, once: Callable[[], object], clock: Callable[[], float] = time.process_time) -> float:
    """The median time of several runs (CPU time unless another clock is given)."""
    times = []
    for _ in range(runs):
        start = clock()
        once()
        times.append(clock() - start)
    return statistics.median(times)


def command(files: list[Path], jobs: int | None = None) -> None:
    """``hedonic replay --verify FILES`` in a new process, which must find every file matching."""
    args = [sys.executable, "-m", "roguelike", "replay", "--verify", *map(str, files)]
    subprocess.run(args + ([f"--jobs={jobs}"] if jobs else []), check=True, capture_output=True, timeout=300)


def supports_jobs() -> bool:
    """Whether the game under test verifies several files side by side (``--jobs``)."""
    result = subprocess.run(
        [sys.executable, "-m", "roguelike", "replay", "--help"], capture_output=True, text=True, timeout=60
    )
    return "--jobs" in result.stdout


def today_format(replay: Replay) -> int:
    """A read replay's format (1 for games that knew only one)."""
    return int(getattr(replay, "format", 1))


def verify_once(replay: Replay) -> None:
    """One full verification, which must match."""
    if verify(replay).outcome is not Outcome.MATCHED:
        raise SystemExit("the corpus replay no longer verifies: re-record it first")


def todays_checksum(game: Game) -> str:
    """The checksum a replay recorded now holds (format 2's in pieces, where the game under test has it)."""
    try:
        from roguelike.core.snapshot import encoded_state
    except ImportError:  # before replay format 2: the whole bytes' checksum
        return digest(snapshot_bytes(game))
    return encoded_state(game).checksum


def recorded_today(path: Path, folder: Path) -> Replay:
    """A corpus game recorded afresh by the game under test, in its newest replay format."""
    from roguelike.replay.corpus import write_recording

    replay = read_replay(path)
    crash = replay.crash.command if replay.crash is not None else None
    copy = folder / path.name
    write_recording(copy, replay.header.seed, replay.header.name, [s.command for s in replay.steps], crash)
    return read_replay(copy)


def parts(replay: Replay) -> tuple[float, float, float]:
    """Seconds spent in game logic, snapshot + checksum, and making the record, over one replay."""
    game = Game.new(replay.header.seed, replay.header.name)
    logic = snapshot = record = 0.0
    clock = time.process_time
    facts: dict[str, object] = {}
    for step in replay.steps:
        start = clock()
        game.apply(step.command)
        applied = clock()
        checksum = todays_checksum(game)
        summed = clock()
        now = witness(game)
        step_bytes(step.index, step.command, game.state.turn, checksum, changes(facts, now))
        facts = now
        logic, snapshot = logic + applied - start, snapshot + summed - applied
        record += clock() - summed
    game.close()
    return logic, snapshot, record


def main() -> None:
    """Print the figures as the rows of the docs table."""
    replay = read_replay(CORPUS_FILE)
    steps, turns = len(replay.steps), replay.final_turn
    floors = max(s.changes.get("depth", 1) for s in replay.steps)
    print(
        f"replay: {CORPUS_FILE.name}, {turns} turns, {steps} commands, {floors} floors, "
        f"{CORPUS_FILE.stat().st_size / steps:.0f} bytes a command"
    )
    corpus = sorted(CORPUS.glob("*.replay"))
    corpus_turns = sum(read_replay(path).final_turn for path in corpus)
    runs: list[tuple[str, list[Path], int, int | None]] = [
        ("this replay", [CORPUS_FILE], turns, None),
        (f"the corpus ({len(corpus)} files)", corpus, corpus_turns, None),
    ]
    if supports_jobs():  # the corpus one file at a time too, to show what the workers give
        runs.append((f"the corpus ({len(corpus)} files) with --jobs 1", corpus, corpus_turns, 1))
    for label, files, count, jobs in runs:
        wall = best_of(COMMAND_RUNS, lambda: command(files, jobs), time.perf_counter)
        cpu = best_of(COMMAND_RUNS, lambda: command(files, jobs), children_cpu)
        figure(
            f"`hedonic replay --verify` on {label}, as a command",
            rate(count, wall),
            "turns/s wall",
            f"{cpu:.2f} s CPU ({rate(count, cpu):,.0f} turns/s), {wall:.2f} s wall",
        )
    verify_s = best_of(RUNS, lambda: verify_once(replay))
    figure("verify() in-process, this replay", rate(turns, verify_s), "turns/s", "CPU time")
    with tempfile.TemporaryDirectory() as folder:
        for path in (CORPUS_FILE, DEEP_FILE):
            today = recorded_today(path, Path(folder))
            seconds = best_of(RUNS, lambda: verify_once(today))
            figure(
                f"verify() in-process, {path.name} recorded today ({len(today.steps)} commands)",
                rate(today.final_turn, seconds),
                "turns/s",
                f"CPU time, replay format {today_format(today)}",
            )
    read_s = best_of(RUNS, lambda: read_replay(CORPUS_FILE))
    measured = [parts(replay) for _ in range(RUNS)]
    logic, snapshot, record = (statistics.median(run[i] for run in measured) for i in range(3))
    for label, seconds, unit in (
        ("game logic", logic, "command"),
        ("snapshot + checksum", snapshot, "command"),
        ("reading and checking the file", read_s, "record"),
        ("recording: witness + record (besides the above)", record, "command"),
    ):
        print(f"  {label}: {seconds * 1000:.0f} ms, {seconds / steps * 1e6:.1f} us a {unit}")


if __name__ == "__main__":
    main()
