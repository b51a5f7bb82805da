"""``hedonic replay --verify``: re-simulate replay files and report each one's verdict.

Several files are verified side by side in worker processes (by default one per core, but
no more than the work is worth: one process for a few small files; ``--jobs`` to choose),
longest first so the last one to finish starts early; verdicts
are still printed in the order the files were given, so the output is the same whatever
the number of jobs. A folder stands for the ``*.replay`` files in it.

With ``--json``, a daily game's line carries its seed's par (``"par"``) when the data
directory's par file has it for the replay's own rules epoch (``hedonic par`` keeps it; a
par of another epoch is never given); nothing is worked out here.

Exit status: 0 when every turn matched, 1 when a game diverged (or a recorded crash still
happens), 2 when a file is damaged or not a replay (one line each, no traceback). With
several files the worst status wins.
"""

from __future__ import annotations

import functools
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from roguelike.core.names import shown

if TYPE_CHECKING:
    from roguelike.replay.verify import Progress
    from roguelike.runtimes.dispatch import Options
    from roguelike.scores.proof import Proof

EXIT_OK, EXIT_DIVERGED, EXIT_BAD_FILE = 0, 1, 2

Outcome = tuple[int, str, str]  # exit status, what goes to stdout, what goes to stderr


def replay_files(paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """The files to verify (each file as given, each folder as its ``*.replay`` files in name
    order), and the folders that hold none."""
    found: list[Path] = []
    empty: list[Path] = []
    for path in paths:
        inside = sorted(path.glob("*.replay")) if path.is_dir() else [path]
        found += inside
        empty += [] if inside else [path]
    return found, empty


def workers_for(files: list[Path], jobs: int | None) -> int:
    """How many processes verify ``files`` (multiprocessing loads only for several files)."""
    from roguelike.ground.pool import workers_for as chosen

    return chosen(files, jobs)


def verify_files(
    paths: list[Path],
    out: TextIO,
    err: TextIO,
    jobs: int | None = None,
    options: Options | None = None,
    as_json: bool = False,
    par_root: Path | None = None,
) -> int:
    """Verify every file (folders expanded), printing verdicts in order; the worst exit status.

    A file of another rules epoch is verified by that epoch's runtime (``options`` say how to
    reach its libraries), in a child forked from a process that imported those libraries once. ``as_json``: one JSON object a file, with the score recomputed (and a
    daily's par, if the par file of the data directory ``par_root`` has it)."""
    from roguelike.runtimes.forker import shared_imports

    files, empty = replay_files(paths)
    for folder in empty:
        print(f"hedonic replay: {shown(folder)}: a folder without replay files (*.replay)", file=err)
    worst = EXIT_BAD_FILE if empty else EXIT_OK
    with shared_imports():  # the runtime children of other epochs' files fork from one import of their libraries
        if len(files) <= 1 or (workers := workers_for(files, jobs)) <= 1:
            return max([worst, *(verify_file(path, out, err, options, as_json, par_root) for path in files)])
        for status, printed, complained in verified_in_parallel(files, workers, err, options, as_json, par_root):
            out.write(printed)
            err.write(complained)
            worst = max(worst, status)
    return worst


def verified_in_parallel(
    files: list[Path],
    workers: int,
    err: TextIO,
    options: Options | None,
    as_json: bool = False,
    par_root: Path | None = None,
) -> Iterator[Outcome]:
    """Each file's outcome, in the order given, verified by ``workers`` processes, longest first."""
    # The game is imported here, before forking, so the workers share it (forked workers would
    # each import tcod, numpy and the game again; spawned ones pay that whatever we do).
    import roguelike.replay.fileformat
    import roguelike.replay.verify  # noqa: F401
    import roguelike.scores.proof  # noqa: F401
    from roguelike.ground.pool import in_workers

    task = functools.partial(verify_quietly, options=options, as_json=as_json, par_root=par_root)
    for done, outcome in enumerate(in_workers(task, files, workers), start=1):
        yield outcome
        show_count(err, done, len(files))
    clear_progress(err)


def verify_quietly(path: Path, options: Options | None, as_json: bool = False, par_root: Path | None = None) -> Outcome:
    """Verify one file in a worker, keeping what it would print."""
    out, err = io.StringIO(), io.StringIO()
    status = verify_file(path, out, err, options, as_json, par_root)
    return status, out.getvalue(), err.getvalue()


def verify_file(
    path: Path,
    out: TextIO,
    err: TextIO,
    options: Options | None = None,
    as_json: bool = False,
    par_root: Path | None = None,
) -> int:
    """Verify one file and print its verdict (through its epoch's runtime if it is of another)."""
    if as_json:
        return prove_to_json(path, out, options, par_root)
    from roguelike.core.epoch import RULES_EPOCH
    from roguelike.replay.fileformat import ReplayError, read_header, read_replay
    from roguelike.replay.verify import Outcome, verify

    name = shown(path)
    try:
        replay_format, header = read_header(path)
        if header.epoch != RULES_EPOCH:
            return verify_elsewhere(path, header.epoch, replay_format, out, err, options)
        replay = read_replay(path)
    except ReplayError as error:
        print(f"hedonic replay: {name}: {error}", file=err)
        return EXIT_BAD_FILE
    verdict = verify(replay, progress_printer(path, err))
    clear_progress(err)
    if verdict.outcome is Outcome.MATCHED:
        print(
            f"{name}: {counted(verdict.turns, 'turn')} verified ({counted(verdict.steps, 'command')}) "
            f"under rules epoch {header.epoch}",
            file=out,
        )
    else:
        print(f"{name}: {verdict.details[0]}", file=out)
    for line in verdict.details[1 if verdict.outcome is Outcome.DIVERGED else 0 :]:
        print(line if line.startswith("  ") else f"  {line}", file=out)
    if replay.torn_at is not None:
        print(
            f"  note: the last record was cut off at byte {replay.torn_at} (a killed game); "
            "verified up to the one before",
            file=out,
        )
    return EXIT_OK if verdict.outcome is Outcome.MATCHED else EXIT_DIVERGED


def verify_elsewhere(
    path: Path, epoch: int, replay_format: int, out: TextIO, err: TextIO, options: Options | None
) -> int:
    """Verify a replay of another rules epoch through that epoch's runtime, saying so."""
    from roguelike.runtimes.dispatch import Options, in_runtime_child, run_in_runtime, runtime_for
    from roguelike.runtimes.store import RuntimeTrouble

    notes: list[str] = []
    try:
        if in_runtime_child():
            raise RuntimeTrouble("this is already a runtime of another epoch")
        runtime = runtime_for(epoch, replay_format, notes.append)
        done = run_in_runtime(
            runtime, ["replay", "--verify", "--jobs", "1", str(path)], options or Options(), notes.append, capture=True
        )
    except RuntimeTrouble as trouble:
        err.write("".join(f"hedonic replay: {note}\n" for note in notes))
        print(shown(f"hedonic replay: {path}: {epochs_named(epoch)}; {trouble}"), file=err)
        return EXIT_BAD_FILE
    err.write("".join(f"hedonic replay: {note}\n" for note in notes) + done.stderr)
    out.write(done.stdout)
    print(f"  {epochs_named(epoch)}: played by the runtime of {runtime.name}", file=out)
    return done.returncode if done.returncode in (EXIT_OK, EXIT_DIVERGED) else EXIT_BAD_FILE


def prove_to_json(path: Path, out: TextIO, options: Options | None, par_root: Path | None = None) -> int:
    """``--verify --json``: the file's proof as one line of JSON (with a daily's kept par); the usual exit status."""
    from roguelike.scores.proof import DIVERGED, VERIFIED, prove_file

    proof = prove_file(path, options)
    par = kept_par(par_root, proof) if par_root is not None else None
    if par is None:
        print(proof.to_json(), file=out)
    else:
        print(json.dumps({**json.loads(proof.to_json()), "par": par}, ensure_ascii=False, sort_keys=True), file=out)
    return {VERIFIED: EXIT_OK, DIVERGED: EXIT_DIVERGED}.get(proof.verdict, EXIT_BAD_FILE)


def kept_par(root: Path, proof: Proof) -> dict[str, Any] | None:
    """The par a verified daily game's seed has in the par file, under the replay's own epoch (None if none)."""
    from roguelike.coach.parcache import ParCache
    from roguelike.scores.proof import VERIFIED

    if proof.verdict != VERIFIED or proof.daily is None or proof.seed is None or proof.rules_epoch is None:
        return None
    found = ParCache(root).find(proof.seed, epoch=proof.rules_epoch)
    if found is None:
        return None
    return found.to_plain() | {"line": found.line(proof.score if proof.score is not None else 0)}


def epochs_named(epoch: int) -> str:
    """Both epochs, when a file's differs from this game's."""
    from roguelike.core.epoch import RULES_EPOCH

    newer = ", a newer game's" if epoch > RULES_EPOCH else ""
    return f"recorded under rules epoch {epoch}{newer} (this game plays epoch {RULES_EPOCH})"


def counted(number: int, noun: str) -> str:
    """``1 turn``, ``2 turns``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def progress_printer(path: Path, err: TextIO) -> Progress | None:
    """A progress callback writing to a terminal's stderr, or None off a terminal."""
    if not err.isatty():
        return None

    def show(done: int, total: int) -> None:
        err.write(f"\rverifying {shown(path.name)}: {done}/{total} commands")
        err.flush()

    return show


def show_count(err: TextIO, done: int, total: int) -> None:
    """How many files are verified so far, on a terminal's stderr."""
    if err.isatty() and done < total:
        err.write(f"\rverifying: {done}/{total} files done")
        err.flush()


def clear_progress(err: TextIO) -> None:
    """Erase the progress line, if one was drawn."""
    if err.isatty():
        err.write("\r\x1b[K")
        err.flush()
