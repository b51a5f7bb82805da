"""Losing control: stun, panic, confusion, their lengths, and who wins the controls."""

from __future__ import annotations

import esper
import tcod.event

from bestiary_helpers import add_monster, arena, chebyshev, messages, set_player, where
from components import Confused, Dose, Panicked, Stunned
from helpers import add_dose, player_xy
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.conditions import CONDITIONS, CONFUSED, DESPERATE, NERVE_FAILS, PANICKED, STUNNED
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.screens.ingame import InGameScreen

START = (8, 4)


def give(game: Game, status: Stunned | Panicked | Confused) -> None:
    """Put a status on the player."""
    game.activate()
    esper.add_component(game.state.player, status)
    game.refresh_visible()  # changed by hand: derive who steers again


def test_a_stunned_player_cannot_move_until_the_stun_wears_off() -> None:
    game = arena()
    give(game, Stunned(2))
    positions = []
    for _ in range(3):
        game.apply(Move(1, 0))
        positions.append(player_xy(game))
    assert positions == [START, START, (9, 4)]
    assert "You can move again." in messages(game)


def test_a_stun_passes_turns_so_monsters_keep_coming() -> None:
    game = arena()
    give(game, Stunned(3))
    before = game.state.turn
    game.apply(Move(1, 0))
    assert game.state.turn == before + 1


def test_a_stun_holds_even_desperation() -> None:
    game = arena()
    set_player(game, state_of_mind=3)
    add_dose(10, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    give(game, Stunned(2))
    assert game.control_reason() == STUNNED.reason
    game.apply(Wait())
    assert player_xy(game) == START


def test_confidence_shortens_every_status() -> None:
    for base in (formulas.STUN_TURNS, formulas.PANIC_TURNS, formulas.CONFUSION_TURNS):
        lengths = [formulas.status_turns(base, confidence) for confidence in range(1, 11)]
        assert lengths == sorted(lengths, reverse=True) and lengths[-1] < lengths[0]
        assert min(lengths) >= formulas.STATUS_MIN_TURNS


def test_a_confident_player_shakes_off_a_hit_sooner() -> None:
    meek, bold = arena(), arena()
    set_player(meek, confidence=1)
    set_player(bold, confidence=10)
    for game in (meek, bold):
        add_monster(game, "regret", 9, 4, hunting=True)
        game.apply(Wait())
    assert bold.player_component(Confused).turns < meek.player_component(Confused).turns


def test_a_panicked_player_runs_from_the_monster_in_sight() -> None:
    game = arena()
    add_monster(game, "anxiety", 11, 4)
    give(game, Panicked(3))
    assert game.control_reason() == PANICKED.reason
    game.apply(Move(1, 0))
    assert player_xy(game)[0] < START[0]


def test_a_panicked_player_with_nothing_in_sight_runs_at_random() -> None:
    game = arena()
    give(game, Panicked(5))
    game.apply(Wait())
    assert player_xy(game) != START


def test_low_nerve_panics_at_the_sight_of_a_monster() -> None:
    game = arena()
    set_player(game, nerve=formulas.NERVE_PANIC_AT)
    add_monster(game, "anxiety", 11, 4)
    assert game.control_reason() == NERVE_FAILS.reason
    game.apply(Move(1, 0))
    assert player_xy(game)[0] < START[0]
    assert "Your nerve breaks. You run." in messages(game)


def test_steady_nerve_does_not_panic() -> None:
    game = arena()
    set_player(game, nerve=formulas.NERVE_PANIC_AT + 1)
    add_monster(game, "anxiety", 11, 4)
    assert game.control_reason() is None
    game.apply(Move(1, 0))
    assert player_xy(game) == (9, 4)


def test_desperation_overpowers_panic() -> None:
    game = arena()
    set_player(game, state_of_mind=3)
    add_dose(10, 4, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    add_monster(game, "anxiety", 12, 4)
    give(game, Panicked(5))
    assert game.control_reason() == DESPERATE.reason
    game.apply(Move(-1, 0))
    assert player_xy(game) == (9, 4)  # towards the dose, past which the monster waits


def test_confusion_inverts_the_players_steps() -> None:
    game = arena()
    give(game, Confused(3))
    assert game.control_reason() == CONFUSED.reason
    game.apply(Move(1, -1))
    assert player_xy(game) == (7, 5)


def test_statuses_wear_off_with_a_message() -> None:
    game = arena()
    give(game, Panicked(1))
    give(game, Confused(2))
    game.apply(Wait())
    assert "The panic passes." in messages(game) and "Your head clears." not in messages(game)
    game.apply(Wait())
    assert "Your head clears." in messages(game)
    assert game.control_reason() is None


def test_will_ten_outruns_depression_two_steps_against_two() -> None:
    rows = ["#" * 40, "#" + "." * 38 + "#", "#" * 40]
    rows[1] = "#" + "." * 20 + "@" + "." * 17 + "#"
    game = arena(rows)
    set_player(game, state_of_mind=90, will=formulas.WILL_FOR_EXTRA_ACTION)
    game.apply(Wait())  # refill the action points at Will 10
    depression = add_monster(game, "depression", 25, 1, hunting=True)
    gaps = []
    for _ in range(5):
        game.apply(Move(-1, 0))
        game.apply(Move(-1, 0))
        gaps.append(chebyshev(player_xy(game), where(game, depression)))
    assert not game.state.game_over
    assert gaps == [4] * 5


def test_will_five_cannot_outrun_depression() -> None:
    rows = ["#" * 40, "#" + "." * 20 + "@" + "." * 17 + "#", "#" * 40]
    game = arena(rows)
    set_player(game, state_of_mind=90)
    add_monster(game, "depression", 25, 1, hunting=True)
    for _ in range(5):
        game.apply(Move(-1, 0))
    assert game.state.cause_of_death == "depression"


def test_while_the_game_has_the_controls_any_key_is_a_turn() -> None:
    game = arena()
    give(game, Stunned(3))
    screen = InGameScreen(Session(game))
    before = game.state.turn
    screen.on_event(
        tcod.event.KeyDown(scancode=tcod.event.Scancode.Z, sym=tcod.event.KeySym.Z, mod=tcod.event.Modifier.NONE)
    )
    assert game.state.turn == before + 1


def test_every_loss_of_control_line_fits_the_message_area() -> None:
    lines = [NERVE_FAILS.notice] + [
        text for c in CONDITIONS.values() for text in (c.reason, c.timed.ends if c.timed else "")
    ]
    lines += [f"{99} {kind.plural} slain: your Will grows." for kind in MONSTER_KINDS.values()]
    assert all(len(line) <= 48 for line in lines)
