"""What an actor means to do this turn, and who is in control."""

from __future__ import annotations

from dataclasses import dataclass

NOT_CARRIED = -1  # MoveIntent.carried when the action takes no carried dose


@dataclass(slots=True)
class MoveIntent:
    """The step (or bump) of the player's current action; (0, 0) waits.

    ``pick_up``: the step picks up the dose it bumps rather than taking it; ``carried``:
    the action takes the carried dose of that index instead of stepping. Each command
    rewrites it in place rather than adding and removing components, which would empty
    esper's query cache twice an action.
    """

    dx: int
    dy: int
    pick_up: bool = False
    carried: int = NOT_CARRIED


@dataclass(slots=True)
class ActionPoints:
    """Actions left to the actor in the current turn."""

    remaining: int


@dataclass(slots=True)
class TakenOver:
    """The game holds the controls this action: ``condition`` is the key of the condition
    that took them (:mod:`roguelike.content.conditions`; saves hold the key, never the words)."""

    condition: str


@dataclass(slots=True)
class UseDose:
    """The actor bumped a dose and takes it this action."""

    target: int
