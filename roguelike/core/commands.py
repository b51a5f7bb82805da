"""Commands: the only way anything from outside changes a game: a step (or bump), a wait,
picking a dose up to carry and taking a carried one; and the developer's marks and wizardry.

Frontends turn keys into commands; replays record commands, never keys, so rebinding a
key never breaks an old replay.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Move:
    """Step (or bump) one tile in a direction; each of dx, dy is -1, 0 or 1."""

    dx: int
    dy: int

    def __post_init__(self) -> None:
        if self.dx not in (-1, 0, 1) or self.dy not in (-1, 0, 1):
            raise ValueError(f"a move is one tile at most, not ({self.dx}, {self.dy})")


@dataclass(frozen=True)
class Wait:
    """Let a turn pass."""


@dataclass(frozen=True)
class PickUp:
    """Pick up (to carry) the dose one tile away in a direction, rather than take it."""

    dx: int
    dy: int

    def __post_init__(self) -> None:
        if self.dx not in (-1, 0, 1) or self.dy not in (-1, 0, 1) or (self.dx, self.dy) == (0, 0):
            raise ValueError(f"a dose to pick up lies one tile away, not ({self.dx}, {self.dy})")


@dataclass(frozen=True)
class TakeCarried:
    """Take the carried dose of this index (oldest first, from 0)."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < MAX_CARRIED_INDEX:
            raise ValueError(f"not a carried dose: {self.index}")


# Developer commands and marks. No key of an ordinary game gives them: the wizard screen of
# ``hedonic play --wizard`` and ``hedonic replay --to-turn N --save-as`` do, and the game's
# start marks a daily game, a daily practice and a bot's game. Each sets the game's origin
# (``GameState.origin``) and is recorded like any command, so the origin is inside the
# checksum; a game with no mark is played. Only played and daily games ever rank.
ORIGINS = ("replay", "wizard", "bot", "daily", "practice")
RANKED_ORIGINS = (None, "daily")
WIZARD_ACTIONS = (
    "mind",
    "confidence",
    "nerve",
    "will",
    "tolerance",
    "reveal",
    "monster",
    "dose",
    "descend",
    "still",
    "find",
)
MAX_KIND = 40
WIZARD_LIMIT = 1000  # the largest number a wizard command holds, either sign


@dataclass(frozen=True)
class Mark:
    """Mark the game's origin: a daily game, or not the character's own (from a replay, wizard mode, a bot, practice)."""

    origin: str

    def __post_init__(self) -> None:
        if self.origin not in ORIGINS:
            raise ValueError(f"not an origin: {self.origin!r}")


@dataclass(frozen=True)
class Wizard:
    """A wizard-mode change: set a number (``value``), spawn a ``kind``, reveal, descend, still the monsters."""

    action: str
    value: int = 0
    kind: str = ""

    def __post_init__(self) -> None:
        if (
            self.action not in WIZARD_ACTIONS
            or len(self.kind) > MAX_KIND
            or not -WIZARD_LIMIT <= self.value <= WIZARD_LIMIT
        ):
            raise ValueError(f"not a wizard command: {self.action!r}")


Command = Move | Wait | PickUp | TakeCarried | Mark | Wizard
MARK, WIZARD, PICK_UP, TAKE_CARRIED = 3, 2, 4, 5
MAX_CARRIED_INDEX = 64  # far above any carrying limit: only a bound on what a replay file may hold


def encode_command(command: Command) -> list[int | str]:
    """A command as a short list (integers; a word for developer commands), for replay files."""
    if isinstance(command, Move):
        return [1, command.dx, command.dy]
    if isinstance(command, Wizard):
        return [WIZARD, command.action, command.value, command.kind]
    if isinstance(command, Mark):
        return [MARK, command.origin]
    if isinstance(command, PickUp):
        return [PICK_UP, command.dx, command.dy]
    if isinstance(command, TakeCarried):
        return [TAKE_CARRIED, command.index]
    return [0]


def decode_command(data: object) -> Command:
    """The command :func:`encode_command` wrote; ValueError for anything else."""
    if data == [0]:
        return Wait()
    if isinstance(data, list) and len(data) == 3 and data[0] == 1:
        dx, dy = data[1], data[2]
        if type(dx) is int and type(dy) is int:
            return Move(dx, dy)
    if isinstance(data, list) and len(data) == 4 and data[0] == WIZARD:
        if type(data[1]) is str and type(data[2]) is int and type(data[3]) is str:
            return Wizard(data[1], data[2], data[3])
    if isinstance(data, list) and len(data) == 2 and data[0] == MARK and type(data[1]) is str:
        return Mark(data[1])
    if (
        isinstance(data, list)
        and len(data) == 3
        and data[0] == PICK_UP
        and type(data[1]) is int
        and type(data[2]) is int
    ):
        return PickUp(data[1], data[2])
    if isinstance(data, list) and len(data) == 2 and data[0] == TAKE_CARRIED and type(data[1]) is int:
        return TakeCarried(data[1])
    raise ValueError(f"not a command: {data!r}")
