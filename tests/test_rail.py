"""The State of Mind rail as a helper, not a blocker (issue 40, items 1-6): it never stops a
journey to a safe dose, warns instead of walking into Desperation when no dose is known,
lets exploring go on when nothing else can help, offers to go to the dose (and a key does),
knows that a dose drawn on the map is no news, and confusion refuses automation without a turn."""

from __future__ import annotations

from pathlib import Path

import esper
import numpy as np
from tcod.event import KeySym, Modifier

from bestiary_helpers import set_player
from components import Confused, Dose, Position, Record
from helpers import add_dose, drawn_game, player_xy, run_autopilot
from roguelike.assist import autopilot as ap
from roguelike.assist.autoexplore import explore_step
from roguelike.assist.autopilot import Autopilot
from roguelike.assist.reserve import Way, reserve, safe_doses, steps_to_safe_dose
from roguelike.content import formulas
from roguelike.content.doses import SMALL_DOSE
from roguelike.core.commands import Command, Move
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import from_plain, to_plain
from roguelike.screens import helptext
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from save_helpers import key

SMALL = Dose(SMALL_DOSE.key, 30, 0, 0, 0)
HALL = ["#" * 42, "#@" + "." * 39 + "#", "#" + "." * 40 + "#", "#" * 42]


def run(pilot: Autopilot, limit: int = 500) -> list[Command]:
    """Apply the autopilot's commands until it stops (a rail's journeys are short)."""
    return run_autopilot(pilot, limit)


def known_hall(rows: list[str] = HALL) -> Game:
    """A drawn floor the player has seen all of, with nobody else on it (and no monster coming:
    the floor's numbers follow a low State of Mind)."""
    game = drawn_game(rows)
    game.state.floor.explored[:] = True
    game.state.monsters_still = True
    return game


def play(game: Game) -> tuple[App, InGameScreen]:
    """The game on the in-game screen, as the frontends run it."""
    screen = InGameScreen(Session(game))
    return App(screen), screen


def settle(app: App, limit: int = 500) -> None:
    """Let the frontends tick the automation under way until it ends."""
    while app.busy and limit:
        app.tick()
        limit -= 1


def line_above_desperation(will: int, actions: int) -> int:
    """The State of Mind that leaves ``actions`` actions before Desperation at the start of a turn."""
    per_turn = formulas.action_points(will)
    return formulas.desperation_threshold(will) + 1 + (actions - per_turn) // per_turn


# --- 1. a journey to a safe dose is never stopped -----------------------------------------------


def test_at_will_10_the_slack_holds_still_on_the_shortest_way_to_the_dose() -> None:
    game = known_hall()
    add_dose(30, 1, SMALL)
    set_player(game, state_of_mind=40, will=10)
    slacks = []
    for _ in range(20):
        slacks.append(reserve(game).slack)
        game.apply(Move(1, 0))
    assert slacks[0] is not None and len(set(slacks)) == 1  # two actions a turn, one step an action: nothing is eaten


def test_at_will_10_travel_to_a_safe_dose_20_steps_away_runs_to_the_end() -> None:
    game = known_hall()
    add_dose(22, 1, SMALL)
    set_player(game, state_of_mind=line_above_desperation(10, 28), will=10)
    assert reserve(game).short
    app, screen = play(game)
    screen.travel_to(22, 1)  # Enter in look, or a click
    settle(app)
    assert player_xy(game) == (21, 1) and screen.pilot.shown is None


def test_travel_to_a_safe_dose_other_than_the_nearest_is_not_stopped() -> None:
    game = known_hall()
    add_dose(3, 2, SMALL)  # nine steps west: the nearest
    add_dose(27, 1, SMALL)  # fifteen steps east
    pos = game.player_component(Position)
    pos.x, pos.y = 12, 1
    game.refresh_visible()
    set_player(game, state_of_mind=line_above_desperation(5, 19), will=5)
    assert reserve(game).steps == 9 and reserve(game).short
    pilot = Autopilot(game)
    pilot.travel_to(27, 1)
    run(pilot)
    assert player_xy(game) == (26, 1) and pilot.report is None
    assert game.control_reason() is None


def newcomer_at_will_10() -> Game:
    """A new game (seed 1) whose first floor the player has seen, at Will 10 near the rail, standing
    where the nearest safe dose is 20 steps away."""
    game = Game.new(1, "Newcomer")
    floor = game.state.floor
    floor.explored[:] = True
    set_player(game, state_of_mind=line_above_desperation(10, 30), will=10)
    pos = game.player_component(Position)
    for y, x in np.argwhere(floor.tiles == Tile.FLOOR).tolist():
        pos.x, pos.y = x, y
        if steps_to_safe_dose(game) == 20:
            break
    game.refresh_visible()
    assert steps_to_safe_dose(game) == 20
    return game


def test_a_newcomer_at_will_10_reaches_a_dose_20_steps_away_with_one_key() -> None:
    game = newcomer_at_will_10()
    assert reserve(game).short  # the rail used to stop every other step
    app, screen = play(game)
    app.handle(key(KeySym.T))
    settle(app)
    assert game.player_component(Record).doses_used == 1
    assert game.control_reason() is None and screen.pilot.shown is None


# --- 2. no safe dose known ------------------------------------------------------------------------


def test_with_no_dose_known_exploring_stops_at_a_margin_above_desperation_and_says_so() -> None:
    game = drawn_game(["#" * 70, "#@" + "." * 67 + "#", "#" * 70])
    set_player(game, state_of_mind=line_above_desperation(5, 15), will=5)
    pilot = Autopilot(game, enabled=frozenset())
    pilot.explore()
    run(pilot)
    assert game.control_reason() is None
    assert pilot.report == "No safe dose known: 10 turns to Desperation."
    pilot.explore()  # exploring is the only chance left: it goes, with the warning
    assert pilot.active and pilot.report == "No safe dose known: 10 turns to Desperation."


def test_known_stairs_are_a_way_on_when_no_safe_dose_is_known() -> None:
    game = known_hall(["#" * 42, "#@" + "." * 13 + ">" + "." * 25 + "#", "#" + "." * 40 + "#", "#" * 42])
    set_player(game, state_of_mind=line_above_desperation(5, 20), will=5)
    pilot = Autopilot(game, enabled=frozenset())
    pilot.explore()
    assert not pilot.active
    assert pilot.report == (
        "No safe dose known: the stairs down are 14 steps away and Desperation 20 actions off: go down first."
    )
    assert pilot.offer is Way.STAIRS
    pilot.travel_to_stairs(">")
    run(pilot)
    assert game.state.depth == 2  # heading for the way on: never stopped


def test_the_desperate_takeover_says_it_searches_rather_than_drags_you_to_a_dose() -> None:
    game = drawn_game(["#" * 30, "#@" + "." * 27 + "#", "#" * 30])
    set_player(game, state_of_mind=formulas.desperation_threshold(5), will=5)
    game.refresh_visible()
    reason = game.control_reason()
    assert reason is not None and "drags you to a dose" not in reason
    assert reason == "Desperate: the craving hunts for a dose."


# --- 3. the dose out of reach: exploring is the only chance ---------------------------------------


def test_with_the_nearest_safe_dose_beyond_reach_auto_explore_goes_with_the_warning() -> None:
    game = drawn_game(["#" * 70, "#@" + "." * 67 + "#", "#" * 70])
    game.state.floor.explored[1, :50] = True
    add_dose(49, 1, SMALL)
    set_player(game, state_of_mind=line_above_desperation(5, 37), will=5)
    assert reserve(game).steps == 48
    app, screen = play(game)
    app.handle(key(KeySym.O))
    assert screen.busy
    assert screen.pilot.shown == "The nearest safe dose is 48 steps away, beyond reach: Desperation is 37 actions off."


# --- 4. a key, and a yes on the rail's own line ---------------------------------------------------


def test_the_rail_offers_to_go_to_the_dose_and_y_takes_it_there() -> None:
    game = known_hall()
    add_dose(8, 1, SMALL)
    set_player(game, state_of_mind=line_above_desperation(5, 12), will=5)
    app, screen = play(game)
    app.handle(key(KeySym.O))
    assert not screen.busy and screen.pilot.shown is not None
    assert screen.pilot.shown.startswith("The nearest safe dose is 7 steps away")
    assert screen.pilot.shown.endswith("Press y to go to it and take it, any other key to stay.")
    assert app.take_interrupted()  # keys typed ahead never answer it
    app.handle(key(KeySym.Y))
    settle(app)
    assert game.player_component(Record).doses_used == 1


def test_any_other_key_declines_the_offer_and_does_what_it_always_does() -> None:
    game = known_hall()
    add_dose(8, 1, SMALL)
    set_player(game, state_of_mind=line_above_desperation(5, 12), will=5)
    app, screen = play(game)
    app.handle(key(KeySym.O))
    app.handle(key(KeySym.DOWN))
    assert player_xy(game) == (1, 2) and screen.pilot.offered is None
    app.handle(key(KeySym.Y))  # no longer an answer: a vi-key step up-left... into the wall
    assert game.player_component(Record).doses_used == 0 and not screen.busy


def test_going_to_a_dose_that_could_overdose_asks_first() -> None:
    game = known_hall()
    add_dose(6, 1, Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=80)
    app, screen = play(game)
    app.handle(key(KeySym.T))
    settle(app)
    assert screen.asking == Move(1, 0) and player_xy(game) == (5, 1)
    assert screen.pilot.shown is not None and "Take the small dose?" in screen.pilot.shown
    app.handle(key(KeySym.Y))
    assert game.player_component(Record).doses_used == 1


def test_t_with_no_safe_dose_known_says_so() -> None:
    game = known_hall()
    app, screen = play(game)
    app.handle(key(KeySym.T))
    assert not screen.busy and screen.pilot.shown == ap.NO_SAFE_DOSE and game.state.turn == 0


NICHE = ["#" * 60, "#" + "." * 58 + "#", "#" * 22 + "." + "#" * 37, "#" * 60]


def test_auto_explore_prefers_the_unexplored_near_a_known_dose() -> None:
    game = drawn_game(NICHE)
    pos = game.player_component(Position)
    pos.x, pos.y = 30, 1
    add_dose(22, 2, SMALL)
    set_player(game, state_of_mind=80)
    game.refresh_visible()
    floor = game.state.floor
    floor.explored[:] = False
    floor.explored[:, 20:40] = True  # the west edge 10 steps off, the east edge 9
    assert explore_step(game) == Move(1, 0)  # nearest first, with no dose to keep near
    assert explore_step(game, near=safe_doses(game)) == Move(-1, 0)
    pilot = Autopilot(game)
    pilot.explore()
    assert pilot.next_command() == Move(-1, 0)


# --- 5. a dose drawn on the map is never news -----------------------------------------------------


def test_a_dose_drawn_before_a_resume_does_not_stop_travel() -> None:
    game = known_hall()  # seen in an earlier sitting
    add_dose(30, 2, SMALL)
    set_player(game, state_of_mind=90, will=10)  # High all the way: no band to cross
    game.refresh_visible()
    assert not game.view.visible[2, 30]
    resumed = from_plain(to_plain(game))
    game.close()
    app, screen = play(resumed)
    screen.travel_to(40, 1)
    settle(app)
    assert player_xy(resumed) == (40, 1) and screen.pilot.shown is None


def test_a_dose_first_drawn_in_the_remembered_ring_is_no_news_when_it_comes_into_view() -> None:
    game = drawn_game(HALL)
    add_dose(30, 2, SMALL)
    set_player(game, state_of_mind=90, will=10)
    game.refresh_visible()
    app, screen = play(game)
    while not game.state.floor.explored[2, 30]:
        app.handle(key(KeySym.RIGHT))
    assert not game.view.visible[2, 30]  # drawn dim, beyond sight
    screen.travel_to(30, 1)  # past it, into sight
    settle(app)
    assert player_xy(game) == (30, 1) and screen.pilot.shown is None


# --- 6. confused, automation is refused without a turn --------------------------------------------


def confused_screen() -> tuple[Game, App, InGameScreen]:
    """A confused player in a known hall with stairs, a dose and room to rest."""
    game = known_hall(["#" * 42, "#@" + "." * 13 + "><" + "." * 24 + "#", "#" + "." * 40 + "#", "#" * 42])
    add_dose(8, 2, SMALL)
    set_player(game, state_of_mind=70)
    game.activate()
    esper.add_component(game.state.player, Confused(5))
    game.refresh_visible()
    app, screen = play(game)
    return game, app, screen


def test_confused_the_automation_keys_are_refused_without_a_turn_and_logged() -> None:
    game, app, screen = confused_screen()
    keys = [
        key(KeySym.O),
        key(KeySym.Z, Modifier.SHIFT),
        key(KeySym.R, Modifier.SHIFT),
        key(KeySym.PERIOD, Modifier.SHIFT),
        key(KeySym.COMMA, Modifier.SHIFT),
        key(KeySym.T),
    ]
    for pressed in keys:
        app.handle(pressed)
        assert game.state.turn == 0 and not screen.busy
        assert screen.pilot.shown == ap.CONFUSED and type(app.stack[-1]) is InGameScreen
    assert sum(note.text == ap.CONFUSED for note in screen.pilot.notes) == len(keys)
    app.handle(key(KeySym.W))  # a key bound to nothing: confusion keeps the controls
    assert game.state.turn == 0


def test_help_says_confusion_keeps_the_controls_as_the_manual_does() -> None:
    manual = " ".join((Path(__file__).parent.parent / "docs" / "manual.md").read_text(encoding="utf-8").split())
    assert "Confused, you keep the controls but your moves go the wrong way" in manual
    note = " ".join(helptext.CONTROLS_NOTE)
    assert "or confused, the game has the controls" not in note
    assert "When confused, you keep them but move the wrong way" in note
