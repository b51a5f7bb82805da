"""The save file from format 6 on: two slots, each autosave overwriting the older one in place.

Layout (big-endian)::

    magic (8 bytes) | format version (u16) | slot size (u32) | 0 (u16)
    | BLAKE2b-128 of those 16 bytes | zeros up to 4096                      -> one page
    slot 0 | slot 1                          (each exactly ``slot size`` bytes, whole pages)

    slot: sequence (u64) | envelope length (u32)
          | BLAKE2b-128 of (sequence, length, the envelope's own checksum)    -> 28 bytes
          | the envelope (container.py: what a whole save file was up to format 5)
          | whatever was there before, up to the slot size

The magic and the version sit where the envelope has them, so a game that reads only
formats up to 5 says the file was made by a newer version. A slot whose sequence is 0
was never written. Each save goes to the slot not holding the newest good save, with one
write and ``fdatasync``: a write cut short can only spoil the slot being written, and its
checksum says so, so the other slot (the previous turn) is loaded instead. The slot's own
checksum binds the sequence to the envelope, so a torn write can never pass an older
envelope off as newer. The file is written whole, through a temp file and a rename, only
when it is new, when it is still in an older layout, or when a save outgrows its slot (the
new slots then have room for twice that save, so that happens rarely).
"""

from __future__ import annotations

import errno
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from roguelike.saves.container import (
    DIGEST_SIZE,
    MAX_FILE_SIZE,
    PREFIX,
    SAVE_MAGIC,
    Sealed,
    file_digest,
    newer_format,
    unseal,
)
from roguelike.saves.reading import read_file
from roguelike.saves.upgrade import FORMAT_VERSION, SLOTTED_SINCE
from roguelike.storage.atomic import write_atomic
from roguelike.storage.errors import Damaged, SaveError

FILE_HEADER = struct.Struct(">8sHIH")
SLOT_HEADER = struct.Struct(">QI")
FILE_HEADER_SIZE = FILE_HEADER.size + DIGEST_SIZE
SLOT_HEADER_SIZE = SLOT_HEADER.size + DIGEST_SIZE
SLOT_ROUNDING = 4096  # slots are whole pages, so the file grows in pages
SLOTS_START = SLOT_ROUNDING  # the header's page is its own: a slot's write never shares a page with the other slot
MAX_SLOT_SIZE = (MAX_FILE_SIZE - SLOTS_START) // 2 // SLOT_ROUNDING * SLOT_ROUNDING
_BINARY = getattr(os, "O_BINARY", 0)
NEVER_WRITTEN = "it was never written"
MAX_SEQUENCE = 2**63  # far beyond a save a turn for ever; a crafted 2^64-1 could not be counted on from
TORN = "its checksum does not match (it was being written when the game stopped, or it was damaged)"


@dataclass(frozen=True)
class Slot:
    """One slot read back: where it is, its sequence number and the checked envelope it holds."""

    index: int
    sequence: int
    sealed: Sealed


def is_slotted(data: bytes) -> bool:
    """Whether a file is laid out in slots (format 6 on) rather than one envelope."""
    return len(data) >= PREFIX.size and data[: len(SAVE_MAGIC)] == SAVE_MAGIC and version_of(data) >= SLOTTED_SINCE


def version_of(data: bytes) -> int:
    """The format version, where both layouts keep it."""
    return int.from_bytes(data[len(SAVE_MAGIC) : len(SAVE_MAGIC) + 2], "big")


def slot_size_of(data: bytes) -> int:
    """The slot size from a checked file header; Damaged if the header is not whole."""
    if len(data) < FILE_HEADER_SIZE:
        raise Damaged("the file is cut short")
    if version_of(data) > FORMAT_VERSION:
        raise Damaged(newer_format(version_of(data), FORMAT_VERSION))
    if file_digest(data[: FILE_HEADER.size]) != data[FILE_HEADER.size : FILE_HEADER_SIZE]:
        raise Damaged("its header is damaged (its checksum does not match)")
    slot_size: int = FILE_HEADER.unpack_from(data)[2]
    if not SLOT_HEADER_SIZE < slot_size <= MAX_SLOT_SIZE:
        raise Damaged(f"its header is damaged (a slot size of {slot_size} bytes)")
    return slot_size


def slot_start(index: int, slot_size: int) -> int:
    """Where a slot begins in the file (slot 2: where the file ends)."""
    return SLOTS_START + index * slot_size


def whole_file(data: bytes) -> int:
    """The slot size of a file exactly as long as its header says (it is written whole, never cut)."""
    slot_size = slot_size_of(data)
    if len(data) < slot_start(2, slot_size):
        raise Damaged("the file is cut short")
    if len(data) > slot_start(2, slot_size):
        raise Damaged("the file has unexpected bytes at its end")
    return slot_size


def slots_of(data: bytes) -> list[Slot | str]:
    """Both slots of a slotted file, each read back or the reason it cannot be used."""
    slot_size = whole_file(data)
    return [read_slot(data, index, slot_size) for index in (0, 1)]


def read_slot(data: bytes, index: int, slot_size: int) -> Slot | str:
    """One slot whose checksums match, or why not."""
    start = slot_start(index, slot_size)
    if len(data) < start + SLOT_HEADER_SIZE:
        return "it is cut short"
    sequence, length = SLOT_HEADER.unpack_from(data, start)
    if sequence == 0:
        return NEVER_WRITTEN
    end = start + SLOT_HEADER_SIZE + length
    if length < DIGEST_SIZE or end > start + slot_size or end > len(data):
        return "it is cut short"
    envelope = data[start + SLOT_HEADER_SIZE : end]
    if data[start + SLOT_HEADER.size : start + SLOT_HEADER_SIZE] != slot_digest(sequence, envelope):
        return TORN
    if sequence >= MAX_SEQUENCE:
        return "its sequence number is out of range"
    try:
        return Slot(index, sequence, unseal(envelope, SAVE_MAGIC, "save", FORMAT_VERSION))
    except Damaged as error:
        return error.reason


def newest_slot(data: bytes) -> Slot:
    """The slot with the highest sequence whose checksums match; Damaged saying why if neither."""
    slot_size = whole_file(data)
    reasons: dict[int, str] = {}
    for index in sorted((0, 1), key=lambda index: -claimed_sequence(data, index, slot_size)):
        slot = read_slot(data, index, slot_size)
        if isinstance(slot, Slot):
            return slot  # the other slot is not checked: the newest whole one is all a reader needs
        reasons[index] = slot
    raise Damaged(none_usable([reasons[index] for index in (0, 1)]))


def claimed_sequence(data: bytes, index: int, slot_size: int) -> int:
    """The sequence a slot's header claims, before anything is checked."""
    start = slot_start(index, slot_size)
    return int.from_bytes(data[start : start + 8], "big")


def none_usable(reasons: list[str]) -> str:
    """Why neither slot holds a game: the one slot ever written, or both."""
    written = [reason for reason in reasons if reason != NEVER_WRITTEN]
    if not written:
        return "it holds no saved game"
    if len(set(written)) == 1:
        return written[0]  # the one copy ever written, or both copies alike
    return "both of its copies are damaged: " + "; ".join(written)


def slot_digest(sequence: int, envelope: bytes) -> bytes:
    """The checksum of a slot: its sequence and length, bound to the envelope's own checksum."""
    return file_digest(SLOT_HEADER.pack(sequence, len(envelope)) + envelope[-DIGEST_SIZE:])


def slot_bytes(sequence: int, envelope: bytes) -> bytes:
    """What is written into a slot (the rest of the slot is left as it is)."""
    return SLOT_HEADER.pack(sequence, len(envelope)) + slot_digest(sequence, envelope) + envelope


def slot_size_for(envelope: bytes) -> int:
    """Slots with room for twice this save; OSError if even one save cannot fit."""
    needed = SLOT_HEADER_SIZE + len(envelope)
    if needed > MAX_SLOT_SIZE:
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))
    rounded = -(-2 * needed // SLOT_ROUNDING) * SLOT_ROUNDING
    return min(rounded, MAX_SLOT_SIZE)


def slotted_file(envelope: bytes, sequence: int = 1, version: int = FORMAT_VERSION) -> bytes:
    """A whole new save file: the envelope in the first slot, the second never written."""
    slot_size = slot_size_for(envelope)
    prefix = FILE_HEADER.pack(SAVE_MAGIC, version, slot_size, 0)
    first = slot_bytes(sequence, envelope)
    header = (prefix + file_digest(prefix)).ljust(SLOTS_START, b"\0")
    return header + first + bytes(2 * slot_size - len(first))


def datasync(fd: int) -> None:
    """Make a file's data durable (``fdatasync`` where there is one: the size never changes)."""
    sync = getattr(os, "fdatasync", None) or os.fsync
    sync(fd)


def write_at(fd: int, data: bytes, offset: int) -> None:
    """Write every byte at an offset (``pwrite`` where there is one)."""
    view = memoryview(data)
    while view:
        if hasattr(os, "pwrite"):
            written = os.pwrite(fd, view, offset)
        else:  # Windows
            os.lseek(fd, offset, os.SEEK_SET)
            written = os.write(fd, view)
        if written <= 0:
            raise OSError(errno.EIO, "nothing could be written")
        view, offset = view[written:], offset + written


class SlotWriter:
    """Writes one save file turn after turn, in place, into the slot not holding the newest good save."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.slot_size = 0  # 0: the file's layout is not known (yet), so it is written whole
        self.sequence = 0
        self.good = 1  # the slot holding the newest save known to be on disk

    def write(self, envelope: bytes) -> None:
        """Save an envelope durably; OSError leaves the newest good save loadable."""
        if not self.slot_size:
            self.learn()
        if SLOT_HEADER_SIZE + len(envelope) > self.slot_size:
            self.rewrite(envelope)
            return
        try:
            self.overwrite(envelope, 1 - self.good)
        except (FileNotFoundError, PermissionError):  # gone, or made read-only: a new file, as a rename always did
            self.rewrite(envelope)

    def learn(self) -> None:
        """Find the file's slot size and its newest good slot (a file in any other state is rewritten)."""
        try:
            data = read_file(self.path, "save")
            newest = newest_slot(data) if is_slotted(data) else None
        except (Damaged, SaveError):
            return  # a missing, unreadable or damaged file is written whole
        if newest is not None:
            self.slot_size, self.sequence, self.good = slot_size_of(data), newest.sequence, newest.index

    def rewrite(self, envelope: bytes) -> None:
        """Write the whole file anew (new, older layout, or outgrown), atomically."""
        data = slotted_file(envelope, self.sequence + 1)
        write_atomic(self.path, data)
        self.slot_size, self.sequence, self.good = slot_size_of(data), self.sequence + 1, 0

    def overwrite(self, envelope: bytes, index: int) -> None:
        """One write and fdatasync into a slot; on failure the slot is spoiled, never half-trusted."""
        offset = slot_start(index, self.slot_size)
        fd = os.open(self.path, os.O_WRONLY | _BINARY)
        try:
            write_at(fd, slot_bytes(self.sequence + 1, envelope), offset)
            datasync(fd)
        except BaseException:
            spoil(fd, offset)
            raise
        finally:
            os.close(fd)
        self.sequence, self.good = self.sequence + 1, index


def spoil(fd: int, offset: int) -> None:
    """Blank a slot whose write failed, so the save read back is the one the game says it kept."""
    try:
        write_at(fd, bytes(SLOT_HEADER_SIZE), offset)
    except OSError:
        pass  # the write never reached the slot, or its checksum will not match
