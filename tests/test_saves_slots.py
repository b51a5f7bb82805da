"""The two-slot save file: the newest whole slot wins, a torn slot falls back, growth, old files."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from roguelike.core.commands import Wait
from roguelike.core.session import Session, Step
from roguelike.core.world import travel
from roguelike.saves import FORMAT_VERSION, Games, read_save, settle, slots
from roguelike.saves.container import SAVE_MAGIC, unseal
from roguelike.saves.slots import SLOT_HEADER_SIZE, Slot, slot_bytes, slot_size_of, slots_of
from roguelike.storage.errors import Damaged, SaveError
from save_helpers import played

REPOSITORY_SAVES = Path(__file__).resolve().parent.parent / "saves"


def the_save(root: Path) -> Path:
    """The one save file in a data directory."""
    (path,) = (root / "saves").glob("*.save")
    return path


def both_slots(path: Path) -> list[Slot]:
    """Both slots of a save, each of which must be whole."""
    slots = slots_of(path.read_bytes())
    assert all(isinstance(slot, Slot) for slot in slots), slots
    return [slot for slot in slots if isinstance(slot, Slot)]


def waited(session: Session, turns: int) -> list[Step]:
    """Steps of waiting, each settled (on disk)."""
    steps = []
    for _ in range(turns):
        steps.append(session.apply(Wait()))
        settle(session)
    return steps


def slot_start(path: Path, index: int) -> int:
    """Where a slot begins in a save file."""
    return slots.slot_start(index, slot_size_of(path.read_bytes()))


def overwrite(path: Path, offset: int, data: bytes) -> None:
    """Put bytes into a file in place, as a write cut short by a crash would."""
    with open(path, "r+b") as file:
        file.seek(offset)
        file.write(data)


def test_each_turn_goes_to_the_other_slot_and_the_newest_wins(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=5)
    path = the_save(tmp_path)
    before = waited(session, 1)[0]
    for _ in range(3):
        latest = waited(session, 1)[0]
        newer, older = sorted(both_slots(path), key=lambda slot: -slot.sequence)
        assert newer.sequence == older.sequence + 1 and newer.index != older.index
        assert read_save(path).checksum == latest.checksum
        assert older.sealed.payload == before.snapshot and newer.sealed.payload == latest.snapshot
        before = latest
    session.close()


def test_a_torn_newer_slot_loads_the_older_one(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=5)
    previous, latest = waited(session, 2)
    session.close()
    path = the_save(tmp_path)
    newer = max(both_slots(path), key=lambda slot: slot.sequence)
    overwrite(path, slot_start(path, newer.index) + SLOT_HEADER_SIZE + 200, b"\xde\xad" * 500)
    save = read_save(path)
    assert save.checksum == previous.checksum != latest.checksum
    resumed = Games(tmp_path).resume(path)  # the game goes on from the older slot, writing over the torn one
    again = waited(resumed, 1)[0]
    resumed.close()
    assert read_save(path).checksum == again.checksum and again.turn == previous.turn + 1


def test_a_write_cut_short_into_the_older_slot_leaves_the_newest_whole_one(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=5)
    (latest,) = waited(session, 1)
    session.close()
    path = the_save(tmp_path)
    newer, older = sorted(both_slots(path), key=lambda slot: -slot.sequence)
    envelope = unseal_whole(newer)
    half = slot_bytes(newer.sequence + 1, envelope)[: len(envelope) // 2]  # the next save's first half, with its header
    overwrite(path, slot_start(path, older.index), half)
    assert isinstance(slots_of(path.read_bytes())[older.index], str)
    assert read_save(path).checksum == latest.checksum


def unseal_whole(slot: Slot) -> bytes:
    """The envelope bytes of a slot, sealed again exactly as written (the checksum is deterministic)."""
    from roguelike.saves.container import seal

    return seal(SAVE_MAGIC, slot.sealed.version, slot.sealed.header, slot.sealed.payload)


def test_a_save_that_outgrows_its_slots_is_rewritten_with_larger_ones(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=3)
    path = the_save(tmp_path)
    small, inode = slot_size_of(path.read_bytes()), path.stat().st_ino
    game, depth = session.game, 1
    while slot_size_of(path.read_bytes()) == small and depth < 20:
        depth += 1
        game.activate()
        travel(game.state, depth)
        game.refresh_visible()
        step = waited(session, 1)[0]
    grown = slot_size_of(path.read_bytes())
    assert grown > small and path.stat().st_ino != inode  # written whole, through a new file
    assert read_save(path).checksum == step.checksum
    assert grown >= 2 * len(unseal_whole(newest(path)))  # room to grow before the next rewrite
    inode = path.stat().st_ino
    after = waited(session, 2)[-1]
    assert path.stat().st_ino == inode and slot_size_of(path.read_bytes()) == grown  # in place again
    assert read_save(path).checksum == after.checksum
    session.close()


def newest(path: Path) -> Slot:
    """The newest whole slot."""
    return max((slot for slot in slots_of(path.read_bytes()) if isinstance(slot, Slot)), key=lambda slot: slot.sequence)


def test_turns_are_written_in_place_not_through_a_new_file(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=3)
    path = the_save(tmp_path)
    inode, size = path.stat().st_ino, path.stat().st_size
    last = waited(session, 5)[-1]
    assert (path.stat().st_ino, path.stat().st_size) == (inode, size)
    assert read_save(path).checksum == last.checksum
    session.close()


def test_an_old_single_envelope_save_resumes_and_its_first_save_is_two_slots(tmp_path: Path) -> None:
    path = tmp_path / "saves" / "20260101-000000-0ld5a7e0.save"
    path.parent.mkdir(parents=True)
    path.write_bytes((REPOSITORY_SAVES / "v5.save").read_bytes())
    assert read_save(path).version == 5
    session = Games(tmp_path).resume(path)
    step = waited(session, 1)[0]
    session.close()
    save = read_save(path)
    assert save.version == FORMAT_VERSION and save.checksum == step.checksum and step.turn == 101
    assert len([slot for slot in slots_of(path.read_bytes()) if isinstance(slot, Slot)]) == 1


def test_a_game_that_reads_only_single_envelopes_calls_a_two_slot_save_newer() -> None:
    data = (REPOSITORY_SAVES / f"v{FORMAT_VERSION}.save").read_bytes()
    with pytest.raises(Damaged, match="made by a newer version of the game"):
        unseal(data, SAVE_MAGIC, "save", 5)  # what the game did up to format 5


def test_a_save_with_both_slots_torn_is_damaged_and_left_alone(tmp_path: Path) -> None:
    session, _ = played(tmp_path, turns=5)
    session.close()
    path = the_save(tmp_path)
    for slot in both_slots(path):
        overwrite(path, slot_start(path, slot.index) + SLOT_HEADER_SIZE + 100, b"torn")
    damaged = path.read_bytes()
    with pytest.raises(SaveError, match="its checksum does not match") as caught:
        read_save(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == damaged


def test_a_save_file_made_read_only_in_a_writable_folder_is_replaced_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session, _ = played(tmp_path, turns=3)
    path = the_save(tmp_path)
    inode, real_open = path.stat().st_ino, os.open

    def read_only_file(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if Path(file) == path and flags & os.O_WRONLY and not flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(file))  # chmod 444 (root ignores it)
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only_file)
    step = waited(session, 1)[0]
    monkeypatch.undo()
    assert session.notices.lines() == [] and path.stat().st_ino != inode
    assert read_save(path).checksum == step.checksum
    session.close()
