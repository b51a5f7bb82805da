"""Where things are and how they look."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Position:
    """Map coordinates of an entity on the current floor."""

    x: int
    y: int


@dataclass(slots=True)
class Renderable:
    """Glyph and base colour; ``always_bright`` things ignore the colour shift."""

    glyph: str
    colour: tuple[int, int, int]
    layer: int = 0
    always_bright: bool = False


@dataclass(slots=True)
class BlocksMovement:
    """Tag: nothing else can share this entity's tile."""
