"""Floor generation: rooms, corridors, doors, stairs and doses, all from a seed.

Every floor is connected (rooms are chained by corridors), has one down staircase, and
from floor 2 on has its up staircase where the floor above has its down staircase.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from components import Dose, Position, Renderable
from roguelike.content import formulas
from roguelike.content.doses import SMALL_DOSE, STRONG_DOSE, DoseKind
from roguelike.core.floor import Floor, PackedEntity, Tile, blank_floor
from roguelike.core.packing import pack_entity
from roguelike.core.rng import Rng
from roguelike.core.sight import field_of_view
from roguelike.core.spawning import free_spot, place_monsters


@dataclass(frozen=True)
class Room:
    """A rectangle of floor tiles (walls lie one tile outside it)."""

    x: int
    y: int
    w: int
    h: int

    @property
    def centre(self) -> tuple[int, int]:
        """The middle tile."""
        return self.x + self.w // 2, self.y + self.h // 2

    def contains(self, x: int, y: int) -> bool:
        """Whether the tile lies inside the room."""
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    def overlaps(self, other: Room) -> bool:
        """Whether the rooms, with their walls and one tile of space, touch."""
        return (
            self.x - 2 < other.x + other.w
            and other.x - 2 < self.x + self.w
            and self.y - 2 < other.y + other.h
            and other.y - 2 < self.y + self.h
        )

    def tiles(self) -> list[tuple[int, int]]:
        """Every tile of the room, row by row."""
        return [(x, y) for y in range(self.y, self.y + self.h) for x in range(self.x, self.x + self.w)]


def generate_floor(
    seed: int, depth: int, up_stairs: tuple[int, int] | None,
    state_of_mind: int = formulas.STATE_OF_MIND_START,
) -> Floor:
    """Generate floor ``depth``; ``up_stairs`` is the down staircase of the floor above.

    The player's ``state_of_mind`` decides how many monsters there are and how keen.
    """
    rng = Rng(seed)
    floor = blank_floor(depth)
    rooms = _place_rooms(rng, floor, up_stairs)
    for room in rooms:
        floor.tiles[room.y : room.y + room.h, room.x : room.x + room.w] = Tile.FLOOR
    _connect(rng, floor, rooms)
    _add_doors(floor, rooms)
    _place_stairs(rng, floor, rooms, up_stairs)
    floor.dormant.extend(_place_doses(rng, floor, rooms))
    floor.dormant.extend(place_monsters(rng, floor, [room.tiles() for room in rooms[1:]], state_of_mind))
    return floor


def _place_rooms(rng: Rng, floor: Floor, anchor: tuple[int, int] | None) -> list[Room]:
    """The first room (around the arrival point) and then as many more as fit."""
    rooms = [_first_room(rng, floor, anchor)]
    for _ in range(formulas.ROOM_ATTEMPTS):
        if len(rooms) >= formulas.MAX_ROOMS:
            break
        room = _random_room(rng, floor)
        if not any(room.overlaps(other) for other in rooms):
            rooms.append(room)
    return rooms


def _random_room(rng: Rng, floor: Floor) -> Room:
    """A room of random size somewhere inside the map border."""
    w = rng.between(formulas.ROOM_MIN_SIZE, formulas.ROOM_MAX_WIDTH)
    h = rng.between(formulas.ROOM_MIN_SIZE, formulas.ROOM_MAX_HEIGHT)
    return Room(rng.between(1, floor.width - w - 1), rng.between(1, floor.height - h - 1), w, h)


def _first_room(rng: Rng, floor: Floor, anchor: tuple[int, int] | None) -> Room:
    """The arrival room: random on floor 1, else placed around the up staircase."""
    if anchor is None:
        return _random_room(rng, floor)
    ax, ay = anchor
    w = rng.between(formulas.ROOM_MIN_SIZE + 1, formulas.ROOM_MAX_WIDTH)
    h = rng.between(formulas.ROOM_MIN_SIZE + 1, formulas.ROOM_MAX_HEIGHT)
    x = formulas.clamp(ax - rng.between(1, w - 2), 1, floor.width - w - 1)
    y = formulas.clamp(ay - rng.between(1, h - 2), 1, floor.height - h - 1)
    return Room(x, y, w, h)


def _connect(rng: Rng, floor: Floor, rooms: list[Room]) -> None:
    """Chain every room to the previous one with an L-shaped corridor."""
    for previous, room in zip(rooms, rooms[1:]):
        (x1, y1), (x2, y2) = previous.centre, room.centre
        if rng.chance(1, 2):
            _carve_h(floor, x1, x2, y1)
            _carve_v(floor, y1, y2, x2)
        else:
            _carve_v(floor, y1, y2, x1)
            _carve_h(floor, x1, x2, y2)


def _carve_h(floor: Floor, x1: int, x2: int, y: int) -> None:
    """Carve a horizontal corridor."""
    floor.tiles[y, min(x1, x2) : max(x1, x2) + 1] = Tile.FLOOR


def _carve_v(floor: Floor, y1: int, y2: int, x: int) -> None:
    """Carve a vertical corridor."""
    floor.tiles[min(y1, y2) : max(y1, y2) + 1, x] = Tile.FLOOR


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


def _place_stairs(rng: Rng, floor: Floor, rooms: list[Room], up: tuple[int, int] | None) -> None:
    """Up stairs at the arrival point, down stairs in the room farthest from it."""
    arrival = up if up is not None else rooms[0].centre
    floor.arrival = arrival
    if up is not None:
        floor.up_stairs = up
        floor.tiles[up[1], up[0]] = Tile.STAIRS_UP
    far = max(rooms[1:] or rooms, key=lambda r: _distance2(r.centre, arrival))
    spots = [t for t in far.tiles() if t != arrival and _distance2(t, arrival) > 2]
    down = rng.choice(spots)
    floor.down_stairs = down
    floor.tiles[down[1], down[0]] = Tile.STAIRS_DOWN


def _distance2(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Squared distance between two tiles."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2


def _place_doses(rng: Rng, floor: Floor, rooms: list[Room]) -> list[PackedEntity]:
    """The start dose in sight (floor 1) and the floor's scattered doses."""
    taken = {floor.arrival, floor.down_stairs}
    packed = []
    if floor.depth == 1:
        packed.append(make_dose(rng, SMALL_DOSE, _start_dose_spot(rng, floor, rooms[0])))
        # The start dose must be the only one in sight: mark the whole view as taken.
        ys, xs = field_of_view(floor, *floor.arrival).nonzero()
        taken |= set(zip(xs.tolist(), ys.tolist()))
    for _ in range(rng.between(*formulas.DOSES_PER_FLOOR)):
        free = free_spot(rng, floor, rng.choice(rooms).tiles(), taken)
        if free is not None:
            taken.add(free)
            packed.append(make_dose(rng, _dose_kind(rng, floor.depth), free))
    return packed


def _start_dose_spot(rng: Rng, floor: Floor, room: Room) -> tuple[int, int]:
    """A tile of the start room a few steps from the player."""
    ax, ay = floor.arrival
    near = formulas.START_DOSE_MAX_DISTANCE
    spots = [
        (x, y)
        for x, y in room.tiles()
        if 1 <= max(abs(x - ax), abs(y - ay)) <= near and floor.tiles[y, x] == Tile.FLOOR
    ]
    return rng.choice(spots)


def _dose_kind(rng: Rng, depth: int) -> DoseKind:
    """Strong doses turn up from a certain depth on."""
    if depth >= formulas.STRONG_DOSE_FROM_FLOOR and rng.chance(*formulas.STRONG_DOSE_CHANCE):
        return STRONG_DOSE
    return SMALL_DOSE


def make_dose(rng: Rng, kind: DoseKind, spot: tuple[int, int]) -> PackedEntity:
    """A dose of a kind, its purity drawn at random, packed for a dormant floor."""
    dose = Dose(
        kind=kind.key,
        strength=rng.between(*kind.strength),
        confidence=rng.between(*kind.confidence),
        nerve=rng.between(*kind.nerve),
        will=rng.between(*kind.will),
    )
    look = Renderable(kind.glyph, kind.colour, layer=1, always_bright=True)
    return pack_entity([Position(*spot), look, dose])

