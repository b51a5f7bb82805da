"""Floor generation: a kind of floor, its stairs, doses and monsters, all from a seed.

Each floor is of one climate (``roguelike.content.climates``: rooms and corridors, caves,
or halls with pillars), drawn by depth and weight from the floor's own seed; the generator
of its layout (:data:`GENERATORS`) carves the tiles and hands back the floor cut into
areas, the arrival area first. What follows is shared: anything not joined to the arrival
point is filled in, so every floor is connected; the down staircase goes in the area
farthest on foot, and from floor 2 on the up staircase is where the floor above has its
down staircase. Then the walls that shift with the State of Mind are laid
(``roguelike.core.mapgen_walls``), before anything else is placed, so nothing stands on them.
"""

from __future__ import annotations

import typing
from collections.abc import Callable

import numpy as np

from components import Dose, Find, Position, Renderable, Shortcut, Vision
from components.registry import NAME_OF
from roguelike.content import formulas
from roguelike.content.climates import Caves, Climate, Halls, Layout, Open, Rooms, climates_at
from roguelike.content.doses import SHORTCUT_COLOUR, SHORTCUT_GLYPH, START_DOSE, DoseKind, kinds_on_floor
from roguelike.content.finds import FindKind, finds_on_floor
from roguelike.core.chokepoints import Gates
from roguelike.core.floor import GROUND, PASSABLE, Floor, PackedEntity, Tile, blank_floor
from roguelike.core.mapgen_caves import carve_caves
from roguelike.core.mapgen_open import carve_open
from roguelike.core.mapgen_rooms import carve_halls, carve_rooms
from roguelike.core.mapgen_terrain import lay_terrain
from roguelike.core.mapgen_walls import ArrivalWalk, lay_shifting_walls
from roguelike.core.packing import pack_entity
from roguelike.core.pathing import distance_map, travel_cost
from roguelike.core.plain import FloorKind
from roguelike.core.rng import Rng
from roguelike.core.sight import field_of_view
from roguelike.core.spawning import free_spot, place_monsters, taken_spots
from roguelike.core.tiles import GROUND_TILES
from roguelike.core.walls import open_ground

Spot = tuple[int, int]
Areas = list[list[Spot]]
# A generator: (rng, floor, anchor, layout) -> the floor cut into areas, the arrival area first.
Generator = Callable[..., Areas]

# The generator of each type of layout, called with the climate's layout as its parameters.
GENERATORS: dict[type[Layout], Generator] = {
    Rooms: carve_rooms,
    Caves: carve_caves,
    Halls: carve_halls,
    Open: carve_open,
}
# The kinds of floor a save may name: a climate is saved under its key, which must be one of them.
SAVED_KINDS: dict[str, FloorKind] = {kind: kind for kind in typing.get_args(FloorKind)}
UNREACHED = np.iinfo(np.int32).max


def generate_floor(
    seed: int,
    depth: int,
    up_stairs: Spot | None,
    state_of_mind: int = formulas.STATE_OF_MIND_START,
) -> Floor:
    """Generate floor ``depth``; ``up_stairs`` is the down staircase of the floor above.

    The player's ``state_of_mind`` decides how many monsters there are and how keen.
    """
    rng = Rng(seed)
    floor = blank_floor(depth)
    climate = climate_for(rng, depth)
    floor.kind = saved_kind(climate)
    areas = GENERATORS[type(climate.layout)](rng, floor, up_stairs, climate.layout)
    floor.arrival = up_stairs if up_stairs is not None else _centre(areas[0])
    lay_terrain(rng, floor, climate)
    walk = _keep_connected(floor)
    steps: list[int] = walk.steps.ravel().tolist()  # read a tile at a time: a list is faster than the array
    width = floor.width
    areas = [_reached(area, steps, width) for area in areas]
    _place_stairs(rng, floor, [area for area in areas if area] or [[floor.arrival]], steps)
    lay_shifting_walls(rng, floor, state_of_mind, walk)  # walls closing in; nothing is placed on them
    floor.dormant.extend(_place_doses(rng, floor, areas))
    floor.dormant.extend(_place_shortcut(rng, floor, areas))
    floor.dormant.extend(place_monsters(seed, floor, [area for area in areas[1:] if area], state_of_mind))
    floor.dormant.extend(_place_finds(rng, floor, areas))  # drawn last: the rest of the floor is as before finds
    return floor


def climate_for(rng: Rng, depth: int) -> Climate:
    """A climate drawn by weight among those allowed at ``depth`` (one draw)."""
    allowed = climates_at(depth)
    return rng.weighted(allowed, [climate.weight for climate in allowed])


def saved_kind(climate: Climate) -> FloorKind:
    """The climate's key as saves name a floor's kind."""
    if climate.key not in SAVED_KINDS:
        raise ValueError(
            f"climate {climate.key!r} is not a FloorKind of roguelike/core/plain.py: no save could hold it"
        )
    return SAVED_KINDS[climate.key]


def _centre(area: list[Spot]) -> Spot:
    """The tile of an area nearest its middle (a room's centre for a room)."""
    xs, ys = [x for x, _ in area], [y for _, y in area]
    mx, my = (min(xs) + max(xs)) // 2, (min(ys) + max(ys)) // 2
    return min(area, key=lambda spot: (abs(spot[0] - mx) + abs(spot[1] - my), spot[1], spot[0]))


def _keep_connected(floor: Floor) -> ArrivalWalk:
    """Fill in whatever cannot be reached from the arrival point; walking distances from it."""
    floor.tiles[floor.arrival[1], floor.arrival[0]] = Tile.FLOOR
    cost = travel_cost(floor)
    distance = distance_map(cost, [floor.arrival])
    floor.tiles[(distance == UNREACHED) & PASSABLE[floor.tiles]] = Tile.WALL  # deep water stays water
    return ArrivalWalk(cost, distance)


def _reached(area: list[Spot], steps: list[int], width: int) -> list[Spot]:
    """The tiles of an area that can be walked to (``steps`` the distances from the arrival, row by row)."""
    return [spot for spot in area if steps[spot[1] * width + spot[0]] != UNREACHED]


def _place_stairs(rng: Rng, floor: Floor, areas: Areas, steps: list[int]) -> None:
    """Up stairs at the arrival point, down stairs in an area drawn among those far enough on foot.

    Not always the farthest: the way down may turn up early, and leaving then is a choice
    the explored share of the score can punish (docs/balance.md, "Stairs worth weighing").
    """
    arrival, width = floor.arrival, floor.width
    if floor.depth > 1:
        floor.up_stairs = arrival
        floor.tiles[arrival[1], arrival[0]] = Tile.STAIRS_UP
    tiles = floor.tiles.tobytes()  # read a tile at a time: bytes index faster than the array
    # Stairs stand on plain ground: the areas as their ground alone (the others as they are, if none has any).
    grounds = [[t for t in area if tiles[t[1] * width + t[0]] in GROUND_TILES] for area in areas[1:] or areas]
    others = [ground for ground in grounds if ground] or areas[1:] or areas
    enough = min(formulas.STAIRS_MIN_WALK, max(_reach(area, steps, width) for area in others))
    far = rng.choice([area for area in others if _reach(area, steps, width) >= enough])
    spots = [t for t in far if steps[t[1] * width + t[0]] >= enough and tiles[t[1] * width + t[0]] in GROUND_TILES]
    down = rng.choice(spots or [t for t in far if t != arrival])
    floor.down_stairs = down
    floor.tiles[down[1], down[0]] = Tile.STAIRS_DOWN


def _reach(area: list[Spot], steps: list[int], width: int) -> int:
    """Steps on foot from the arrival to the farthest tile of an area."""
    return max([steps[y * width + x] for x, y in area])


def _place_doses(rng: Rng, floor: Floor, areas: Areas) -> list[PackedEntity]:
    """The start dose in sight (floor 1) and the floor's scattered doses, some of them visions.

    No dose lies on a chokepoint (:mod:`roguelike.core.chokepoints`): each one placed blocks its
    tile for the next, so no dose, alone or with others, seals off part of the floor."""
    taken = {floor.arrival, floor.down_stairs}
    gates = Gates([open_ground(floor, band) for band in formulas.Band])  # no dose gates a floor in any band
    packed = []
    if floor.depth == 1:
        start = _start_dose_spot(rng, floor, areas[0], gates.spots)
        packed.append(make_dose(rng, START_DOSE, start, depth=floor.depth))
        gates.block(start)
        # The start dose must be the only one in sight: mark the whole view as taken.
        ys, xs = field_of_view(floor, *floor.arrival).nonzero()
        taken |= set(zip(xs.tolist(), ys.tolist()))
    places = [area for area in areas if area]
    near = _nearest_areas(places[1:], floor.arrival, formulas.extra_doses(floor.depth))
    for area in near + [rng.choice(places) for _ in range(rng.between(*formulas.DOSES_PER_FLOOR))]:
        free = free_spot(rng, floor, area, taken | gates.spots)
        if free is not None:
            taken.add(free)
            gates.block(free)
            vision = floor.depth >= formulas.VISIONS_FROM_FLOOR and rng.chance(*formulas.VISION_DOSE_CHANCE)
            packed.append(make_dose(rng, dose_kind(rng, floor.depth), free, vision, floor.depth))
    return packed


def _nearest_areas(areas: Areas, arrival: Spot, count: int) -> Areas:
    """The ``count`` areas nearest the arrival point, nearest first, by their nearest tile (the shallow
    floors' extra doses go there)."""
    if count <= 0:  # most floors: no tile's distance is worked out
        return []
    ax, ay = arrival
    # Squared distances written out in a list: a call a tile cost more than the sort.
    return sorted(areas, key=lambda area: (min([(x - ax) ** 2 + (y - ay) ** 2 for x, y in area]), area[0]))[:count]


def _place_shortcut(rng: Rng, floor: Floor, areas: Areas) -> list[PackedEntity]:
    """Now and then, a vision of a way down somewhere past the arrival area."""
    if floor.depth < formulas.VISIONS_FROM_FLOOR or not rng.chance(*formulas.SHORTCUT_CHANCE):
        return []
    places = [area for area in areas[1:] if area]
    spot = free_spot(rng, floor, rng.choice(places), taken_spots(floor)) if places else None
    if spot is None:
        return []
    look = Renderable(SHORTCUT_GLYPH, SHORTCUT_COLOUR, layer=0, always_bright=True)
    return [pack_entity([Position(*spot), look, Shortcut(), Vision()])]


def _place_finds(rng: Rng, floor: Floor, areas: Areas) -> list[PackedEntity]:
    """A few finds past the arrival area, each on a tile nothing else holds (seen only while High)."""
    kinds = finds_on_floor(floor.depth)
    places = [area for area in areas[1:] if area]
    if not kinds or not places:
        return []
    packed: list[PackedEntity] = []
    for _ in range(rng.between(*formulas.FINDS_PER_FLOOR)):
        kind = rng.weighted(kinds, [kind.weight for kind in kinds])
        spot = free_spot(rng, floor, rng.choice(places), taken_spots(floor) | _spots_of(packed))
        if spot is not None:
            packed.append(make_find(kind, spot))
    return packed


def _spots_of(packed: list[PackedEntity]) -> set[Spot]:
    """Where packed entities (made here, not yet on the floor) stand."""
    return {(values[0], values[1]) for entity in packed for name, values in entity if name == NAME_OF[Position]}


def make_find(kind: FindKind, spot: Spot) -> PackedEntity:
    """A find of a kind, packed for a dormant floor: a vision, bright whatever the mood."""
    look = Renderable(kind.glyph, kind.colour, layer=1, always_bright=True)
    return pack_entity([Position(*spot), look, Find(kind.key), Vision()])


def _start_dose_spot(rng: Rng, floor: Floor, area: list[Spot], cuts: set[Spot]) -> Spot:
    """A tile of the start area a few steps from the player, in sight at the start, on no chokepoint
    (unless the start area has nothing else near)."""
    ax, ay = floor.arrival
    near = formulas.START_DOSE_MAX_DISTANCE
    start = formulas.sight_radius(formulas.STATE_OF_MIND_START, formulas.ATTRIBUTE_START)
    # Plain ground in sight, as bytes read a tile at a time (faster than indexing the arrays).
    open_in_sight, width = (GROUND[floor.tiles] & field_of_view(floor, ax, ay, start)).tobytes(), floor.width
    spots = [(x, y) for x, y in area if 1 <= max(abs(x - ax), abs(y - ay)) <= near and open_in_sight[y * width + x]]
    return rng.choice([spot for spot in spots if spot not in cuts] or spots)


def dose_kind(rng: Rng, depth: int) -> DoseKind:
    """A kind of dose drawn by weight among those that turn up at ``depth``."""
    kinds = kinds_on_floor(depth)
    return rng.weighted(kinds, [kind.weight for kind in kinds])


def pure_batch(rng: Rng, depth: int) -> int:
    """Extra Strength of a rare, far purer batch (usually none; never on the first floors, rarer on the next)."""
    # Drawn on every floor, so a floor without purer batches is laid out as it would be with them.
    purer = rng.chance(*formulas.purer_batch_chance(depth))
    return formulas.purer_batch_extra(depth) if purer else 0


def make_dose(rng: Rng, kind: DoseKind, spot: Spot, vision: bool = False, depth: int = 1) -> PackedEntity:
    """A dose of a kind, its purity drawn at random and stronger deeper, packed for a dormant floor."""
    dose = Dose(
        kind=kind.key,
        strength=rng.between(*kind.strength) + formulas.dose_strength_bonus(depth) + pure_batch(rng, depth),
        confidence=rng.between(*kind.confidence),
        nerve=rng.between(*kind.nerve),
        will=rng.between(*kind.will),
        floor=depth,
    )
    look = Renderable(kind.glyph, kind.colour, layer=1, always_bright=True)
    return pack_entity([Position(*spot), look, dose] + ([Vision()] if vision else []))
