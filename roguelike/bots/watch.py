"""Watching a headless game: the range of every attribute, its rises and falls, the takeovers,
and the carried doses taken (when, and at what State of Mind).

The watch only reads the game (after each action, and the control reason before it), so
watching never changes what happens.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from components import Attributes, Carried, Record, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.core.game import Game

ATTRIBUTES = ("confidence", "nerve", "will", "tolerance")
# A carried dose "saved a game" when it was taken at this State of Mind or lower (the
# Desperation line is 20 less Will: 15 at the starting Will of 5) and the player then lived
# at least SAVED_FOR more turns (or was alive at the turn limit).
SAVED_AT = formulas.DESPERATION_BASE
SAVED_FOR = 100


@dataclass
class Watch:
    """Lowest and highest values, rises and falls of each attribute; actions taken over, by kind."""

    low: dict[str, int] = field(default_factory=dict)
    high: dict[str, int] = field(default_factory=dict)
    rises: dict[str, int] = field(default_factory=dict)
    falls: dict[str, int] = field(default_factory=dict)
    takeovers: dict[str, int] = field(default_factory=dict)  # by condition key
    last: dict[str, int] = field(default_factory=dict)
    carried_taken: int = 0  # carried doses taken, by the player or a takeover
    low_takes: list[int] = field(default_factory=list)  # turns a carried dose was taken at SAVED_AT or lower
    pocket: tuple[int, int, int] = (0, 0, 0)  # before the action: doses carried, doses used, State of Mind

    def before(self, game: Game) -> None:
        """Note who will steer the coming action, and what the player carries."""
        if not self.last:
            self.see(game)
        condition = game.steering()
        if condition is not None:
            self.takeovers[condition.key] = self.takeovers.get(condition.key, 0) + 1
        self.pocket = (
            len(game.player_component(Carried).kinds),
            game.player_component(Record).doses_used,
            game.player_component(StateOfMind).value,
        )

    def after(self, game: Game) -> None:
        """Note how the attributes moved, and a carried dose taken."""
        self.see(game)
        carried, used, som = self.pocket
        if len(game.player_component(Carried).kinds) < carried and game.player_component(Record).doses_used > used:
            self.carried_taken += 1
            if som <= SAVED_AT:
                self.low_takes.append(game.state.turn)

    def saved(self, last_turn: int, alive: bool) -> bool:
        """Whether a carried dose taken low was followed by SAVED_FOR more turns of life."""
        return any(alive or last_turn - turn >= SAVED_FOR for turn in self.low_takes)

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
