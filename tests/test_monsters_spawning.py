"""Monsters placed at floor generation: where, how many and how keen, from the State of Mind."""

from __future__ import annotations

from collections import Counter

import pytest

import roguelike.core.mapgen
import roguelike.core.spawning
import roguelike.core.world
from components import Monster, Position
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.core.floor import GROUND, Floor, PackedEntity
from roguelike.core.game import Game
from roguelike.core.mapgen import generate_floor
from roguelike.core.packing import unpack_entity
from roguelike.core.world import floor_seed

SEEDS = range(40)


def monsters_of(floor: Floor) -> list[tuple[Monster, tuple[int, int]]]:
    """The monsters packed into a fresh floor, with where they stand."""
    found = []
    for packed in floor.dormant:
        parts = {type(c): c for c in unpack_entity(packed)}
        if Monster in parts:
            pos = parts[Position]
            assert isinstance(pos, Position)
            monster = parts[Monster]
            assert isinstance(monster, Monster)
            found.append((monster, (pos.x, pos.y)))
    return found


@pytest.mark.parametrize("depth", [1, 2])
def test_monsters_spawn_only_outside_the_arrival_room_on_plain_ground(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[list[list[tuple[int, int]]]] = []
    real = roguelike.core.spawning.place_monsters

    def spy(seed: int, floor: Floor, rooms: list[list[tuple[int, int]]], som: int) -> list[PackedEntity]:
        seen.append(rooms)
        return real(seed, floor, rooms, som)

    monkeypatch.setattr(roguelike.core.mapgen, "place_monsters", spy)
    for seed in SEEDS:
        up = (20, 10) if depth > 1 else None
        floor = generate_floor(floor_seed(seed, depth), depth, up)
        allowed = {spot for room in seen[-1] for spot in room}
        assert floor.arrival not in allowed
        for _, spot in monsters_of(floor):
            assert spot in allowed and GROUND[floor.tile(*spot)]
            assert spot not in (floor.arrival, floor.down_stairs)


def test_no_two_things_share_a_tile_at_generation() -> None:
    for seed in SEEDS:
        floor = generate_floor(floor_seed(seed, 1), 1, None)
        spots = []
        for packed in floor.dormant:
            pos = next(c for c in unpack_entity(packed) if isinstance(c, Position))
            spots.append((pos.x, pos.y))
        assert len(spots) == len(set(spots))


def test_the_lower_the_state_of_mind_the_more_and_keener_the_monsters() -> None:
    def crowd(som: int) -> tuple[int, set[int]]:
        total, notice = 0, set()
        for seed in SEEDS:
            monsters = monsters_of(generate_floor(floor_seed(seed, 2), 2, (20, 10), som))
            total += len(monsters)
            notice |= {m.notice for m, _ in monsters}
        return total, notice

    (high_count, high_notice), (low_count, low_notice) = crowd(95), crowd(5)
    assert low_count > high_count
    assert min(low_notice) > max(high_notice)


def test_monster_numbers_grow_with_depth_and_misery() -> None:
    assert formulas.monster_count(90, 1) <= formulas.monster_count(90, 5)
    assert formulas.monster_count(90, 1) < formulas.monster_count(10, 1)
    assert formulas.notice_range(90) < formulas.notice_range(10) <= formulas.FOV_RADIUS


def test_arriving_lower_adds_monsters_and_moves_none_of_those_already_there() -> None:
    """One more wait before the stairs may cost a group more, never a floor reshuffled."""
    grew = 0
    for seed in SEEDS:
        higher = monsters_of(generate_floor(floor_seed(seed, 3), 3, (20, 10), 61))
        lower = monsters_of(generate_floor(floor_seed(seed, 3), 3, (20, 10), 39))  # one step of misery lower
        kept = [(m.kind, spot) for m, spot in higher]
        assert [(m.kind, spot) for m, spot in lower][: len(kept)] == kept
        grew += len(lower) > len(higher)
    assert grew > len(SEEDS) // 2


def test_generation_with_monsters_is_fixed_by_the_seed_and_state_of_mind() -> None:
    a = generate_floor(77, 3, (10, 10), 30)
    b = generate_floor(77, 3, (10, 10), 30)
    assert a.dormant == b.dormant


def test_every_kind_turns_up_and_hunger_in_packs() -> None:
    kinds: Counter[str] = Counter()
    for seed in SEEDS:
        kinds.update(m.kind for m, _ in monsters_of(generate_floor(floor_seed(seed, 2), 2, (10, 10))))
    assert set(kinds) == {key for key, kind in MONSTER_KINDS.items() if kind.from_floor <= 2}
    assert kinds["hunger"] > kinds["depression"]


def test_depression_and_the_hunger_packs_lurk_only_below_floor_1() -> None:
    kinds: Counter[str] = Counter()
    for seed in SEEDS:
        kinds.update(m.kind for m, _ in monsters_of(generate_floor(floor_seed(seed, 1), 1, None)))
    assert set(kinds) == {key for key, kind in MONSTER_KINDS.items() if kind.from_floor == 1}
    assert not {"depression", "hunger"} & set(kinds)
    assert MONSTER_KINDS["depression"].from_floor == formulas.DEPRESSION_FROM_FLOOR == 2
    assert MONSTER_KINDS["hunger"].from_floor == formulas.HUNGER_FROM_FLOOR == 2


def test_a_new_floor_is_generated_from_the_players_state_of_mind(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(5, "Tester")
    seen: list[int] = []
    real = roguelike.core.mapgen.generate_floor

    def spy(seed: int, depth: int, up: tuple[int, int] | None, som: int = 0) -> Floor:
        seen.append(som)
        return real(seed, depth, up, som)

    monkeypatch.setattr(roguelike.core.world, "generate_floor", spy)
    from components import StateOfMind

    game.player_component(StateOfMind).value = 42
    roguelike.core.world.ensure_floor(game.state, 2)
    assert seen == [42]


def test_monsters_stop_growing_in_number_and_kind_below_floor_20() -> None:
    deepest = formulas.DEPTH_GROWS_TO_FLOOR
    for state_of_mind in (5, 55, 90):
        assert formulas.monster_count(state_of_mind, deepest + 12) == formulas.monster_count(state_of_mind, deepest)
        assert formulas.monster_count(state_of_mind, deepest) > formulas.monster_count(state_of_mind, 1)
    depression = MONSTER_KINDS["depression"]
    assert depression.weight_at(deepest + 12) == depression.weight_at(deepest) > depression.weight_at(2)
