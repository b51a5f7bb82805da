"""A game being played: the Game plus what must happen after every command.

Frontends and ``hedonic simulate`` drive a :class:`Session`, never a bare Game, so that
autosaving and replay recording (observers) happen after every command, before the
next input is read. The snapshot is encoded once per command and shared by observers,
so the save and the replay always agree on the checksum of a turn; its whole bytes and
its checksum are worked out only when someone asks (verifying needs no bytes, a save no
checksum).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from roguelike.core.commands import Command
from roguelike.core.game import Game
from roguelike.core.notices import Notices
from roguelike.core.snapshot import EncodedState, encoded_state


@dataclass(frozen=True)
class Step:
    """One applied command and the state it led to."""

    index: int
    turn: int
    command: Command
    state: EncodedState

    @property
    def snapshot(self) -> bytes:
        """The game's canonical bytes after the command (what the autosave writes)."""
        return self.state.snapshot

    @property
    def checksum(self) -> str:
        """The checksum of the game after the command (what a replay records)."""
        return self.state.checksum


@dataclass(frozen=True)
class FailedStep:
    """An exception that escaped :meth:`Session.apply`, and the command whose game logic raised it.

    ``command`` is None when the game logic had finished and an observer raised.
    """

    error: BaseException
    command: Command | None


_failed: list[FailedStep] = []  # the last exception that escaped a step (crash reports read it)


def failed_step(error: BaseException) -> FailedStep | None:
    """What the session was doing when ``error`` escaped a step, if it did."""
    return next((failed for failed in _failed if failed.error is error), None)


def _note_failure(error: BaseException, command: Command | None) -> None:
    """Remember the step an exception escapes from, for the crash report."""
    _failed[:] = [FailedStep(error, command)]


class Observer(Protocol):
    """Something that must see every step: the autosaver, the replay recorder."""

    def after_step(self, game: Game, step: Step) -> None:
        """Called after each command, before the next input is read."""
        ...

    def close(self, game: Game) -> None:
        """Called once when the session ends (quit, death, crash)."""
        ...


@runtime_checkable
class Settling(Protocol):
    """An observer that finishes a step's work in the background (the autosave's write)."""

    def settle(self) -> object:
        """Wait until the last step's work is done, and report how it went."""
        ...


class Session:
    """A game with its observers; ``apply`` is the one way to advance it."""

    def __init__(self, game: Game, observers: list[Observer] | None = None, steps: int = 0) -> None:
        self.game = game
        self.observers: list[Observer] = list(observers or [])
        self.steps = steps
        self.notices = Notices()  # warnings outside the game state (a failing autosave)
        self.known_monsters: frozenset[str] = frozenset()  # kinds earlier characters met (for help)
        # Called with each command before it is applied; raising keeps it unapplied (a hosted game
        # has the server commit the command to its input log here, so nothing unlogged is played).
        self.admit: Callable[[Command], None] | None = None

    def apply(self, command: Command) -> Step:
        """Apply a command (once :attr:`admit`, if set, has taken it), then let every observer see the result."""
        if self.admit is not None:
            self.admit(command)
        try:
            self.game.apply(command)
            step = Step(self.steps + 1, self.game.state.turn, command, encoded_state(self.game))
        except BaseException as error:
            _note_failure(error, command)
            raise
        self.steps += 1
        try:
            for observer in self.observers:
                observer.after_step(self.game, step)
        except BaseException as error:
            _note_failure(error, None)
            raise
        return step

    def settle(self) -> None:
        """Wait until every observer's work for the last step is done (the save on disk).

        Frontends call it after showing each frame, so the write overlaps the drawing.
        """
        for observer in self.observers:
            if isinstance(observer, Settling):
                observer.settle()

    def close(self) -> None:
        """End the session: observers flush and release what they hold."""
        for observer in self.observers:
            observer.close(self.game)
        self.observers.clear()
