"""The end of a life: the map kept a moment with the death marked, then the record.

:class:`DyingScreen` keeps the game on screen with its last messages (the game's own
death line among them), marks the killer (or the player, for an overdose or exhaustion)
and darkens the world outward from the body on the wall clock (cosmetic only); a key
then opens :class:`RecordScreen`, which Character stats also uses for any past life.
After a death the record shows the coach's par for a daily game once it is worked out
(on a thread: :mod:`roguelike.records.coaching`), and R opens the review of the game
(:mod:`roguelike.screens.review`).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import tcod.console
import tcod.constants
import tcod.event

from components import MoveIntent, Position
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.finds import finds_words
from roguelike.content.tips import tip_for
from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.core.score import Breakdown
from roguelike.records.coaching import Coaching
from roguelike.render.colours import RGB
from roguelike.render.draw import draw_game
from roguelike.render.sombar import GraphBox, draw_life
from roguelike.render.text import fit_path, wrap
from roguelike.saves import CharacterRecord
from roguelike.saves.history import record_of
from roguelike.scores.standing import Told
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Push, Replace, Screen, Transition
from roguelike.screens.keymap import CONFIRM_KEYS
from roguelike.screens.review import ReviewScreen
from roguelike.screens.style import HEADING as LABEL
from roguelike.screens.style import HINT, TEXT

CAUSE_TEXT = {
    "exhaustion": "died of exhaustion",
    "overdose": "died of an overdose",
}
CAUSE_NAMES = {"exhaustion": "Exhaustion", "overdose": "Overdose"}
HEADING = (220, 60, 60)
MARK_BG = (200, 30, 30)
FADE_DIM = 0.75
FADE_RED = np.array([38, 0, 6])
ANIMATION_SECONDS = 1.5
KEYS_IGNORED_FOR = ANIMATION_SECONDS  # a key already held when death came must not skip it
TIP_WIDTH, TIP_LINES = 50, 6  # the tip's box, right of the numbers and above the graph's title
GRAPH = GraphBox(x=6, y=12, width=72, height=7)
STANDING_BOTTOM = 22  # the verdict and the feats end above the score's row, the graph shrinking for them
STANDING_ROWS = 3  # at most: the graph keeps four rows (three with the par line)
REVIEW_KEY = tcod.event.KeySym.R


class DyingScreen(Screen):
    """The map stays: last messages, the killer marked, the world fading; a key goes on."""

    def __init__(
        self, game: Game, morgue: str = "", standing: Told | None = None, coaching: Coaching | None = None
    ) -> None:
        self.game = game
        self.morgue = morgue  # where the morgue file went (or why there is none)
        self.standing = standing  # the replay's proof and place, being worked out
        self.coaching = coaching  # the coach's par (a daily) and review of the game
        self.record = record_of(game)
        self.mark = death_spot(game)
        self.started: float | None = None
        self.last_drawn = 0.0

    @property
    def animated(self) -> bool:
        """Animated until the fading is over."""
        return self.started is None or self.last_drawn - self.started < ANIMATION_SECONDS

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """After a moment, any key opens the record."""
        if not isinstance(event, tcod.event.KeyDown) or self.started is None:
            return None
        if self.last_drawn - self.started < KEYS_IGNORED_FOR:
            return None
        return Replace(
            RecordScreen(self.record, died=True, morgue=self.morgue, standing=self.standing, coaching=self.coaching)
        )

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The game as it ended, fading outward from the mark."""
        if self.started is None:
            self.started = now
        self.last_drawn = now
        draw_game(console, self.game, now, ambient.look())
        fade(console, self.mark, (now - self.started) / ANIMATION_SECONDS)
        x, y = self.mark
        console.rgb["bg"][y, x] = MARK_BG
        hint = "Press a key to see how it came to this."
        console.print(
            console.width // 2, 0, f" {hint} ", fg=(255, 255, 255), bg=(60, 0, 0), alignment=tcod.constants.CENTER
        )


def death_spot(game: Game) -> tuple[int, int]:
    """Where the death is marked: the killer, where the fatal dose lay, or the player."""
    player = game.player_component(Position)
    cause = game.state.cause_of_death or ""
    intent = game.player_component_or_none(MoveIntent)
    if cause == "overdose" and intent is not None:
        return player.x + intent.dx, player.y + intent.dy  # the dose was taken by walking into it
    killers = [
        (max(abs(p.x - player.x), abs(p.y - player.y)), p.x, p.y) for _, m, p in game.monsters() if m.kind == cause
    ]
    if killers:
        _, x, y = min(killers)
        return x, y
    return player.x, player.y


def fade(console: tcod.console.Console, at: tuple[int, int], progress: float) -> None:
    """Darken the map in a ring growing from ``at`` (progress 0..1, cosmetic only)."""
    height = console.height - 4
    ys, xs = np.mgrid[0:height, 0 : console.width]
    distance = np.hypot(xs - at[0], (ys - at[1]) * 2.0)
    reach = max(0.0, min(1.0, progress)) * 90.0
    inside = (distance <= reach)[..., None]
    region = console.rgb[0:height]
    region["fg"] = np.where(inside, region["fg"] * FADE_DIM, region["fg"]).astype(np.uint8)
    region["bg"] = np.where(inside, np.minimum(255, region["bg"] * FADE_DIM + FADE_RED), region["bg"]).astype(np.uint8)


class RecordScreen(Screen):
    """A life's record: cause, numbers, a tip and the graph of its State of Mind."""

    def __init__(
        self,
        record: CharacterRecord,
        died: bool = False,
        morgue: str = "",
        standing: Told | None = None,
        coaching: Coaching | None = None,
    ) -> None:
        self.record = record
        self.died = died
        self.morgue = morgue  # the morgue file's path, shown after a death
        self.standing = standing
        self.coaching = coaching
        self.drawn: list[tuple[str, RGB]] | None = None  # the standing's lines last drawn
        self.drawn_working = False  # whether the frame last drawn showed work still going on

    @property
    def animated(self) -> bool:
        """Redrawn while the replay is being verified or par worked out, and once more when they are done:
        the terminal redraws only when something changed, so the screen must not rest on "Verifying"."""
        proved_undrawn = self.standing is not None and self.drawn != standing_lines(self.standing)
        return self.working() or self.drawn_working or proved_undrawn

    def working(self) -> bool:
        """Whether the proof or the par shown here is still being worked out."""
        par = self.coaching.par if self.coaching is not None else None
        return (self.standing is not None and self.standing.waiting) or (par is not None and par.waiting)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Enter, Space or Esc goes back."""
        if isinstance(event, tcod.event.KeyDown) and (
            event.sym in CONFIRM_KEYS or event.sym == tcod.event.KeySym.ESCAPE
        ):
            return Pop()
        if isinstance(event, tcod.event.KeyDown) and event.sym == REVIEW_KEY and self.coaching is not None:
            return Push(ReviewScreen(self.coaching))
        return None

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The epitaph, the numbers beside the tip, then the graph."""
        self.drawn_working = self.working()
        record = self.record
        centre = console.width // 2
        epitaph = f"{fit(record.name, 40)} {cause_text(record.cause)}."
        console.print(centre, 1, epitaph, fg=HEADING, alignment=tcod.constants.CENTER)
        highs = highs_line(record)
        if highs is not None:
            console.print(centre, 2, fit(highs, console.width - 2), fg=LABEL, alignment=tcod.constants.CENTER)
        for row, (label, value) in enumerate(numbers(record)):
            console.print(2, 3 + row, f"{label:<16}{value:>6}", fg=TEXT)
        console.print(28, 3, "What would have helped", fg=LABEL)
        for row, line in enumerate(tip_lines(record.cause, record.takeover, record.nerve)):
            console.print(28, 4 + row, line, fg=TEXT)
        console.print(2, 10, "State of Mind, turn by turn  (i: a dose, >: a new floor)", fg=LABEL)
        par = self.coaching.par_line() if self.coaching is not None else None
        lines = standing_lines(self.standing, console.width - 2) if self.standing is not None else []
        self.drawn = standing_lines(self.standing) if self.standing is not None else None
        draw_life(
            console, self.graph_box(len(lines), par is not None), record.life, died=True, scheme=ambient.look().scheme
        )
        if par is not None:
            console.print(
                centre,
                STANDING_BOTTOM - len(lines) - 1,
                fit(par, console.width - 2),
                fg=LABEL,
                alignment=tcod.constants.CENTER,
            )
        scored = score_line(record)
        if scored is not None:
            console.print(centre, 22, fit(scored, console.width - 2), fg=LABEL, alignment=tcod.constants.CENTER)
        for row, (line, colour) in enumerate(lines):
            console.print(centre, STANDING_BOTTOM - len(lines) + row, line, fg=colour, alignment=tcod.constants.CENTER)
        console.print(centre, 23, fit_path(self.morgue, console.width - 2), fg=HINT, alignment=tcod.constants.CENTER)
        console.print(centre, 24, self.keys_line(), fg=HINT, alignment=tcod.constants.CENTER)

    def graph_box(self, standing_rows: int, par_shown: bool) -> GraphBox:
        """The graph, made lower for the standing's lines (two rows at least while it is proved) and the par line."""
        lower = (max(2, standing_rows) if self.standing is not None else 0) + (1 if par_shown else 0)
        return replace(GRAPH, height=GRAPH.height - lower)

    def keys_line(self) -> str:
        """The keys: back, and the review when the coach can make one."""
        back = "Enter: back to the title" if self.died else "Enter or Esc: back"
        return back + ("   R: where it went wrong (the coach's review)" if self.coaching is not None else "")


def standing_lines(standing: Told, width: int = 78) -> list[tuple[str, RGB]]:
    """The verdict and place, then the feats, each wrapped whole to ``width`` (three rows at most)."""
    verdict = [(line, TEXT) for line in wrap(standing.line(), width)]
    return (verdict + [(line, HINT) for line in wrap(standing.feats_line(), width)])[:STANDING_ROWS]


def tip_lines(cause: str, takeover: str | None = None, nerve: int | None = None) -> list[str]:
    """The tip for a cause of death (or the takeover steering then), wrapped to the box beside the
    numbers (TIP_LINES at most)."""
    return wrap(tip_for(cause, takeover, nerve), TIP_WIDTH)[:TIP_LINES]


def numbers(record: CharacterRecord) -> list[tuple[str, int]]:
    """What a life comes to."""
    return [
        ("Turns survived", record.turns),
        ("Died on floor", record.depth),
        ("Deepest floor", record.deepest),
        ("Doses used", record.doses),
        ("Close calls", record.close_calls),
        ("Monsters slain", record.kills),
    ] + ([("Score", record.score)] if record.score is not None else [])


def score_line(record: CharacterRecord) -> str | None:
    """The score and what it is made of, in one line (None for a record from before the score)."""
    if record.score is None:
        return None
    parts = Breakdown(
        record.doses,
        record.close_calls,
        record.kills,
        record.score,
        record.streak_points or 0,
        deepest=record.deepest,
        floor_points=record.floor_points,
    )
    doses, calls, slain, floors = (points for _, _, points in parts.rows()[:4])
    return (
        f"Score {parts.total}: doses {doses}, close calls {calls}, kills {slain}, floors {floors}, "
        f"{parts.kept_percent}% kept"
    )


def highs_line(record: CharacterRecord) -> str | None:
    """The longest High streak and what it paid, and the finds taken (None for a record from before them)."""
    if record.best_streak is None:
        return None
    # Short words: with five-figure numbers and every find kind it still fits 78 columns.
    return f"Best High {record.best_streak} turns (+{record.streak_points or 0})   Finds: {finds_words(record.finds)}"


def cause_text(cause: str) -> str:
    """How a cause of death reads on the epitaph."""
    if cause in CAUSE_TEXT:
        return CAUSE_TEXT[cause]
    kind = MONSTER_KINDS.get(cause)
    return f"was killed by {kind.name}" if kind is not None else f"died ({cause})"


def cause_name(cause: str) -> str:
    """A cause of death as a capitalised name, for lists and charts."""
    kind = MONSTER_KINDS.get(cause)
    return kind.name if kind is not None else CAUSE_NAMES.get(cause, cause.capitalize())
