"""The first games' safety rails: a lethal step asks first, automation knows the State of Mind,
stops only for what is new, and keys typed ahead never act on what stopped it."""

from __future__ import annotations

import esper
import pytest
from tcod.event import KeySym, Modifier

from bestiary_helpers import add_monster, arena, set_player
from components import Confused, Dose, Record, StateOfMind
from helpers import add_dose, drawn_game, player_xy, settle
from helpers import run_autopilot as run
from roguelike import settings
from roguelike.assist import autopilot as ap
from roguelike.assist.autoexplore import known_doses, step_to
from roguelike.assist.autopilot import Autopilot
from roguelike.assist.reserve import reserve
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS, EXTRA_LARGE_DOSE, NORMAL_DOSE, SMALL_DOSE, Risk, dose_odds
from roguelike.content.interrupts import ALL_DISTURBANCES, Disturbance
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.core.mapgen import pure_batch
from roguelike.core.packing import unpack_entity
from roguelike.core.rng import Rng
from roguelike.core.session import Session
from roguelike.frontend.keygate import KeyGate
from roguelike.frontend.terminal import TerminalLoop
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.messages import MessageLogScreen
from roguelike.screens.restuntil import RestUntilScreen
from save_helpers import key
from test_key_flush import press
from test_terminal_loop import Clock, Read, ScriptedTerminal, setup

# --- the true figures of a dose ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 9))
def test_every_generated_dose_lies_within_the_figures_the_panel_shows(seed: int) -> None:
    from roguelike.core.world import ensure_floor

    game = Game.new(seed, "Counter")
    generated = {1: [dose for _, _, dose in game.doses()]}  # the floor played is in the world
    for depth in (4, 9, 15):  # a floor below is packed away until the player arrives
        game.state.depth = depth
        floor = ensure_floor(game.state, depth)
        generated[depth] = [
            part for packed in floor.dormant for part in unpack_entity(packed) if isinstance(part, Dose)
        ]
    for depth, doses in generated.items():
        assert doses, f"floor {depth} has doses to check"
        for dose in doses:
            odds = dose_odds(DOSE_KINDS[dose.kind], depth, 0, 0)
            assert odds.low <= dose.strength <= odds.purest
            assert dose.strength <= odds.high or dose.strength - formulas.PURE_BATCH_EXTRA >= odds.low
    game.close()


def test_the_depth_bonus_and_a_purer_batch_are_counted() -> None:
    odds = dose_odds(SMALL_DOSE, 6, 50, 0)
    bonus = formulas.dose_strength_bonus(6)
    assert (odds.low, odds.high) == (SMALL_DOSE.strength[0] + bonus, SMALL_DOSE.strength[1] + bonus)
    assert odds.purest == odds.high + formulas.PURE_BATCH_EXTRA and odds.risk is Risk.COULD
    assert dose_odds(SMALL_DOSE, 1, 40, 0).risk is Risk.NONE
    purer_from = formulas.PURE_BATCH_FROM_FLOOR
    assert dose_odds(SMALL_DOSE, purer_from, 40, 0).risk is Risk.PURER  # 44 at most; 64 as a purer batch


def test_the_first_floors_hold_no_purer_batch_and_the_panel_says_none() -> None:
    for depth in range(1, formulas.PURE_BATCH_FROM_FLOOR):
        odds = dose_odds(SMALL_DOSE, depth, 50, 0)
        assert odds.purest == odds.high and odds.risk is Risk.NONE and odds.if_purer("purer") == ""
        assert all(pure_batch(Rng(seed), depth) == 0 for seed in range(2000))  # 1 in 150 would show
    assert any(pure_batch(Rng(seed), formulas.PURE_BATCH_FROM_FLOOR) for seed in range(20_000))


def test_the_purer_batch_grows_likelier_a_floor_at_a_time_to_its_full_odds() -> None:
    first = formulas.PURE_BATCH_FROM_FLOOR
    full = first + formulas.PURE_BATCH_RAMP_FLOORS - 1
    chances = [formulas.purer_batch_chance(depth) for depth in range(first, full + 1)]
    shares = [n / d for n, d in chances]
    assert all(a < b for a, b in zip(shares, shares[1:]))  # a step likelier every floor
    assert shares[-1] == formulas.PURE_BATCH_CHANCE[0] / formulas.PURE_BATCH_CHANCE[1]
    assert formulas.purer_batch_chance(full + 30) == chances[-1] and formulas.purer_batch_chance(first - 1)[0] == 0
    # The floors are made with those odds: far fewer purer batches on the first floor with any.
    found = [sum(pure_batch(Rng(seed), depth) > 0 for seed in range(30_000)) for depth in (first, full)]
    assert 0 < found[0] * 3 < found[1]
    assert dose_odds(EXTRA_LARGE_DOSE, 1, 30, 0).risk is Risk.WILL


# --- a lethal step asks first ------------------------------------------------------------------


def risky_screen(state_of_mind: int = 50) -> tuple[Game, InGameScreen]:
    """The player beside a normal dose (36..56) that could overdose at ``state_of_mind``."""
    game = arena()
    set_player(game, state_of_mind=state_of_mind)
    add_dose(9, 4, Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    return game, InGameScreen(Session(game))


def test_a_step_into_a_dose_that_could_overdose_asks_and_any_key_but_y_leaves_it() -> None:
    game, screen = risky_screen()
    screen.on_event(key(KeySym.RIGHT))
    assert (screen.asking, game.state.turn) == (Move(1, 0), 0)
    assert screen.pilot.shown is not None and "Take the dose?" in screen.pilot.shown
    assert "it COULD overdose you" in screen.pilot.shown
    assert screen.take_interrupt()  # keys typed ahead of the question are dropped
    screen.on_event(key(KeySym.RIGHT))  # not y: the dose is left where it lies
    assert screen.asking is None and game.player_component(Record).doses_used == 0
    assert screen.pilot.shown == "You leave the dose alone." and game.state.turn == 0


def test_y_takes_it_but_a_held_y_repeating_does_not_answer() -> None:
    game, screen = risky_screen()
    screen.on_event(key(KeySym.RIGHT))
    screen.on_event(press(KeySym.Y, repeat=True))
    assert screen.asking is not None and game.player_component(Record).doses_used == 0
    screen.on_event(key(KeySym.Y))
    assert game.player_component(Record).doses_used == 1


def test_a_safe_dose_and_the_setting_turned_off_ask_nothing(tmp_path: object) -> None:
    game, screen = risky_screen(state_of_mind=20)
    screen.on_event(key(KeySym.RIGHT))
    assert screen.asking is None and game.player_component(Record).doses_used == 1
    game, screen = risky_screen()
    settings.preferences().change("confirm_lethal", False)
    try:
        screen.on_event(key(KeySym.RIGHT))
    finally:
        settings.preferences().change("confirm_lethal", True)
    assert screen.asking is None and game.player_component(Record).doses_used == 1


def test_confused_the_step_that_really_happens_is_the_one_judged() -> None:
    game, screen = risky_screen()
    game.activate()
    esper.add_component(game.state.player, Confused(5))
    game.refresh_visible()
    screen.on_event(key(KeySym.RIGHT))  # goes left, away from the dose
    assert screen.asking is None and player_xy(game) == (7, 4)
    screen.on_event(key(KeySym.LEFT))  # goes right: back beside it
    screen.on_event(key(KeySym.LEFT))  # into it
    assert screen.asking == Move(-1, 0)


def test_the_window_drops_a_key_typed_ahead_of_the_question() -> None:
    game, screen = risky_screen()
    app = App(screen)
    queued = [press(KeySym.Y)]
    gate = KeyGate(poll=lambda: queued)
    gate.pass_events(app, [press(KeySym.RIGHT)], app.handle)
    assert screen.asking is not None and game.player_component(Record).doses_used == 0
    gate.pass_events(app, [press(KeySym.Y)], app.handle)  # pressed afresh, after seeing it
    assert game.player_component(Record).doses_used == 1


def test_the_screen_reader_hears_the_question() -> None:
    game, screen = risky_screen()
    screen.spoken()
    screen.on_event(key(KeySym.RIGHT))
    assert any("Take the dose?" in line for line in screen.spoken())


# --- automation knows the State of Mind --------------------------------------------------------


def take_first_dose(game: Game) -> None:
    """Walk to the first dose and take it, as a new player does."""
    while game.player_component(Record).doses_used == 0:
        step = step_to(game, known_doses(game))
        assert step is not None
        game.apply(step)


@pytest.mark.parametrize("seed", [2, 10, 17])
def test_pressing_o_again_and_again_never_walks_into_desperation(seed: int) -> None:
    # Before the rule, the fourth press walked seed 1 (under the rules of then) into Desperation
    # far from any dose; these seeds, under today's rules, end where the rule calls a halt.
    game = Game.new(seed, "Newcomer")
    take_first_dose(game)
    pilot = Autopilot(game)
    for _ in range(30):
        pilot.explore()
        if not pilot.active:
            break
        run(pilot)
    assert game.control_reason() is None
    assert pilot.report is not None and pilot.report.startswith("The nearest safe dose is")
    assert " 1 steps" not in pilot.report and " 1 actions" not in pilot.report
    funds = reserve(game)
    assert funds.steps is not None and funds.steps < funds.actions <= funds.steps + formulas.AUTOMATION_RESERVE_ACTIONS
    game.close()


CORRIDOR = ["#" * 40, "#@" + "." * 37 + "#", "#" * 40]


def test_rest_stops_before_the_dose_beside_you_would_be_out_of_reach() -> None:
    game = drawn_game(CORRIDOR)
    add_dose(3, 1, Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=40, will=5)
    pilot = Autopilot(game)
    pilot.rest(until_som=10)
    run(pilot)
    som = game.player_component(StateOfMind).value
    assert som > formulas.desperation_threshold(5) and pilot.report is not None
    assert pilot.report.startswith("The nearest safe dose is 2 steps away")


def test_travel_toward_the_safe_dose_is_never_stopped_by_the_rule() -> None:
    game = drawn_game(CORRIDOR)
    add_dose(9, 1, Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    game.state.floor.explored[:] = True
    set_player(game, state_of_mind=formulas.desperation_threshold(5) + 11, will=5)
    assert reserve(game).short  # ten actions left, eight steps to go
    pilot = Autopilot(game, enabled=frozenset())
    pilot.travel_to(9, 1)
    assert pilot.active
    run(pilot)
    assert player_xy(game) == (8, 1) and pilot.report is None


def test_rest_until_a_state_of_mind() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=70)
    pilot = Autopilot(game, enabled=frozenset())
    pilot.rest(until_som=64)
    commands = run(pilot)
    assert commands == [Wait()] * 6 and game.player_component(StateOfMind).value == 64
    assert pilot.report == "You rest until your State of Mind is 64."
    pilot.rest(until_som=70)
    assert not pilot.active and pilot.report == "Your State of Mind is 64 already."


def test_the_rest_until_prompt_suggests_where_the_nearest_dose_becomes_safe() -> None:
    game = drawn_game(CORRIDOR)
    add_dose(3, 1, Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    set_player(game, state_of_mind=70)
    app = App(InGameScreen(Session(game)))
    app.handle(key(KeySym.R, Modifier.SHIFT))
    prompt = app.stack[-1]
    assert isinstance(prompt, RestUntilScreen)
    purest = dose_odds(NORMAL_DOSE, 1, 70, 0).purest
    assert prompt.typed == str(100 - purest)
    app.handle(key(KeySym.N6))
    app.handle(key(KeySym.N5))
    app.handle(key(KeySym.RETURN))
    settle(app)
    assert game.player_component(StateOfMind).value == 65


# --- stop for what is new --------------------------------------------------------------------

ROOMS = [
    "###########",
    "#@........#",
    "#.........#",
    "#....i....#",
    "###.###.###",
    "#.........#",
    "#.........#",
    "###########",
]


def test_a_dose_stops_automation_once_and_never_again() -> None:
    game = drawn_game(ROOMS)
    game.state.floor.explored[:] = False
    set_player(game, state_of_mind=80)
    game.refresh_visible()
    pilot = Autopilot(game, enabled=frozenset({*ALL_DISTURBANCES} - {Disturbance.MOOD}))
    pilot.seen.doses.clear()
    explored_before = int(game.state.floor.explored.sum())
    pilot.explore()
    run(pilot)
    assert pilot.report == ap.EXPLORED
    assert int(game.state.floor.explored.sum()) > explored_before


def test_known_doses_never_stop_travel_again() -> None:
    game = drawn_game(["#" * 30, "#@" + "." * 27 + "#", "#" * 30])
    add_dose(15, 1, Dose(SMALL_DOSE.key, 30, 0, 0, 0))
    set_player(game, state_of_mind=80)
    game.state.floor.explored[:] = False
    game.refresh_visible()
    pilot = Autopilot(game, enabled=frozenset({Disturbance.DOSE}))
    for _ in range(6):  # out of sight and back: seen once, news once
        game.apply(Move(1, 0))
    game.state.floor.explored[1, :] = True
    pilot.watch()
    pilot.after_step()  # the player's own command noted what is in view
    pilot.travel_to(14, 1)
    run(pilot)
    assert player_xy(game) == (14, 1) and pilot.report is None


def test_a_monster_blinking_in_and_out_of_sight_stops_automation_once() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=80)
    add_monster(game, "hunger", 12, 1, notice=1)
    pilot = Autopilot(game, enabled=frozenset({Disturbance.MONSTER, Disturbance.NEW_KIND}))
    pilot.watch()
    pilot.after_step()  # seen now
    game.activate()
    game.view.visible[1, 12] = False  # out of sight a moment...
    pilot.watch()
    game.refresh_visible()  # ...and back
    assert pilot.after_step() == []


def test_an_idle_monster_far_away_does_not_keep_travel_from_starting_but_a_hunting_one_does() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=80)
    game.state.floor.explored[:] = True
    hunger = add_monster(game, "hunger", 10, 1, notice=1)
    assert game.view.visible[1, 10]
    pilot = Autopilot(game)
    pilot.travel_to(5, 1)
    set_off = pilot.active
    assert set_off
    pilot.stop(None)
    game.activate()
    from components import Monster

    esper.component_for_entity(hunger, Monster).target = game.state.player
    pilot.travel_to(5, 1)
    assert not pilot.active and pilot.report == ap.MONSTER_HUNTS


# --- keys typed ahead of any automation stop are dropped ---------------------------------------

HIDDEN_NICHE = [
    "##############################",
    "#@.....+.....................#",
    "#############.################",
    "##############################",
]


def niche_game() -> Game:
    """A known corridor behind a door; an extra-large dose in a niche past it, not yet seen."""
    game = drawn_game(HIDDEN_NICHE)
    add_dose(13, 2, Dose(EXTRA_LARGE_DOSE.key, 90, 0, 0, 0))
    set_player(game, state_of_mind=80, will=5)
    game.refresh_visible()
    game.state.floor.explored[1, :] = True
    return game


def test_a_travel_stopping_on_a_new_dose_asks_the_frontends_to_drop_keys_typed_meanwhile() -> None:
    game = niche_game()
    screen = InGameScreen(Session(game))
    app = App(screen)
    screen.travel_to(25, 1)
    settle(app)
    assert screen.pilot.shown == "You see an extra-large dose."
    assert app.take_interrupted()


def test_the_terminal_drops_keys_arriving_just_after_automation_stopped_by_itself() -> None:
    game = niche_game()
    screen = InGameScreen(Session(game))
    screen.travel_to(25, 1)
    stopped: list[tuple[int, int]] = []
    script: list[Read] = [*[b""] * 30, lambda: stopped.append(player_xy(game)), b"llllll", None]
    TerminalLoop(App(screen), ScriptedTerminal(script), setup(), Clock()).run()
    assert screen.pilot.shown == "You see an extra-large dose."
    assert stopped and player_xy(game) == stopped[0]  # the six steps typed meanwhile never happened


def test_the_log_keeps_what_automation_said() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=70)
    screen = InGameScreen(Session(game))
    screen.rest_until(68)
    while screen.busy:
        screen.on_tick()
    log = MessageLogScreen(game, screen.pilot.notes)
    assert (2, "You rest until your State of Mind is 68.") in log.lines


def test_a_wizard_dose_is_as_strong_as_the_floor_makes_doses() -> None:
    from roguelike.core.commands import Wizard

    game = Game.new(5, "Merlin")
    game.apply(Wizard("descend"))
    game.apply(Wizard("dose", kind="dose"))
    strengths = [dose.strength for _, _, dose in game.doses()]
    low, high = NORMAL_DOSE.strength
    assert (low + high) // 2 + formulas.dose_strength_bonus(2) in strengths
    game.close()


def test_question_mark_on_the_title_opens_help(tmp_path: object) -> None:
    from pathlib import Path

    from roguelike.saves.games import Games
    from roguelike.screens.help import HelpScreen
    from roguelike.screens.title import TitleScreen

    app = App(TitleScreen(Games(Path(str(tmp_path)), seed=1)))
    app.handle(key(KeySym.SLASH, Modifier.SHIFT))
    assert isinstance(app.stack[-1], HelpScreen)


# --- what the tactics need, on screen ------------------------------------------------------------


def test_at_will_10_the_panel_and_the_screen_reader_say_which_action_is_next() -> None:
    import tcod.console

    from roguelike.render.draw import draw_game
    from roguelike.render.look import DEFAULT_LOOK

    game = arena()
    set_player(game, will=10)
    game.apply(Wait())  # a turn ends: two actions again
    screen = InGameScreen(Session(game))
    console = tcod.console.Console(80, 25, order="C")

    def row() -> str:
        return "".join(chr(c) for c in console.ch[formulas.MAP_HEIGHT + 1])

    draw_game(console, game, 0.0, DEFAULT_LOOK)
    assert "Act 1/2" in row()
    assert "First of your two actions: the monsters wait." in screen.spoken()
    screen.on_event(key(KeySym.PERIOD))
    draw_game(console, game, 0.0, DEFAULT_LOOK)
    assert "Act 2/2" in row()
    assert "Second of your two actions: the monsters act after it." in screen.spoken()
    set_player(game, will=9)
    screen.on_event(key(KeySym.PERIOD))
    draw_game(console, game, 0.0, DEFAULT_LOOK)
    assert "Act" not in row()


def test_a_close_call_is_announced_and_kept_in_the_log_and_the_bar_names_the_perfect_high() -> None:
    import tcod.console

    from roguelike.render.draw import draw_game
    from roguelike.render.look import DEFAULT_LOOK

    game, screen = risky_screen(state_of_mind=60)
    game.activate()
    for _, _, dose in game.doses():
        dose.strength = 39  # 60 + 39 - 1 a turn: two from an overdose, in the Perfect High
    screen.on_event(key(KeySym.RIGHT))
    screen.on_event(key(KeySym.Y))
    said = "A close call: 2 from an overdose. It counts for your score."
    assert screen.pilot.shown == said and said in screen.spoken()
    assert (0, said) in MessageLogScreen(game, screen.pilot.notes).lines or any(
        text == said for _, text in MessageLogScreen(game, screen.pilot.notes).lines
    )
    console = tcod.console.Console(80, 25, order="C")
    draw_game(console, game, 0.0, DEFAULT_LOOK)
    assert "".join(chr(c) for c in console.ch[formulas.MAP_HEIGHT]).startswith("Perfect High  98/100")


def test_the_screen_reader_hears_what_tab_selects_in_look_and_a_way_down_is_described() -> None:
    from components import Position, Renderable, Shortcut, Vision
    from roguelike.content.doses import SHORTCUT_TEXT
    from roguelike.screens.look import LookScreen

    game = arena()
    add_dose(11, 4, Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    look = LookScreen(game)
    said = look.spoken()
    assert said is not None and said[0].startswith("You, Tester.")
    look.on_event(key(KeySym.TAB))
    said = look.spoken()
    assert said is not None and said[0].startswith("Dose (!): +36..+56 State of Mind") and look.spoken() == []
    set_player(game, state_of_mind=80)
    game.activate()
    esper.create_entity(Position(8, 2), Renderable(">", (190, 120, 255)), Shortcut(), Vision())
    game.refresh_visible()
    look.cursor = (8, 2)
    assert look.spoken() == [SHORTCUT_TEXT]


def test_a_step_into_a_wall_says_why_once() -> None:
    game = drawn_game(["#####", "#.@.#", "##'##", "##.##", "#####"])
    screen = InGameScreen(Session(game))
    screen.on_event(key(KeySym.UP))
    assert screen.pilot.shown == "A wall is in the way." and game.state.turn == 0
    screen.on_event(key(KeySym.UP))
    assert screen.pilot.notes.count(screen.pilot.notes[-1]) == 1 and len(screen.pilot.notes) == 1
    screen.on_event(key(KeySym.DOWN))  # into the doorway
    screen.on_event(key(KeySym.N3))  # a diagonal step out of it
    assert screen.pilot.shown == "You cannot step diagonally out of a doorway: walls flank it."
