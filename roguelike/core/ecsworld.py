"""One game's esper world, and the only code that switches esper between worlds.

esper keeps one current world per process. Every game owns a :class:`EcsWorld`; each of
its methods makes that world current before it touches esper, so code outside the rules
(the renderer, the bot, the replay witness) can read a game without remembering to switch.
Entity ids are handed out by ``esper.create_entity`` and this module keeps count of
them, which is how a snapshot knows the next id. A loaded game gets back the very ids it
was saved with by moving the world's id counter past the ids it no longer has: the one
place esper's internals are touched, since esper has no public way to do it and spending
the ids on throwaway entities made a crafted save's next id of 2^31 cost hours and all memory.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any, TypeVar

import esper

C = TypeVar("C")
DEFAULT_WORLD = "default"
_names = itertools.count(1)
_worlds: weakref.WeakValueDictionary[str, EcsWorld] = weakref.WeakValueDictionary()


class EcsWorld:
    """A named esper world that switches itself in before every use."""

    def __init__(self) -> None:
        self.name = f"game-{next(_names)}"
        esper.switch_world(self.name)
        esper.clear_database()
        self.upcoming = 1  # the id esper gives the next entity (a fresh world starts at 1)
        _worlds[self.name] = self

    def enter(self) -> None:
        """Make this the world esper works on."""
        if esper.current_world != self.name:
            esper.switch_world(self.name)

    def create(self, *components: object) -> int:
        """A new entity with ``components``."""
        self.enter()
        entity: int = esper.create_entity(*components)
        self.upcoming = entity + 1
        return entity

    def next_entity(self) -> int:
        """The id the next created entity will get."""
        self.enter()
        # Entities made straight through esper (a bench's dose) are counted here.
        while esper.entity_exists(self.upcoming):
            self.upcoming += 1
        return self.upcoming

    def restore(self, entity: int, components: list[object]) -> None:
        """Recreate an entity under its saved id (ids only grow, so restore in id order)."""
        self.enter()
        if entity < self.next_entity():
            raise ValueError(f"entity {entity} cannot be restored after entity {self.upcoming - 1}")
        self.skip_to(entity)
        self.create(*components)

    def skip_to(self, entity: int) -> None:
        """Let the next created entity get id ``entity``, at once however far away it is."""
        self.enter()
        if entity > self.next_entity():
            # esper 3.x keeps the current world's id counter here (switch_world saves it with the world)
            esper._entity_count = itertools.count(entity)
            self.upcoming = entity

    def component(self, entity: int, kind: type[C]) -> C:
        """One component of an entity."""
        self.enter()
        found: C = esper.component_for_entity(entity, kind)
        return found

    def try_component(self, entity: int, kind: type[C]) -> C | None:
        """One component of an entity, or None if it has none of that kind."""
        self.enter()
        found: C | None = esper.try_component(entity, kind)
        return found

    def has(self, entity: int, kind: type) -> bool:
        """Whether an entity has a component of that kind."""
        self.enter()
        return bool(esper.has_component(entity, kind))

    def exists(self, entity: int) -> bool:
        """Whether the entity is alive."""
        self.enter()
        return bool(esper.entity_exists(entity))

    def query(self, *kinds: type) -> list[tuple[int, tuple[Any, ...]]]:
        """Every entity with all of ``kinds``, in id order."""
        self.enter()
        return sorted(esper.get_components(*kinds), key=lambda found: found[0])

    def entities(self) -> list[int]:
        """Every live entity id, in order."""
        self.enter()
        return sorted(esper.get_entities())

    def components(self, entity: int) -> tuple[Any, ...]:
        """Every component of an entity."""
        self.enter()
        found: tuple[Any, ...] = esper.components_for_entity(entity)
        return found

    def close(self) -> None:
        """Forget the world (esper goes back to its default one if this was current)."""
        if esper.current_world == self.name:
            esper.switch_world(DEFAULT_WORLD)
        if self.name in esper.list_worlds():
            esper.delete_world(self.name)
        _worlds.pop(self.name, None)


def current_name() -> str:
    """The name of the world esper is working on now (to come back to it with :func:`return_to`)."""
    name: str = esper.current_world
    return name


def return_to(before: str, drop_current: bool = False) -> None:
    """Make the world named ``before`` current again, if it still exists.

    ``drop_current`` also deletes the world current now (a game that failed half-built).
    """
    broken = esper.current_world
    if before in esper.list_worlds():
        esper.switch_world(before)
    elif drop_current:
        esper.switch_world(DEFAULT_WORLD)
    if drop_current and broken != esper.current_world and broken in esper.list_worlds():
        esper.delete_world(broken)
        _worlds.pop(broken, None)


def current() -> EcsWorld:
    """The game world esper is working on now."""
    return _worlds[esper.current_world]
