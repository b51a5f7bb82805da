"""A new player character: the components every character starts with.

Kept apart from the game so that checking a save (which needs to know what a whole
player is) does not load the rules and their libraries.
"""

from __future__ import annotations

from components import (
    ActionPoints,
    Attributes,
    BlocksMovement,
    Carried,
    FindsTaken,
    HighStreak,
    Palette,
    Player,
    Position,
    Record,
    Renderable,
    Score,
    Sight,
    StateOfMind,
    Tolerance,
)
from roguelike.content import formulas

PLAYER_COLOUR = (255, 255, 255)


def starting_player(name: str, at: tuple[int, int]) -> list[object]:
    """The components of a new player character."""
    start = formulas.ATTRIBUTE_START
    saturation, brightness = formulas.palette_for(formulas.STATE_OF_MIND_START)
    return [
        Player(name),
        Position(*at),
        Renderable("@", PLAYER_COLOUR, layer=2, always_bright=True),
        BlocksMovement(),
        StateOfMind(formulas.STATE_OF_MIND_START),
        Attributes(start, start, start),
        Tolerance(formulas.TOLERANCE_START),
        Record(),
        Score(),
        HighStreak(),
        FindsTaken(),
        Palette(saturation, brightness, False),
        Sight(formulas.sight_radius(formulas.STATE_OF_MIND_START, start)),
        ActionPoints(formulas.action_points(start)),
        Carried(),
    ]
