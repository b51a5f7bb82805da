"""The climber: the planner's play without a pocket, reading the climates' ground and the new fears.

It judges doses, exploring and the stairs as the pocketless planner does
(:class:`roguelike.bots.planner.PocketlessPlanner`: it never picks a dose up), and adds what the
terrain table and the bestiary tell a player, as parameters (:class:`roguelike.bots.footing.Footing`)
rather than rules of its own:

- its routes weigh the ground by the monsters in sight: open sand within an idle monster's
  notice costs more (sand exposes), shallow water there costs no more than floor (in it the
  player is noticed only close by), and the tiles around a lurking Shame or a slow Sorrow carry
  a toll, so it goes round the one and away from the other;
- its fighting sense counts where a step really lands: onto ice, at the slide's far end; into
  water, after the turns the wade costs, in which hunters move on. A step whose landing a hunter
  reaches in that time is not taken (:func:`roguelike.bots.footing.landing`);
- doubting (its steps may falter, a strike never does), it strikes a monster beside it rather than
  step away; ashamed (no dose can be taken), it does not head for a dose it would reach before the
  shame lifts.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.typing import NDArray

from components import Position
from components.monsters import NO_TARGET, Ashamed, Doubting
from roguelike.bots import footing, tactics
from roguelike.bots.careful import Walks
from roguelike.bots.footing import Footing, Near
from roguelike.bots.planner import PocketlessPlanner
from roguelike.bots.routes import RouteFinder, Terrain
from roguelike.bots.sense import KnownDose, Mask, state_of_mind
from roguelike.content import formulas
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game

# The kinds it keeps its distance from: (tiles kept off, toll a tile). A Shame notices only
# SHAME_NOTICE steps off and waits where it lies: one tile more is a way round. A Sorrow is slow
# but never lets go: tiles near it are where it catches up.
BERTHS = {"shame": (formulas.SHAME_NOTICE + 1, 12), "sorrow": (2, 4)}
FOOTING = Footing(berths=BERTHS)
# It sees more of each floor than the planner (0.75): a floor's points are kept by the share seen, and
# routes that keep it unnoticed make the rest of a floor cheaper to see. Chosen on seeds 18001-18100.
EXPLORE_TARGET = 0.9


class ClimberBot(PocketlessPlanner):
    """The pocketless planner, with routes and steps that read the ground and the new fears."""

    footing = FOOTING
    explore_target = EXPLORE_TARGET

    def __init__(self, routes: RouteFinder | None = None) -> None:
        super().__init__(routes)
        self.shame = 0  # turns of shame left (no dose can be taken)

    def fight(self, game: Game, planned: Command) -> Command:
        """Tactics' command, strikes kept while doubting, and steps that land in a hunter's reach turned down."""
        remembered = self.lookout.out_of_sight(game)
        threats = tactics.threats_in_sight(game) + remembered
        pos = game.player_component(Position)
        here = (pos.x, pos.y)
        if game.world.has(game.state.player, Doubting):
            adjacent = [t for t in threats if max(abs(t.x - pos.x), abs(t.y - pos.y)) == 1]
            if adjacent:
                worst = max(adjacent, key=lambda t: t.danger)
                return tactics.undo_turning(game, Move(worst.x - pos.x, worst.y - pos.y))
        command = tactics.adjust(game, planned, wary=True, remembered=remembered)
        hunters = [replace(t, hunting=True) if t.danger == tactics.KILLER else t for t in threats]
        hunters = [t for t in hunters if t.hunting]
        turned = any(game.world.has(game.state.player, status) for status in tactics.TURNING)
        if turned or not hunters or not isinstance(command, Move) or is_strike(command, here, threats):
            return command
        return sure_footed(game, command, here, hunters)

    def cost(self, game: Game, terrain: Terrain, doses: list[KnownDose], goals: Mask) -> NDArray[np.int32]:
        """The careful bot's costs, weighed by the ground near the monsters in sight."""
        cost = super().cost(game, terrain, doses, goals)
        near = monsters_in_sight(game)
        if near:
            footing.ground_costs(
                cost, game.state.floor.tiles, near, self.footing, footing.notice_now(state_of_mind(game))
            )
        return cost

    def decide(self, game: Game, doses: list[KnownDose]) -> Command:
        """The planner's choice, with the turns of shame left noted for judging doses."""
        shame = game.world.try_component(game.state.player, Ashamed)
        self.shame = shame.turns if shame is not None else 0
        return super().decide(game, doses)

    def safe_on_arrival(self, dose: KnownDose, steps: Walks, som: int, speed: int) -> bool:
        """As the careful bot judges, and not a dose it would reach while still ashamed."""
        if self.shame and (steps.to(dose.x, dose.y) - 1) // speed < self.shame:
            return False
        return super().safe_on_arrival(dose, steps, som, speed)


def is_strike(command: Move, here: tuple[int, int], threats: list[tactics.Threat]) -> bool:
    """Whether the move bumps a monster in sight (a strike, which lands nowhere)."""
    to = (here[0] + command.dx, here[1] + command.dy)
    return any((t.x, t.y) == to for t in threats)


def sure_footed(game: Game, command: Move, here: tuple[int, int], hunters: list[tactics.Threat]) -> Command:
    """``command`` if where it lands is out of the hunters' reach for the turns it takes, else the open step
    (or a wait) whose landing is, the one farthest from them; the command itself if none is."""
    floor, taken = game.state.floor, game.taken_tiles()
    spot, turns = footing.landing(floor, here, (command.dx, command.dy), taken)
    if footing.safe_landing(spot, turns, hunters):
        return command
    best: tuple[int, tuple[int, int]] | None = None
    for step in tactics.open_steps(game, here):
        spot, turns = footing.landing(floor, here, step, taken)
        if footing.safe_landing(spot, turns, hunters):
            room = tactics.room(spot[0], spot[1], hunters)
            if best is None or room > best[0]:
                best = (room, step)
    if best is None:
        return command
    return Wait() if best[1] == (0, 0) else tactics.undo_turning(game, Move(*best[1]))


def monsters_in_sight(game: Game) -> list[Near]:
    """The monsters the player sees, by kind and whether they hunt."""
    visible = game.view.visible
    return [
        Near(pos.x, pos.y, monster.kind, monster.target != NO_TARGET)
        for _, monster, pos in game.monsters()
        if visible[pos.y, pos.x]
    ]
