"""Watching a replay: the game as it was played, with a REPLAY banner and playback keys.

Space pauses and resumes, + and - change the speed (1 turn a second up to "max", as
fast as the frames come), ``.`` or Right steps one turn while paused (``,`` one command:
a bump into a wall is a command that ends no turn), Left or Backspace steps back a turn
(as quickly: see :mod:`roguelike.replay.seek`), ``[`` and ``]`` jump to the arrival on the
previous or next floor, ``g`` jumps to a typed turn number, ``p`` plays on from the turn
shown as a practice game (a save marked as made from a replay: it never counts), ``r`` opens
the coach's review of the game (:mod:`roguelike.screens.review`; its W brings this viewer to
the turn it names), Esc leaves. The replay advances
in :meth:`ReplayScreen.on_draw` from the wall time ``now`` the frontend passes, so the speed
is the same in the window and in the terminal.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.core.names import fit
from roguelike.render.colours import Slot
from roguelike.render.draw import draw_game
from roguelike.render.effects import Effects
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP
from roguelike.replay import seek
from roguelike.replay.playback import Playback
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Push, Room, Screen, Transition

SPEEDS: tuple[float | None, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, None)  # turns a second; None: max
DEFAULT_SPEED = 3
MAX_FRAME_SECONDS = 0.03  # at "max", how long one frame may spend simulating
CATCH_UP_SECONDS = 0.25  # a stalled frame never makes playback jump more than this

FASTER = frozenset({KeySym.PLUS, KeySym.EQUALS, KeySym.KP_PLUS})
SLOWER = frozenset({KeySym.MINUS, KeySym.KP_MINUS, KeySym.UNDERSCORE})
STEP = frozenset({KeySym.PERIOD, KeySym.RIGHT, KeySym.KP_PERIOD})
STEP_COMMAND = frozenset({KeySym.COMMA, KeySym.KP_COMMA})
STEP_BACK = frozenset({KeySym.LEFT, KeySym.BACKSPACE})
FLOOR_KEYS = {KeySym.LEFTBRACKET: seek.previous_floor, KeySym.RIGHTBRACKET: seek.next_floor}
GO_TO = frozenset({KeySym.G, KeySym.T})
ENTER = frozenset({KeySym.RETURN, KeySym.KP_ENTER})
DIGITS: dict[KeySym, int] = {
    **{KeySym(int(KeySym.N0) + n): n for n in range(10)},
    KeySym.KP_0: 0,
    **{KeySym(int(KeySym.KP_1) + n - 1): n for n in range(1, 10)},
}
MAX_DIGITS = 7

BANNER_BG = (60, 20, 70)
BANNER_FG = (235, 225, 245)
LABEL = (255, 210, 90)
ALERT = (255, 90, 90)
HINT = (170, 150, 190)
# The banner and the keys take the panel's message area, never a row of the map: the
# status on its first row, news (or the newest message) on the next, the keys on the last two.
BANNER_ROW = PANEL_TOP
NEWS_ROW = PANEL_TOP + 1
HINTS_ROW = PANEL_TOP + 2
HINT_ROWS = ("space pause  +- speed  . a turn  , a command", "Left back  [ ] floor  g go to turn  Esc leave")


# Starts a practice game from the replay's game at a turn: the screen to push, or why not.
PlayFrom = Callable[[int], "Screen | str"]
# The coach's review of the replay watched, given the viewer to bring to the turn it names.
ReviewOf = Callable[["ReplayScreen"], Screen]
REVIEW_HINT = "r: the coach's review of this game"


class ReplayScreen(Screen):
    """Plays a replay back; never changes the replay (``p`` may start a practice game from it)."""

    def __init__(self, playback: Playback, play_from: PlayFrom | None = None, review: ReviewOf | None = None) -> None:
        self.playback = playback
        self.play_from = play_from
        self.review = review
        self.problem = ""  # why "play from here" could not start
        self.floors = seek.floor_starts(playback.replay)
        self.speed_index = DEFAULT_SPEED
        self.paused = False
        self.typed: str | None = None  # digits typed after "go to", while typing
        self.last_now: float | None = None
        self.due = 0.0
        self.effects = Effects(ambient.motion)

    @property
    def animated(self) -> bool:
        """Redraw on a timer while playing (or while the world flashes)."""
        playing = not self.paused and not self.playback.at_end
        return playing or self.playback.game.palette().psychedelic or self.effects.active

    @property
    def speed(self) -> float | None:
        """Turns a second, None for as fast as possible."""
        return SPEEDS[self.speed_index]

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Playback keys; while a turn number is being typed, digits, Enter and Esc."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if self.typed is not None:
            self.on_typing_key(event.sym)
            return None
        if event.sym == KeySym.ESCAPE:
            return Pop()
        if event.sym == KeySym.P and self.play_from is not None:
            return self.practise()
        if event.sym == KeySym.R and self.review is not None:
            self.paused = True
            return Push(self.review(self))
        self.on_key(event.sym)
        return None

    def show_step(self, position: int) -> None:
        """Paused on the game as it stood after ``position`` commands (the review's W)."""
        self.playback.seek_step(position)
        self.paused = True

    def practise(self) -> Transition | None:
        """Play on from the turn shown, as a practice game (marked: it never counts)."""
        self.paused = True
        started = self.play_from(self.playback.game.state.turn) if self.play_from is not None else ""
        if isinstance(started, str):
            self.problem = started
            return None
        return Push(started)

    def on_key(self, sym: KeySym) -> None:
        """Pause, speed, step, go to."""
        if sym == KeySym.SPACE:
            self.toggle_pause()
        elif sym in FASTER or sym in SLOWER:
            step = 1 if sym in FASTER else -1
            self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))
        elif sym in STEP or sym in STEP_COMMAND:
            self.paused = True
            self.step_turn() if sym in STEP else self.step()
        elif sym in STEP_BACK:
            self.paused = True
            seek.step_back(self.playback)
        elif sym in FLOOR_KEYS:
            self.paused = True
            FLOOR_KEYS[sym](self.playback, self.floors)
        elif sym in GO_TO:
            self.typed = ""

    def toggle_pause(self) -> None:
        """Pause or resume; at the end, resume from the start."""
        if self.paused and self.playback.at_end and self.playback.diverged_at is None:
            self.playback.seek_step(0)
        self.paused = not self.paused
        self.last_now, self.due = None, 0.0

    def on_typing_key(self, sym: KeySym) -> None:
        """Build the turn number; Enter jumps there, Esc gives up."""
        self.typed, turn = typed_turn(self.typed or "", sym)
        if turn is not None:
            self.playback.seek_turn(turn)
            self.paused = True

    def advance(self, now: float) -> None:
        """Apply as many commands as the time since the last frame allows at this speed."""
        last, self.last_now = self.last_now, now
        if self.paused or last is None:
            return
        speed = self.speed
        if speed is None:
            deadline = time.perf_counter() + MAX_FRAME_SECONDS
            while time.perf_counter() < deadline and self.step():
                pass
        else:
            self.due = min(self.due + (now - last) * speed, speed * CATCH_UP_SECONDS + 1)
            for _ in range(int(self.due)):
                self.step()
            self.due -= int(self.due)
        if self.playback.at_end:
            self.paused = True

    def step_turn(self) -> bool:
        """Apply commands until the turn moves on, animating what each did; False at the end."""
        turn = self.playback.game.state.turn
        while self.step():
            if self.playback.game.state.turn != turn:
                return True
        return False

    def step(self) -> bool:
        """Apply the next command and animate what it did, as in play; False at the end."""
        stepped = self.playback.step()
        if stepped:
            self.effects.feed(self.playback.game.action.cues)
        return stepped

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Advance with time, draw the game, then the banner over the panel's message area."""
        self.advance(now)
        draw_game(console, self.playback.game, now, ambient.look(), self.effects)
        self.draw_banner(console)

    def draw_banner(self, console: tcod.console.Console) -> None:
        """REPLAY, turn N of total and the speed; news (else the newest message); the keys: all in
        the panel's message area, so every row of the map shows."""
        console.draw_rect(MESSAGES_X, BANNER_ROW, MESSAGE_WIDTH, 1, ch=ord(" "), fg=BANNER_FG, bg=BANNER_BG)
        console.print(MESSAGES_X, BANNER_ROW, "REPLAY", fg=LABEL, bg=BANNER_BG)
        console.print(MESSAGES_X + 7, BANNER_ROW, fit(self.status(), MESSAGE_WIDTH - 7), fg=BANNER_FG, bg=BANNER_BG)
        note, colour = self.note()
        scheme = ambient.look().scheme
        messages = self.playback.game.state.messages
        if not note and messages:  # the newest message from its start (the log keeps it whole)
            note, colour = messages[-1].text, scheme[Slot.TEXT]
        console.draw_rect(MESSAGES_X, NEWS_ROW, MESSAGE_WIDTH, 1, ch=ord(" "), bg=scheme[Slot.PANEL_BG])
        console.print(MESSAGES_X, NEWS_ROW, fit(note, MESSAGE_WIDTH), fg=colour)
        for row, text in enumerate(HINT_ROWS, start=HINTS_ROW):
            console.draw_rect(MESSAGES_X, row, MESSAGE_WIDTH, 1, ch=ord(" "), fg=HINT, bg=BANNER_BG)
            console.print(MESSAGES_X, row, text, fg=HINT, bg=BANNER_BG)

    def status(self) -> str:
        """Turn N of total, the speed or "paused", and the rules epoch it was recorded under."""
        turn = self.playback.game.state.turn
        speed = "paused" if self.paused else speed_label(self.speed)
        return f"turn {turn} of {self.playback.replay.final_turn}  {speed}  epoch {self.playback.replay.header.epoch}"

    def note(self) -> tuple[str, tuple[int, int, int]]:
        """The right-hand side: typing, divergence, the end, or nothing."""
        playback = self.playback
        if self.typed is not None:
            return f"go to turn: {self.typed}_ (Enter, Esc)", LABEL
        if self.problem:
            return self.problem, ALERT
        if playback.diverged_at is not None:
            return f"DIVERGED at step {playback.diverged_at}", ALERT
        if playback.at_end:
            return end_note(playback), LABEL
        if self.paused and self.play_from is not None:
            return ("p: practice from here  r: review" if self.review else "p: play on from here (practice)"), LABEL
        if self.review is not None:
            return REVIEW_HINT, HINT
        return "", HINT

    def room(self) -> Room:
        """The game played back (its in-view list beside it, with room)."""
        return Room(self.playback.game)

    def watched(self) -> str:
        """Spectators watch a replay, not a game being played."""
        return f"the replay of {self.playback.replay.header.name}"

    def on_close(self) -> None:
        """The program is closing: free the game."""
        self.playback.close()


def typed_turn(typed: str, sym: KeySym) -> tuple[str | None, int | None]:
    """The go-to-turn field after a key (None: closed) and the turn Enter asks for (None: none yet)."""
    if sym in DIGITS and len(typed) < MAX_DIGITS:
        return typed + str(DIGITS[sym]), None
    if sym == KeySym.BACKSPACE:
        return typed[:-1], None
    if sym in ENTER:
        return None, int(typed) if typed else None
    return (None, None) if sym == KeySym.ESCAPE else (typed, None)


def end_note(playback: Playback) -> str:
    """What ended the recording: a death, a crash on the next command, or nothing."""
    cause = playback.game.state.cause_of_death
    crash = playback.replay.crash
    if cause:
        return f"END: {cause}"
    if crash is not None:
        return f"END: then it crashed ({crash.error.split(':')[0]})"
    return "END of the recording"


def speed_label(speed: float | None) -> str:
    """A speed in words."""
    if speed is None:
        return "max speed"
    return f"{speed:g} turn/s" if speed == 1 else f"{speed:g} turns/s"
