"""Test helpers: build tiny hand-drawn worlds and read them back."""

from __future__ import annotations

import esper
import numpy as np

from components import Dose, Position, Renderable
from roguelike.assist.autopilot import Autopilot
from roguelike.content import formulas
from roguelike.content.doses import NORMAL_DOSE
from roguelike.content.terrain import TERRAIN
from roguelike.core.commands import Command
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.screens.base import App

# Each kind of tile by its glyph on the map (the terrain table's), and the player and a dose on floor.
TILE_OF = {row.glyph: tile for tile, row in TERRAIN.items()} | {"@": Tile.FLOOR, "i": Tile.FLOOR}


def drawn_game(rows: list[str], dose: Dose | None = None, seed: int = 1) -> Game:
    """A game whose floor 1 is the drawn map; '@' is the player, 'i' a dose."""
    game = Game.new(seed, "Tester")
    state = game.state
    floor = state.floor
    floor.tiles[:] = Tile.WALL
    floor.explored[:] = False
    for entity in sorted(esper.get_entities()):
        if entity != state.player:
            esper.delete_entity(entity, immediate=True)
    for y, row in enumerate(rows):
        for x, char in enumerate(row):
            floor.tiles[y, x] = TILE_OF[char]
            if char == "@":
                pos = game.player_component(Position)
                pos.x, pos.y = x, y
            elif char == "i":
                add_dose(x, y, dose or Dose(NORMAL_DOSE.key, 30, 1, 1, 1))
            elif char == ">":
                floor.down_stairs = (x, y)
    game.refresh_visible()
    floor.explored |= game.view.visible
    return game


def add_dose(x: int, y: int, dose: Dose) -> int:
    """Put a dose on the live floor."""
    look = Renderable(NORMAL_DOSE.glyph, NORMAL_DOSE.colour, layer=1, always_bright=True)
    return esper.create_entity(Position(x, y), look, dose)


def player_xy(game: Game) -> tuple[int, int]:
    """Where the player stands."""
    pos = game.player_component(Position)
    return pos.x, pos.y


def dose_positions(game: Game) -> list[tuple[int, int]]:
    """Positions of the doses on the live floor, in id order."""
    game.activate()
    found = sorted(esper.get_components(Position, Dose), key=lambda pair: pair[0])
    return [(pos.x, pos.y) for _, (pos, _) in found]


def map_shape() -> tuple[int, int]:
    """Height and width of every floor."""
    return formulas.MAP_HEIGHT, formulas.MAP_WIDTH


def reachable(walkable: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    """Tiles reachable from start by 8-way steps over ``walkable`` (flood fill)."""
    seen = np.zeros_like(walkable, dtype=bool)
    stack = [start]
    height, width = walkable.shape
    while stack:
        x, y = stack.pop()
        if not (0 <= x < width and 0 <= y < height) or seen[y, x] or not walkable[y, x]:
            continue
        seen[y, x] = True
        stack.extend((x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)
    return seen


def run_autopilot(pilot: Autopilot, limit: int = 5000) -> list[Command]:
    """Apply the autopilot's commands until it stops (at most ``limit``); the commands it issued."""
    issued: list[Command] = []
    while pilot.active and len(issued) < limit:
        command = pilot.next_command()
        if command is None:
            break
        pilot.game.apply(command)
        pilot.after_step()
        issued.append(command)
    return issued


def settle(app: App) -> None:
    """Tick the automation under way until it ends, as the frontends do between keys."""
    while app.busy:
        app.tick()
