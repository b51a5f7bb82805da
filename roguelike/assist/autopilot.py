"""The player's automation: auto-explore, travel and rest, one ordinary command at a time.

An :class:`Autopilot` never changes the game itself: it proposes the next ``Move`` or
``Wait`` and the caller applies it like a key press (saved, recorded, checksummed), so
replays stay command-level and a better auto-explore never breaks an old replay. After
every command, automated or the player's own, :meth:`Autopilot.after_step` works out once
what changed (:mod:`roguelike.assist.disturb`, with a memory of what was already seen): it
stops the activity, and the frontends drop keys typed ahead of it. :attr:`Autopilot.report`
says why an activity stopped. The State of Mind rule (:mod:`roguelike.assist.reserve`) stops
automation, or keeps it from starting, before it would leave the way on (the nearest safe
dose, else the stairs down) out of reach of Desperation, and says so once more when
Desperation comes near with no way in reach; it never stops a journey to that way, and
:attr:`Autopilot.offer` says when the player may be offered to go there. Going to the
nearest safe dose ends with the step that takes it, which the caller asks about like any.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from components import Position, StateOfMind
from roguelike.assist import autoexplore
from roguelike.assist.autoexplore import Mask
from roguelike.assist.disturb import (
    Interrupt,
    Outlook,
    Sightings,
    disturbances,
    observe,
    summary,
)
from roguelike.assist.reserve import (
    Alarm,
    Reserve,
    Way,
    nearest_safe_dose,
    reserve,
    safe_doses,
)
from roguelike.content import formulas
from roguelike.content.conditions import Condition
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.core.pathing import chebyshev

EXPLORED = "Explored: nothing reachable is left to see."
NO_ROUTE = "There is no known way there."
NO_SAFE_DOSE = "No safe dose known: none you know of could not overdose you by Desperation."
MONSTER_NEAR = "Not with a monster in view."
MONSTER_HUNTS = "Not with a monster hunting you."
CONFUSED = "Not while confused."  # what not_while says of confusion
ALREADY_LOW = "Your State of Mind is {som} already."
BLOCKED = "Something is in the way."
RESTED = "You rest a while."
STAIRS_UNKNOWN = {">": "You have not found the stairs down yet.", "<": "There are no stairs up you know of."}
ON_STAIRS = {
    ">": "You are on the stairs down: step off and back on to take them.",
    "<": "You are on the stairs up: step off and back on to take them.",
}


def not_while(condition: Condition) -> str:
    """Why automation does not start while a condition that leaves the controls holds."""
    return f"Not while {condition.called}."


class Activity(Enum):
    """What the autopilot is doing."""

    EXPLORE = "explore"
    TRAVEL = "travel"
    REST = "rest"


@dataclass
class Autopilot:
    """Runs one automated activity for a game until it is done or disturbed."""

    game: Game
    enabled: frozenset[Disturbance] = ALL_DISTURBANCES
    activity: Activity | None = None
    goals: Mask | None = None
    report: str | None = None
    offer: Way | None = None  # the way the last report sent the player to (None: nowhere to offer)
    steps: int = 0
    until_turn: int = 0
    until_som: int | None = None
    dose: tuple[int, int] | None = None  # the dose a journey heads for
    take: bool = False  # whether the journey ends by stepping into that dose
    stairs: str | None = None  # the stairs a journey heads for
    before: Outlook | None = field(default=None, repr=False)
    reserve_before: Reserve | None = field(default=None, repr=False)
    seen: Sightings = field(default_factory=Sightings, repr=False)

    @property
    def active(self) -> bool:
        """Whether an activity is under way."""
        return self.activity is not None

    def explore(self) -> None:
        """Start auto-exploring."""
        self.start(Activity.EXPLORE)

    def travel_to_stairs(self, glyph: str) -> None:
        """Start travelling to the known stairs ``>`` or ``<``."""
        goals = autoexplore.stairs_goal(self.game, glyph)
        if not goals.any():
            self.report, self.offer = STAIRS_UNKNOWN[glyph], None
        elif autoexplore.standing_on(self.game, goals):
            self.report, self.offer = ON_STAIRS[glyph], None
        else:
            self.start(Activity.TRAVEL, goals)
            self.stairs = glyph if self.active else None

    def travel_to(self, x: int, y: int, take: bool = False) -> None:
        """Start travelling to a known cell, or beside a known dose (one a Perfect High showed
        included); with ``take``, the journey ends with the step into that dose."""
        floor = self.game.state.floor
        doses = autoexplore.known_doses(self.game)
        if not (floor.in_bounds(x, y) and (floor.explored[y, x] or doses[y, x])):
            self.report, self.offer = NO_ROUTE, None
            return
        self.start(Activity.TRAVEL, autoexplore.cell_goal(self.game, x, y))
        if self.active and doses[y, x]:
            self.dose, self.take = (x, y), take

    def go_to_safe_dose(self) -> None:
        """Start travelling to the nearest safe dose, to take it on arrival."""
        place = nearest_safe_dose(self.game)
        if place is None:
            self.report, self.offer = NO_SAFE_DOSE, None
            return
        self.travel_to(*place, take=True)

    def take_the_way(self, way: Way) -> None:
        """Go where the State of Mind rule pointed: the nearest safe dose (and take it), or down."""
        if way is Way.DOSE:
            self.go_to_safe_dose()
        else:
            self.travel_to_stairs(">")

    def rest(self, until_som: int | None = None) -> None:
        """Start waiting until disturbed and enough turns have passed (or the State of Mind is down to ``until_som``)."""
        som = self.game.player_component(StateOfMind).value
        if until_som is not None and som <= until_som:
            self.report, self.offer = ALREADY_LOW.format(som=som), None
            return
        self.until_turn = self.game.state.turn + formulas.REST_TURNS
        self.until_som = until_som
        self.start(Activity.REST)

    def start(self, activity: Activity, goals: Mask | None = None) -> None:
        """Begin an activity unless the game holds the controls (or confusion turns them), a monster
        is near or hunts, or the State of Mind rule says no; the rule's warning stays as the report
        when it lets the activity start all the same."""
        self.report, self.offer = None, None
        outlook = observe(self.game)
        self.seen.note(outlook)  # what is in view as it starts is no news to it
        funds = reserve(self.game)
        refusal = self.control_refusal(outlook) or self.monster_refusal(outlook)
        if refusal is None and self.reserve_refusal(activity, funds):
            refusal, self.offer = funds.words(), funds.way if funds.within_reach else None
        if refusal is not None:
            self.report = refusal
            return
        self.activity, self.goals, self.steps, self.before, self.reserve_before = activity, goals, 0, outlook, funds
        self.dose, self.take, self.stairs = None, False, None
        if funds.short and not (activity is Activity.TRAVEL and funds.within_reach):
            self.report = funds.words()  # let through, but said: exploring may be the only chance left

    def control_refusal(self, outlook: Outlook) -> str | None:
        """Why no activity starts while a condition steers (confusion only turns the steps, but
        automation would walk the wrong way)."""
        steering = self.game.steering()
        if steering is None:
            return None
        return outlook.control if steering.takes_controls else not_while(steering)

    def monster_refusal(self, outlook: Outlook) -> str | None:
        """Why no activity starts with these monsters in view: one hunts, or one is near (None: far and idle)."""
        if outlook.hunting:
            return MONSTER_HUNTS
        x, y = outlook.position
        places = {entity: (pos.x, pos.y) for entity, _, pos in self.game.monsters()}
        near = any(chebyshev(x, y, *places[entity]) <= formulas.AUTOMATION_MONSTER_NEAR for entity in outlook.monsters)
        return MONSTER_NEAR if near else None

    @staticmethod
    def reserve_refusal(activity: Activity, funds: Reserve) -> bool:
        """Whether the State of Mind rule keeps an activity from starting: exploring waits while the
        way is barely within reach (travel may go to it), resting whenever the rule is concerned
        (it never brings a dose nearer). Exploring goes when the way is out of reach or none is
        known: it may find one."""
        if activity is Activity.REST:
            return funds.short
        return activity is Activity.EXPLORE and funds.alarm is Alarm.SHORT

    def stop(self, report: str | None, offer: Way | None = None) -> None:
        """End the activity, saying why (None: it ended as planned, nothing to say)."""
        self.activity, self.goals, self.before, self.until_som = None, None, None, None
        self.report, self.offer = report, offer

    def next_command(self) -> Command | None:
        """The next command to apply, or None when the activity ends (see :attr:`report`)."""
        if self.activity is None:
            return None
        if self.steps >= formulas.AUTOMATION_STEP_LIMIT:
            self.stop(None)
            return None
        command = self.plan()
        if command is not None:
            self.watch()
            self.steps += 1
        return command

    def watch(self) -> None:
        """Note what the player perceives before a command (automated or not)."""
        self.before = observe(self.game)

    def plan(self) -> Command | None:
        """The activity's next command; stops it when there is none."""
        if self.activity is Activity.REST:
            return self.rest_step()
        if self.activity is Activity.EXPLORE:
            move = autoexplore.explore_step(self.game, near=safe_doses(self.game))
            if move is None:
                self.stop(EXPLORED)
            return move
        return self.travel_step()

    def rest_step(self) -> Command | None:
        """Another wait, until enough turns have passed or the State of Mind is down far enough."""
        if self.until_som is not None:
            som = self.game.player_component(StateOfMind).value
            if som <= self.until_som:
                self.stop(f"You rest until your State of Mind is {som}.")
                return None
        elif self.game.state.turn >= self.until_turn:
            self.stop(RESTED)
            return None
        return Wait()

    def travel_step(self) -> Command | None:
        """The next step of a journey; once there, the step into the dose it was to take (or None)."""
        assert self.goals is not None
        if autoexplore.standing_on(self.game, self.goals):
            last = self.taking_step()
            self.stop(None)
            return last
        move = autoexplore.step_to(self.game, self.goals)
        if move is None:
            self.stop(NO_ROUTE)
        return move

    def taking_step(self) -> Move | None:
        """The step from beside the journey's dose into it, if it was to be taken and still lies there."""
        if not self.take or self.dose is None or not autoexplore.known_doses(self.game)[self.dose[1], self.dose[0]]:
            return None
        pos = self.game.player_component(Position)
        return Move(self.dose[0] - pos.x, self.dose[1] - pos.y)

    def after_step(self) -> list[Interrupt]:
        """What the last command changed that matters (the one answer automation and typed-ahead
        keys share); stops the activity on it, on arriving, on getting nowhere or on the State
        of Mind rule."""
        if self.before is None:
            return []
        after = observe(self.game)
        found = disturbances(self.before, after, self.game, self.enabled, self.seen)
        if self.activity is not None:
            self.judge(after, found)
        self.before = None
        return found

    def judge(self, after: Outlook, found: list[Interrupt]) -> None:
        """Stop the activity if the step just taken calls for it."""
        assert self.before is not None
        funds, before = reserve(self.game), self.reserve_before
        self.reserve_before = funds
        if self.activity is Activity.TRAVEL and after.depth != self.before.depth:
            self.stop(None)
        elif found:
            self.stop(summary(found))
        elif self.stuck(after):
            self.stop(BLOCKED)
        elif self.rail_stops(before, funds):
            self.stop(funds.words(), funds.way if funds.within_reach else None)

    def rail_stops(self, before: Reserve | None, now: Reserve) -> bool:
        """Whether the State of Mind rule stops the activity: its concern just grew, the way within
        reach grew farther, or Desperation came near. Never on the way to the way itself."""
        if self.heading_for_the_way(now):
            return False
        if before is None:
            return now.short
        grew = now.alarm.value > before.alarm.value
        eaten = now.alarm is Alarm.SHORT and before.slack is not None and (now.slack or 0) < before.slack
        return grew or eaten or (now.last_call and not before.last_call)

    def heading_for_the_way(self, funds: Reserve) -> bool:
        """Whether this is a journey to a safe dose (any, not only the nearest) or, with none known,
        to the stairs down."""
        if self.activity is not Activity.TRAVEL:
            return False
        if self.dose is not None:
            return bool(safe_doses(self.game)[self.dose[1], self.dose[0]])
        return self.stairs == ">" and funds.way is Way.STAIRS

    def stuck(self, after: Outlook) -> bool:
        """A step that moved nothing: the player in place and no door opened."""
        if self.activity is Activity.REST or self.before is None:
            return False
        return after.position == self.before.position and after.last_message is self.before.last_message
