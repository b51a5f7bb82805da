"""Saves that pass every type check but mean nothing the game can play are damaged, never "Resume"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from roguelike.core.game import Game
from roguelike.saves import Games, SaveError, inspect_save, read_save

from save_helpers import saved
from test_saves_format import plain_of, reseal


def first_with(plain: Any, component: str) -> list[Any]:
    """The packed components of the first live entity that has ``component``."""
    return next(packed for _, packed in plain["entities"] if any(name == component for name, _ in packed))


def fields_of(packed: list[Any], component: str) -> list[Any]:
    """One component's fields in a packed entity."""
    return next(fields for name, fields in packed if name == component)


def unknown_monster(plain: Any) -> None:
    fields_of(first_with(plain, "monster"), "monster")[0] = "Nightmare"


def monster_nowhere(plain: Any) -> None:
    packed = first_with(plain, "monster")
    packed[:] = [pair for pair in packed if pair[0] != "position"]


def unknown_dose(plain: Any) -> None:
    fields_of(first_with(plain, "dose"), "dose")[0] = "mystery"


def huge_state_of_mind(plain: Any) -> None:
    fields_of(first_with(plain, "state_of_mind"), "state_of_mind")[0] = 2**64 - 1


@pytest.mark.parametrize("change", [unknown_monster, monster_nowhere, unknown_dose, huge_state_of_mind])
def test_a_save_that_cannot_be_played_is_damaged(tmp_path: Path, change: Callable[[Any], None]) -> None:
    path = saved(tmp_path)
    plain = plain_of(path)
    change(plain)
    reseal(path, plain)
    with pytest.raises(SaveError):
        read_save(path)
    assert not inspect_save(path).ok
    assert Games(tmp_path).last() is None


def test_a_save_whose_first_turn_fails_is_listed_damaged_and_never_resumed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved(tmp_path)

    def broken(self: Game, command: Any) -> None:
        raise KeyError("something the checks did not foresee")

    monkeypatch.setattr(Game, "apply", broken)
    info = inspect_save(path)
    assert not info.ok and "cannot be played" in info.status()
    assert Games(tmp_path).last() is None
    with pytest.raises(SaveError, match="cannot be played"):
        Games(tmp_path).resume(path)
    monkeypatch.undo()
    assert inspect_save(path).ok  # nothing was written: the file is as it was
