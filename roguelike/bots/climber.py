"""The climber: the planner's play without a pocket, reading where a step lands and the new fears.

It judges doses, exploring and the stairs as the pocketless planner does
(:class:`roguelike.bots.planner.PocketlessPlanner`: it never picks a dose up, and takes a last safe dose
before the stairs), and adds what the terrain table and the bestiary tell a player about a step:

- its fighting sense counts where a step really lands: onto ice, at the slide's far end; into
  water, after the turns the wade costs, in which hunters move on. A step whose landing a hunter
  reaches in that time is not taken (:func:`roguelike.bots.footing.landing`);
- doubting (its steps may falter, a strike never does), it strikes a monster beside it rather than
  step away; ashamed (no dose can be taken), it does not head for a dose it would reach before the
  shame lifts.

Its routes weigh the ground as everyone's do (water costs its wade). Routes that paid tolls near
the monsters in sight (open sand dearer, water as cheap as floor, a berth round Shame and Sorrow)
were measured at rules epoch 15 and dropped: on seeds 18001-18060 they cost a fifth of its median
score, in detours and wades that drain the State of Mind (docs/balance.md, "Rules epoch 15").
"""

from __future__ import annotations

from dataclasses import replace

from components import Position
from components.monsters import Ashamed, Doubting
from roguelike.bots import footing, tactics
from roguelike.bots.careful import Walks
from roguelike.bots.planner import PocketlessPlanner
from roguelike.bots.routes import RouteFinder
from roguelike.bots.sense import KnownDose
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game


class ClimberBot(PocketlessPlanner):
    """The pocketless planner, with steps that read the ground and the new fears."""

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
