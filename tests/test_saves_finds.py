"""A save's finds are visions of kinds the game knows; any other is refused, naming the file (issue 46).

The save is a real game's: a find spawned on floor 1, left behind (dormant) by going down,
and finds on floor 2, the player's floor. Each test changes one find, live or dormant.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from roguelike.core.commands import Mark, Wizard
from roguelike.saves import Games, inspect_save, read_save
from save_helpers import SEED
from test_saves_format import plain_of, reason, reseal

Place = Callable[[Any], list[Any]]


def has(packed: list[Any], component: str) -> bool:
    """Whether a packed entity has a component."""
    return any(name == component for name, _ in packed)


def on_this_floor(plain: Any) -> list[Any]:
    """The first find lying on the player's floor."""
    return next(packed for _, packed in plain["entities"] if has(packed, "find"))


def on_a_floor_left(plain: Any) -> list[Any]:
    """The first find lying dormant on a floor the player has left."""
    return next(packed for floor in plain["floors"] for packed in floor["dormant"] if has(packed, "find"))


def finds(plain: Any) -> Iterator[list[Any]]:
    """Every find's packed components, live and dormant."""
    yield from (packed for _, packed in plain["entities"] if has(packed, "find"))
    yield from (packed for floor in plain["floors"] for packed in floor["dormant"] if has(packed, "find"))


def with_finds(root: Path) -> Path:
    """The save of a wizard game with a find left on floor 1 and finds on floor 2, where the player is."""
    session = Games(root, seed=SEED).new("Ann")
    session.apply(Mark("wizard"))
    session.apply(Wizard("find", kind="clarity"))
    session.apply(Wizard("descend"))
    session.apply(Wizard("find", kind="insight"))
    session.close()
    (path,) = (root / "saves").glob("*.save")
    return path


def changed(root: Path, place: Place, change: Callable[[list[Any]], None]) -> Path:
    """A save with finds, resealed with ``change`` made to the find at ``place``."""
    path = with_finds(root)
    plain = plain_of(path)
    change(place(plain))
    reseal(path, plain)
    return path


def test_a_save_with_finds_live_and_dormant_loads_and_is_offered(tmp_path: Path) -> None:
    path = with_finds(tmp_path)
    plain = read_save(path).plain
    assert on_this_floor(plain) and on_a_floor_left(plain)
    assert all(has(packed, "vision") for packed in finds(plain))
    assert Games(tmp_path).last() == inspect_save(path)


@pytest.mark.parametrize("place", [on_this_floor, on_a_floor_left])
@pytest.mark.parametrize("kind", ["nightmare", "", "Clarity", "clarity " * 10, "dose"])
def test_a_save_naming_a_find_of_an_unknown_kind_is_refused_naming_the_file(
    tmp_path: Path, place: Place, kind: str
) -> None:
    def rename(packed: list[Any]) -> None:
        next(fields for name, fields in packed if name == "find")[0] = kind

    path = changed(tmp_path, place, rename)
    before = path.read_bytes()
    assert "unknown find kind" in reason(path)  # ``reason`` checks the message names the file
    assert "unknown find kind" in inspect_save(path).status()
    assert Games(tmp_path).last() is None
    assert path.read_bytes() == before  # refused, never changed


@pytest.mark.parametrize("place", [on_this_floor, on_a_floor_left])
def test_a_save_holding_a_find_that_is_not_a_vision_is_refused_naming_the_file(tmp_path: Path, place: Place) -> None:
    def seen_sober(packed: list[Any]) -> None:
        packed[:] = [pair for pair in packed if pair[0] != "vision"]

    path = changed(tmp_path, place, seen_sober)
    before = path.read_bytes()
    assert "a find without vision" in reason(path)
    assert "a find without vision" in inspect_save(path).status()
    assert Games(tmp_path).last() is None
    assert path.read_bytes() == before


@pytest.mark.parametrize("lacks", ["position", "renderable"])
def test_a_find_standing_nowhere_or_without_a_look_is_refused(tmp_path: Path, lacks: str) -> None:
    path = changed(tmp_path, on_a_floor_left, lambda packed: packed.remove(next(p for p in packed if p[0] == lacks)))
    assert f"a find without {lacks}" in reason(path)
