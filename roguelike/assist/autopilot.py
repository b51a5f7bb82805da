"""The player's automation: auto-explore, travel and rest, one ordinary command at a time.

An :class:`Autopilot` never changes the game itself: it proposes the next ``Move`` or
``Wait`` and the caller applies it like a key press (saved, recorded, checksummed), so
replays stay command-level and a better auto-explore never breaks an old replay. After
every command, automated or the player's own, :meth:`Autopilot.after_step` works out once
what changed (:mod:`roguelike.assist.disturb`, with a memory of what was already seen): it
stops the activity, and the frontends drop keys typed ahead of it. :attr:`Autopilot.report`
says why an activity stopped. The State of Mind rule (:mod:`roguelike.assist.reserve`) stops
automation, or keeps it from starting, before it would leave the nearest safe dose out of
reach of Desperation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from components import StateOfMind
from roguelike.content import formulas
from roguelike.assist import autoexplore
from roguelike.assist.autoexplore import Mask
from roguelike.core.commands import Command, Wait
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.assist.disturb import Interrupt, Outlook, Sightings, disturbances, observe, summary
from roguelike.core.game import Game
from roguelike.core.pathing import chebyshev
from roguelike.assist.reserve import Reserve, reserve

EXPLORED = "Explored: nothing reachable is left to see."
NO_ROUTE = "There is no known way there."
MONSTER_NEAR = "Not with a monster in view."
MONSTER_HUNTS = "Not with a monster hunting you."
ALREADY_LOW = "Your State of Mind is {som} already."
BLOCKED = "Something is in the way."
RESTED = "You rest a while."
STAIRS_UNKNOWN = {">": "You have not found the stairs down yet.", "<": "There are no stairs up you know of."}
ON_STAIRS = {">": "You are on the stairs down: step off and back on to take them.",
             "<": "You are on the stairs up: step off and back on to take them."}


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
    steps: int = 0
    until_turn: int = 0
    until_som: int | None = None
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
            self.report = STAIRS_UNKNOWN[glyph]
        elif autoexplore.standing_on(self.game, goals):
            self.report = ON_STAIRS[glyph]
        else:
            self.start(Activity.TRAVEL, goals)

    def travel_to(self, x: int, y: int) -> None:
        """Start travelling to a known cell, or beside a known dose (one a Perfect High showed included)."""
        floor = self.game.state.floor
        if not (floor.in_bounds(x, y) and (floor.explored[y, x] or autoexplore.known_doses(self.game)[y, x])):
            self.report = NO_ROUTE
            return
        self.start(Activity.TRAVEL, autoexplore.cell_goal(self.game, x, y))

    def rest(self, until_som: int | None = None) -> None:
        """Start waiting until disturbed and enough turns have passed (or the State of Mind is down to ``until_som``)."""
        som = self.game.player_component(StateOfMind).value
        if until_som is not None and som <= until_som:
            self.report = ALREADY_LOW.format(som=som)
            return
        self.until_turn = self.game.state.turn + formulas.REST_TURNS
        self.until_som = until_som
        self.start(Activity.REST)

    def start(self, activity: Activity, goals: Mask | None = None) -> None:
        """Begin an activity unless the game holds the controls, a monster is near or hunts, or the
        State of Mind rule says no."""
        self.report = None
        outlook = observe(self.game)
        self.seen.note(outlook)  # what is in view as it starts is no news to it
        funds = reserve(self.game)
        refusal = outlook.control or self.monster_refusal(outlook) or self.reserve_refusal(activity, funds)
        if refusal is not None:
            self.report = refusal
            return
        self.activity, self.goals, self.steps, self.before, self.reserve_before = activity, goals, 0, outlook, funds

    def monster_refusal(self, outlook: Outlook) -> str | None:
        """Why no activity starts with these monsters in view: one hunts, or one is near (None: far and idle)."""
        if outlook.hunting:
            return MONSTER_HUNTS
        x, y = outlook.position
        places = {entity: (pos.x, pos.y) for entity, _, pos in self.game.monsters()}
        near = any(chebyshev(x, y, *places[entity]) <= formulas.AUTOMATION_MONSTER_NEAR for entity in outlook.monsters)
        return MONSTER_NEAR if near else None

    @staticmethod
    def reserve_refusal(activity: Activity, funds: Reserve) -> str | None:
        """Exploring and resting wait while the nearest safe dose is barely within reach (travel may go to it)."""
        return funds.words() if activity is not Activity.TRAVEL and funds.short else None

    def stop(self, report: str | None) -> None:
        """End the activity, saying why (None: it ended as planned, nothing to say)."""
        self.activity, self.goals, self.before, self.until_som = None, None, None, None
        self.report = report

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
            move = autoexplore.explore_step(self.game)
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
        """The next step of a journey; None once there (or no way is left)."""
        assert self.goals is not None
        if autoexplore.standing_on(self.game, self.goals):
            self.stop(None)
            return None
        move = autoexplore.step_to(self.game, self.goals)
        if move is None:
            self.stop(NO_ROUTE)
        return move

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
        funds = reserve(self.game)
        eaten = self.reserve_before is not None and (funds.slack or 0) < (self.reserve_before.slack or 0)
        self.reserve_before = funds
        if self.activity is Activity.TRAVEL and after.depth != self.before.depth:
            self.stop(None)
        elif found:
            self.stop(summary(found))
        elif self.stuck(after):
            self.stop(BLOCKED)
        elif funds.short and eaten:
            self.stop(funds.words())

    def stuck(self, after: Outlook) -> bool:
        """A step that moved nothing: the player in place and no door opened."""
        if self.activity is Activity.REST or self.before is None:
            return False
        return after.position == self.before.position and after.last_message is self.before.last_message
