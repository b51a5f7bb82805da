"""Watching a headless game: the range of every attribute, its rises and falls, the takeovers.

The watch only reads the game (after each action, and the control reason before it), so
watching never changes what happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from components import Attributes, Tolerance
from roguelike.core.game import Game

ATTRIBUTES = ("confidence", "nerve", "will", "tolerance")


@dataclass
class Watch:
    """Lowest and highest values, rises and falls of each attribute; actions taken over, by kind."""

    low: dict[str, int] = field(default_factory=dict)
    high: dict[str, int] = field(default_factory=dict)
    rises: dict[str, int] = field(default_factory=dict)
    falls: dict[str, int] = field(default_factory=dict)
    takeovers: dict[str, int] = field(default_factory=dict)  # by condition key
    last: dict[str, int] = field(default_factory=dict)

    def before(self, game: Game) -> None:
        """Note who will steer the coming action."""
        if not self.last:
            self.see(game)
        condition = game.steering()
        if condition is not None:
            self.takeovers[condition.key] = self.takeovers.get(condition.key, 0) + 1

    def after(self, game: Game) -> None:
        """Note how the attributes moved."""
        self.see(game)

    def see(self, game: Game) -> None:
        """Compare the attributes with the last look."""
        values = attribute_values(game)
        if values == self.last:
            return  # nothing moved, and every value is already within its range
        for name, value in values.items():
            before = self.last.get(name, value)
            if value > before:
                self.rises[name] = self.rises.get(name, 0) + 1
            elif value < before:
                self.falls[name] = self.falls.get(name, 0) + 1
            self.low[name] = min(self.low.get(name, value), value)
            self.high[name] = max(self.high.get(name, value), value)
            self.last[name] = value

    def ranges(self) -> tuple[tuple[str, int, int], ...]:
        """(attribute, lowest, highest) in a fixed order."""
        return tuple((name, self.low[name], self.high[name]) for name in ATTRIBUTES if name in self.low)


def attribute_values(game: Game) -> dict[str, int]:
    """Confidence, Nerve, Will and Tolerance as they stand."""
    attrs = game.player_component(Attributes)
    tolerance = game.player_component(Tolerance).value
    return {"confidence": attrs.confidence, "nerve": attrs.nerve, "will": attrs.will, "tolerance": tolerance}
