"""The screen as a stream of binary frames: a keyframe, then the cells each frame changed.

Every frontend draws the same 80x25 console; this module turns its cells into bytes any client
can rebuild them from, cell for cell, without the game's rules: the web frontend sends these
frames to the browser and to spectators, films store them, and the hosted server's web process
(which never loads the game) keeps each game's screen from them for its spectators. Reading a
tcod console's cells is :mod:`roguelike.frontend.frames`'s.

A cell is 10 bytes, little-endian: the glyph's code point (u32), then the foreground and
background colours (3 bytes each). A message starts with its kind:

- keyframe: ``0x01``, columns (u16), rows (u16), then every cell row by row;
- diff: ``0x02``, the number of runs (u16), then each run of changed cells: the index of its
  first cell (u16, row by row), how many cells (u16), and those cells;
- deflated: ``0x03``, then a keyframe or a diff compressed with raw deflate (RFC 1951), each
  message on its own. The web server compresses a frame once for the player and every
  spectator (:func:`deflated`) instead of letting each connection deflate it again.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
from numpy.typing import NDArray

KEYFRAME, DIFF, DEFLATED = 0x01, 0x02, 0x03
DEFLATE_LEVEL = 6
# No message inflates past a keyframe of the largest screen a u16 can name (a bomb is refused).
MAX_INFLATED = 5 + 0xFFFF * 10 * 4
CELL = np.dtype([("ch", "<u4"), ("fg", "u1", (3,)), ("bg", "u1", (3,))])
Cells = NDArray[np.void]
KEY_HEAD = struct.Struct("<BHH")
DIFF_HEAD = struct.Struct("<BH")
RUN_HEAD = struct.Struct("<HH")
MAX_RUNS = 0xFFFF


class FrameError(ValueError):
    """A message that is no frame of this protocol, or does not fit the screen it is applied to."""


def keyframe(cells: Cells) -> bytes:
    """The message that sets the whole screen."""
    rows, columns = cells.shape
    return KEY_HEAD.pack(KEYFRAME, columns, rows) + cells.tobytes()


def changed_runs(before: Cells, after: Cells) -> list[tuple[int, int]]:
    """(first index, end index) of each run of cells that differ, row by row."""
    changed = (before.reshape(-1) != after.reshape(-1)).astype(np.int8)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], changed, [0]))))
    return list(zip(edges[0::2].tolist(), edges[1::2].tolist()))


def diff(before: Cells, after: Cells) -> bytes | None:
    """The message that turns ``before`` into ``after`` (a keyframe when that is no larger);
    None when nothing changed."""
    runs = changed_runs(before, after)
    if not runs:
        return None
    changed = sum(end - start for start, end in runs)
    if len(runs) > MAX_RUNS or len(runs) * RUN_HEAD.size + changed * CELL.itemsize >= after.size * CELL.itemsize:
        return keyframe(after)
    flat = after.reshape(-1)
    parts = [DIFF_HEAD.pack(DIFF, len(runs))]
    for start, end in runs:
        parts.append(RUN_HEAD.pack(start, end - start))
        parts.append(flat[start:end].tobytes())
    return b"".join(parts)


def blank(columns: int, rows: int) -> Cells:
    """An all-zero screen, what a client holds before its first keyframe."""
    return np.zeros((rows, columns), CELL)


def deflated(message: bytes) -> bytes:
    """The message compressed on its own (``0x03`` first), unless that is no smaller."""
    packer = zlib.compressobj(DEFLATE_LEVEL, zlib.DEFLATED, -15)
    packed = bytes([DEFLATED]) + packer.compress(message) + packer.flush()
    return packed if len(packed) < len(message) else message


def inflated(message: bytes) -> bytes:
    """The keyframe or diff a message carries (a deflated one unpacked); FrameError if bad."""
    if not message or message[0] != DEFLATED:
        return message
    unpacker = zlib.decompressobj(-15)
    try:
        inner = unpacker.decompress(message[1:], MAX_INFLATED)
    except zlib.error as error:
        raise FrameError(f"a deflated message that does not inflate: {error}") from None
    if unpacker.unconsumed_tail or not unpacker.eof or (inner and inner[0] == DEFLATED):
        raise FrameError("a deflated message cut short, too large or nested")
    return inner


def apply(cells: Cells | None, message: bytes) -> Cells:
    """The screen after a message (a keyframe needs no screen before it); FrameError if bad."""
    message = inflated(message)
    if not message:
        raise FrameError("an empty message")
    if message[0] == KEYFRAME:
        return read_keyframe(message)
    if message[0] != DIFF:
        raise FrameError(f"unknown message kind {message[0]}")
    if cells is None:
        raise FrameError("a diff before any keyframe")
    return read_diff(cells.copy(), message)


def read_keyframe(message: bytes) -> Cells:
    """The screen a keyframe sets."""
    if len(message) < KEY_HEAD.size:
        raise FrameError("a keyframe cut short")
    _, columns, rows = KEY_HEAD.unpack_from(message)
    body = message[KEY_HEAD.size :]
    if len(body) != columns * rows * CELL.itemsize:
        raise FrameError(f"a {columns}x{rows} keyframe of {len(body)} bytes")
    return np.frombuffer(body, CELL).reshape(rows, columns).copy()


def read_diff(cells: Cells, message: bytes) -> Cells:
    """Apply a diff's runs to ``cells`` (changed in place, and returned)."""
    if len(message) < DIFF_HEAD.size:
        raise FrameError("a diff cut short")
    flat = cells.reshape(-1)
    _, count = DIFF_HEAD.unpack_from(message)
    at = DIFF_HEAD.size
    for _ in range(count):
        if at + RUN_HEAD.size > len(message):
            raise FrameError("a diff cut short")
        start, length = RUN_HEAD.unpack_from(message, at)
        at += RUN_HEAD.size
        size = length * CELL.itemsize
        if start + length > flat.size or at + size > len(message):
            raise FrameError("a run past the screen or the message")
        flat[start : start + length] = np.frombuffer(message, CELL, length, at)
        at += size
    if at != len(message):
        raise FrameError("bytes after the last run")
    return cells


def text_rows(cells: Cells) -> list[str]:
    """The screen's glyphs as one string per row (what a player reads)."""
    return ["".join(chr(code) if code else " " for code in row) for row in cells["ch"].tolist()]


class Screenful:
    """The last screen sent out: makes the message for the next one, and a keyframe for newcomers."""

    def __init__(self, columns: int, rows: int) -> None:
        self.cells = blank(columns, rows)
        self.started = False

    def update_cells(self, after: Cells) -> bytes | None:
        """The message that brings clients to these cells (a keyframe the first time)."""
        message = diff(self.cells, after) if self.started else keyframe(after)
        self.cells, self.started = after, True
        return message

    def keyframe(self) -> bytes:
        """The whole screen as last sent."""
        return keyframe(self.cells)
