"""The coach's review of a game that just ended: where it went wrong, and a key to watch that turn.

Opened from the death screen's record (R). The review (:func:`roguelike.coach.review.review`)
runs in worker processes started by :class:`roguelike.records.coaching.Coaching`, never on
this thread: the page shows its progress, then the review's three lines and the turn it
names; W opens the replay viewer paused at that turn (``named.position`` commands applied,
the viewer's own seek). Opened from a replay viewer (its ``r``), W brings that viewer to the
turn instead. Esc goes back; the review keeps going, and is there when R comes again.
"""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event

from roguelike.coach.review import Review
from roguelike.core.names import fit
from roguelike.records.coaching import Background, Coaching
from roguelike.render.text import wrap
from roguelike.replay.fileformat import ReplayError, read_replay
from roguelike.replay.playback import Playback
from roguelike.screens.base import Pop, Push, Screen, Transition
from roguelike.screens.replay import ReplayScreen
from roguelike.screens.style import HEADING, HINT, TEXT

# A viewer the review was opened from: W brings it to the turn named (``show_step``) and goes back to it.
Watching = ReplayScreen | None

WATCH_KEYS = frozenset({tcod.event.KeySym.W, tcod.event.KeySym.RETURN, tcod.event.KeySym.KP_ENTER})
WIDTH = 76  # the text's columns
BAR = 40  # the progress bar's cells
CHART = "The chart and every point: hedonic review REPLAY --chart FILE.png (docs/coach.md)."


class ReviewScreen(Screen):
    """The review of a finished game: its progress while the workers play, then its lines and the turn named."""

    def __init__(self, coaching: Coaching, viewer: Watching = None) -> None:
        self.coaching = coaching
        self.viewer = viewer
        self.job: Background[Review] = coaching.start_review()
        self.problem = ""  # why the replay viewer could not open
        self.drawn_waiting = False  # whether the frame last drawn showed the review still under way

    @property
    def animated(self) -> bool:
        """Redrawn while the review is made, and once more when it is done (the last frame must show it)."""
        return self.job.waiting or self.drawn_waiting

    @property
    def review(self) -> Review | None:
        """The review, once made."""
        return self.job.result

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """W or Enter watches the turn named (once the review names one), Esc goes back."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym == tcod.event.KeySym.ESCAPE:
            return Pop()
        if event.sym in WATCH_KEYS:
            return self.watch()
        return None

    def watch(self) -> Transition | None:
        """The replay viewer, paused at the turn named (the game as it stood after that command)."""
        named = self.review.named if self.review is not None else None
        if named is None:
            return None
        if self.viewer is not None:
            self.viewer.show_step(named.position)
            return Pop()
        try:
            playback = Playback(read_replay(self.coaching.replay))
        except (OSError, ReplayError) as error:
            self.problem = f"The replay cannot be read: {error}"
            return None
        playback.seek_step(named.position)
        viewer = ReplayScreen(playback)
        viewer.paused = True
        return Push(viewer)

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The heading, then the progress, the review or why there is none; the keys at the bottom."""
        self.drawn_waiting = self.job.waiting
        console.print(
            console.width // 2,
            1,
            "Where it went wrong: the coach's review",
            fg=HEADING,
            alignment=tcod.constants.CENTER,
        )
        row = 3
        for line in self.body():
            for part in wrap(line, WIDTH) or [""]:
                console.print(2, row, part, fg=TEXT)
                row += 1
        if self.problem:
            console.print(2, 22, fit(self.problem, WIDTH), fg=HINT)
        console.print(console.width // 2, 24, self.keys_line(), fg=HINT, alignment=tcod.constants.CENTER)

    def body(self) -> list[str]:
        """The page's text, a paragraph an item."""
        review = self.review
        if review is not None:
            named = review.named
            told = [] if named is None else [f"The turn named: turn {named.turn}, {named.words}."]
            return [*review.lines(), "", *told, "", how_it_was_made(review), "", CHART]
        if self.job.waiting:
            return [
                self.coaching.review_line(),
                "",
                progress_bar(self.job.done, self.job.total),
                "",
                (
                    "The planner bot takes over your game from points along it and plays on, in worker "
                    "processes: the game's own process is never slowed. Esc goes back; the review goes on."
                ),
            ]
        return [self.job.problem or "The review could not be made."]

    def keys_line(self) -> str:
        """The keys the page answers now."""
        named = self.review.named if self.review is not None else None
        watch = f"W: watch the replay from turn {named.turn}   " if named is not None else ""
        return f"{watch}Esc: back"


def how_it_was_made(review: Review) -> str:
    """How the review was made, in one sentence."""
    return (
        f"From each of {len(review.outlooks)} points of your game, the planner played on {review.runs} times "
        f"for up to {review.horizon} turns (rules epoch {review.epoch})."
    )


def progress_bar(done: int, total: int) -> str:
    """``[########....]  12 of 40``."""
    if total <= 0:
        return "[" + "." * BAR + "]"
    filled = BAR * done // total
    return f"[{'#' * filled}{'.' * (BAR - filled)}]  {done} of {total}"
