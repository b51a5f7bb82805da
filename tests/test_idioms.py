"""The speed idioms (docs/performance.md, "Idioms we accept, and where") give the plain way's answers."""

from __future__ import annotations

import dataclasses

import esper

from bestiary_helpers import add_monster, arena
from components import Dose, Monster, Position
from components.registry import NAME_OF
from helpers import add_dose
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core.commands import Wait
from roguelike.core.game import Game
from roguelike.core.packing import pack_entity
from roguelike.core.world import doses_on_floor, roster, sight_test


def plain_roster() -> list[tuple[int, Monster, Position]]:
    return [(entity, monster, pos) for entity, (monster, pos) in sorted(esper.get_components(Monster, Position))]


def plain_doses() -> list[tuple[int, Position, Dose]]:
    return [(entity, pos, dose) for entity, (pos, dose) in sorted(esper.get_components(Position, Dose))]


def test_the_kept_roster_and_doses_follow_every_add_and_removal() -> None:
    game = arena()
    game.activate()
    for x in (3, 5, 12):
        add_monster(game, "hunger", x, 2)
    game.activate()
    add_dose(9, 6, Dose(NORMAL_DOSE.key, 30, 0, 0, 0))
    assert roster() == plain_roster() and doses_on_floor() == plain_doses()
    assert roster() is roster()  # kept while nothing was added or removed
    esper.delete_entity(roster()[1][0], immediate=True)
    add_dose(2, 6, Dose(NORMAL_DOSE.key, 20, 0, 0, 0))
    assert roster() == plain_roster() and doses_on_floor() == plain_doses()


def as_list(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


def test_generated_packers_read_every_field_in_order() -> None:
    game = Game.new(5, "Ada")
    for _ in range(30):
        game.apply(Wait())
    for entity in game.world.entities():
        components = game.world.components(entity)
        plain = sorted(
            (NAME_OF[type(c)], [as_list(getattr(c, f.name)) for f in dataclasses.fields(c)]) for c in components
        )
        packed = [(name, [as_list(value) for value in values]) for name, values in pack_entity(components)]
        assert packed == plain


def test_the_sight_test_answers_as_indexing_does() -> None:
    game = Game.new(5, "Ada")
    visible = game.view.visible
    sees = sight_test(visible)
    assert all(sees(y, x) is bool(visible[y, x]) for y in range(visible.shape[0]) for x in range(visible.shape[1]))
