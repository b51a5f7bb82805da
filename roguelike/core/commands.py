"""Commands: the only way anything from outside changes a game.

Frontends turn keys into commands; replays record commands, never keys, so rebinding a
key never breaks an old replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union


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


Command = Union[Move, Wait]


def encode_command(command: Command) -> list[int]:
    """A command as a short list of integers, for replay files."""
    if isinstance(command, Move):
        return [1, command.dx, command.dy]
    return [0]


def decode_command(data: object) -> Command:
    """The command :func:`encode_command` wrote; ValueError for anything else."""
    if data == [0]:
        return Wait()
    if isinstance(data, list) and len(data) == 3 and data[0] == 1:
        dx, dy = data[1], data[2]
        if type(dx) is int and type(dy) is int:
            return Move(dx, dy)
    raise ValueError(f"not a command: {data!r}")
