"""Saves crafted to pass the checks and then cost the game its start: bounded, refused, or played."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import esper
import pytest

from roguelike.core.commands import Wait
from roguelike.core.snapshot import encode
from roguelike.saves import FORMAT_VERSION, Games, inspect_save, read_save
from roguelike.saves.container import SAVE_MAGIC, seal
from roguelike.saves.slots import slotted_file
from roguelike.storage.errors import SaveError
from save_helpers import saved
from test_edges_meaning import fields_of, first_with
from test_replay_saves import games
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


def monsters(plain: Any) -> list[list[Any]]:
    """The packed components of every live monster."""
    return [packed for _, packed in plain["entities"] if any(name == "monster" for name, _ in packed)]


def set_glyph(glyph: str) -> Callable[[Any], None]:
    def change(plain: Any) -> None:
        fields_of(first_with(plain, "player"), "renderable")[0] = glyph

    change.__name__ = f"glyph {glyph!r}"
    return change


def colour_out_of_range(plain: Any) -> None:
    fields_of(first_with(plain, "player"), "renderable")[1] = [300, 0, 0]


def blockers_stacked(plain: Any) -> None:
    first, second = monsters(plain)[:2]
    fields_of(second, "position")[:] = list(fields_of(first, "position"))


def monster_is_a_player(plain: Any) -> None:
    packed = monsters(plain)[0]
    packed.append(["player", ["Ann"]])
    packed.sort(key=lambda pair: pair[0])


def message_with_escapes(plain: Any) -> None:
    plain["messages"].append([plain["turn"], "\x1b]0;owned\x07\x1b]52;c;cm0gLXJm\x07"])


def name_with_escapes(plain: Any) -> None:
    plain["name"] = "Ann\x1b[2J"


@pytest.mark.parametrize(
    "change",
    [
        set_glyph("ab"),
        set_glyph(""),
        set_glyph("\x1b"),
        colour_out_of_range,
        blockers_stacked,
        monster_is_a_player,
        message_with_escapes,
        name_with_escapes,
    ],
    ids=lambda change: change.__name__,
)
def test_a_save_that_would_crash_or_inject_is_damaged(tmp_path: Path, change: Callable[[Any], None]) -> None:
    path = saved(tmp_path)
    plain = plain_of(path)
    change(plain)
    reseal(path, plain)
    before = path.read_bytes()
    with pytest.raises(SaveError):
        read_save(path)
    assert not inspect_save(path).ok and path.read_bytes() == before


def test_a_step_count_the_next_save_could_not_count_on_from_is_damaged(tmp_path: Path) -> None:
    path = saved(tmp_path)
    reseal(path, plain_of(path), header={"saved_at": 1, "steps": 2**64 - 1, "game": "test"})
    with pytest.raises(SaveError, match="its step count is out of range"):
        read_save(path)


def test_a_slot_numbered_two_to_the_64_minus_one_is_not_the_newest(tmp_path: Path) -> None:
    path = saved(tmp_path)
    envelope = seal(
        SAVE_MAGIC, FORMAT_VERSION, encode({"saved_at": 1, "steps": 0, "game": "test"}), encode(plain_of(path))
    )
    path.write_bytes(slotted_file(envelope, sequence=2**64 - 1))
    with pytest.raises(SaveError, match="its sequence number is out of range"):
        read_save(path)


def test_the_first_turn_check_draws_a_frame_and_encodes_the_next_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import roguelike.render.draw as draw
    import roguelike.saves.games as games_module

    path = saved(tmp_path)

    def unforeseen(*args: object) -> NoReturn:
        raise KeyError("a glyph no check foresaw")

    monkeypatch.setattr(draw, "draw_entities", unforeseen)
    (info,) = games(tmp_path).saves()  # the Games the title and the Load menu use
    assert "it cannot be played: its first turn fails (KeyError)" in info.status()
    with pytest.raises(SaveError, match="cannot be played"):
        games(tmp_path).resume(path)
    monkeypatch.undo()

    def unencodable(snapshot: bytes, steps: int, tail: bytes = b"") -> bytes:
        raise OverflowError("a number the next save cannot hold")

    monkeypatch.setattr(games_module, "sealed_save", unencodable)
    (info,) = Games(tmp_path).saves()
    assert "its first turn fails (OverflowError)" in info.status()
