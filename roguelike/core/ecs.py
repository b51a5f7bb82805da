"""Systems, rounds and phases: the pieces of the one schedule of a turn, and its runner.

A system is a plain function ``fn(now, entity, *components)`` (``now``: the
:class:`~roguelike.core.state.Now`: saved state, the action's record, the derived view); ``@system`` records which
components it processes and the runner calls it once per matching entity, in entity-id
order so that outcomes never depend on set order. A :class:`Round` lets actors take
their actions one after another (every monster, in id order, once per action point). A
:class:`Phase` is a named row of systems and rounds with the moment it runs; the
schedule is a tuple of phases, read top to bottom.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

import esper
from esper import clear_dead_entities, entity_exists, get_components

if TYPE_CHECKING:
    from roguelike.core.state import Now


class When(Enum):
    """When in a turn a phase runs."""

    ACTION = "every action"  # after every action of the player (twice a turn at Will 10)
    CLOCK = "when the turn ends"  # only when the action ends the turn and the world clock advances


ACTION = When.ACTION
SystemFn = Callable[..., Any]  # a decision returns what it decided (see Round); others return None


@dataclass(frozen=True)
class System:
    """A decorated system: its function and its query."""

    fn: SystemFn
    query: tuple[type, ...]

    @property
    def name(self) -> str:
        """The function's name, a verb."""
        return self.fn.__name__

    def __call__(self, now: Now, entity: int, *components: Any) -> None:
        self.fn(now, entity, *components)

    def run(self, now: Now) -> None:
        """Run over every matching entity (skipping any an earlier one removed)."""
        found: list[tuple[int, tuple[Any, ...]]] = get_components(*self.query)
        if len(found) == 1:  # most systems process the player alone: no order, nobody removed yet
            entity, components = found[0]
            self.fn(now, entity, *components)
        elif found:
            for entity, components in sorted(found):  # ids are unique: components are never compared
                if entity_exists(entity):
                    self.fn(now, entity, *components)
        else:
            return
        clear_dead_entities()

    def describe(self) -> str:
        """The system as the schedule's listing shows it."""
        return f"{self.name} ({', '.join(kind.__name__ for kind in self.query)})"


def system(*query: type) -> Callable[[SystemFn], System]:
    """Declare a system processing every entity that has all of ``query``."""

    def wrap(fn: SystemFn) -> System:
        return System(fn=fn, query=query)

    return wrap


Actors = Callable[[], Sequence[tuple[Any, ...]]]


@dataclass(frozen=True)
class Round:
    """Actors acting one after another: each, in id order, decides and acts once per action point.

    ``actors`` lists ``(entity, *components)`` in id order; ``points`` gives an actor's
    action points from that tuple. The decision is piped into the act: ``decide`` returns
    what the actor will do and ``act`` takes it as its last argument, so nothing is handed
    over through shared state. An actor stops when it is gone or the player died.
    """

    name: str
    actors: Actors
    points: Callable[[tuple[Any, ...]], int]
    decide: System
    act: System
    who: str  # what the actors are, for the listing

    def run(self, now: Now) -> None:
        """Every actor spends its action points."""
        decide, act, state = self.decide.fn, self.act.fn, now.state
        exists, points = esper.entity_exists, self.points
        for actor in self.actors():
            if state.cause_of_death is not None:
                return  # the player is dead: nobody acts any more
            entity = actor[0]
            for point in range(points(actor)):
                if point and (state.cause_of_death is not None or not exists(entity)):
                    break  # it vanished as it hit, or its first action killed
                act(now, *actor, decide(now, *actor))

    @property
    def systems(self) -> tuple[System, System]:
        """The decision and the act, in the order they run."""
        return self.decide, self.act

    def describe(self) -> str:
        """The round as the schedule's listing shows it."""
        return f"{self.name}: each {self.who} in id order, per action point: {self.decide.name} | {self.act.name}"


Entry = System | Round


@dataclass(frozen=True)
class Phase:
    """A named row of systems and rounds, run every action or only when the turn ends.

    ``at_start`` phases derive what is never saved (sight, colours, who steers): they also
    run when a game begins or is loaded.
    """

    name: str
    when: When
    steps: tuple[Entry, ...]
    at_start: bool = False

    def runs(self, now: Now) -> bool:
        """Whether the phase runs after this action."""
        return self.when is When.ACTION or now.action.clock_ticks


Schedule = tuple[Phase, ...]


def run_system(sys: System, now: Now) -> None:
    """Run one system over its entities."""
    sys.run(now)


def run_turn(schedule: Schedule, now: Now) -> None:
    """Run the phases in their order; clock phases only when the turn ends."""
    for phase in schedule:
        if phase.when is ACTION:  # Phase.runs written out: a call less, six times an action
            for step in phase.steps:
                step.run(now)
        elif now.action.clock_ticks:
            for turn in range(1 + now.action.wading):  # a step into water: the world takes its turns more
                if turn and now.state.cause_of_death is not None:
                    break
                for step in phase.steps:
                    step.run(now)


def run_start(schedule: Schedule, now: Now) -> None:
    """Run the phases that derive unsaved state, for a game just begun or loaded."""
    for phase in schedule:
        if phase.at_start:
            for step in phase.steps:
                step.run(now)


def listing(schedule: Schedule) -> Iterable[str]:
    """The turn order as lines of text: each phase, when it runs, and its steps."""
    for phase in schedule:
        start = ", also when a game begins or is loaded" if phase.at_start else ""
        yield f"{phase.name} ({phase.when.value}{start}):"
        for step in phase.steps:
            yield f"  {step.describe()}"
