"""Replay formats 1 and 2: the checksum in pieces covers the whole state, and old files live on.

Format 2 hashes each floor once, when the player leaves it, and the turn's checksum over
the rest and the floors' digests; format 1 hashed the snapshot's bytes whole. Both are
read, verified, played back, compared and resumed, each with its own checksum.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay_helpers import bot_commands, record_bot_game
from roguelike.bots.careful import CarefulBot
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.plain import digest, snapshot_digest
from roguelike.core.session import Session
from roguelike.core.snapshot import encode, encoded_state, snapshot_bytes, to_plain
from roguelike.replay import corpus
from roguelike.replay.diff import first_difference
from roguelike.replay.fileformat import FORMAT_VERSION, Replay, read_replay, replay_bytes
from roguelike.replay.verify import Outcome, verify
from test_replay_record_verify import changed_command
from test_replay_saves import bot_steps, games, the_save

DEEP_SEED = 73  # the careful bot goes down several floors in its first few hundred commands


def recorded(path: Path, seed: int, commands: int, replay_format: int) -> Replay:
    """A bot game of ``commands`` recorded in ``replay_format``."""
    corpus.record(path, path.stem, seed, "Bot", bot_commands(seed, commands), replay_format)
    return read_replay(path)


def test_a_new_game_is_recorded_in_the_newest_format_and_verifies(tmp_path: Path) -> None:
    path, steps = record_bot_game(tmp_path, seed=7, turns=80)
    replay = read_replay(path)
    assert replay.format == FORMAT_VERSION == 3 and replay.header.epoch == RULES_EPOCH
    assert [record.checksum for record in replay.steps] == [step.checksum for step in steps]
    assert verify(replay).outcome is Outcome.MATCHED


def test_the_checksum_in_pieces_is_the_checksum_of_the_whole_bytes_on_every_floor() -> None:
    game, bot = Game.new(DEEP_SEED, "Bot"), CarefulBot()
    for _ in range(600):
        game.apply(bot.choose(game))
        state, whole = encoded_state(game), encode(to_plain(game))
        assert state.snapshot == whole
        assert state.checksum == snapshot_digest(whole) and state.whole_checksum == digest(whole)
    assert len(game.state.floors) >= 3, "the game must have left floors behind, whose digests are kept"
    game.close()


def test_a_change_on_a_floor_the_player_left_changes_the_checksum() -> None:
    game, bot = Game.new(DEEP_SEED, "Bot"), CarefulBot()
    while len(game.state.floors) < 2:
        game.apply(bot.choose(game))
    plain = to_plain(game)
    before = snapshot_digest(encode(plain))
    left = plain["floors"][0]
    left["explored"] = bytes([left["explored"][0] ^ 1]) + left["explored"][1:]
    assert snapshot_digest(encode(plain)) != before
    game.close()


def test_a_format_1_replay_verifies_with_its_own_checksums(tmp_path: Path) -> None:
    old = recorded(tmp_path / "old.replay", 11, 120, 1)
    new = recorded(tmp_path / "new.replay", 11, 120, 2)
    assert (old.format, new.format) == (1, 2)
    assert [s.checksum for s in old.steps] != [s.checksum for s in new.steps]
    assert verify(old).outcome is verify(new).outcome is Outcome.MATCHED
    (tmp_path / "changed.replay").write_bytes(replay_bytes(changed_command(old, 40)))
    diverged = verify(read_replay(tmp_path / "changed.replay"))
    assert diverged.outcome is Outcome.DIVERGED and "step 40" in diverged.details[0]


def test_two_formats_of_one_game_compare_as_the_same_game(tmp_path: Path) -> None:
    old = recorded(tmp_path / "old.replay", 11, 60, 1)
    new = recorded(tmp_path / "new.replay", 11, 60, 2)
    assert first_difference(old, new) is None
    assert first_difference(old, changed_command(new, 25)) == 25


def test_a_resumed_game_never_adds_this_epochs_turns_to_a_replay_of_an_earlier_one(tmp_path: Path) -> None:
    session = games(tmp_path).new("Ann")
    bot_steps(session, 30)
    session.close()
    (replay_file,) = (tmp_path / "replays").glob("*.replay")
    commands = [step.command for step in read_replay(replay_file).steps]
    corpus.record(replay_file, replay_file.stem, 53, "Ann", commands, 1)  # as a game begun before epochs
    resumed = games(tmp_path).resume(the_save(tmp_path))
    bot_steps(resumed, 20)
    resumed.close()
    replay = read_replay(replay_file)
    assert replay.format == 1 and replay.header.epoch == 1 < RULES_EPOCH and len(replay.steps) == 30
    assert verify(replay).outcome is Outcome.MATCHED  # the game as it was, under the rules it was played by


def test_rerecording_keeps_an_unchanged_file_and_writes_a_changed_game_in_the_newest_format(tmp_path: Path) -> None:
    path = tmp_path / "game.replay"
    recorded(path, 11, 60, FORMAT_VERSION)
    before = path.read_bytes()
    commands = bot_commands(11, 60)
    assert corpus.write_recording(path, 11, "Bot", commands) == "unchanged"
    assert path.read_bytes() == before
    assert corpus.write_recording(path, 11, "Bot", commands[:40]) == "re-recorded"
    assert read_replay(path).format == FORMAT_VERSION and len(read_replay(path).steps) == 40
    assert verify(read_replay(path)).outcome is Outcome.MATCHED


@pytest.mark.parametrize("old_format", [1, 2])
def test_rerecording_a_file_of_a_format_from_before_epochs_keeps_it_as_epoch_1s(
    tmp_path: Path, old_format: int
) -> None:
    path = tmp_path / "game.replay"
    recorded(path, 11, 60, old_format)  # formats 1 and 2 record no epoch: they are the first epoch's
    before = path.read_bytes()
    said = corpus.write_recording(path, 11, "Bot", bot_commands(11, 60))
    assert said.startswith("re-recorded (epoch 1's file kept in") and RULES_EPOCH > 1
    assert (tmp_path / "epochs" / "1" / "game.replay").read_bytes() == before
    assert read_replay(path).format == FORMAT_VERSION and read_replay(path).header.epoch == RULES_EPOCH


def test_a_sessions_step_gives_the_saved_bytes_and_their_checksum() -> None:
    session = Session(Game.new(5, "Bot"))
    step = session.apply(bot_commands(5, 1)[0])
    assert step.checksum == snapshot_digest(snapshot_bytes(session.game))
    assert step.snapshot == snapshot_bytes(session.game)
    session.game.close()
