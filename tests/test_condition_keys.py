"""Saves and replays hold a takeover as its condition's key; older saves are upgraded from the sentence.

Format 10 saves ``taken_over`` as the key of the condition (``"desperate"``), never the
panel's words, so the words can change without touching a save or a replay. Every
committed save of an older format, given a takeover in each sentence the game ever said,
upgrades to the key and plays on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from components import TakenOver
from roguelike.content.conditions import CONDITIONS
from roguelike.core.snapshot import from_plain
from roguelike.saves import load_save
from roguelike.saves.container import SAVE_MAGIC, unseal
from roguelike.saves.savefile import decode
from roguelike.saves.schema import Malformed
from roguelike.saves.slots import is_slotted, newest_slot
from roguelike.saves.upgrade import FORMAT_VERSION, TAKEOVER_SENTENCES, upgrade
from roguelike.saves.validate import validate_snapshot
from roguelike.storage.errors import Damaged

SAVES = Path(__file__).resolve().parent.parent / "saves"
OLD_SAVES = sorted(path for path in SAVES.glob("v*.save") if int(path.stem[1:]) < 10)


def raw(path: Path) -> tuple[int, Any]:
    """A committed save's format version and snapshot, as written (not upgraded)."""
    data = path.read_bytes()
    sealed = newest_slot(data).sealed if is_slotted(data) else unseal(data, SAVE_MAGIC, "save", FORMAT_VERSION)
    return sealed.version, decode(sealed.payload)


def taken_over(plain: Any, sentence: str) -> Any:
    """The snapshot with its player taken over, under ``sentence``."""
    for entity, packed in plain["entities"]:
        if entity == plain["player"]:
            packed.append(["taken_over", [sentence]])
            packed.sort(key=lambda pair: pair[0])
    return plain


def player_components(plain: Any) -> dict[str, list[Any]]:
    return {
        name: fields for entity, packed in plain["entities"] if entity == plain["player"] for name, fields in packed
    }


def test_every_sentence_the_game_said_names_a_condition() -> None:
    assert set(TAKEOVER_SENTENCES.values()) <= set(CONDITIONS)


@pytest.mark.parametrize("path", OLD_SAVES, ids=[path.stem for path in OLD_SAVES])
def test_an_old_save_taken_over_upgrades_to_the_key_and_plays_on(path: Path) -> None:
    for sentence, key in TAKEOVER_SENTENCES.items():
        version, plain = raw(path)
        upgraded = validate_snapshot(upgrade(taken_over(plain, sentence), version))
        assert player_components(upgraded)["taken_over"] == [key]
        game = from_plain(upgraded)
        assert game.player_component(TakenOver).condition == key
        game.close()


def test_an_unknown_sentence_is_damage_not_a_guess() -> None:
    version, plain = raw(OLD_SAVES[-1])
    with pytest.raises(Damaged, match="not one this game ever said"):
        upgrade(taken_over(plain, "Something else holds you."), version)


def test_a_save_naming_no_condition_is_refused() -> None:
    version, plain = raw(OLD_SAVES[-1])
    upgraded = upgrade(taken_over(plain, "Stunned: you cannot move."), version)
    player_components(upgraded)["taken_over"][0] = "dazzled"
    with pytest.raises(Malformed, match="dazzled"):
        validate_snapshot(upgraded)


def test_the_format_10_save_holds_the_key() -> None:
    version, plain = raw(SAVES / "v10.save")
    assert version == 10
    assert player_components(plain)["taken_over"] == ["desperate"]
    game = load_save(SAVES / "v10.save")
    assert game.steering() is CONDITIONS["desperate"]
    game.close()
