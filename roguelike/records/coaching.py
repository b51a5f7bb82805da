"""What the coach makes of a game that just ended, worked out on threads of their own (docs/coach.md).

For a daily game, par for its seed (:func:`roguelike.coach.parcache.par_for`: the kept one,
or the planner's games played in worker processes and kept) starts as the death screen
opens; once known it is added to the game's morgue file. The review of the game's replay
(:func:`roguelike.coach.review.review`) starts when the player asks for it. Neither ever
runs on the game's own thread: each is a :class:`Background`, whose progress and result
the screens read as they draw. The workers are spawned (a window's process must not fork).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Generic, TypeVar

from roguelike.coach.par import Par
from roguelike.coach.parcache import ParCache, par_for
from roguelike.coach.pool import Progress
from roguelike.coach.review import Review, ReviewRefused, review
from roguelike.coach.rollout import COACH
from roguelike.records.morgue import par_section
from roguelike.replay.fileformat import ReplayError, read_replay
from roguelike.scores.daily import daily_seed
from roguelike.scores.scorefile import morgue_of
from roguelike.storage.atomic import write_atomic
from roguelike.storage.errors import in_words

T = TypeVar("T")
DAILY_ORIGINS = ("daily", "practice")  # a game of a date's daily seed, ranked or not
ParWork = Callable[[Progress], Par]
ReviewWork = Callable[[Progress], Review]


class Background(Generic[T]):
    """One piece of the coach's work on a thread of its own: how far it got, then its result or why not."""

    def __init__(self, work: Callable[[Progress], T]) -> None:
        self.done, self.total = 0, 0
        self.result: T | None = None
        self.problem = ""
        self.thread = threading.Thread(target=self.run, args=(work,), daemon=True)
        self.thread.start()

    @property
    def waiting(self) -> bool:
        """Whether the work is still going on."""
        return self.thread.is_alive()

    def run(self, work: Callable[[Progress], T]) -> None:
        """Do the work; a failure is kept as words (the death screen is a keepsake: nothing here may crash it)."""
        try:
            self.result = work(self.step)
        except ReviewRefused as refused:
            self.problem = f"This game cannot be reviewed: {refused}."
        except (OSError, ReplayError) as error:
            self.problem = f"The coach could not work here: {in_words(error)}."
        except Exception as error:  # noqa: BLE001 - a worker's crash only leaves the screen without the coach
            self.problem = f"The coach could not work here: {error}"

    def step(self, done: int, total: int) -> None:
        """Note the progress (called in this thread as the workers finish jobs)."""
        self.done, self.total = done, total

    def wait(self, seconds: float) -> bool:
        """Wait up to ``seconds`` for the work to end (tests and commands); whether it has."""
        self.thread.join(seconds)
        return not self.waiting


@dataclass
class Coaching:
    """The coach's offer on a finished game: par for a daily's seed (started at once), its review (on demand)."""

    root: Path
    replay: Path
    seed: int
    score: int
    daily: bool
    par_work: ParWork | None = None  # None: this epoch's par, kept in the data directory's par file
    review_work: ReviewWork | None = None  # None: the review with the coach's own figures
    proving: threading.Thread | None = None  # the standing's proof: it adds to the morgue file too, so par waits
    par: Background[Par] | None = None
    review: Background[Review] | None = None

    def __post_init__(self) -> None:
        if self.daily and self.par is None:
            self.par = Background(self.work_out_par)

    def work_out_par(self, progress: Progress) -> Par:
        """Par for the seed (kept or worked out), added to the morgue file once known."""
        if self.par_work is not None:
            found = self.par_work(progress)
        else:
            found = par_for(self.root, self.seed, progress=progress, method="spawn")[0]
        if self.proving is not None:
            self.proving.join()  # one writer at a time: its lines and these must both stay
        add_par_to_morgue(self.root, self.replay, found, self.score)
        return found

    def start_review(self) -> Background[Review]:
        """The review of the game's replay: started the first time it is asked for, then the same one."""
        if self.review is None:
            self.review = Background(self.review_work or self.reviewed)
        return self.review

    def reviewed(self, progress: Progress) -> Review:
        """The review of the replay, with the coach's own figures, in spawned workers."""
        return review(read_replay(self.replay), progress=progress, method="spawn")

    def par_line(self) -> str | None:
        """The death screen's par line (None for a game that is not a daily)."""
        if self.par is None:
            return None
        if self.par.result is not None:
            return self.par.result.line(self.score)
        if self.par.waiting:
            games = f": {self.par.done} of {self.par.total} planner games played" if self.par.total else ""
            return f"Working out par for this daily seed{games}..."
        return self.par.problem or "Par could not be worked out."

    def review_line(self) -> str:
        """Where the review stands, in one line."""
        job = self.review
        if job is None:
            return ""
        if job.result is not None:
            named = job.result.named
            return "Review ready" + (f": turn {named.turn}" if named is not None else "")
        if job.waiting:
            return progress_words(job)
        return job.problem or "The review could not be made."


def progress_words(job: Background[Review]) -> str:
    """``Reviewing: the replay verified, 12 of 40 points played from...``."""
    if job.done == 0:
        return "Reviewing: verifying the replay..."
    return f"Reviewing: the planner takes over from each point of the game, {job.done - 1} of {job.total - 1} done..."


def add_par_to_morgue(root: Path, replay: Path, par: Par, score: int) -> None:
    """Add the par line to the game's morgue file (if it has one without it; never in the way)."""
    morgue = morgue_of(root, replay)
    if morgue is None:
        return
    try:
        text = morgue.read_text(encoding="utf-8")
        if "\nPar\n" not in text:
            lines = ["", *par_section(par.to_plain() | {"line": par.line(score)}), ""]
            write_atomic(morgue, (text.rstrip("\n") + "\n" + "\n".join(lines)).encode("utf-8"))
    except OSError:
        pass  # the morgue file is a keepsake: a disk that refuses costs only this line


def daily_par_line(root: Path, day: date) -> str:
    """The daily board's par line: this epoch's par for the date's seed, if this machine has it (never worked out here)."""
    found = ParCache(root).find(daily_seed(day))
    if found is None:
        return "Par: not worked out yet (a daily game's death works it out, or hedonic par)."
    return (
        f"Par {found.score.text()} points, {found.turn_band.text()} turns "
        f"(the {COACH} bot's {found.runs} games, rules epoch {found.epoch})."
    )


def coaching_for(
    root: Path, replay: Path, seed: int, score: int, origin: str | None, proving: threading.Thread | None = None
) -> Coaching:
    """The coach's offer on a finished game of this data directory (par only for a daily's seed); ``proving``
    is the thread proving its replay, which par lets add to the morgue file first."""
    return Coaching(root, replay, seed, score, origin in DAILY_ORIGINS, proving=proving)
