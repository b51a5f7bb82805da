"""The terminal frontend: play in the terminal the game was started from.

The same screens as the window draw on the same 80x25 console; this module turns the
terminal's bytes into ``tcod.event`` events for them (:mod:`termkeys`), writes each frame
as the ANSI difference from the last one (:mod:`ansi`), and owns the terminal for the
length of the game (:mod:`termsession`). With nothing animated it sleeps in ``select``
until a key or a signal comes; with animation it redraws at most ``FRAMES_PER_SECOND``.
"""

from __future__ import annotations

import dataclasses
import io
import locale
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import tcod.console
import tcod.event
from blessed import Terminal

from roguelike.content import formulas
from roguelike.frontend.ansi import AnsiRenderer
from roguelike.frontend.colourprobe import ask_terminal, hint_once
from roguelike.frontend.glyphs import locale_is_utf8
from roguelike.frontend.palette import ColourMode, detect_mode, forced_mode
from roguelike.frontend.reader import ReaderOutput
from roguelike.frontend.termkeys import KeyDecoder
from roguelike.frontend.termsession import RESET_CLEAR_HOME, Capabilities, TerminalSession
from roguelike.render.look import finish_frame
from roguelike.render.text import wrap
from roguelike.screens import ambient
from roguelike.screens.base import App
from roguelike.screens.roomy import Canvas, roomy_size
from roguelike.settings import Glyphs
from roguelike.storage.datadir import DataDir, data_dir

BELL = b"\a"

COLUMNS, ROWS = 80, 25
FRAMES_PER_SECOND = 20
# How long a lone Esc may wait for the rest of a sequence split across reads; ESCDELAY
# (milliseconds, as in ncurses) overrides it.
DEFAULT_ESC_DELAY = 0.025
# After something appears, input is dropped for a moment, and for as long as it keeps
# coming faster than a person types (a held key repeating): it must not walk the
# player into what appeared.
INTERRUPT_GRACE = 0.3
REPEAT_GAP = 0.15
# A terminal does not say that a key is held; the same key again this soon is taken as
# the keyboard's auto-repeat (the window is told by SDL), so held keys stop like there.
KEY_REPEAT_SECONDS = 0.1
TOO_SMALL = (
    "Hedonic Hypothesis needs a terminal of at least 80x25; this one is {columns}x{rows}.",
    "Please make the terminal at least 80x25 to go on playing.",
    "The game is paused. Ctrl-C saves and quits.",
)


@dataclass(frozen=True)
class TerminalSetup:
    """What the frontend knows about the terminal before it starts."""

    capabilities: Capabilities
    decoder: KeyDecoder
    mode: ColourMode
    unicode: bool
    esc_delay: float
    screen_reader: bool = False

    @classmethod
    def detect(cls, env: Mapping[str, str], screen_reader: bool = False) -> TerminalSetup:
        """Look at TERM, COLORTERM, the locale and ESCDELAY, without querying the terminal."""
        # A stream that is not the tty keeps blessed from sending queries to the terminal
        # (and waiting seconds for answers some terminals never give).
        terminal = Terminal(kind=env.get("TERM") or None, stream=io.StringIO(), force_styling=True)
        unicode = locale_is_utf8(env)
        encoding = "utf-8" if unicode else locale.getpreferredencoding(False) or "latin-1"
        return cls(
            Capabilities.of(terminal),
            KeyDecoder(terminal, encoding),
            detect_mode(env, terminal.number_of_colors),
            unicode,
            esc_delay(env),
            screen_reader,
        )


def esc_delay(env: Mapping[str, str]) -> float:
    """Seconds to wait after a lone Esc: ESCDELAY in milliseconds, or the default."""
    try:
        return max(0.0, int(env["ESCDELAY"]) / 1000)
    except (KeyError, ValueError):
        return DEFAULT_ESC_DELAY


def run_terminal(app: App, screen_reader: bool = False) -> int:
    """Run the app in this process's terminal until its last screen closes; the exit status
    (128 + the signal's number when a signal ended it, as a shell reports a killed program)."""
    setup = TerminalSetup.detect(os.environ, screen_reader)
    with TerminalSession(setup.capabilities) as session:
        try:
            setup = probe_colours(setup, session, os.environ)
            TerminalLoop(app, session, setup).run()
        finally:
            app.close_all()
    if setup.mode is ColourMode.COLOURS_16 and forced_mode(os.environ) is None:
        hint_once(DataDir(data_dir()).colour_hint, 16, lambda text: print(text, file=sys.stderr))
    return 0 if session.ended_by is None else 128 + session.ended_by


def probe_colours(setup: TerminalSetup, session: TerminalSession, env: Mapping[str, str]) -> TerminalSetup:
    """The setup in truecolour if the terminal says so when asked (only asked when nothing else said)."""
    if setup.mode is ColourMode.TRUECOLOUR or forced_mode(env) is not None:
        return setup
    if ask_terminal(session.write, session.read):
        return dataclasses.replace(setup, mode=ColourMode.TRUECOLOUR)
    return setup


class TerminalIO(Protocol):
    """What the loop needs of a terminal (a :class:`TerminalSession`, or a fake in tests)."""

    @property
    def closing(self) -> bool:
        """Whether the program should end (a signal, or the terminal went away)."""
        ...

    def size(self) -> tuple[int, int]:
        """Columns and rows."""
        ...

    def write(self, data: bytes) -> None:
        """Send bytes to the terminal."""
        ...

    def read(self, timeout: float | None) -> bytes | None:
        """Input bytes; b"" when woken without input; None at end of input."""
        ...

    def suspend(self) -> None:
        """Give the terminal back and stop until the shell continues the program."""
        ...

    def take_redraw(self) -> bool:
        """Act on a stop or continue signal; whether the whole screen must be drawn again."""
        ...


class TerminalLoop:
    """Input, screens and output for one game in one terminal session."""

    def __init__(
        self, app: App, session: TerminalIO, setup: TerminalSetup, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.app, self.session, self.setup, self.clock = app, session, setup, clock
        self.decoder = setup.decoder
        self.renderer = AnsiRenderer(setup.mode, setup.unicode)
        self.console = tcod.console.Console(COLUMNS, ROWS, order="C")
        self.canvas: Canvas | None = None  # a terminal with room beyond 80x25 (not for a screen reader)
        self.size = (0, 0)
        self.dirty = True
        self.next_frame = 0.0
        self.esc_deadline = 0.0
        self.drop_until = 0.0
        self.last_key: tuple[object, object, float] | None = None
        self.next_tick = 0.0
        self.reader = ReaderOutput(setup.capabilities) if setup.screen_reader else None

    @property
    def too_small(self) -> bool:
        """Whether the terminal cannot show the whole console."""
        return self.size[0] < COLUMNS or self.size[1] < ROWS

    def run(self) -> None:
        """Draw and handle input until the app closes, a signal comes or the terminal goes."""
        while self.app.running and not self.session.closing:
            self.refresh()
            self.app.before_input()
            data = self.session.read(self.timeout())
            if self.session.closing or data is None:
                break
            if self.session.take_redraw():
                self.resize(self.session.size())
            self.handle_input(data)
            self.tick(waited=not data)

    def timeout(self) -> float | None:
        """How long to wait for input: forever unless a frame, a step of automation or a
        lone Esc is due."""
        now = self.clock()
        deadlines = []
        if self.decoder.pending:
            deadlines.append(self.esc_deadline)
        if self.animated:
            deadlines.append(self.next_frame)
        if self.app.busy and not self.too_small:
            deadlines.append(max(now, self.next_tick))
        return max(0.0, min(deadlines) - now) if deadlines else None

    def handle_input(self, data: bytes) -> None:
        """Decode input (or flush a lone Esc whose wait is over) and hand it on."""
        events: list[tcod.event.Event] = []
        if data and self.clock() < self.drop_until:
            self.drop_until = max(self.drop_until, self.clock() + REPEAT_GAP)
            for event in self.decoder.feed(data):
                if is_ctrl_key(event, tcod.event.KeySym.C) or is_ctrl_key(event, tcod.event.KeySym.L):
                    self.dispatch(event)
            return
        if data:
            events = self.decoder.feed(data)
            self.esc_deadline = self.clock() + self.setup.esc_delay
        elif self.decoder.pending and self.clock() >= self.esc_deadline:
            events = self.decoder.flush()
        for event in events:
            if not self.app.running:
                return
            self.dispatch(event)
            if self.app.take_interrupted():
                self.drop_until = self.clock() + INTERRUPT_GRACE
                return

    def tick(self, waited: bool) -> None:
        """A step of automation once the wait for input timed out, or its time came anyway
        (mouse motion must not hold it up); never while paused for a small terminal."""
        now = self.clock()
        if self.app.busy and not self.too_small and (waited or now >= self.next_tick):
            self.app.tick()
            if self.app.take_interrupted():  # it stopped by itself: keys typed meanwhile were meant for it
                self.drop_until = now + INTERRUPT_GRACE
            self.dirty = True
            self.next_tick = now + formulas.AUTOMATION_STEP_SECONDS

    def dispatch(self, event: tcod.event.Event) -> None:
        """Ctrl-C closes the app (its screens save), Ctrl-L redraws the whole screen, Ctrl-Z
        suspends; other keys go to the screens unless the game is paused for a small terminal."""
        if is_ctrl_key(event, tcod.event.KeySym.C):
            self.app.close_all()
        elif is_ctrl_key(event, tcod.event.KeySym.L):
            self.resize(self.size)
        elif is_ctrl_key(event, tcod.event.KeySym.Z):
            self.app.before_input()  # the turn shown is on disk before the program stops
            self.session.suspend()
            self.resize(self.session.size())
        elif not self.too_small:
            self.mark_repeat(event)
            self.app.handle(self.on_console(event))
            self.dirty = True

    def on_console(self, event: tcod.event.Event) -> tcod.event.Event:
        """A mouse event moved from the terminal's cells to the console's (it may be centred)."""
        if not isinstance(event, (tcod.event.MouseMotion, tcod.event.MouseButtonDown)):
            return event
        top, left = self.renderer.origin
        if self.canvas is not None:
            left, top = self.canvas.origin
        event.position = tcod.event.Point(float(event.position.x - left), float(event.position.y - top))
        return event

    def mark_repeat(self, event: tcod.event.Event) -> None:
        """Flag a key press as a repeat when the same key came again within the repeat time."""
        if not isinstance(event, tcod.event.KeyDown):
            return
        now = self.clock()
        if self.last_key is not None:
            sym, mod, at = self.last_key
            event.repeat = (sym, mod) == (event.sym, event.mod) and now - at <= KEY_REPEAT_SECONDS
        self.last_key = (event.sym, event.mod, now)

    def refresh(self) -> None:
        """Follow the terminal's size, then draw a frame if one is due."""
        size = self.session.size()
        if size != self.size:
            self.resize(size)
        if self.too_small:
            return
        now = self.clock()
        if self.dirty or (self.animated and now >= self.next_frame):
            self.draw(now)

    @property
    def animated(self) -> bool:
        """Whether frames are due with time alone (never for a screen reader: no flashing)."""
        return self.app.animated and not self.too_small and self.reader is None

    def resize(self, size: tuple[int, int]) -> None:
        """Centre the console in the new size (or, with room beyond 80x25, show a canvas of the
        terminal's size: :mod:`roguelike.screens.roomy`), or show why the game is paused."""
        self.size = size
        columns, rows = size
        centred = ((rows - ROWS) // 2, (columns - COLUMNS) // 2)
        roomy = roomy_size(columns, rows) if self.reader is None else None
        self.canvas = Canvas(*roomy) if roomy is not None else None
        self.renderer.reset((0, 0) if self.reader is not None or self.canvas is not None else centred)
        self.dirty = True
        if self.too_small:
            self.session.write(too_small_message(columns, rows))

    def draw(self, now: float) -> None:
        """Draw the app on the console and write what changed."""
        self.follow_glyphs()
        self.app.draw(self.console, now)
        shown = self.console if self.canvas is None else self.canvas.compose(self.app, self.console)
        finish_frame(shown, ambient.look())
        self.session.write(self.renderer.render(shown))
        if ambient.audio().take_bell():  # the overdose alarm, when the player asked for it
            self.session.write(BELL)
        if self.reader is not None:
            self.session.write(self.reader.after_frame(self.app, self.console, self.renderer, self.size))
        self.dirty = False
        self.next_frame = now + 1 / FRAMES_PER_SECOND

    def follow_glyphs(self) -> None:
        """Write Unicode only where the locale allows it and the glyphs setting asks for it."""
        unicode = self.setup.unicode and ambient.chosen().glyphs is Glyphs.UNICODE
        if unicode != self.renderer.unicode:
            self.renderer.unicode = unicode
            self.renderer.reset(self.renderer.origin)


def is_ctrl_key(event: tcod.event.Event, sym: tcod.event.KeySym) -> bool:
    """Whether an event is Ctrl with the key ``sym`` (a raw-mode terminal sends these as keys)."""
    return isinstance(event, tcod.event.KeyDown) and event.sym == sym and bool(event.mod & tcod.event.Modifier.CTRL)


def too_small_message(columns: int, rows: int) -> bytes:
    """A cleared screen asking for a bigger terminal, wrapped to the width there is."""
    lines: list[str] = []
    for text in TOO_SMALL:
        lines.extend(wrap(text.format(columns=columns, rows=rows), max(columns, 1), hyphens=False))
    body = "".join(f"\x1b[{row + 1};1H{line}" for row, line in enumerate(lines[: max(rows, 1)]))
    return (RESET_CLEAR_HOME + body).encode()
