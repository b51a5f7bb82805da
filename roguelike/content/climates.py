"""Typed content table: the climates, the kinds of floor the dungeon is made of.

A :class:`Climate` row names the floors it may be (its depth range), how often it is drawn
among the climates allowed there (its weight) and its layout: the parameters of the
generator that carves it, whose type says which generator that is (``roguelike.core.mapgen``
keeps a generator for each type of layout). A climate's key is saved as the floor's kind
(``Floor.kind``, the ``FloorKind`` names of ``roguelike.core.plain``), so a key never
changes. Every number comes from :mod:`roguelike.content.formulas`.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.content import formulas


@dataclass(frozen=True)
class RoomSizes:
    """How many rectangles to try for and how big they may be."""

    attempts: int
    most: int
    width: tuple[int, int]
    height: tuple[int, int]


@dataclass(frozen=True)
class Rooms:
    """Rooms chained by L-shaped corridors, one-tile gaps in their walls closed with doors."""

    sizes: RoomSizes


@dataclass(frozen=True)
class Halls:
    """Fewer, larger rooms, each broken up by a grid of pillars or a few islands of rock."""

    sizes: RoomSizes
    pillar_chance: tuple[int, int]  # a hall has a grid of pillars, else islands of rock
    pillar_spacing: int
    islands: tuple[int, int]  # how many islands a hall without pillars tries for


@dataclass(frozen=True)
class Caves:
    """A cave grown by a cellular automaton from scattered rock, cut down to its largest part."""

    fill: tuple[int, int]  # chance a tile starts as rock
    steps: int  # smoothing passes of the automaton
    rock_from: int  # a tile becomes rock with this many rock neighbours (of 8)
    rock_stays: int  # and rock stays rock with this many
    min_open: int  # a cave with fewer open tiles is grown again
    tries: int
    area: int  # the cave is cut into square areas this many tiles across to place things
    tunnel_stray: tuple[int, int]  # how often the tunnel to the arrival point strays
    tunnel_steps: int  # after this many steps the tunnel goes straight


Layout = Rooms | Halls | Caves


@dataclass(frozen=True)
class Climate:
    """A kind of floor: where it turns up, how often, and the layout its generator carves."""

    key: str  # saved as the floor's kind
    layout: Layout
    weight: int
    from_floor: int = 1
    to_floor: int | None = None  # the deepest floor it can be (None: every floor from ``from_floor`` on)

    def allowed(self, depth: int) -> bool:
        """Whether floor ``depth`` may be of this climate."""
        return self.from_floor <= depth and (self.to_floor is None or depth <= self.to_floor)


ROOMS = Climate(
    key="rooms",
    layout=Rooms(
        RoomSizes(
            formulas.ROOM_ATTEMPTS,
            formulas.MAX_ROOMS,
            (formulas.ROOM_MIN_SIZE, formulas.ROOM_MAX_WIDTH),
            (formulas.ROOM_MIN_SIZE, formulas.ROOM_MAX_HEIGHT),
        )
    ),
    weight=formulas.ROOMS_WEIGHT,
)

CAVES = Climate(
    key="caves",
    layout=Caves(
        fill=formulas.CAVE_FILL,
        steps=formulas.CAVE_STEPS,
        rock_from=formulas.CAVE_ROCK_FROM,
        rock_stays=formulas.CAVE_ROCK_STAYS,
        min_open=formulas.CAVE_MIN_OPEN,
        tries=formulas.CAVE_TRIES,
        area=formulas.CAVE_AREA,
        tunnel_stray=formulas.CAVE_TUNNEL_STRAY,
        tunnel_steps=formulas.CAVE_TUNNEL_STEPS,
    ),
    weight=formulas.CAVES_WEIGHT,
    from_floor=formulas.CAVES_FROM_FLOOR,
)

HALLS = Climate(
    key="halls",
    layout=Halls(
        RoomSizes(
            formulas.HALL_ATTEMPTS,
            formulas.MAX_HALLS,
            (formulas.HALL_MIN_WIDTH, formulas.HALL_MAX_WIDTH),
            (formulas.HALL_MIN_HEIGHT, formulas.HALL_MAX_HEIGHT),
        ),
        pillar_chance=formulas.HALL_PILLAR_CHANCE,
        pillar_spacing=formulas.HALL_PILLAR_SPACING,
        islands=formulas.HALL_ISLANDS,
    ),
    weight=formulas.HALLS_WEIGHT,
    from_floor=formulas.HALLS_FROM_FLOOR,
)

# The draw walks them in this order: reordering them changes every floor past the first.
CLIMATES: dict[str, Climate] = {kind.key: kind for kind in (ROOMS, CAVES, HALLS)}


def climates_at(depth: int) -> list[Climate]:
    """The climates floor ``depth`` may be, in the table's order."""
    return [climate for climate in CLIMATES.values() if climate.allowed(depth)]
