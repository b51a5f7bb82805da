"""Typed content table: the kinds of map tile (terrain) and the lookups the rules read.

Each :class:`Terrain` row says whether a creature can stand on its tile, whether light
passes, what a step onto it costs, how it is drawn (its glyph and the palette roles of its
colours, named as ``roguelike.render.colours.Slot`` names them) and what look and the mouse
say of it. Floors store a tile as its :class:`Tile` value, one byte, and saves and replays
hold those bytes: a value, once given, never changes. A rule of its own (water that slows and
hides, ice that slides, sand that exposes) is a field every row has, played by the rules for
every terrain alike. ``roguelike.core.floor`` builds its
lookups from the table once (``WALKABLE[floor.tiles]`` and the like), which the rules read
wherever they mean "can stand", "light passes" or "can be walked to". No numpy here:
checking and listing saves reads the kinds without loading it.

Shifting terrain is two rows, its open kind and its shut kind, each naming the other
(``turns_into``) and the bands of the State of Mind in which the terrain stands shut
(``shut_in``): ``roguelike.core.walls`` turns a floor's tiles to the player's band from
those fields alone (creeping walls close in Withdrawal, veils open only while High).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from roguelike.content import formulas
from roguelike.content.formulas import Band


class Tile(IntEnum):
    """Kinds of map tile, stored as bytes in :attr:`Floor.tiles` (saved: values never change)."""

    WALL = 0
    FLOOR = 1
    DOOR_CLOSED = 2
    DOOR_OPEN = 3
    STAIRS_DOWN = 4
    STAIRS_UP = 5
    SAND = 6
    DUNE = 7
    SHALLOW_WATER = 8
    DEEP_WATER = 9
    BRIDGE = 10
    ICE = 11
    SNOW = 12
    CREEPING_OPEN = 13
    CREEPING_SHUT = 14
    VEIL_SHUT = 15
    VEIL_OPEN = 16


@dataclass(frozen=True)
class Terrain:
    """A kind of tile: standing on it, seeing through it, its cost, its look and its words."""

    tile: Tile
    walkable: bool  # a creature can stand there
    see_through: bool  # light passes
    glyph: str
    colour_role: str  # the palette role of its glyph's colour (a Slot's name, such as "wall_fg")
    background_role: str  # the palette role of its cell's background
    words: str  # what look and hovering the mouse say of it
    legend: str  # its line in the Help's legend, after its glyph
    move_cost: int = 1  # what a step onto it costs the path-finding, where it can be walked to
    opens: bool = False  # a step into it opens it (a closed door), so paths count it as open ground
    ground: bool = False  # plain ground: stairs, doses, finds and monsters are placed on it
    wade: int = 0  # a step onto it ends the stepper's turn and costs this many turns more (the world moves on)
    slides: bool = False  # a creature stepping onto it keeps going the same way until it leaves it or is stopped
    exposes: int = 0  # monsters notice a player standing on it from this many tiles farther
    cover: int = 0  # a player standing on it is noticed from no farther than this (0: no cover)
    # Shifting terrain (walls closing in): the bands in which it stands shut, the kind of its
    # other state, and what the log says when a floor's tiles turn into this kind.
    shut_in: tuple[Band, ...] = ()
    turns_into: Tile | None = None
    turned: str = ""


TERRAIN: dict[Tile, Terrain] = {
    row.tile: row
    for row in (
        Terrain(Tile.WALL, False, False, "#", "wall_fg", "wall_bg", "A wall.", "wall"),
        Terrain(
            Tile.FLOOR,
            True,
            True,
            ".",
            "floor_fg",
            "floor_bg",
            "Floor.",
            "floor (dim: remembered, not in sight)",
            ground=True,
        ),
        Terrain(
            Tile.DOOR_CLOSED,
            False,
            False,
            "+",
            "door_fg",
            "door_bg",
            "A closed door: walk into it to open it.",
            "closed door: walk into it to open it (it blocks sight)",
            opens=True,
        ),
        Terrain(Tile.DOOR_OPEN, True, True, "'", "door_fg", "floor_bg", "An open door.", "open door"),
        Terrain(
            Tile.STAIRS_DOWN,
            True,
            True,
            ">",
            "stairs_fg",
            "stairs_bg",
            "Stairs down to a new floor.",
            "stairs down to a new floor",
        ),
        Terrain(
            Tile.STAIRS_UP,
            True,
            True,
            "<",
            "stairs_fg",
            "stairs_bg",
            "Stairs up, to the floor as you left it.",
            "stairs up, to the floor as you left it",
        ),
        Terrain(
            Tile.SAND,
            True,
            True,
            ",",
            "sand_fg",
            "floor_bg",
            f"Open sand: monsters notice you {formulas.SAND_EXPOSES} tiles farther here.",
            f"open sand: nothing hides you, monsters notice you {formulas.SAND_EXPOSES} tiles farther",
            ground=True,
            exposes=formulas.SAND_EXPOSES,
        ),
        Terrain(
            Tile.DUNE,
            True,
            False,
            "^",
            "dune_fg",
            "floor_bg",
            "A dune ridge: you can climb it, but nobody sees across it.",
            "dune ridge: walkable, but it blocks sight",
        ),
        Terrain(
            Tile.SHALLOW_WATER,
            True,
            True,
            '"',
            "water_fg",
            "water_bg",
            f"Shallow water: wading in costs {formulas.WATER_WADE} turn more; in it you are seen only from"
            f" {formulas.WATER_COVER} tiles.",
            f"shallow water: a step in costs {formulas.WATER_WADE} turn more, and hides you beyond"
            f" {formulas.WATER_COVER} tiles",
            move_cost=1 + formulas.WATER_WADE,
            wade=formulas.WATER_WADE,
            cover=formulas.WATER_COVER,
        ),
        Terrain(
            Tile.DEEP_WATER,
            False,
            True,
            "%",
            "deep_fg",
            "deep_bg",
            "Deep water: nobody crosses it, but you see over it.",
            "deep water: nobody crosses it, light does",
        ),
        Terrain(Tile.BRIDGE, True, True, "-", "bridge_fg", "deep_bg", "A narrow bridge.", "bridge"),
        Terrain(
            Tile.ICE,
            True,
            True,
            "_",
            "ice_fg",
            "ice_bg",
            "Ice: step onto it and you slide on the same way until you leave it or hit something.",
            "ice: you slide on the same way until you leave it or something stops you",
            move_cost=formulas.ICE_TRAVEL,
            slides=True,
        ),
        Terrain(Tile.SNOW, True, True, ";", "snow_fg", "floor_bg", "Snow.", "snow", ground=True),
        Terrain(
            Tile.CREEPING_OPEN,
            True,
            True,
            ":",
            "creeping_fg",
            "floor_bg",
            "Floor the walls creep over: it closes in Withdrawal.",
            "creeping wall, open: floor that closes while you are in Withdrawal",
            shut_in=(Band.WITHDRAWAL,),
            turns_into=Tile.CREEPING_SHUT,
            turned="The walls draw back.",
        ),
        Terrain(
            Tile.CREEPING_SHUT,
            False,
            False,
            "|",
            "creeping_fg",
            "wall_bg",
            "A creeping wall: it draws back once you are out of Withdrawal.",
            "creeping wall, shut: a wall until you are out of Withdrawal",
            shut_in=(Band.WITHDRAWAL,),
            turns_into=Tile.CREEPING_OPEN,
            turned="The walls close in.",
        ),
        Terrain(
            Tile.VEIL_SHUT,
            False,
            False,
            "}",
            "veil_fg",
            "wall_bg",
            "A veiled wall: while you are High, a way opens through it.",
            "veil: a wall that opens while you are High",
            shut_in=(Band.WITHDRAWAL, Band.SOBER),
            turns_into=Tile.VEIL_OPEN,
            turned="The veiled ways close.",
        ),
        Terrain(
            Tile.VEIL_OPEN,
            True,
            True,
            "/",
            "veil_fg",
            "floor_bg",
            "An open veil: a way through the wall while you are High.",
            "veil, open: a way through the wall, only while you are High",
            shut_in=(Band.WITHDRAWAL, Band.SOBER),
            turns_into=Tile.VEIL_SHUT,
            turned="Veiled ways open in the walls.",
        ),
    )
}


def by_value() -> list[Terrain]:
    """The rows in the order of their tiles' values, as the lookup arrays index them."""
    return [TERRAIN[Tile(value)] for value in range(len(Tile))]


def passable(row: Terrain) -> bool:
    """Whether a creature can get onto the tile: it stands there, or opens it first."""
    return row.walkable or row.opens


def travel_cost(row: Terrain) -> int:
    """What entering the tile costs the path-finding: its move cost, 0 where nothing gets in."""
    return row.move_cost if passable(row) else 0


GLYPHS = "".join(row.glyph for row in by_value())  # one character a tile value
