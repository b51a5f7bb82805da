"""The screen protocol and the stack that runs it, independent of any frontend.

A screen turns ``tcod.event`` events into a :data:`Transition` and draws itself on a
``tcod.console.Console``. Both the window and the terminal frontend feed the same
events to the same :class:`App`, so no screen has frontend-specific code.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

import tcod.console
import tcod.event

from roguelike.screens import ambient
from roguelike.screens.mouse import ListShown, entry_cell, point_at_list, point_at_menu
from roguelike.sound import Mind

if TYPE_CHECKING:
    from roguelike.core.game import Game


@dataclass(frozen=True)
class Room:
    """A game a screen shows, for the room a large terminal or window has beside it
    (:mod:`roguelike.screens.roomy`): its in-view list, whether its messages may grow, and the
    line under them (why automation stopped, what the pointer is over, a question)."""

    game: Game
    messages: bool = False
    note: str | None = None


class Screen(ABC):
    """One screen of the game: it reacts to events and draws; the hooks do nothing unless overridden."""

    @property
    def animated(self) -> bool:
        """Whether the screen changes with time alone (frontends then redraw on a timer)."""
        return False

    @abstractmethod
    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """React to an input event; return what should happen to the stack."""

    @abstractmethod
    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw on the 80x25 console; ``now`` (seconds) drives cosmetic animation only."""

    def before_input(self) -> None:  # noqa: B027 (a hook: most screens have nothing to do)
        """Finish what must be done before the next key is read (the in-game screen's autosave)."""

    def on_close(self) -> None:  # noqa: B027 (a hook: most screens hold nothing)
        """The program is closing under this screen: release what it holds."""

    def take_interrupt(self) -> bool:
        """Whether the last event showed something new, so keys typed ahead must be dropped."""
        return False

    @property
    def busy(self) -> bool:
        """Whether the screen acts on its own (auto-explore): frontends then call :meth:`on_tick`."""
        return False

    @property
    def roomy(self) -> bool:
        """Whether the screen draws itself on a larger canvas, using all of it (roomy.py), when on top."""
        return False

    def on_tick(self) -> Transition | None:
        """Take the next step of what the screen does on its own."""
        return None

    def spoken(self) -> list[str] | None:
        """New lines for a screen reader, or None to have the screen read out whole when it opens."""
        return None

    def reader_cursor(self) -> tuple[int, int] | None:
        """The cell a screen reader's cursor should rest on, if the screen has one."""
        return None

    def heard_mind(self) -> Mind | None:
        """The State of Mind the drone plays while this screen is up (None: none of its own)."""
        return None

    def room(self) -> Room | None:
        """The game this screen shows, for a frontend with room beside 80x25 (None: no game)."""
        return None

    def watched(self) -> str | None:
        """What a list of live games calls what this screen shows (None: ask the screen under it);
        a screen showing a game is watched as that character's game at its turn."""
        room = self.room()
        return None if room is None else f"{room.game.state.name}, turn {room.game.state.turn}"


@dataclass(frozen=True)
class Push:
    """Open a screen on top of the current one."""

    screen: Screen


@dataclass(frozen=True)
class Pop:
    """Close the current screen (or that many screens from the top)."""

    count: int = 1


@dataclass(frozen=True)
class Replace:
    """Close the current screen and open another in its place."""

    screen: Screen


@dataclass(frozen=True)
class Quit:
    """Leave the program."""


Transition = Push | Pop | Replace | Quit


class App:
    """The screen stack: frontends hand it events and ask it to draw."""

    def __init__(self, first: Screen) -> None:
        self.stack: list[Screen] = [first]
        self.interrupted = False
        # The in-view list a large frontend last drew beside the top screen's game (roomy.py),
        # and the map cell of the entry the pointer rests on (highlighted there and in the list).
        self.list_shown: ListShown | None = None
        self.list_pointed: tuple[int, int] | None = None

    @property
    def running(self) -> bool:
        """False once the last screen is closed or Quit was asked for."""
        return bool(self.stack)

    @property
    def animated(self) -> bool:
        """Whether the top screen wants redrawing over time."""
        return bool(self.stack) and self.stack[-1].animated

    @property
    def busy(self) -> bool:
        """Whether the top screen acts on its own (auto-explore): frontends then call :meth:`tick`."""
        return bool(self.stack) and self.stack[-1].busy

    def tick(self) -> None:
        """Let a busy top screen take its next step (about every ``AUTOMATION_STEP_SECONDS``)."""
        if self.busy:
            screen = self.stack[-1]
            self.apply(screen.on_tick())
            if screen.take_interrupt():
                self.interrupted = True

    def handle(self, event: tcod.event.Event) -> None:
        """Give an event to the top screen and apply the transition it returns."""
        if not self.stack:
            return
        if isinstance(event, tcod.event.Quit):
            self.close_all()
            return
        screen = self.stack[-1]
        if isinstance(event, (tcod.event.MouseMotion, tcod.event.KeyDown)):
            self.list_pointed = entry_cell(self.list_shown, event)  # a key or a move elsewhere clears it
        beside = point_at_list(self.list_shown, event)  # the in-view list's entries stand for their cells
        pointed = None if beside is None else point_at_menu(screen, beside)  # menus answer the mouse for every screen
        if pointed is None:
            return
        self.apply(screen.on_event(pointed))
        if screen.take_interrupt():
            self.interrupted = True

    def take_interrupted(self) -> bool:
        """Whether a screen asked, since the last call, that keys already typed be dropped.

        The in-game screen asks whenever a command changed something that matters (what
        stops automation) or an automation stopped by itself: a held or typed-ahead key
        must not walk the player into what just appeared. Frontends drop the keys queued
        behind the one that did it, and keys held down since.
        """
        interrupted, self.interrupted = self.interrupted, False
        return interrupted

    def apply(self, transition: Transition | None) -> None:
        """Change the stack as a transition says."""
        match transition:
            case Push(screen):
                self.stack.append(screen)
            case Pop(count):
                del self.stack[-count:]
            case Replace(screen):
                self.stack[-1] = screen
            case Quit():
                self.close_all()

    def close_all(self) -> None:
        """Close every screen, top first, letting each one clean up."""
        while self.stack:
            self.stack.pop().on_close()

    def before_input(self) -> None:
        """Let screens finish what must be done before input is read (the autosave).

        Frontends call this after showing a frame and before waiting for a key.
        """
        for screen in list(self.stack):
            screen.before_input()

    def draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw the top screen on a cleared console; the drone follows the game shown."""
        console.clear()
        if self.stack:
            self.stack[-1].on_draw(console, now)
        ambient.audio().follow(self.heard_mind(), ambient.chosen())

    def watched(self) -> str | None:
        """What the topmost screen that says so shows, for the list of live games (None: none says)."""
        for screen in reversed(self.stack):
            shown = screen.watched()
            if shown is not None:
                return shown
        return None

    def heard_mind(self) -> Mind | None:
        """The mind of the topmost screen that has one: the game under a menu keeps droning."""
        for screen in reversed(self.stack):
            mind = screen.heard_mind()
            if mind is not None:
                return mind
        return None
