"""Floors of rooms and corridors, and of open halls with pillars or islands of rock.

Both place rectangles that do not touch, chain each to the previous one with an L-shaped
corridor and close one-tile gaps in their walls with doors. Halls are fewer and larger,
and each is broken up by a grid of pillars or a few islands of rock, never touching the
hall's walls, so walking round them always stays possible.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.content.climates import Halls, Rooms, RoomSizes
from roguelike.core.floor import Floor, Tile
from roguelike.core.rng import Rng

Spot = tuple[int, int]


@dataclass(frozen=True)
class Room:
    """A rectangle of floor tiles (walls lie one tile outside it)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def centre(self) -> Spot:
        """The middle tile."""
        return self.x + self.w // 2, self.y + self.h // 2

    def overlaps(self, other: Room) -> bool:
        """Whether the rooms, with their walls and one tile of space, touch."""
        return (
            self.x - 2 < other.x + other.w
            and other.x - 2 < self.x + self.w
            and self.y - 2 < other.y + other.h
            and other.y - 2 < self.y + self.h
        )

    def tiles(self) -> list[Spot]:
        """Every tile of the room, row by row."""
        return [(x, y) for y in range(self.y, self.y + self.h) for x in range(self.x, self.x + self.w)]


def carve_rooms(rng: Rng, floor: Floor, anchor: Spot | None, layout: Rooms) -> list[list[Spot]]:
    """Rooms and corridors; returns each room's tiles, the arrival room first."""
    rooms = place_rooms(rng, floor, anchor, layout.sizes)
    finish(rng, floor, rooms)
    return [room.tiles() for room in rooms]


def carve_halls(rng: Rng, floor: Floor, anchor: Spot | None, layout: Halls) -> list[list[Spot]]:
    """Open halls with pillars or islands; returns each hall's tiles, the arrival hall first."""
    halls = place_rooms(rng, floor, anchor, layout.sizes)
    for hall in halls:
        floor.tiles[hall.y : hall.y + hall.h, hall.x : hall.x + hall.w] = Tile.FLOOR
        if rng.chance(*layout.pillar_chance):
            _pillars(rng, floor, hall, layout.pillar_spacing)
        else:
            _islands(rng, floor, hall, anchor, layout.islands)
    if anchor is not None:  # the stairs from above land on open ground, not in a pillar
        clear_around(floor, anchor)
    finish(rng, floor, halls, carved=True)
    return [hall.tiles() for hall in halls]


def finish(rng: Rng, floor: Floor, rooms: list[Room], carved: bool = False) -> None:
    """Floor the rooms (unless done), chain them with corridors, put doors in the gaps."""
    if not carved:
        for room in rooms:
            floor.tiles[room.y : room.y + room.h, room.x : room.x + room.w] = Tile.FLOOR
    _connect(rng, floor, rooms)
    _add_doors(floor, rooms)


def place_rooms(rng: Rng, floor: Floor, anchor: Spot | None, sizes: RoomSizes) -> list[Room]:
    """The first room (around the arrival point) and then as many more as fit."""
    rooms = [_first_room(rng, floor, anchor, sizes)]
    for _ in range(sizes.attempts):
        if len(rooms) >= sizes.most:
            break
        room = _random_room(rng, floor, sizes)
        if not any(room.overlaps(other) for other in rooms):
            rooms.append(room)
    return rooms


def _random_room(rng: Rng, floor: Floor, sizes: RoomSizes) -> Room:
    """A room of random size somewhere inside the map border."""
    w = rng.between(*sizes.width)
    h = rng.between(*sizes.height)
    return Room(rng.between(1, floor.width - w - 1), rng.between(1, floor.height - h - 1), w, h)


def _first_room(rng: Rng, floor: Floor, anchor: Spot | None, sizes: RoomSizes) -> Room:
    """The arrival room: random on floor 1, else placed around the up staircase."""
    if anchor is None:
        return _random_room(rng, floor, sizes)
    ax, ay = anchor
    w = rng.between(sizes.width[0] + 1, sizes.width[1])
    h = rng.between(sizes.height[0] + 1, sizes.height[1])
    x = formulas.clamp(ax - rng.between(1, w - 2), 1, floor.width - w - 1)
    y = formulas.clamp(ay - rng.between(1, h - 2), 1, floor.height - h - 1)
    return Room(x, y, w, h)


def _connect(rng: Rng, floor: Floor, rooms: list[Room]) -> None:
    """Chain every room to the previous one with an L-shaped corridor."""
    for previous, room in zip(rooms, rooms[1:]):
        carve_l(rng, floor, previous.centre, room.centre)


def carve_l(rng: Rng, floor: Floor, start: Spot, end: Spot) -> None:
    """An L-shaped corridor between two tiles, turning at a random corner."""
    (x1, y1), (x2, y2) = start, end
    if rng.chance(1, 2):
        floor.tiles[y1, min(x1, x2) : max(x1, x2) + 1] = Tile.FLOOR
        floor.tiles[min(y1, y2) : max(y1, y2) + 1, x2] = Tile.FLOOR
    else:
        floor.tiles[min(y1, y2) : max(y1, y2) + 1, x1] = Tile.FLOOR
        floor.tiles[y2, min(x1, x2) : max(x1, x2) + 1] = Tile.FLOOR


def clear_around(floor: Floor, at: Spot) -> None:
    """Open ground around a tile, kept inside the map border."""
    x, y, r = at[0], at[1], formulas.ARRIVAL_CLEARING
    top, bottom = max(1, y - r), min(floor.height - 1, y + r + 1)
    floor.tiles[top:bottom, max(1, x - r) : min(floor.width - 1, x + r + 1)] = Tile.FLOOR


def _pillars(rng: Rng, floor: Floor, hall: Room, step: int) -> None:
    """A grid of single pillars ``step`` tiles apart inside the hall, a tile clear of its walls."""
    left, top = rng.between(1, step - 1), rng.between(1, step - 1)
    for y in range(hall.y + top, hall.y + hall.h - 1, step):
        for x in range(hall.x + left, hall.x + hall.w - 1, step):
            floor.tiles[y, x] = Tile.WALL


def _islands(rng: Rng, floor: Floor, hall: Room, anchor: Spot | None, count: tuple[int, int]) -> None:
    """A few blocks of rock in the hall (``count`` the range of how many), each with open
    ground all round (and none on the arrival point's clearing)."""
    keep = formulas.ARRIVAL_CLEARING + 1
    for _ in range(rng.between(*count)):
        w = rng.between(1, max(1, (hall.w - 4) // 2))
        h = rng.between(1, max(1, (hall.h - 4) // 2))
        x = rng.between(hall.x + 2, hall.x + hall.w - 2 - w)
        y = rng.between(hall.y + 2, hall.y + hall.h - 2 - h)
        if anchor is None or not (x - keep < anchor[0] < x + w + keep and y - keep < anchor[1] < y + h + keep):
            floor.tiles[y : y + h, x : x + w] = Tile.WALL


def _add_doors(floor: Floor, rooms: list[Room]) -> None:
    """Close every one-tile opening in a room's wall with a door."""
    ring = np.zeros(floor.tiles.shape, dtype=bool)
    for room in rooms:
        ring[room.y - 1 : room.y + room.h + 1 : room.h + 1, room.x : room.x + room.w] = True
        ring[room.y : room.y + room.h, room.x - 1 : room.x + room.w + 1 : room.w + 1] = True
    floor.tiles[ring & (floor.tiles == Tile.FLOOR) & _doorways(floor.tiles)] = Tile.DOOR_CLOSED


def _doorways(tiles: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Gaps with wall on both sides across and open ground on both sides through."""
    wall = np.pad(tiles == Tile.WALL, 1, constant_values=True)  # off the map counts as wall
    west, east = wall[1:-1, :-2], wall[1:-1, 2:]
    north, south = wall[:-2, 1:-1], wall[2:, 1:-1]
    across_ew = west & east & ~north & ~south
    across_ns = north & south & ~west & ~east
    result: NDArray[np.bool_] = across_ew | across_ns
    return result
