"""Saves crafted to pass the checks and then cost the game its start: bounded, refused, or played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import esper
import pytest

from roguelike.core.commands import Wait
from roguelike.saves import Games, read_save

from save_helpers import saved
from test_saves_format import plain_of, reseal


def test_ids_the_save_no_longer_holds_are_skipped_without_making_an_entity_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved(tmp_path)
    plain = plain_of(path)
    plain["next_entity"] = plain["entities"][-1][0] + 100_000
    reseal(path, plain)
    made: list[int] = []
    create = esper.create_entity

    def counted(*components: object) -> int:
        made.append(1)
        return create(*components)

    monkeypatch.setattr(esper, "create_entity", counted)
    game = read_save(path).game()
    assert len(made) == len(plain["entities"])  # one each: no filler for the ids in between
    assert game.world.create() == plain["next_entity"]
    game.close()


def test_a_next_id_near_two_to_the_31_loads_and_plays(tmp_path: Path) -> None:
    path = saved(tmp_path)
    plain: Any = plain_of(path)
    plain["next_entity"] = 2**31
    reseal(path, plain)
    (info,) = Games(tmp_path).saves()  # the Load menu rebuilds it and plays its first turn
    assert info.ok, info.status()
    game = read_save(path).game()
    game.apply(Wait())
    assert game.world.next_entity() >= 2**31
    game.close()
