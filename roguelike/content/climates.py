"""Typed content table: the climates, the kinds of floor the dungeon is made of.

A :class:`Climate` row names the floors it may be (its depth range), how often it is drawn
among the climates allowed there (its weight) and its layout: the parameters of the
generator that carves it, whose type says which generator that is (``roguelike.core.mapgen``
keeps a generator for each type of layout). On top of the layout a row may lay terrain: a
noise :class:`Heightmap` whose bands turn the carved ground into terrains, :class:`Feature`
blobs whose count grows with depth, and a :class:`Crossing` that joins whatever a barrier
terrain cut off. It also weighs the monsters that live there and says a line to the player
arriving. A climate's key is saved as the floor's kind (``Floor.kind``, the ``FloorKind``
names of ``roguelike.core.plain``), so a key never changes. Every number comes from
:mod:`roguelike.content.formulas`.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.content import formulas
from roguelike.content.terrain import Tile


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


@dataclass(frozen=True)
class Open:
    """One open expanse inside the map's border, for the terrain laid on it to shape."""

    margin: int  # rock kept inside the border
    area: int  # the expanse is cut into square areas this many tiles across to place things


Layout = Rooms | Halls | Caves | Open


@dataclass(frozen=True)
class Heightmap:
    """Value noise over the floor (heights 0..255); each band turns the carved floor below its threshold into its terrain."""

    cell: int  # the coarsest lattice, in tiles
    octaves: int  # each finer octave halves the cell and the weight
    bands: tuple[tuple[int, Tile], ...]  # (threshold, terrain), thresholds rising, the last 256


@dataclass(frozen=True)
class Feature:
    """Blobs of a terrain scattered over the ground, more the deeper (intercept plus slope by depth)."""

    tile: Tile
    intercept: int
    per_floor: int
    radius: int

    def count(self, depth: int) -> int:
        """How many blobs floor ``depth`` holds."""
        return formulas.feature_count(self.intercept, self.per_floor, depth)


@dataclass(frozen=True)
class Crossing:
    """Where ``barrier`` cuts ground off from the arrival, the shortest way across becomes ``joins``."""

    barrier: Tile
    joins: Tile


@dataclass(frozen=True)
class Climate:
    """A kind of floor: where it turns up, how often, and the layout its generator carves."""

    key: str  # saved as the floor's kind
    layout: Layout
    weight: int
    arrival: str  # what the player reads on reaching a floor of this climate
    from_floor: int = 1
    to_floor: int | None = None  # the deepest floor it can be (None: every floor from ``from_floor`` on)
    heightmap: Heightmap | None = None
    features: tuple[Feature, ...] = ()
    crossing: Crossing | None = None
    monster_weights: tuple[tuple[str, int], ...] = ()  # (kind, percent of its weight): 100 for a kind not named

    def allowed(self, depth: int) -> bool:
        """Whether floor ``depth`` may be of this climate."""
        return self.from_floor <= depth and (self.to_floor is None or depth <= self.to_floor)

    def monster_weight(self, kind: str, weight: int) -> int:
        """A monster kind's weight here: the bestiary's, scaled by this climate's percent for it."""
        return weight * dict(self.monster_weights).get(kind, 100) // 100


def bands(rows: tuple[tuple[int, str], ...]) -> tuple[tuple[int, Tile], ...]:
    """A heightmap's bands from the formulas' (threshold, terrain name) pairs."""
    return tuple((threshold, Tile[name]) for threshold, name in rows)


def heightmap(rows: tuple[tuple[int, str], ...], noise: tuple[int, int] = formulas.NOISE) -> Heightmap:
    """The heightmap of the formulas' (lattice, octaves) with these bands."""
    return Heightmap(*noise, bands(rows))


def feature(tile: Tile, numbers: tuple[int, int, int]) -> Feature:
    """A feature from the formulas' (intercept, per floor, radius)."""
    return Feature(tile, *numbers)


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
    arrival="Rooms and corridors: doors to open, corners to wait behind.",
)

CAVE_LAYOUT = Caves(
    fill=formulas.CAVE_FILL,
    steps=formulas.CAVE_STEPS,
    rock_from=formulas.CAVE_ROCK_FROM,
    rock_stays=formulas.CAVE_ROCK_STAYS,
    min_open=formulas.CAVE_MIN_OPEN,
    tries=formulas.CAVE_TRIES,
    area=formulas.CAVE_AREA,
    tunnel_stray=formulas.CAVE_TUNNEL_STRAY,
    tunnel_steps=formulas.CAVE_TUNNEL_STEPS,
)

CAVES = Climate(
    key="caves",
    layout=CAVE_LAYOUT,
    weight=formulas.CAVES_WEIGHT,
    arrival="Caves: rock grown wild, and no door to close behind you.",
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
    arrival="Great halls: pillars and rock break the long sight lines.",
    from_floor=formulas.HALLS_FROM_FLOOR,
)

OPEN_LAYOUT = Open(formulas.OPEN_MARGIN, formulas.OPEN_AREA)

DESERT = Climate(
    key="desert",
    layout=OPEN_LAYOUT,
    weight=formulas.DESERT_WEIGHT,
    arrival="Desert. On open sand nothing hides you; only the dune ridges block sight.",
    from_floor=formulas.DESERT_FROM_FLOOR,
    heightmap=heightmap(formulas.DESERT_BANDS, formulas.DESERT_NOISE),
    features=(feature(Tile.WALL, formulas.DESERT_OUTCROPS),),
    monster_weights=formulas.DESERT_MONSTERS,
)

WATERY = Climate(
    key="watery",
    layout=CAVE_LAYOUT,
    weight=formulas.WATERY_WEIGHT,
    arrival="Water everywhere. Wading is slow, but in the shallows you are hard to see.",
    from_floor=formulas.WATERY_FROM_FLOOR,
    heightmap=heightmap(formulas.WATERY_BANDS),
    features=(feature(Tile.SHALLOW_WATER, formulas.WATERY_POOLS),),
    crossing=Crossing(Tile.DEEP_WATER, Tile.SHALLOW_WATER),
    monster_weights=formulas.WATERY_MONSTERS,
)

ISLANDS = Climate(
    key="islands",
    layout=OPEN_LAYOUT,
    weight=formulas.ISLANDS_WEIGHT,
    arrival="Islands in deep water, joined by narrow bridges: hold a bridge, or be caught on one.",
    from_floor=formulas.ISLANDS_FROM_FLOOR,
    heightmap=heightmap(formulas.ISLANDS_BANDS),
    features=(feature(Tile.SHALLOW_WATER, formulas.ISLANDS_SHOALS),),
    crossing=Crossing(Tile.DEEP_WATER, Tile.BRIDGE),
    monster_weights=formulas.ISLANDS_MONSTERS,
)

TUNDRA = Climate(
    key="tundra",
    layout=CAVE_LAYOUT,
    weight=formulas.TUNDRA_WEIGHT,
    arrival="Tundra. Step onto ice and you slide on until you leave it or hit something.",
    from_floor=formulas.TUNDRA_FROM_FLOOR,
    heightmap=heightmap(formulas.TUNDRA_BANDS),
    features=(feature(Tile.SNOW, formulas.TUNDRA_DRIFTS), feature(Tile.WALL, formulas.TUNDRA_ROCKS)),
    crossing=Crossing(Tile.ICE, Tile.SNOW),
    monster_weights=formulas.TUNDRA_MONSTERS,
)

# The draw walks them in this order: reordering them changes every floor past the first.
CLIMATES: dict[str, Climate] = {kind.key: kind for kind in (ROOMS, CAVES, HALLS, DESERT, WATERY, ISLANDS, TUNDRA)}


def climates_at(depth: int) -> list[Climate]:
    """The climates floor ``depth`` may be, in the table's order."""
    return [climate for climate in CLIMATES.values() if climate.allowed(depth)]
