"""The world follows the mind: sight, the explored ring, Perfect High, visions, dose kinds, live monsters."""

from __future__ import annotations

import esper
import pytest

from bestiary_helpers import ROOM, add_monster, arena, set_player
from components import Dose, Monster, Position, Record, Sight, StateOfMind, Vision
from helpers import add_dose, drawn_game, player_xy
from roguelike.content import formulas
from roguelike.content.doses import CARDINAL_DOSE, DIAGONAL_DOSE, DOSE_KINDS, NORMAL_DOSE
from roguelike.core.commands import Move, Wait
from roguelike.core.ecs import run_system
from roguelike.core.game import Game
from roguelike.core.mapgen import dose_kind
from roguelike.core.rng import Rng
from roguelike.core.world import roster
from roguelike.screens.look import describe
from systems.monsters import notice_player
from systems.perception import FIRST_PERFECT_HIGH, PERFECT_HIGH_AGAIN, cast_sight
from systems.reinforcements import follow_the_mind

OPEN = ["#" * 41] + ["#" + "." * 39 + "#" for _ in range(19)] + ["#" * 41]


def open_field(som: int, will: int = 5) -> Game:
    """A large open floor with the player in the middle at a given State of Mind."""
    rows = [row for row in OPEN]
    rows[10] = rows[10][:20] + "@" + rows[10][21:]
    game = drawn_game(rows)
    set_player(game, state_of_mind=som, will=will)
    return game


@pytest.mark.parametrize(("low", "high"), [(10, 30), (30, 55), (55, 80), (80, 99)])
def test_sight_widens_as_the_state_of_mind_rises(low: int, high: int) -> None:
    assert formulas.sight_radius(low, 5) <= formulas.sight_radius(high, 5)
    seen = []
    for som in (low, high):
        game = open_field(som + 1)  # a wait costs a point before sight is cast again next action
        game.apply(Wait())
        seen.append(int(game.view.visible.sum()))
        assert game.player_component(Sight).radius == formulas.sight_radius(som, 5)
    assert seen[0] <= seen[1]


def test_desperate_sight_is_narrowest_and_high_sight_widest() -> None:
    assert formulas.sight_radius(10, 5) == formulas.SIGHT_DESPERATE
    assert formulas.sight_radius(55, 5) == formulas.FOV_RADIUS
    assert formulas.sight_radius(100, 5) == formulas.SIGHT_HIGH[1]
    assert formulas.sight_radius(61, 5) > formulas.FOV_RADIUS


def test_the_explored_ring_is_known_but_not_seen() -> None:
    game = open_field(56)
    game.state.floor.explored[:] = False
    game.apply(Wait())
    x, y = player_xy(game)
    radius = game.player_component(Sight).radius
    ring_tile = (x + radius + formulas.EXPLORED_RING - 1, y)
    assert not game.view.visible[ring_tile[1], ring_tile[0]]
    assert game.state.floor.explored[ring_tile[1], ring_tile[0]]
    beyond = (x + radius + formulas.EXPLORED_RING + 1, y)
    assert not game.state.floor.explored[beyond[1], beyond[0]]


def test_a_loaded_game_sees_exactly_what_the_played_one_saw() -> None:
    import msgpack

    from roguelike.core.snapshot import encode, from_plain, to_plain

    game = open_field(80)
    game.apply(Wait())
    loaded = from_plain(msgpack.unpackb(encode(to_plain(game))))
    assert (loaded.view.visible == game.view.visible).all()


def test_perfect_high_is_counted_each_time_and_announced_at_length_once() -> None:
    game = arena()
    record = game.player_component(Record)
    for som in (100, 100, 70, 100):  # a wait takes a point: 99, 99, 69, 99
        set_player(game, state_of_mind=som)
        game.apply(Wait())
    texts = [m.text for m in game.state.messages]
    assert texts.count(FIRST_PERFECT_HIGH) == 1 and texts.count(PERFECT_HIGH_AGAIN) == 1
    assert record.perfect_highs == 2
    assert formulas.is_perfect_high(98) and formulas.is_perfect_high(99)
    assert not formulas.is_perfect_high(97) and not formulas.is_perfect_high(100)


def vision_game(som: int) -> tuple[Game, int]:
    """The player beside a dose that is a vision."""
    game = arena()
    set_player(game, state_of_mind=som)
    dose = add_dose(9, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    esper.add_component(dose, Vision())
    return game, dose


def test_a_vision_is_not_there_unless_high() -> None:
    game, dose = vision_game(40)
    game.apply(Move(1, 0))
    assert player_xy(game) == (9, 4), "the player walks through where the vision would be"
    assert esper.entity_exists(dose) and game.player_component(Record).doses_used == 0


def test_a_vision_can_be_taken_while_high() -> None:
    game, dose = vision_game(70)
    game.apply(Move(1, 0))
    assert player_xy(game) == (8, 4) and not esper.entity_exists(dose)
    assert game.player_component(Record).dose_kinds == {NORMAL_DOSE.key: 1}


def test_the_look_panel_names_a_vision_while_high_and_nothing_when_not() -> None:
    game, _ = vision_game(70)
    game.state.floor.explored[:] = True
    assert ", a vision:" in describe(game, (9, 4))[0][0]
    set_player(game, state_of_mind=40)
    assert "dose" not in describe(game, (9, 4))[0][0].lower()
    plain = arena()
    add_dose(9, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    assert "vision" not in describe(plain, (9, 4))[0][0]


def test_a_cardinal_dose_blasts_monsters_in_line_but_not_on_the_diagonals() -> None:
    game = arena()
    add_dose(9, 4, Dose(CARDINAL_DOSE.key, 30, 0, 0, 0))
    in_line = [add_monster(game, "anxiety", x, y) for x, y in ((9, 1), (9, 7), (14, 4))]
    aside = [add_monster(game, "anxiety", x, y) for x, y in ((11, 2), (12, 7))]
    game.apply(Move(1, 0))
    game.activate()
    assert not any(esper.entity_exists(m) for m in in_line)
    assert all(esper.entity_exists(m) for m in aside)
    assert game.player_component(Record).kills == 3
    assert any(cue.kind == "blast" for cue in game.action.cues)


def test_a_diagonal_dose_blasts_along_the_diagonals_and_walls_stop_it() -> None:
    rows = list(ROOM)
    rows[3] = "#.........#.....#"  # a wall on the up-right diagonal, one tile from the dose
    game = arena(rows)
    add_dose(9, 4, Dose(DIAGONAL_DOSE.key, 30, 0, 0, 0))
    hit = add_monster(game, "anxiety", 7, 6)
    sheltered = add_monster(game, "anxiety", 11, 2)  # on that diagonal, behind the wall
    aside = add_monster(game, "anxiety", 9, 7)
    game.apply(Move(1, 0))
    game.activate()
    assert not esper.entity_exists(hit)
    assert esper.entity_exists(sheltered) and esper.entity_exists(aside)


def test_every_dose_kind_turns_up_from_its_floor_with_its_own_look_and_description() -> None:
    looks = {(kind.glyph, kind.colour) for kind in DOSE_KINDS.values()}
    assert len(looks) == len(DOSE_KINDS)
    assert all(kind.description for kind in DOSE_KINDS.values())
    rng = Rng(5)
    deep = {dose_kind(rng, 10).key for _ in range(2000)}
    assert deep == set(DOSE_KINDS)
    shallow = {dose_kind(rng, 1).key for _ in range(500)}
    assert shallow == {kind.key for kind in DOSE_KINDS.values() if kind.from_floor == 1}


def test_monsters_notice_from_farther_when_the_mind_is_low() -> None:
    distances = {}
    for som in (90, 30):
        game = arena(OPEN)
        esper.component_for_entity(game.state.player, Position).x = 5
        esper.component_for_entity(game.state.player, Position).y = 10
        set_player(game, state_of_mind=som)
        run_system(cast_sight, game.now())
        watchers = {d: add_monster(game, "anxiety", 5 + d, 10, notice=5) for d in range(2, 8)}
        run_system(notice_player, game.now())
        game.activate()
        distances[som] = [d for d, m in watchers.items() if esper.component_for_entity(m, Monster).target]
    assert len(distances[30]) > len(distances[90])


def test_a_floor_grows_monsters_while_low_and_loses_them_high() -> None:
    game = arena(OPEN)
    set_player(game, state_of_mind=10)
    game.state.turn = formulas.REINFORCE_EVERY
    run_system(follow_the_mind, game.now())
    game.activate()
    grown = roster()
    assert len(grown) == 1
    x, y = player_xy(game)
    assert max(abs(grown[0][2].x - x), abs(grown[0][2].y - y)) >= formulas.REINFORCE_MIN_DISTANCE
    many = [add_monster(game, "anxiety", 30 + i % 8, 2 + i // 8) for i in range(40)]
    set_player(game, state_of_mind=90)
    run_system(follow_the_mind, game.now())
    game.activate()
    assert len(roster()) == len(many)  # one of the 41 faded
    game.state.turn += 1
    run_system(follow_the_mind, game.now())
    assert len(roster()) == len(many), "only every few turns"


def test_the_colour_ramp_is_continuous_and_high_looks_high_from_its_first_point() -> None:
    steps = [formulas.palette_for(som) for som in range(0, 101)]
    saturations = [s for s, _ in steps]
    assert saturations == sorted(saturations) and saturations[0] == formulas.GREY_SATURATION
    assert all(b - a <= 0.05 for a, b in zip(saturations, saturations[1 : formulas.HIGH_ABOVE + 1]))
    assert formulas.palette_for(61)[0] > 1.0 and formulas.hue_swing(61) > 0 == formulas.hue_swing(60)
    assert formulas.hue_swing(100) > formulas.hue_swing(61)
    assert formulas.vignette(10) > formulas.vignette(40) > formulas.vignette(50) == 0


def test_state_of_mind_component_is_untouched_by_drawing() -> None:
    from roguelike.render.screenshot import game_console

    game = open_field(99)
    before = (game.player_component(StateOfMind).value, int(game.state.floor.explored.sum()))
    game_console(game)
    assert (game.player_component(StateOfMind).value, int(game.state.floor.explored.sum())) == before


@pytest.mark.parametrize(("som", "down"), [(40, False), (75, True)])
def test_a_shortcut_down_is_there_only_for_the_high(som: int, down: bool) -> None:
    from components import Renderable, Shortcut

    game = arena()
    set_player(game, state_of_mind=som)
    esper.create_entity(Position(9, 4), Renderable(">", (190, 120, 255)), Shortcut(), Vision())
    game.apply(Move(1, 0))
    assert (game.state.depth == 2) == down
    assert player_xy(game) == (game.state.floor.arrival if down else (9, 4))


def test_some_floors_hold_a_shortcut_and_none_on_floor_one() -> None:
    from roguelike.core.mapgen import generate_floor
    from roguelike.core.world import floor_seed

    def shortcuts(depth: int) -> int:
        found = 0
        for seed in range(60):
            floor = generate_floor(floor_seed(seed, depth), depth, None if depth == 1 else (40, 10))
            found += sum(any(name == "shortcut" for name, _ in packed) for packed in floor.dormant)
        return found

    assert shortcuts(1) == 0 and 5 < shortcuts(3) < 45
