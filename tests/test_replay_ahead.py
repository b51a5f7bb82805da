"""A replay that went on while the saves failed keeps its turns: resuming brings the save up to it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from roguelike.cli.main import main
from roguelike.core.session import Session
from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import read_history, read_save
from roguelike.saves.autosave import Autosave
from roguelike.storage.errors import SaveError
from save_helpers import read_only
from test_replay_saves import bot_steps, games, the_save


def played_on_read_only(root: Path, monkeypatch: pytest.MonkeyPatch, die: bool) -> tuple[Path, Path, bytes]:
    """A game saved at step 10 that plays 40 more (or on to its death) after the data directory
    turned read-only, its replay recording on; the save, the replay and the replay's bytes."""
    session = games(root).new("Ann")
    bot_steps(session, 10)
    read_only(monkeypatch)  # the replay is already open: it goes on; every save now fails
    bot_steps(session, 5000 if die else 40)
    assert session.game.state.game_over == die
    assert any("Cannot save" in line for line in session.notices.lines())
    session.close()
    monkeypatch.undo()
    save = the_save(root)
    replay = root / "replays" / f"{save.stem}.replay"
    assert read_save(save).header["steps"] == 10
    return save, replay, replay.read_bytes()


def test_the_save_is_brought_up_to_the_replay_instead_of_cutting_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save, replay, recorded = played_on_read_only(tmp_path, monkeypatch, die=False)
    session = games(tmp_path).resume(save)
    assert session.steps == 50  # the 40 turns played while nothing could be saved are the game's
    bot_steps(session, 5)
    session.close()
    after = replay.read_bytes()
    assert after.startswith(recorded) and len(read_replay(replay).steps) == 55
    assert verify(read_replay(replay)).outcome is Outcome.MATCHED
    assert read_save(save).header["steps"] == 55


def test_a_death_the_replay_kept_is_recorded_not_undone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    save, replay, recorded = played_on_read_only(tmp_path, monkeypatch, die=True)
    with pytest.raises(SaveError, match="has died"):
        games(tmp_path).resume(save)
    assert not save.exists() and replay.read_bytes() == recorded
    (record,) = read_history(tmp_path).records
    assert record.name == "Ann" and record.cause


def test_a_replay_ahead_that_does_not_play_the_same_from_the_save_is_kept_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save, replay, _ = played_on_read_only(tmp_path, monkeypatch, die=False)
    read = read_replay(replay)
    read.steps[30] = dataclasses.replace(read.steps[30], checksum="00" * 8)  # CRC valid, state wrong
    replay.write_bytes(replay_bytes(read))
    recorded = replay.read_bytes()
    session = games(tmp_path).resume(save)
    assert any("not being recorded" in line for line in session.notices.lines())
    session.close()
    assert replay.read_bytes() == recorded  # never cut: it may be the only record of those turns


def test_pruning_keeps_the_replay_of_a_save_that_is_gone_or_damaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    replays = []
    for name in ("Gone", "Damaged", "Dead"):  # three characters of one data directory
        session = games(tmp_path).new(name)
        replays.append(tmp_path / "replays" / f"{session_id(session)}.replay")
        bot_steps(session, 5000 if name == "Dead" else 10)
        session.close()
    gone, damaged, dead = replays
    (tmp_path / "saves" / f"{gone.stem}.save").unlink()
    (tmp_path / "saves" / f"{damaged.stem}.save").write_bytes(b"damaged")
    assert main(["replays", "--prune", "--keep", "0", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert gone.exists() and f"kept {gone.name}: its save is gone and its character never died" in out
    assert damaged.exists() and not dead.exists()  # a dead character's replay rebuilds nothing


def session_id(session: Session) -> str:
    """The id of a session's save (and replay)."""
    (autosave,) = [observer for observer in session.observers if isinstance(observer, Autosave)]
    return autosave.path.stem
