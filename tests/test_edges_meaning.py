"""Saves that pass every type check but mean nothing the game can play are damaged, never "Resume"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import pytest
from tcod.event import KeySym

from roguelike.core.game import Game
from roguelike.saves import Games, inspect_save, read_save
from roguelike.screens.base import App
from roguelike.screens.loadgame import LoadGameScreen
from roguelike.screens.title import TitleScreen
from roguelike.storage.errors import SaveError
from save_helpers import key, saved, screen_text
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


def unknown_floor_kind(plain: Any) -> None:
    plain["floors"][0]["kind"] = "swamp"


def huge_state_of_mind(plain: Any) -> None:
    fields_of(first_with(plain, "state_of_mind"), "state_of_mind")[0] = 2**64 - 1


@pytest.mark.parametrize(
    "change", [unknown_monster, monster_nowhere, unknown_dose, unknown_floor_kind, huge_state_of_mind]
)
def test_a_save_that_cannot_be_played_is_damaged(tmp_path: Path, change: Callable[[Any], None]) -> None:
    path = saved(tmp_path)
    plain = plain_of(path)
    change(plain)
    reseal(path, plain)
    with pytest.raises(SaveError):
        read_save(path)
    assert not inspect_save(path).ok
    assert Games(tmp_path).last() is None


def test_a_save_whose_first_turn_fails_is_damaged_wherever_resume_is_offered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saved(tmp_path)
    before = path.read_bytes()

    def broken(self: Game, command: Any) -> None:
        raise KeyError("something the checks did not foresee")

    monkeypatch.setattr(Game, "apply", broken)
    assert inspect_save(path).ok  # ``hedonic saves`` reads the file only, without the rules
    (info,) = Games(tmp_path).saves()  # the Load menu
    assert not info.ok and "cannot be played" in info.status()
    assert Games(tmp_path).last() is None and Games(tmp_path).find("Ann") is None
    title = screen_text(App(TitleScreen(Games(tmp_path))).stack[-1])
    assert "Resume" not in title and "Load game" in title
    with pytest.raises(SaveError, match="cannot be played"):
        Games(tmp_path).resume(path)
    monkeypatch.undo()
    assert path.read_bytes() == before  # nothing was written: the file is as it was
    assert Games(tmp_path).last() == inspect_save(path)


def test_the_load_menu_says_why_a_save_whose_first_turn_fails_cannot_be_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved(tmp_path)

    def unforeseen(self: Game, command: object) -> NoReturn:
        raise KeyError("a key the checks did not foresee")

    monkeypatch.setattr(Game, "apply", unforeseen)
    app = App(LoadGameScreen(Games(tmp_path)))
    app.handle(key(KeySym.RETURN))
    assert isinstance(app.stack[-1], LoadGameScreen)  # still in the menu: nothing was played
    assert "damaged (it cannot be played: its first turn fails (KeyError))" in screen_text(app.stack[-1])


def test_the_load_menu_reads_each_save_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import roguelike.saves.games as games
    import roguelike.saves.listing as listing

    for seed in (1, 2):
        saved(tmp_path / f"game{seed}")
        (tmp_path / "saves").mkdir(exist_ok=True)
        for path in (tmp_path / f"game{seed}" / "saves").glob("*.save"):
            path.rename(tmp_path / "saves" / path.name)
    reads: list[Path] = []

    def counted(path: Path) -> Any:
        reads.append(path)
        return read_save(path)

    monkeypatch.setattr(listing, "read_save", counted)
    monkeypatch.setattr(games, "read_save", counted)
    infos = Games(tmp_path).saves()
    assert len(infos) == 2 and all(info.ok for info in infos)
    assert sorted(reads) == sorted(info.path for info in infos)  # listed and tried from one read each
