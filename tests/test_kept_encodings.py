"""Kept encodings: every step's snapshot is the same bytes whether or not parts were reused.

``encoded_state`` reuses the bytes of floors the player left, of unchanged messages and of
entities whose packed fields stayed equal; ``encode(to_plain(game))`` encodes everything
afresh. Saves, replays and checksums depend on the two never differing by one byte.
"""

from __future__ import annotations

from pathlib import Path

import esper
import pytest

from components.items import Carried
from components.monsters import Monster
from components.spatial import Position
from roguelike.core.game import Game
from roguelike.core.plain import snapshot_digest
from roguelike.core.session import Session
from roguelike.core.snapshot import encode, encoded_state, to_plain
from roguelike.replay.fileformat import read_replay

CORPUS = sorted((Path(__file__).resolve().parent.parent / "replays").glob("*.replay"))


@pytest.mark.parametrize("path", CORPUS, ids=lambda path: path.stem)
def test_every_step_of_the_corpus_encodes_to_the_bytes_made_afresh(path: Path) -> None:
    replay = read_replay(path)
    game = Game.new(replay.header.seed, replay.header.name)
    session = Session(game)
    try:
        for record in replay.steps:
            step = session.apply(record.command)
            whole = encode(to_plain(game))
            assert step.snapshot == whole, f"{path.name}, step {record.index}"
            assert step.checksum == snapshot_digest(whole) == record.checksum, f"{path.name}, step {record.index}"
    finally:
        game.close()


def a_monster(game: Game) -> int:
    """An entity of the player's floor that is a monster."""
    game.activate()
    return next(entity for entity, _ in esper.get_component(Monster))


def test_a_field_written_in_place_between_two_encodings_changes_the_bytes() -> None:
    game = Game.new(5, "Kept")
    try:
        encoded_state(game)
        monster = a_monster(game)
        esper.component_for_entity(monster, Position).x += 1
        esper.component_for_entity(monster, Monster).lost_for += 3
        assert encoded_state(game).snapshot == encode(to_plain(game))
    finally:
        game.close()


def test_a_list_grown_in_place_changes_the_bytes() -> None:
    game = Game.new(5, "Kept")
    try:
        before = encoded_state(game).snapshot
        game.activate()
        carried = esper.component_for_entity(game.state.player, Carried)
        carried.kinds.append("dose")
        for values in (carried.strengths, carried.confidence, carried.nerve, carried.will, carried.floors):
            values.append(1)
        after = encoded_state(game).snapshot
        assert after != before and after == encode(to_plain(game))
    finally:
        game.close()


def test_a_removed_entity_leaves_the_bytes_and_a_new_one_enters_them() -> None:
    game = Game.new(5, "Kept")
    try:
        encoded_state(game)
        game.activate()
        esper.delete_entity(a_monster(game), immediate=True)
        assert encoded_state(game).snapshot == encode(to_plain(game))
        game.world.create(Position(3, 3), Monster("anxiety", 4))
        assert encoded_state(game).snapshot == encode(to_plain(game))
    finally:
        game.close()
