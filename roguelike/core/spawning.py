"""Placing monsters on a newly generated floor, from the floor's RNG.

How many, of which kinds and how aggressive depends on the State of Mind the player has
when the floor is first generated (lower means more and keener). The arrival room is
left alone, so floor 1's start room holds only the start dose.
"""

from __future__ import annotations

from components import BlocksMovement, Monster, Position, Renderable
from components.registry import NAME_OF
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS, MonsterKind
from roguelike.content.climates import CLIMATES
from roguelike.core.floor import Floor, PackedEntity
from roguelike.core.packing import pack_entity
from roguelike.core.rng import Purpose, Rng, derive_seed
from roguelike.core.tiles import GROUND_TILES

MONSTER_LAYER = 2
Spot = tuple[int, int]


def place_monsters(seed: int, floor: Floor, rooms: list[list[Spot]], state_of_mind: int) -> list[PackedEntity]:
    """Monsters (packs of Hunger together) in the given rooms, packed for a dormant floor.

    Each group draws from its own stream of the floor's ``seed``, and the count is the same
    quantile of its range whatever the State of Mind: arriving a little lower adds a group
    at the end instead of reshuffling every monster of the floor.
    """
    if not rooms:
        return []
    taken, notice = taken_spots(floor), formulas.notice_range(state_of_mind)
    budget = monster_budget(seed, state_of_mind, floor.depth)
    packed: list[PackedEntity] = []
    for group in range(budget):
        if len(packed) >= budget:
            break
        stream = Rng(derive_seed(seed, Purpose.MONSTERS, group + 1))
        packed.extend(place_group(stream, floor, rooms, taken, budget - len(packed), notice))
    return packed


def monster_budget(seed: int, state_of_mind: int, depth: int) -> int:
    """How many monsters a new floor holds: its own draw, at the same place in the mind's range."""
    low, high = formulas.monster_count(state_of_mind, depth)
    return min(high, low + Rng(derive_seed(seed, Purpose.MONSTERS)).below(formulas.MONSTERS_SPREAD + 1))


def place_group(  # noqa: PLR0913 (the group's stream, where, and how many at most)
    rng: Rng, floor: Floor, rooms: list[list[Spot]], taken: set[Spot], left: int, notice: int
) -> list[PackedEntity]:
    """One group of a kind in one room, at most ``left`` strong, noticing at ``notice``."""
    kind, room = choose_kind(rng, floor.depth, floor.kind), rng.choice(rooms)
    group: list[PackedEntity] = []
    for _ in range(min(rng.between(*kind.group), left)):
        spot = free_spot(rng, floor, room, taken)
        if spot is None:
            break
        taken.add(spot)
        group.append(make_monster(kind, spot, notice))
    return group


def choose_kind(rng: Rng, depth: int, climate: str) -> MonsterKind:
    """A monster kind that lives this deep, drawn by the table's weights as the floor's climate scales them."""
    kinds = [kind for kind in MONSTER_KINDS.values() if kind.from_floor <= depth]
    weigh = CLIMATES[climate].monster_weight
    return rng.weighted(kinds, [weigh(kind.key, kind.weight_at(depth)) for kind in kinds])


def taken_spots(floor: Floor) -> set[Spot]:
    """Stairs, the arrival point and every tile something dormant already stands on."""
    taken = {floor.arrival, floor.down_stairs}
    if floor.up_stairs is not None:
        taken.add(floor.up_stairs)
    position = NAME_OF[Position]
    for entity in floor.dormant:
        taken.update((values[0], values[1]) for name, values in entity if name == position)
    return taken


def free_spot(rng: Rng, floor: Floor, room: list[Spot], taken: set[Spot]) -> Spot | None:
    """A random tile of plain ground (floor, sand, snow) of a room that holds nothing yet."""
    # The tiles as bytes, row by row: indexing them costs a third of indexing the array.
    tiles, width = floor.tiles.tobytes(), floor.width
    spots = [spot for spot in room if tiles[spot[1] * width + spot[0]] in GROUND_TILES and spot not in taken]
    return rng.choice(spots) if spots else None


def make_monster(kind: MonsterKind, spot: Spot, notice: int) -> PackedEntity:
    """A monster of a kind, packed for a dormant floor (a kind with a notice reach of its own keeps that)."""
    look = Renderable(kind.glyph, kind.colour, layer=MONSTER_LAYER)
    return pack_entity([Position(*spot), look, BlocksMovement(), Monster(kind.key, kind.notices_at(notice))])
