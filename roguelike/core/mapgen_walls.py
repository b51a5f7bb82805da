"""Where a floor's walls close in and open: creeping walls and veils, laid once when it is made.

Called for every climate once the floor is connected and its stairs are placed, before
anything else is (the stairs come first so the walls can keep clear of them; nothing placed
after may stand on a shifting tile, as nothing takes any but plain floor). Creeping walls
take stretches of plain floor along the walls (the map narrows in Withdrawal), never a
chokepoint, the arrival, the stairs' surroundings or a door's side, and are kept only if the
open ground left in Withdrawal, the most closed band, is still all joined and beside every
one of their tiles (the final mask is checked; stretches that fail it are given back). Veils
take walls one or two tiles thick between two plain tiles far apart on foot (a shortcut only
the High sees and takes), so they only ever add ground. Draws only from the floor's rng.
"""

from __future__ import annotations

from typing import NamedTuple, TypeVar

import numpy as np
from numpy.typing import NDArray

from roguelike.content import formulas
from roguelike.content.formulas import Band
from roguelike.content.terrain import Tile
from roguelike.core.chokepoints import chokepoints
from roguelike.core.floor import PASSABLE, Floor
from roguelike.core.pathing import distance_map, travel_cost
from roguelike.core.rng import Rng
from roguelike.core.walls import open_ground, turn_to_band

Spot = tuple[int, int]
Cell = TypeVar("Cell", bound=np.generic)
Stretch = list[Spot]  # a creeping wall's stretch, or a veil's tiles
UNREACHED = np.iinfo(np.int32).max
PAD = formulas.VEIL_THICKEST + 1  # the margin a veil's sides may be read from
# Where a creeping wall's wall lies, and so which way its stretch runs (along the wall).
SIDES: tuple[tuple[Spot, Spot], ...] = (((0, -1), (1, 0)), ((0, 1), (1, 0)), ((-1, 0), (0, 1)), ((1, 0), (0, 1)))


class ArrivalWalk(NamedTuple):
    """Walking distances from the arrival (``pathing.distance_map``) and the costs they were walked over."""

    cost: NDArray[np.int32]
    steps: NDArray[np.int32]


def lay_shifting_walls(rng: Rng, floor: Floor, state_of_mind: int, walk: ArrivalWalk | None = None) -> None:
    """Veils and creeping walls for the floor, turned to the band of ``state_of_mind``.

    ``walk``, the distances from the arrival map generation worked out already, spares a
    search when the floor's costs have not changed where they would matter since.
    """
    for veil in _veils(rng, floor, walk):
        for x, y in veil:
            floor.tiles[y, x] = Tile.VEIL_SHUT
    for x, y in _creeping_spots(rng, floor):
        floor.tiles[y, x] = Tile.CREEPING_OPEN
    turn_to_band(floor, formulas.mood_band(state_of_mind), lambda: set())


def _veils(rng: Rng, floor: Floor, walk: ArrivalWalk | None) -> list[Stretch]:
    """Walls one or two tiles thick between two plain tiles far apart on foot, a few drawn at random.

    Caves seldom hold a one-tile wall between ground far apart, so two tiles are allowed.
    How far apart the sides are on foot is bounded from below by how much nearer one of them
    lies to a landmark (the arrival, the stairs down, the tiles farthest from those), a few
    distance maps for the whole floor rather than one for each wall.
    """
    plain, wall = _padded(floor.tiles == Tile.FLOOR), _padded(floor.tiles == Tile.WALL)
    maps = _padded(_landmark_distances(floor, walk))
    found: list[Stretch] = []
    for thick in range(1, formulas.VEIL_THICKEST + 1):
        for dx, dy in ((1, 0), (0, 1)):
            gap = _gap(plain, wall, maps, (thick, dx, dy))
            found += [[(x + k * dx, y + k * dy) for k in range(thick)] for x, y in _spots(gap)]
    return _spread(rng, found, formulas.by_depth(formulas.VEILS, floor.depth))


def _landmark_distances(floor: Floor, walk: ArrivalWalk | None) -> NDArray[np.int64]:
    """Walking distances from the arrival, the stairs down and the tiles farthest from the landmarks before
    (one map a landmark, stacked)."""
    cost = travel_cost(floor)
    maps = np.empty((formulas.VEIL_LANDMARKS, *cost.shape), dtype=np.int64)
    maps[0] = _from_arrival(floor, cost, walk)
    maps[1] = distance_map(cost, [floor.down_stairs])
    for landmark in range(2, formulas.VEIL_LANDMARKS):
        nearest = maps[:landmark].min(axis=0)
        y, x = np.unravel_index(int(np.where(nearest >= UNREACHED, -1, nearest).argmax()), nearest.shape)
        maps[landmark] = distance_map(cost, [(int(x), int(y))])
    return maps


def _from_arrival(floor: Floor, cost: NDArray[np.int32], walk: ArrivalWalk | None) -> NDArray[np.int32]:
    """Distances from the arrival over ``cost``: those of ``walk`` while no tile they reach (or that
    could be entered now) costs otherwise, the arrival's own cost aside (no shortest way comes back
    through it)."""
    if walk is not None:
        changed = walk.cost != cost
        changed[floor.arrival[1], floor.arrival[0]] = False
        if not (changed & ((walk.steps != UNREACHED) | (cost > 0))).any():
            return walk.steps
    return distance_map(cost, [floor.arrival])


def _padded(array: NDArray[Cell]) -> NDArray[Cell]:
    """``array`` (or a stack of them) with a margin as wide as a veil's reach (False, or 0), so
    :func:`_along` only slices (np.pad costs several times as much)."""
    height, width = array.shape[-2:]
    padded = np.zeros((*array.shape[:-2], height + 2 * PAD, width + 2 * PAD), dtype=array.dtype)
    padded[..., PAD:-PAD, PAD:-PAD] = array
    return padded


def _gap(
    plain: NDArray[np.bool_], wall: NDArray[np.bool_], maps: NDArray[np.int64], way: tuple[int, int, int]
) -> NDArray[np.bool_]:
    """Tiles where a wall ``thick`` tiles long runs on (along ``(dx, dy)``, ``way`` being ``(thick, dx, dy)``)
    between two plain tiles at least the veil's saving apart on foot (every array padded, the maps stacked)."""
    thick = way[0]
    found = _along(plain, -1, way) & _along(plain, thick, way)
    for k in range(thick):
        found &= _along(wall, k, way)
    saving = np.abs(_along(maps, -1, way) - _along(maps, thick, way)).max(axis=0)
    gap: NDArray[np.bool_] = found & (saving >= formulas.VEIL_SAVES_AT_LEAST)
    return gap


def _along(padded: NDArray[Cell], k: int, way: tuple[int, int, int]) -> NDArray[Cell]:
    """Each tile's neighbour ``k`` steps along the way ``(thick, dx, dy)``, read from a padded array (or stack)."""
    _, dx, dy = way
    height, width = padded.shape[-2] - 2 * PAD, padded.shape[-1] - 2 * PAD
    return padded[..., PAD + k * dy : PAD + k * dy + height, PAD + k * dx : PAD + k * dx + width]


def _spots(mask: NDArray[np.bool_]) -> list[Spot]:
    """The tiles of a mask, row by row."""
    ys, xs = mask.nonzero()
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def _spread(rng: Rng, candidates: list[Stretch], count: int) -> list[Stretch]:
    """Up to ``count`` candidates drawn at random, none starting near another (two veils are two ways)."""
    chosen: list[Stretch] = []
    while candidates and len(chosen) < count:
        pick = rng.choice(candidates)
        chosen.append(pick)
        x, y = pick[0]
        candidates = [c for c in candidates if max(abs(c[0][0] - x), abs(c[0][1] - y)) > formulas.VEILS_APART]
    return chosen


def _creeping_spots(rng: Rng, floor: Floor) -> list[Spot]:
    """Stretches of open ground along the walls, all given back that would seal ground off in Withdrawal."""
    allowed = _creeping_allowed(floor)
    stretches: list[Stretch] = []
    for _ in range(formulas.by_depth(formulas.CREEPING_STRETCHES, floor.depth)):
        # The tiles still allowed, row by row, as the list of them would be (a stretch takes only those).
        candidates = np.flatnonzero(allowed)
        if not len(candidates):
            break
        y, x = divmod(int(candidates[rng.below(len(candidates))]), floor.width)
        stretch = _stretch(floor, allowed, (x, y), rng.between(*formulas.CREEPING_LENGTH))
        stretches.append(stretch)
        for x, y in stretch:
            allowed[y, x] = False
    return [spot for stretch in _keeping_withdrawal_joined(floor, stretches) for spot in stretch]


def _creeping_allowed(floor: Floor) -> NDArray[np.bool_]:
    """Plain tiles beside a wall, on no chokepoint, beside nothing but floor and wall, away from the stairs."""
    tiles = floor.tiles
    plain, wall = tiles == Tile.FLOOR, tiles == Tile.WALL
    height, width = tiles.shape
    padded_wall = np.ones((height + 2, width + 2), dtype=bool)  # off the map counts as wall
    padded_wall[1:-1, 1:-1] = wall
    padded_other = np.zeros((height + 2, width + 2), dtype=bool)
    padded_other[1:-1, 1:-1] = ~(plain | wall)
    beside_wall = np.zeros_like(plain)
    beside_other = np.zeros_like(plain)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            window = (slice(1 + dy, 1 + dy + height), slice(1 + dx, 1 + dx + width))
            beside_other |= padded_other[window]
            if abs(dx) + abs(dy) == 1:
                beside_wall |= padded_wall[window]
    allowed: NDArray[np.bool_] = plain & beside_wall & ~beside_other & ~chokepoints(PASSABLE[tiles])
    keep = formulas.SHIFTING_KEEP_CLEAR
    for x, y in (floor.arrival, floor.down_stairs):
        allowed[max(0, y - keep) : y + keep + 1, max(0, x - keep) : x + keep + 1] = False
    return allowed


def _stretch(floor: Floor, allowed: NDArray[np.bool_], start: Spot, length: int) -> Stretch:
    """Up to ``length`` allowed tiles from ``start`` along the first wall beside it, on along it then back."""
    x, y = start
    (wx, wy), (dx, dy) = next(side for side in SIDES if floor.tile(x + side[0][0], y + side[0][1]) == Tile.WALL)
    stretch = [start]
    for step in (1, -1):
        cx, cy = x + step * dx, y + step * dy
        while len(stretch) < length and _hugs(floor, allowed, cx, cy, wx, wy):
            stretch.append((cx, cy))
            cx, cy = cx + step * dx, cy + step * dy
    return stretch


def _hugs(floor: Floor, allowed: NDArray[np.bool_], x: int, y: int, wx: int, wy: int) -> bool:
    """Whether ``(x, y)`` is allowed and has the wall on the same side."""
    return floor.in_bounds(x, y) and bool(allowed[y, x]) and floor.tile(x + wx, y + wy) == Tile.WALL


def _keeping_withdrawal_joined(floor: Floor, stretches: list[Stretch]) -> list[Stretch]:
    """The stretches, less those the whole mask would make a trap of in Withdrawal, until none is.

    A stretch is given back when it lies beside open ground the mask would seal off, or when
    one of its tiles has no open ground of Withdrawal beside it: whoever stands there as the
    walls close (the tile stays open under them) must be able to step off.
    """
    while stretches:
        ground, sealed = _withdrawal_ground(floor, stretches)
        if not sealed.any() and all(_steps_off(ground, stretch) for stretch in stretches):
            break
        near_sealed = np.pad(sealed, 1)
        kept = [
            s
            for s in stretches
            if _steps_off(ground, s) and not any(near_sealed[y : y + 3, x : x + 3].any() for x, y in s)
        ]
        if len(kept) == len(stretches):  # only the stretches seal ground off, so one borders it: never here
            return []
        stretches = kept
    return stretches


def _steps_off(ground: NDArray[np.bool_], stretch: Stretch) -> bool:
    """Whether every tile of the stretch has a tile of ``ground`` beside it (a step may go diagonally)."""
    return all(ground[y - 1 : y + 2, x - 1 : x + 2].any() for x, y in stretch)


def _withdrawal_ground(floor: Floor, stretches: list[Stretch]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """The open ground of Withdrawal were every stretch a wall, and the part of it the arrival could not reach."""
    ground = open_ground(floor, Band.WITHDRAWAL)
    for stretch in stretches:
        for x, y in stretch:
            ground[y, x] = False
    reached = distance_map(ground.astype(np.int32), [floor.arrival]) != UNREACHED
    sealed: NDArray[np.bool_] = ground & ~reached
    return ground, sealed
