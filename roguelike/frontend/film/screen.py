"""Watching a film, in any frontend: the frames as they were, with the replay viewer's keys.

Space pauses and resumes, + and - change the speed (frames a second, as the replay viewer's
turns a second), ``.`` or Right steps a frame forward and Left or Backspace one back, Home
and End go to the start and the end, ``g`` jumps to a typed turn, Esc leaves. The film
needs no rules: its screens are drawn as stored. A bar over the top row says where the film
is; it shows while paused and for a few seconds after a key, so it hides no more than it must.
"""

from __future__ import annotations

import tcod.console
import tcod.constants
import tcod.event
from tcod.event import KeySym

from roguelike.frontend.film.fileformat import Film
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.replay import (
    BANNER_BG,
    BANNER_FG,
    CATCH_UP_SECONDS,
    DEFAULT_SPEED,
    FASTER,
    GO_TO,
    HINT,
    LABEL,
    SLOWER,
    SPEEDS,
    STEP,
    STEP_BACK,
    typed_turn,
)

BAR_SECONDS = 3.0
MAX_SPEED_FRAMES = 8  # "max" speed: frames a drawn frame moves on
HINTS = "space  +- speed  . Right step  Left back  Home End  g go to turn  Esc"


class FilmScreen(Screen):
    """Plays a film's frames on the console."""

    def __init__(self, film: Film) -> None:
        self.film = film
        self.index = 0
        self.paused = False
        self.speed_index = DEFAULT_SPEED
        self.typed: str | None = None
        self.last_now: float | None = None
        self.due = 0.0
        self.poked = True
        self.bar_until = 0.0
        self.last_seen = 0.0

    def watched(self) -> str:
        """Spectators watch a film, not a game being played."""
        return f"the film of {self.film.header.name}"

    @property
    def at_end(self) -> bool:
        """Whether the last frame is shown."""
        return self.index >= self.film.frame_count - 1

    @property
    def animated(self) -> bool:
        """Redraw on a timer while playing, and until the bar hides."""
        return (not self.paused and not self.at_end) or self.last_seen < self.bar_until

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """The playback keys (digits, Enter and Esc while a turn is typed)."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        self.poked = True
        if self.typed is not None:
            self.on_typing_key(event.sym)
        elif event.sym == KeySym.ESCAPE:
            return Pop()
        else:
            self.on_key(event.sym)
        return None

    def on_key(self, sym: KeySym) -> None:
        """Pause, speed, step, jump."""
        if sym == KeySym.SPACE:
            if self.paused and self.at_end:
                self.index = 0
            self.paused, self.last_now, self.due = not self.paused, None, 0.0
        elif sym in FASTER or sym in SLOWER:
            step = 1 if sym in FASTER else -1
            self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))
        elif sym in STEP or sym in STEP_BACK or sym in (KeySym.HOME, KeySym.END):
            self.paused = True
            self.go_to(self.target(sym))
        elif sym in GO_TO:
            self.typed = ""

    def target(self, sym: KeySym) -> int:
        """The frame a stepping key goes to."""
        if sym == KeySym.HOME:
            return 0
        if sym == KeySym.END:
            return self.film.frame_count - 1
        return self.index + (1 if sym in STEP else -1)

    def go_to(self, index: int) -> None:
        """Show frame ``index`` (kept within the film)."""
        self.index = max(0, min(self.film.frame_count - 1, index))

    def on_typing_key(self, sym: KeySym) -> None:
        """Build the turn number; Enter jumps there, Esc gives up."""
        self.typed, turn = typed_turn(self.typed or "", sym)
        if turn is not None:
            self.go_to(self.film.first_frame_of_turn(turn))
            self.paused = True

    def advance(self, now: float) -> None:
        """Move on as many frames as the time since the last draw allows at this speed."""
        last, self.last_now = self.last_now, now
        if self.paused or last is None:
            return
        speed = SPEEDS[self.speed_index]
        if speed is None:
            self.go_to(self.index + MAX_SPEED_FRAMES)
        else:
            self.due = min(self.due + (now - last) * speed, speed * CATCH_UP_SECONDS + 1)
            self.go_to(self.index + int(self.due))
            self.due -= int(self.due)
        if self.at_end:
            self.paused = True

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The frame as stored, then the bar while it shows."""
        self.advance(now)
        self.last_seen = now
        if self.poked:
            self.bar_until, self.poked = now + BAR_SECONDS, False
        _, cells = self.film.frame(self.index)
        rgb = console.rgb
        rgb["ch"], rgb["fg"], rgb["bg"] = cells["ch"], cells["fg"], cells["bg"]
        if self.paused or self.typed is not None or now < self.bar_until:
            self.draw_bar(console)

    def draw_bar(self, console: tcod.console.Console) -> None:
        """FILM, the name, the turn and the speed on the top row; the keys on the bottom one."""
        turn, _ = self.film.frame(self.index)
        header = self.film.header
        speed = "paused" if self.paused else speed_words(SPEEDS[self.speed_index])
        console.draw_rect(0, 0, console.width, 1, ch=ord(" "), fg=BANNER_FG, bg=BANNER_BG)
        console.print(1, 0, "FILM", fg=LABEL, bg=BANNER_BG)
        console.print(
            7, 0, f"{header.name}  turn {turn} of {self.film.final_turn}  {speed}", fg=BANNER_FG, bg=BANNER_BG
        )
        note = f"go to turn: {self.typed}_ (Enter, Esc)" if self.typed is not None else ("END" if self.at_end else "")
        console.print(console.width - 1, 0, note, fg=LABEL, bg=BANNER_BG, alignment=tcod.constants.RIGHT)
        console.draw_rect(0, console.height - 1, console.width, 1, ch=ord(" "), fg=HINT, bg=BANNER_BG)
        console.print(1, console.height - 1, HINTS, fg=HINT, bg=BANNER_BG)


def speed_words(speed: float | None) -> str:
    """A speed in frames a second, in words."""
    if speed is None:
        return "max speed"
    return f"{speed:g} frame/s" if speed == 1 else f"{speed:g} frames/s"
