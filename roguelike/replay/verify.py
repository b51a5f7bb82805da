"""Verification: re-simulate a replay headless and compare every turn's checksum.

The game is rebuilt from the header's seed and name and driven through a
:class:`~roguelike.core.session.Session` with no observers, so each checksum comes from
exactly the encoding path the recording session used.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from roguelike import __version__
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Replay, StepRecord, checksum_in
from roguelike.replay.witness import differences, recorded_facts, witness

PROGRESS_EVERY = 500

Progress = Callable[[int, int], None]


class Outcome(Enum):
    """How a verification ended."""

    MATCHED = 0
    DIVERGED = 1


@dataclass
class Verdict:
    """The result: how many steps and turns matched, and what went wrong if anything did."""

    outcome: Outcome
    steps: int
    turns: int
    checksums: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    cause: str | None = None  # how the re-simulated character died, if it did


def verify(replay: Replay, progress: Progress | None = None) -> Verdict:
    """Re-simulate every recorded command, stopping at the first difference."""
    game = Game.new(replay.header.seed, replay.header.name)
    try:
        return run_steps(Session(game), replay, progress)
    finally:
        game.close()


def first_divergence(replay: Replay) -> str | None:
    """Where re-simulating a replay's steps first parts from them (None if every one matches)."""
    verdict = verify(replay)
    return verdict.details[0] if verdict.outcome is Outcome.DIVERGED else None


def run_steps(session: Session, replay: Replay, progress: Progress | None) -> Verdict:
    """Apply the steps, then the recorded crash if there is one."""
    verdict = Verdict(Outcome.MATCHED, 0, 0)
    for record in replay.steps:
        problem = check_step(session, record, replay)
        if problem:
            verdict.outcome, verdict.details = Outcome.DIVERGED, problem
            return verdict
        verdict.steps, verdict.turns = record.index, record.turn
        verdict.checksums.append(record.checksum)
        if progress is not None and record.index % PROGRESS_EVERY == 0:
            progress(record.index, len(replay.steps))
    verdict.cause = session.game.state.cause_of_death
    if replay.crash is not None:
        check_crash(session, replay, verdict)
    return verdict


def check_step(session: Session, record: StepRecord, replay: Replay) -> list[str]:
    """Apply one recorded command; the lines describing a difference (empty if none)."""
    try:
        step = session.apply(record.command)
    except Exception as error:
        return [f"{divergence(record)}: the game raised an error the recording did not have", *error_lines(error)]
    now = checksum_in(replay.format, step.state)
    if now == record.checksum:
        return []
    lines = [divergence(record), f"  checksum: recorded {record.checksum}, now {now}"]
    facts = differences(recorded_facts(replay.steps, record.index), witness(session.game))
    lines += [f"  {line}" for line in facts] or [
        "  the player, floor, RNG and counts agree: the difference is elsewhere"
    ]
    if replay.header.version != __version__:
        lines.append(f"  (recorded by game version {replay.header.version}; this is {__version__})")
    return lines


def divergence(record: StepRecord) -> str:
    """Where a re-simulation parted from the recording (written only when it did)."""
    return f"diverged at turn {record.turn} (step {record.index}, {record.command})"


def check_crash(session: Session, replay: Replay, verdict: Verdict) -> None:
    """The recorded crash happens again (a bug still there) or no longer does (fixed)."""
    crash = replay.crash
    assert crash is not None
    if crash.command is None:
        verdict.details = [f"the recording ends with a crash outside the game logic: {crash.error}"]
        return
    try:
        session.apply(crash.command)
    except Exception as error:
        verdict.outcome = Outcome.DIVERGED
        verdict.details = [f"crashed again at step {crash.index} ({crash.command}), as recorded", *error_lines(error)]
        return
    verdict.details = [f"the crash recorded at step {crash.index} ({crash.error}) no longer happens"]


def error_lines(error: BaseException) -> list[str]:
    """A traceback as indented lines, for a developer."""
    text = "".join(traceback.format_exception(error)).rstrip()
    return [f"  {line}" for line in text.splitlines()]
