"""Turns with 40 monsters hunting the player, each with the checksum every real turn pays.

Run: ``python -m bench.bench_monsters``. Figures go in docs/performance.md ("Monsters").

A timed turn is ``Session.apply`` without observers: the rules, then the snapshot and its
checksum (what ``--verify`` does each step, and what the autosave and the recorder share).
Left out: the autosave's write and the recorder's record (``bench_saves``, ``bench_core``),
and drawing. The floor is kept at 40 monsters of every kind, all hunting, and the player
alive (untimed, between turns): killed or vanished monsters are replaced, death and the
statuses hits leave (stunned, panicked, confused) are undone. Roaming, the 10,000 turns cross
one floor of about 500 open tiles many times, so the hunters' path maps, kept by the
player's tile, mostly serve again (about 440 are made); a floor crossed once makes one for
every tile the player reaches while hunted, as before (see docs/performance.md). Last, the
same 40 monsters left idle (none notices the player, who waits): each wanders, drawing from
the stream of its tile and turn.
"""

from __future__ import annotations

import dataclasses
import itertools
import statistics

import esper

from bench.common import figure, rate, report, timings
from components import Attributes, Monster, Position, StateOfMind
from components.monsters import NO_TARGET
from components.registry import SAVED_COMPONENTS
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.packing import unpack_entity
from roguelike.core.pathing import step_toward, travel_cost
from roguelike.core.rng import Rng
from roguelike.core.session import Session
from roguelike.core.spawning import make_monster

MONSTERS = 40
TURNS = 10_000
TARGET = 5_000
# The player walks about its room, bumping (and killing) whatever closes in.
PATROL: list[Command] = [Move(1, 0), Move(1, 0), Move(0, 1), Wait(), Move(-1, 0), Move(-1, 0), Move(0, -1), Wait()]
# The timed statuses, as components that count turns (found so in this code and in older checkouts alike).
TIMED_STATUSES = [cls for cls in SAVED_COMPONENTS.values() if [f.name for f in dataclasses.fields(cls)] == ["turns"]]


def hunting_floor(seed: int = 2024) -> Game:
    """A game whose floor holds only the player and 40 hunting monsters."""
    game = Game.new(seed, "Bench")
    for entity, _ in esper.get_component(Monster):
        esper.delete_entity(entity, immediate=True)
    refill(game)
    return game


def refill(game: Game) -> None:
    """Bring the floor back to 40 monsters, every one of them hunting."""
    game.activate()
    state = game.state
    monsters = esper.get_component(Monster)
    free = spread_spots(game, MONSTERS - len(monsters))
    kinds = itertools.cycle(MONSTER_KINDS.values())
    for spot in free:
        esper.create_entity(*unpack_entity(make_monster(next(kinds), spot, notice=8)))
    for _, monster in esper.get_component(Monster):
        monster.target, monster.lost_for = state.player, 0


def spread_spots(game: Game, wanted: int) -> list[tuple[int, int]]:
    """Free floor tiles spread over the whole map."""
    if wanted <= 0:
        return []
    floor = game.state.floor
    taken = {(p.x, p.y) for _, p in esper.get_component(Position)}
    free = [(int(x), int(y)) for y, x in zip(*(floor.tiles == Tile.FLOOR).nonzero()) if (x, y) not in taken]
    return free[:: max(1, len(free) // wanted)][:wanted]


def keep_going(game: Game) -> None:
    """Undo what the monsters did to the player (untimed), statuses too, and bring back 40 hunters."""
    revive(game)
    refill(game)


def revive(game: Game) -> None:
    """Undo what the monsters did to the player: death, lost State of Mind and attributes, statuses."""
    game.activate()
    state = game.state
    esper.component_for_entity(state.player, StateOfMind).value = 55
    attrs = esper.component_for_entity(state.player, Attributes)
    attrs.confidence = attrs.nerve = attrs.will = formulas.ATTRIBUTE_START
    state.cause_of_death = None
    for status in TIMED_STATUSES:  # else a confused player walks into a wall for ever: no turn passes
        if esper.has_component(state.player, status):
            esper.remove_component(state.player, status)


def checked(session: Session, command: Command) -> str:
    """A turn as every real one goes: the command, the snapshot and its checksum (which a step
    works out only when asked, as the recorder and ``--verify`` ask)."""
    return session.apply(command).checksum


def patrol() -> list[float]:
    """Seconds per turn while the player patrols its room (the path map is often reused)."""
    game = hunting_floor()
    session, commands = Session(game), itertools.cycle(PATROL)
    return timings(lambda: checked(session, next(commands)), TURNS, lambda: keep_going(game))


def roam() -> list[float]:
    """Seconds per turn while the player crosses the floor (a new tile most turns)."""
    game = hunting_floor()
    rng, floor = Rng(7), game.state.floor
    tiles = [(int(x), int(y)) for y, x in zip(*(floor.tiles == Tile.FLOOR).nonzero())]
    waypoint = rng.choice(tiles)
    command: list[Command] = [Wait()]
    no_stairs = travel_cost(floor)
    no_stairs[(floor.tiles == Tile.STAIRS_DOWN) | (floor.tiles == Tile.STAIRS_UP)] = 0

    def choose() -> None:
        nonlocal waypoint
        keep_going(game)
        pos = game.player_component(Position)
        step = step_toward(no_stairs, (pos.x, pos.y), [waypoint])
        if step is None or rng.chance(1, 40):
            waypoint = rng.choice(tiles)
        command[0] = Move(*step) if step is not None else Wait()

    session = Session(game)
    return timings(lambda: checked(session, command[0]), TURNS, choose)


def idle() -> list[float]:
    """Seconds per turn while the player waits among 40 monsters that never notice it (each wanders)."""
    game = hunting_floor()
    session = Session(game)

    def unnoticed() -> None:
        keep_going(game)
        for _, monster in esper.get_component(Monster):
            monster.target, monster.notice = NO_TARGET, 0

    return timings(lambda: checked(session, Wait()), TURNS, unnoticed)


def main() -> None:
    """Print the figures for docs/performance.md."""
    for label, seconds in (("patrolling a room", patrol()), ("roaming the floor", roam())):
        figure(
            f"{MONSTERS} hunters with the checksum, player {label}",
            rate(len(seconds), sum(seconds)),
            "turns/s",
            f"target >= {TARGET:,}",
        )
        print(report("  ", seconds) + f", mean {statistics.mean(seconds) * 1e6:.0f} us")
    seconds = idle()
    figure(f"{MONSTERS} idle monsters with the checksum, player waiting", rate(len(seconds), sum(seconds)), "turns/s")
    print(report("  ", seconds) + f", mean {statistics.mean(seconds) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
