"""Auto-explore, travel and rest: where they go, and that they stop through the disturbances."""

from __future__ import annotations

import esper
import numpy as np
import pytest

from bestiary_helpers import add_monster, set_player
from components import Bestiary, Monster, Position, Record, StateOfMind
from helpers import drawn_game, player_xy, reachable
from helpers import run_autopilot as run
from roguelike.assist import autopilot as ap
from roguelike.assist.autopilot import Autopilot
from roguelike.content import formulas
from roguelike.content.climates import CLIMATES
from roguelike.content.finds import FIND_KINDS
from roguelike.content.interrupts import Disturbance
from roguelike.content.wording import with_article
from roguelike.core.commands import Move, Wait
from roguelike.core.floor import PASSABLE
from roguelike.core.game import Game
from roguelike.core.world import doses_on_floor, travel

CORRIDOR = [
    "########################################",
    "#@.....................................#",
    "########################################",
]


def sober(game: Game) -> None:
    """Make the player High, short of close to an overdose, at Will 10 (the test's hand, not a
    rule): no monster grows on a floor while the player is High, sight is wide, and Desperation
    is far enough off that the State of Mind rule never calls the player back to a dose."""
    set_player(
        game, state_of_mind=formulas.STATE_OF_MIND_MAX - formulas.CLOSE_CALL_MARGIN - 1, will=formulas.ATTRIBUTE_MAX
    )
    game.refresh_visible()


WITHOUT_MOOD = frozenset(Disturbance) - {Disturbance.MOOD}


def test_a_monster_coming_into_view_stops_auto_explore_on_that_turn() -> None:
    game = drawn_game(CORRIDOR)
    sober(game)
    monster = add_monster(game, "hunger", 34, 1, notice=1)
    assert not game.view.visible[1, 34]
    pilot = Autopilot(game, enabled=WITHOUT_MOOD)
    pilot.explore()
    seen_after: list[bool] = []
    while pilot.active:
        command = pilot.next_command()
        if command is None:
            break
        game.apply(command)
        pos = esper.component_for_entity(monster, Position)
        seen_after.append(bool(game.view.visible[pos.y, pos.x]))
        pilot.after_step()
    assert seen_after[-1] and not any(seen_after[:-1])  # stopped on the very step it appeared
    assert pilot.report is not None and pilot.report.startswith("You see a Hunger (h) for the first time.")
    assert len(seen_after) > 10


def test_a_known_kind_is_a_plain_monster_and_the_interrupt_can_be_turned_off() -> None:
    game = drawn_game(CORRIDOR)
    sober(game)
    esper.add_component(game.state.player, Bestiary(met={"hunger": 1}))
    add_monster(game, "hunger", 34, 1, notice=1)
    pilot = Autopilot(game, enabled=WITHOUT_MOOD)
    pilot.explore()
    run(pilot)
    assert pilot.report == "You see a Hunger (h)."
    assert pilot.report is not None and pilot.active is False


def test_with_monster_interrupts_turned_off_exploring_goes_on_past_one() -> None:
    game = drawn_game(CORRIDOR)
    sober(game)
    monster = add_monster(game, "hunger", 34, 1, notice=1)
    # The game's own first-sight message would stop it too: that interrupt goes as well.
    pilot = Autopilot(game, enabled=WITHOUT_MOOD - {Disturbance.MONSTER, Disturbance.NEW_KIND, Disturbance.MESSAGE})
    pilot.explore()
    run(pilot)
    assert game.player_component(Bestiary).met == {"hunger": 1}
    assert esper.entity_exists(monster)
    assert pilot.report == ap.EXPLORED


def test_auto_explore_refuses_with_a_monster_in_view() -> None:
    game = drawn_game(CORRIDOR)
    sober(game)
    add_monster(game, "hunger", 5, 1, notice=1)
    pilot = Autopilot(game)
    pilot.explore()
    assert not pilot.active and pilot.report == ap.MONSTER_NEAR


def test_auto_explore_walks_around_a_dose_and_never_takes_it() -> None:
    game = drawn_game(
        [
            "#########",
            "#@.....##",
            "#.i......",
            "#.....###",
            "#########",
        ]
    )
    sober(game)
    pilot = Autopilot(game, enabled=frozenset(Disturbance) - {Disturbance.DOSE, Disturbance.MOOD})
    pilot.explore()
    run(pilot)
    assert pilot.report == ap.EXPLORED
    assert game.player_component(Record).doses_used == 0
    assert game.state.floor.explored[2, 8]


SEEDS, DEPTHS = [1, 2, 5, 7, 11, 12], [1, 2, 4]  # floors of every climate among them


def test_the_floors_explored_below_are_of_every_kind() -> None:
    kinds = set()
    for seed in SEEDS:
        for depth in DEPTHS:
            game = floor_without_monsters(seed, depth)
            kinds.add(game.state.floor.kind)
            game.close()
    assert kinds == set(CLIMATES)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("depth", DEPTHS)
def test_auto_explore_finishes_generated_floors(seed: int, depth: int) -> None:
    game = floor_without_monsters(seed, depth)
    presses = 0
    while presses < 200:
        sober(game)  # the test keeps the player from drifting into Withdrawal or Desperation
        remove_monsters()  # reinforcements too: the floor is explored with no one about
        pilot = Autopilot(game)
        pilot.explore()
        run(pilot)
        presses += 1
        if pilot.report == ap.EXPLORED:
            break
        # Only doses or (while High) finds coming into view and the State of Mind leaving High stop it.
        finds = {f"You see {with_article(kind.name)}." for kind in FIND_KINDS.values()}
        assert pilot.report is not None and ("dose" in pilot.report or "now." in pilot.report or pilot.report in finds)
    assert pilot.report == ap.EXPLORED
    assert game.player_component(Record).doses_used == 0
    assert game.state.depth == depth
    floor = game.state.floor
    open_ground = PASSABLE[floor.tiles]  # wherever the player can get (a closed door opens)
    for _, pos, _ in doses_on_floor():
        open_ground[pos.y, pos.x] = False
    start = floor.arrival
    open_ground[start[1], start[0]] = True
    must_see = reachable(open_ground, start)
    assert floor.explored[must_see].all()


def floor_without_monsters(seed: int, depth: int) -> Game:
    """A new game taken down to ``depth``, every monster there removed."""
    game = Game.new(seed, "Explorer")
    if depth > 1:
        travel(game.state, depth)
    remove_monsters()
    game.refresh_visible()
    game.state.floor.explored |= game.view.visible
    return game


def remove_monsters() -> None:
    """Every monster of the floor gone (those the floor began with, and reinforcements since)."""
    for entity, _ in esper.get_component(Monster):
        esper.delete_entity(entity, immediate=True)


def test_travel_to_the_stairs_down_descends() -> None:
    game = drawn_game(
        [
            "###########",
            "#@.......>#",
            "###########",
        ]
    )
    sober(game)
    game.state.floor.explored[:] = True
    pilot = Autopilot(game)
    pilot.travel_to_stairs(">")
    commands = run(pilot)
    assert game.state.depth == 2
    assert commands == [Move(1, 0)] * 8
    assert pilot.report is None


def test_travel_to_unknown_stairs_says_so() -> None:
    game = drawn_game(CORRIDOR)
    pilot = Autopilot(game)
    pilot.travel_to_stairs(">")
    assert not pilot.active and pilot.report == ap.STAIRS_UNKNOWN[">"]


def test_travel_to_a_dose_stops_beside_it() -> None:
    game = drawn_game(["#########", "#@.....i#", "#########"])
    sober(game)
    pilot = Autopilot(game)
    pilot.travel_to(7, 1)
    run(pilot)
    assert player_xy(game) == (6, 1)
    assert game.player_component(Record).doses_used == 0


def test_rest_waits_until_the_state_of_mind_changes_band() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=formulas.WITHDRAWAL_BELOW + 3)
    pilot = Autopilot(game)
    pilot.rest()
    commands = run(pilot)
    assert set(commands) == {Wait()}
    assert game.player_component(StateOfMind).value == formulas.WITHDRAWAL_BELOW - 1
    assert pilot.report == "You are in Withdrawal now."


def test_rest_stops_after_its_turns() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=formulas.HIGH_ABOVE - 1)
    pilot = Autopilot(game, enabled=frozenset())
    pilot.rest()
    run(pilot)
    assert game.state.turn == formulas.REST_TURNS
    assert pilot.report == ap.RESTED


def test_a_takeover_stops_automation_and_hands_back_with_a_message() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=formulas.desperation_threshold(5) + 1, will=5)
    game.refresh_visible()  # who steers is decided again after a hand-made change
    pilot = Autopilot(game)
    pilot.explore()
    run(pilot)
    assert pilot.report is not None and pilot.report.startswith("Desperate")
    assert np.any(game.state.floor.explored)
