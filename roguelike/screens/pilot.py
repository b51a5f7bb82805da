"""The in-game screen's automation: keys that start it, a step per tick, and held keys.

The frontends call the screen's ``on_tick`` about every ``AUTOMATION_STEP_SECONDS``
while an activity runs; each tick applies one ordinary command through the session,
exactly as a key press would. Any key stops the activity. After every command the
autopilot works out once what changed (:meth:`Autopilot.after_step`); the same answer
stops automation, holds back a key held down (its repeats are ignored until a key is
pressed afresh) and, through :attr:`Pilot.disturbed`, has the frontends drop keys typed
ahead of it. An activity that stops by itself, for whatever reason, disturbs too.
When the State of Mind rule stops or refuses an activity with the way on within reach,
the line asks whether to go there (``y``); any other key goes on as usual. Confused, the
automation keys are refused without a turn (the player keeps the controls, and automation
would walk the wrong way); while the game holds the controls they pass a turn like any key.
"""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event

from roguelike.assist.autopilot import Autopilot, not_while
from roguelike.assist.disturb import BACK_IN_CONTROL, Interrupt, summary
from roguelike.assist.reserve import Way
from roguelike.content.interrupts import Disturbance
from roguelike.core.commands import Command
from roguelike.core.game import Game
from roguelike.core.state import Message
from roguelike.render.colours import Slot
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP
from roguelike.render.text import wrap
from roguelike.screens import ambient

STOPPED = "You stop."
# What each automation action starts (their keys are in the bindings).
AUTOMATION: dict[str, Callable[[Autopilot], None]] = {
    "explore": Autopilot.explore,
    "travel_down": lambda pilot: pilot.travel_to_stairs(">"),
    "travel_up": lambda pilot: pilot.travel_to_stairs("<"),
    "rest": Autopilot.rest,
    "safe_dose": Autopilot.go_to_safe_dose,
}
# Keys refused while confused: automation, and the prompt that starts a rest.
NOT_CONFUSED = frozenset({*AUTOMATION, "rest_until"})
# The question after the State of Mind rule's line, by the way it points to.
WAY_QUESTIONS = {
    Way.DOSE: "Press y to go to it and take it, any other key to stay.",
    Way.STAIRS: "Press y to go down, any other key to stay.",
}


class Pilot:
    """Automation and held-key stopping for one game on the in-game screen."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.autopilot = Autopilot(game)
        self.held_back: str | None = None  # why repeats of the held key are being ignored
        self.disturbed = False  # the last command (or tick) changed something that matters
        self.shown: str | None = None  # the line under the messages: why something stopped
        self.said: list[str] = []  # lines shown since a screen reader was last told
        self.notes: list[Message] = []  # every line shown, for the message log (never saved)
        self.offered: Way | None = None  # the way the rule's line offers to go (y answers)

    @property
    def enabled(self) -> frozenset[Disturbance]:
        """What stops automation and held keys: the setting in force."""
        return ambient.chosen().interrupts

    def begin(self, start: Callable[[Autopilot], None]) -> None:
        """Start an activity under the interrupts in force, showing why if it cannot start."""
        self.autopilot.enabled = self.enabled
        start(self.autopilot)
        self.tell()

    @property
    def active(self) -> bool:
        """Whether an activity runs (the frontends then tick the screen)."""
        return self.autopilot.active

    def on_key(self, event: tcod.event.KeyDown, action: str | None) -> bool:
        """Handle a key (bound to ``action``) if it is the pilot's business: True when used up here."""
        if self.autopilot.active:
            self.stop()
            return True
        if event.repeat and self.held_back is not None:
            if self.shown != self.held_back:
                self.show(self.held_back)
            return True
        self.held_back = self.shown = None
        steering = self.game.steering()
        if action in NOT_CONFUSED and steering is not None and not steering.takes_controls:
            self.show(not_while(steering))
            return True
        start = AUTOMATION.get(action or "")
        if start is None or steering is not None:
            return False  # while the game steers, the key passes a turn like any other
        self.begin(start)
        return True

    def answer_offer(self, event: tcod.event.KeyDown) -> bool:
        """The answer to the rule's offer: y (pressed afresh) goes, n or Esc stays; True when the
        key is used up here (any other key declines and does what it always does)."""
        if event.repeat:
            return True
        way, self.offered = self.offered, None
        if way is not None and event.sym == tcod.event.KeySym.Y:
            self.begin(lambda autopilot: autopilot.take_the_way(way))
            return True
        if event.sym in (tcod.event.KeySym.N, tcod.event.KeySym.ESCAPE):
            self.shown = None
            return True
        return False

    def stop(self) -> None:
        """Stop the activity at the player's word."""
        self.autopilot.stop(STOPPED)
        self.show(STOPPED)

    def hover(self, text: str) -> None:
        """Describe what the pointer is over (shown, not queued: a screen reader has keys)."""
        self.shown = text

    def tell(self) -> None:
        """Show why the activity ended or could not start, with the rule's offer if it makes one."""
        report, self.offered = self.autopilot.report, self.autopilot.offer
        if report is not None and self.offered is not None:
            report = f"{report} {WAY_QUESTIONS[self.offered]}"
            self.disturbed = True  # keys typed ahead must not answer it
        self.show(report)

    def show(self, text: str | None) -> None:
        """Put a line under the messages (None clears it) and queue it for a screen reader."""
        self.shown = text
        if text is not None:
            self.said.append(text)
            self.notes.append(Message(self.game.state.turn, text))

    def next_command(self) -> Command | None:
        """The activity's next command (None: it ended, and :attr:`shown` says why)."""
        command = self.autopilot.next_command()
        if command is None:
            self.tell()
            self.disturbed = True  # it ended by itself: keys typed meanwhile were meant for it
        return command

    def show_if_stopped(self) -> None:
        """Say why the activity ended, once it has."""
        if not self.autopilot.active:
            self.tell()

    def before_command(self) -> None:
        """Note what the player perceives before a command of theirs (the autopilot notes its own)."""
        if not self.autopilot.active:
            self.autopilot.watch()

    def after_command(self) -> None:
        """Stop the activity, or hold back a held key, if the command disturbed the player."""
        running = self.autopilot.active
        found = self.autopilot.after_step()
        if running:
            self.show_if_stopped()
            self.disturbed = not self.autopilot.active
            return
        self.disturbed = bool(found)
        self.held_back = summary(found) if found else None
        if Interrupt(Disturbance.CONTROL, BACK_IN_CONTROL) in found:
            self.show(BACK_IN_CONTROL)  # the hand-back is said whether or not a key is held

    def take_disturbed(self) -> bool:
        """Whether something that matters changed since last asked (keys typed ahead must not act on it)."""
        disturbed, self.disturbed = self.disturbed, False
        return disturbed


def draw_pilot_line(console: tcod.console.Console, pilot: Pilot) -> None:
    """Why automation (or a held key) stopped, a read-out or a question: whole, wrapped over the last
    rows of the message area, until the next key."""
    if pilot.shown is not None:
        draw_note(console, pilot.shown)


def draw_note(console: tcod.console.Console, text: str) -> None:
    """A line over the last rows of the message area, wrapped, whatever the console's height."""
    rows = console.height - PANEL_TOP
    lines = wrap(text, MESSAGE_WIDTH)[-rows:] or [""]
    top, scheme = console.height - len(lines), ambient.look().scheme
    background = scheme[Slot.PANEL_BG]
    console.draw_rect(MESSAGES_X, top, MESSAGE_WIDTH, len(lines), ch=ord(" "), bg=background)
    for row, line in enumerate(lines):
        console.print(MESSAGES_X, top + row, line, fg=scheme[Slot.TEXT], bg=background)
