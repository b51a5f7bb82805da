"""The ``@system`` decorator and the runner that feeds systems their entities.

A system is a plain function ``fn(state, entity, *components)``. The decorator records
which components it processes; :func:`run_turn` calls it once per matching entity, in
entity-id order so that outcomes never depend on set order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import esper

if TYPE_CHECKING:
    from roguelike.core.state import GameState


class Phase(Enum):
    """When in a turn a system runs."""

    ACTION = "action"  # after every action of the player (twice a turn at Will 10)
    CLOCK = "clock"  # only when the action ends the turn and the world clock advances


SystemFn = Callable[..., None]


@dataclass(frozen=True)
class System:
    """A decorated system: its function, its query and its phase."""

    fn: SystemFn
    query: tuple[type, ...]
    phase: Phase

    @property
    def name(self) -> str:
        """The function's name, a verb."""
        return self.fn.__name__

    def __call__(self, state: GameState, entity: int, *components: Any) -> None:
        self.fn(state, entity, *components)


def system(*query: type, phase: Phase = Phase.ACTION) -> Callable[[SystemFn], System]:
    """Declare a system processing every entity that has all of ``query``."""

    def wrap(fn: SystemFn) -> System:
        return System(fn=fn, query=query, phase=phase)

    return wrap


def matching(query: tuple[type, ...]) -> list[tuple[int, tuple[Any, ...]]]:
    """Entities with all components of ``query``, sorted by entity id."""
    found: list[tuple[int, tuple[Any, ...]]] = esper.get_components(*query)
    # Ids are unique, so tuple order is id order and components are never compared.
    return sorted(found) if len(found) > 1 else found


def run_system(sys: System, state: GameState) -> None:
    """Run one system over its entities (skipping any an earlier one removed)."""
    found = matching(sys.query)
    if not found:
        return
    for entity, components in found:
        if esper.entity_exists(entity):
            sys.fn(state, entity, *components)
    esper.clear_dead_entities()


def run_turn(systems: Iterable[System], state: GameState) -> None:
    """Run the systems in their order; clock systems only when the turn ends."""
    for sys in systems:
        if sys.phase is Phase.ACTION or state.clock_ticks:
            run_system(sys, state)
