"""The in-game screen's automation: keys that start it, a step per tick, and held keys.

The frontends call the screen's ``on_tick`` about every ``AUTOMATION_STEP_SECONDS``
while an activity runs; each tick applies one ordinary command through the session,
exactly as a key press would. Any key stops the activity. A key held down (the
repeats the keyboard sends) stops through the same disturbances: after one, its
repeats are ignored until a key is pressed afresh.
"""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event

from roguelike import settings
from roguelike.core.autopilot import Autopilot
from roguelike.core.commands import Command
from roguelike.content.interrupts import Disturbance
from roguelike.core.disturb import BACK_IN_CONTROL, Interrupt, Outlook, disturbances, observe, summary
from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.render.colours import Slot
from roguelike.render.look import current_look
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X

STOPPED = "You stop."
# What each automation action starts (their keys are in the bindings).
AUTOMATION: dict[str, Callable[[Autopilot], None]] = {
    "explore": Autopilot.explore,
    "travel_down": lambda pilot: pilot.travel_to_stairs(">"),
    "travel_up": lambda pilot: pilot.travel_to_stairs("<"),
    "rest": Autopilot.rest,
}


class Pilot:
    """Automation and held-key stopping for one game on the in-game screen."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.autopilot = Autopilot(game)
        self.held_back: str | None = None  # why repeats of the held key are being ignored
        self.before: Outlook | None = None
        self.shown: str | None = None  # the line under the messages: why something stopped
        self.said: list[str] = []  # lines shown since a screen reader was last told

    @property
    def enabled(self) -> frozenset[Disturbance]:
        """What stops automation and held keys: the setting in force."""
        return settings.current().interrupts

    def begin(self, start: Callable[[Autopilot], None]) -> None:
        """Start an activity under the interrupts in force, showing why if it cannot start."""
        self.autopilot.enabled = self.enabled
        start(self.autopilot)
        self.show(self.autopilot.report)

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
        start = AUTOMATION.get(action or "")
        if start is None or self.game.control_reason() is not None:
            return False  # while the game steers, the key passes a turn like any other
        self.begin(start)
        return True

    def stop(self) -> None:
        """Stop the activity at the player's word."""
        self.autopilot.stop(STOPPED)
        self.show(STOPPED)

    def hover(self, text: str) -> None:
        """Describe what the pointer is over (shown, not queued: a screen reader has keys)."""
        self.shown = text

    def show(self, text: str | None) -> None:
        """Put a line under the messages (None clears it) and queue it for a screen reader."""
        self.shown = text
        if text is not None:
            self.said.append(text)

    def next_command(self) -> Command | None:
        """The activity's next command (None: it ended, and :attr:`shown` says why)."""
        command = self.autopilot.next_command()
        if command is None:
            self.show(self.autopilot.report)
        return command

    def show_if_stopped(self) -> None:
        """Say why the activity ended, once it has."""
        if not self.autopilot.active:
            self.show(self.autopilot.report)

    def before_command(self) -> None:
        """Note what the player perceives before a command of theirs."""
        if not self.autopilot.active:
            self.before = observe(self.game)

    def after_command(self) -> None:
        """Stop the activity, or hold back a held key, if the command disturbed the player."""
        if self.autopilot.active:
            self.autopilot.after_step()
            self.show_if_stopped()
            return
        if self.before is not None:
            found = disturbances(self.before, observe(self.game), self.game, self.enabled)
            self.held_back = summary(found) if found else None
            self.before = None
            if Interrupt(Disturbance.CONTROL, BACK_IN_CONTROL) in found:
                self.show(BACK_IN_CONTROL)  # the hand-back is said whether or not a key is held


def draw_pilot_line(console: tcod.console.Console, pilot: Pilot) -> None:
    """Why automation (or a held key) stopped, on the last message row until the next key."""
    if pilot.shown is None:
        return
    row, scheme = console.height - 1, current_look().scheme
    background = scheme[Slot.PANEL_BG]
    console.draw_rect(MESSAGES_X, row, MESSAGE_WIDTH, 1, ch=ord(" "), bg=background)
    console.print(MESSAGES_X, row, fit(pilot.shown, MESSAGE_WIDTH), fg=scheme[Slot.TEXT], bg=background)
