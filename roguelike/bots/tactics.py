"""The bot's fighting sense: hit what stands next to it, stay out of reach of hunters.

Every monster dies to one hit and the player acts before the monsters, so the bot
strikes anything adjacent and otherwise never ends its move where a hunting monster
could reach it and hit in the same turn (two tiles for Depression, one for the rest).
A wary bot (the careful family) also knows that opening a door or taking a dose is a bump
that leaves the player where it stands, and, cornered with two actions left in the turn (Will
at its top), steps beside a Depression two tiles off and strikes it before it moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from components import ActionPoints, Position
from components.monsters import NO_TARGET
from roguelike.content.bestiary import DEATH, MONSTER_KINDS
from roguelike.content.conditions import Steer
from roguelike.core.commands import Command, Move, PickUp, Wait
from roguelike.core.floor import WALKABLE, Tile
from roguelike.core.game import Game
from roguelike.core.pathing import NEIGHBOURS, chebyshev
from roguelike.core.steering import STATUSES

# The timed statuses that turn the player's moves around, which the bots undo.
TURNING = tuple(status for condition, _, status in STATUSES if condition.steer is Steer.TURN_AROUND)

KILLER = DEATH.bot_danger  # which adjacent monster to hit first goes by its hit's danger (the bestiary's)


@dataclass(frozen=True)
class Threat:
    """A monster in sight: where, how far it reaches in a turn, whether it hunts."""

    x: int
    y: int
    reach: int
    danger: int
    hunting: bool


def adjust(game: Game, planned: Command, wary: bool = False, remembered: Sequence[Threat] = ()) -> Command:
    """The planned command, changed when monsters are near; undone for confusion.

    A ``wary`` player keeps out of reach of every killer in sight, hunting or not: one
    that notices the player can strike in the very turn it does. It also knows a bump for
    no step and strikes first when cornered (the careful family; the ``standard`` bot's
    games stay as recorded). ``remembered`` are
    killers seen a moment ago and now hidden (:mod:`roguelike.bots.lookout`), kept out of
    reach as well.
    """
    pos = game.player_component(Position)
    threats = threats_in_sight(game) + list(remembered)
    if wary:
        threats = [replace(t, hunting=True) if t.danger == KILLER else t for t in threats]
    command = fight(threats, (pos.x, pos.y), planned, game, wary)
    return undo_turning(game, command)


def undo_turning(game: Game, command: Command) -> Command:
    """A move turned around beforehand while a status turns the player's moves (confusion)."""
    player = game.state.player
    turned = isinstance(command, (Move, PickUp)) and any(game.world.has(player, status) for status in TURNING)
    if isinstance(command, Move) and turned:
        return Move(-command.dx, -command.dy)
    return PickUp(-command.dx, -command.dy) if isinstance(command, PickUp) and turned else command


def threats_in_sight(game: Game) -> list[Threat]:
    """The monsters the player sees."""
    visible = game.view.visible
    found = []
    for _, monster, pos in game.monsters():
        if visible[pos.y, pos.x]:
            kind = MONSTER_KINDS[monster.kind]
            hunting = monster.target != NO_TARGET
            found.append(Threat(pos.x, pos.y, kind.action_points, kind.hit.bot_danger, hunting))
    return found


def fight(threats: list[Threat], here: tuple[int, int], planned: Command, game: Game, wary: bool = False) -> Command:
    """Hit the worst adjacent monster (or slip out of a killer's reach), else keep the plan if safe, else the safest move."""
    x, y = here
    adjacent = [t for t in threats if chebyshev(t.x, t.y, x, y) == 1]
    hunters = [t for t in threats if t.hunting]
    if adjacent:
        return strike(adjacent, hunters, here, game)
    if not hunters or is_safe(destination(planned, here, game if wary else None), hunters):
        return planned
    safe = [step for step in open_steps(game, here) if is_safe((x + step[0], y + step[1]), hunters)]
    if not safe:
        return (close_in(threats, here, game) if wary else None) or planned
    best = max(safe, key=lambda step: (step == (0, 0), room(x + step[0], y + step[1], hunters)))
    return Wait() if best == (0, 0) else Move(*best)


def close_in(threats: list[Threat], here: tuple[int, int], game: Game) -> Command | None:
    """Cornered with two actions left this turn: the step beside a killer two steps off, to strike it before it moves."""
    if game.player_component(ActionPoints).remaining < 2:
        return None
    x, y = here
    killers = [t for t in threats if t.danger == KILLER and chebyshev(t.x, t.y, x, y) == 2]
    for dx, dy in open_steps(game, here)[1:]:
        if any(chebyshev(t.x, t.y, x + dx, y + dy) == 1 for t in killers):
            return Move(dx, dy)
    return None


def strike(adjacent: list[Threat], hunters: list[Threat], here: tuple[int, int], game: Game) -> Command:
    """Hit the worst adjacent monster, unless staying to hit leaves a killer in reach and a step gets out of it."""
    x, y = here
    worst = max(adjacent, key=lambda t: t.danger)
    killers = [t for t in hunters if t.danger == KILLER and t != worst]
    away = (
        []
        if is_safe(here, killers)
        else [step for step in open_steps(game, here)[1:] if is_safe((x + step[0], y + step[1]), killers)]
    )
    if not away:
        return Move(worst.x - x, worst.y - y)
    return Move(*max(away, key=lambda step: room(x + step[0], y + step[1], killers)))


def is_safe(spot: tuple[int, int], hunters: list[Threat]) -> bool:
    """No hunter can reach ``spot`` and still hit this turn."""
    return all(chebyshev(t.x, t.y, *spot) > t.reach for t in hunters)


def room(x: int, y: int, hunters: list[Threat]) -> int:
    """Distance to the nearest hunter."""
    return min(chebyshev(t.x, t.y, x, y) for t in hunters)


def destination(command: Command, here: tuple[int, int], game: Game | None) -> tuple[int, int]:
    """Where a command would take the player: with ``game``, opening a door or taking a dose keeps it where it
    stands (without, every move counts as a step, as the ``standard`` bot has always judged)."""
    if not isinstance(command, Move):
        return here
    to = here[0] + command.dx, here[1] + command.dy
    if game is None:
        return to
    if game.state.floor.tile(*to) == Tile.DOOR_CLOSED or any((pos.x, pos.y) == to for _, pos, _ in game.doses()):
        return here
    return to


def open_steps(game: Game, here: tuple[int, int]) -> list[tuple[int, int]]:
    """Waiting, and every step onto an open tile where nothing stands (doses included)."""
    floor, blocked = game.state.floor, game.taken_tiles()
    x, y = here
    steps = [(0, 0)]
    steps += [
        (dx, dy) for dx, dy in NEIGHBOURS if WALKABLE[floor.tile(x + dx, y + dy)] and (x + dx, y + dy) not in blocked
    ]
    return steps
