"""State by lifetime: the game state holds exactly what is saved; an action's record and the view never are.

Whether something is saved is a matter of which type holds it: every field of
``GameState`` changes the snapshot, no field of ``ActionRecord`` or ``View`` does, and
each action gets a record of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import pytest

from roguelike.content.conditions import CONDITIONS
from roguelike.core import cues
from roguelike.core.commands import Move, Wait
from roguelike.core.game import Game
from roguelike.core.hunt import Hunt
from roguelike.core.plain import encode
from roguelike.core.snapshot import from_plain, to_plain
from roguelike.core.state import ActionRecord, GameState, View


def flip_explored(state: GameState) -> None:
    state.floor.explored[0, 0] = not state.floor.explored[0, 0]


# One change of each saved field: a field added to GameState needs one here, and must be saved.
SAVED_CHANGES: dict[str, Callable[[GameState], object]] = {
    "seed": lambda state: setattr(state, "seed", state.seed + 1),
    "name": lambda state: setattr(state, "name", state.name + "a"),
    "player": lambda state: setattr(state, "player", state.player + 1000),
    "rng": lambda state: state.rng.below(1000),
    "floors": flip_explored,
    "depth": lambda state: setattr(state, "depth", state.depth + 1),
    "turn": lambda state: setattr(state, "turn", state.turn + 1),
    "messages": lambda state: state.say("Something new."),
    "cause_of_death": lambda state: setattr(state, "cause_of_death", "overdose"),
    "origin": lambda state: setattr(state, "origin", "wizard"),
    "monsters_still": lambda state: setattr(state, "monsters_still", True),
    "chart": lambda state: state.chart.add(42),
}
# One change of each field that is never saved.
RECORD_CHANGES: dict[str, Callable[[ActionRecord], None]] = {
    "acted": lambda record: setattr(record, "acted", True),
    "clock_ticks": lambda record: setattr(record, "clock_ticks", True),
    "travel_to": lambda record: setattr(record, "travel_to", 2),
    "wading": lambda record: setattr(record, "wading", 1),
    "hunt": lambda record: setattr(record, "hunt", object()),
    "desperate_before": lambda record: setattr(record, "desperate_before", True),
    "cues": lambda record: record.cue(cues.HIT, (1, 1)),
}
VIEW_CHANGES: dict[str, Callable[[View], None]] = {
    "visible": lambda view: setattr(view, "visible", ~view.visible),
    "seen_from": lambda view: setattr(view, "seen_from", (9, 9, 9, 9, b"")),
    "steering": lambda view: setattr(view, "steering", next(iter(CONDITIONS.values()))),
}


def snapshot(game: Game) -> bytes:
    return encode(to_plain(game))


def names(kind: type) -> set[str]:
    return {field.name for field in dataclasses.fields(kind)}


def test_every_field_has_its_lifetime_listed() -> None:
    assert names(GameState) == set(SAVED_CHANGES)
    assert names(ActionRecord) == set(RECORD_CHANGES)
    assert names(View) == set(VIEW_CHANGES)


@pytest.mark.parametrize("field", SAVED_CHANGES)
def test_every_field_of_the_game_state_is_saved(field: str) -> None:
    game = Game.new(11, "Ada")
    game.apply(Wait())
    before = snapshot(game)
    SAVED_CHANGES[field](game.state)
    assert snapshot(game) != before


@pytest.mark.parametrize("field", RECORD_CHANGES)
def test_no_field_of_an_actions_record_is_saved(field: str) -> None:
    game = Game.new(11, "Ada")
    before = snapshot(game)
    RECORD_CHANGES[field](game.action)
    assert snapshot(game) == before


@pytest.mark.parametrize("field", VIEW_CHANGES)
def test_no_field_of_the_view_is_saved(field: str) -> None:
    game = Game.new(11, "Ada")
    before = snapshot(game)
    VIEW_CHANGES[field](game.view)
    assert snapshot(game) == before


def test_each_action_gets_a_fresh_record() -> None:
    game = Game.new(11, "Ada")
    game.apply(Wait())
    first = game.action
    first.cue(cues.HIT, (1, 1))
    game.apply(Move(1, 0))
    assert game.action is not first
    assert cues.HIT not in [cue.kind for cue in game.action.cues]


def test_the_view_is_derived_again_on_loading() -> None:
    game = Game.new(11, "Ada")
    for _ in range(5):
        game.apply(Wait())
    loaded = from_plain(to_plain(game))
    assert np.array_equal(loaded.view.visible, game.view.visible)
    assert loaded.view.steering is game.view.steering


def test_the_monsters_hunt_lives_for_one_action() -> None:
    game = Game.new(3, "Ada")
    for _ in range(20):
        game.apply(Wait())
    assert game.monsters()
    assert isinstance(game.action.hunt, Hunt)
    assert "step" not in vars(game.action.hunt)  # the decision is piped, never kept
