"""The player's automation: auto-explore, travel and rest, one ordinary command at a time.

An :class:`Autopilot` never changes the game itself: it proposes the next ``Move`` or
``Wait`` and the caller applies it like a key press (saved, recorded, checksummed), so
replays stay command-level and a better auto-explore never breaks an old replay. After
every command :meth:`Autopilot.after_step` asks :mod:`roguelike.core.disturb` whether
anything should stop it, and :attr:`Autopilot.report` says why it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from roguelike.content import formulas
from roguelike.core import autoexplore
from roguelike.core.autoexplore import Mask
from roguelike.core.commands import Command, Wait
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.core.disturb import Outlook, disturbances, observe, summary
from roguelike.core.game import Game

EXPLORED = "Explored: nothing reachable is left to see."
NO_ROUTE = "There is no known way there."
MONSTER_NEAR = "Not with a monster in view."
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
    before: Outlook | None = field(default=None, repr=False)

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
        """Start travelling to a known cell (beside it, if a dose lies there)."""
        floor = self.game.state.floor
        if not (floor.in_bounds(x, y) and floor.explored[y, x]):
            self.report = NO_ROUTE
            return
        self.start(Activity.TRAVEL, autoexplore.cell_goal(self.game, x, y))

    def rest(self) -> None:
        """Start waiting until disturbed or enough turns have passed."""
        self.until_turn = self.game.state.turn + formulas.REST_TURNS
        self.start(Activity.REST)

    def start(self, activity: Activity, goals: Mask | None = None) -> None:
        """Begin an activity unless the game holds the controls or a monster is in view."""
        self.report = None
        outlook = observe(self.game)
        refusal = outlook.control or (MONSTER_NEAR if outlook.monsters else None)
        if refusal is not None:
            self.report = refusal
            return
        self.activity, self.goals, self.steps, self.before = activity, goals, 0, outlook

    def stop(self, report: str | None) -> None:
        """End the activity, saying why (None: it ended as planned, nothing to say)."""
        self.activity, self.goals, self.before = None, None, None
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
            self.before = observe(self.game)
            self.steps += 1
        return command

    def plan(self) -> Command | None:
        """The activity's next command; stops it when there is none."""
        if self.activity is Activity.REST:
            if self.game.state.turn >= self.until_turn:
                self.stop(RESTED)
                return None
            return Wait()
        if self.activity is Activity.EXPLORE:
            move = autoexplore.explore_step(self.game)
            if move is None:
                self.stop(EXPLORED)
            return move
        return self.travel_step()

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

    def after_step(self) -> None:
        """Stop if the last command disturbed the player (or got nowhere)."""
        if self.activity is None or self.before is None:
            return
        after = observe(self.game)
        found = disturbances(self.before, after, self.game, self.enabled)
        arrived = self.activity is Activity.TRAVEL and after.depth != self.before.depth
        if arrived:
            self.stop(None)
        elif found:
            self.stop(summary(found))
        elif self.stuck(after):
            self.stop(BLOCKED)

    def stuck(self, after: Outlook) -> bool:
        """A step that moved nothing: the player in place and no door opened."""
        if self.activity is Activity.REST or self.before is None:
            return False
        return after.position == self.before.position and after.last_message is self.before.last_message
