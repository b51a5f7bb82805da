"""The film file: a game kept as the frames it showed, watchable without the rules that made it.

A film is the web frontend's stream of frames (:mod:`roguelike.frontend.frames`), one per
command, cut into chunks of ``FRAMES_PER_CHUNK`` frames. Each chunk starts with a keyframe
and is compressed on its own, so any frame is one chunk's decompression and a few hundred
diffs away: seeking is quick anywhere in a long film. Layout:

- ``MAGIC`` (8 bytes, the last one the film format's version);
- the header's length (u32 little-endian) and the header, JSON: the columns and rows, the
  character's name, the seed, the game version that made it, the number of frames, and per
  chunk ``[offset, size, first frame, first turn]`` (offsets count from the end of the header);
- the chunks, each compressed with xz (LZMA, which shrinks these frames to about 60% of what
  zlib makes of them): per frame, its game turn (u32), the message's length (u32)
  and the message.

Nothing in a film is code; a damaged or foreign file is a :class:`FilmError` naming what is wrong.
"""

from __future__ import annotations

import bisect
import json
import lzma
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tcod.console

from roguelike.frontend import frames

MAGIC = b"HHFILM\n\x01"
FRAMES_PER_CHUNK = 256
COMPRESSION = 1  # xz's fastest preset: higher ones save 5-15% more and take 1.5-4 times as long
LENGTH = struct.Struct("<I")
RECORD = struct.Struct("<II")
MAX_HEADER = 1 << 20
MAX_FILE = 1 << 30
# A chunk can never hold more than this once decompressed: a bigger one is damaged (or hostile).
# (a diff is never larger than a keyframe: it would have been sent as one).
MAX_CHUNK = FRAMES_PER_CHUNK * (RECORD.size + frames.KEY_HEAD.size + 80 * 25 * frames.CELL.itemsize)
EMPTY_DIFF = frames.DIFF_HEAD.pack(frames.DIFF, 0)


class FilmError(ValueError):
    """A file that is not a film of this game, or a damaged one."""


@dataclass(frozen=True)
class Chunk:
    """Where a chunk lies and what it starts with."""

    offset: int
    size: int
    first_frame: int
    first_turn: int


@dataclass(frozen=True)
class FilmHeader:
    """What a film is of."""

    columns: int
    rows: int
    name: str
    seed: int
    version: str
    frames: int
    final_turn: int
    chunks: tuple[Chunk, ...]

    def to_plain(self) -> dict[str, Any]:
        """The header as stored (JSON)."""
        return {
            "columns": self.columns,
            "rows": self.rows,
            "name": self.name,
            "seed": self.seed,
            "version": self.version,
            "frames": self.frames,
            "final_turn": self.final_turn,
            "chunks": [[c.offset, c.size, c.first_frame, c.first_turn] for c in self.chunks],
        }


def is_film(path: Path) -> bool:
    """Whether a file starts like a film (any version)."""
    try:
        with path.open("rb") as file:
            return file.read(len(MAGIC) - 1) == MAGIC[:-1]
    except OSError:
        return False


class FilmWriter:
    """Collects frames and makes the film's bytes."""

    def __init__(self, name: str, seed: int, version: str, columns: int = 80, rows: int = 25) -> None:
        self.name, self.seed, self.version = name, seed, version
        self.columns, self.rows = columns, rows
        self.chunks: list[bytes] = []
        self.starts: list[tuple[int, int]] = []
        self.records: list[bytes] = []
        self.cells: frames.Cells | None = None
        self.count = 0
        self.turn = 0

    def add(self, turn: int, console: tcod.console.Console) -> None:
        """One frame: the console as drawn at game turn ``turn``."""
        cells = frames.cells_of(console)
        if self.count % FRAMES_PER_CHUNK == 0:
            self.close_chunk()
            self.starts.append((self.count, turn))
            message = frames.keyframe(cells)
        else:
            assert self.cells is not None
            message = frames.diff(self.cells, cells) or EMPTY_DIFF
        self.records.append(RECORD.pack(turn, len(message)) + message)
        self.cells, self.turn = cells, turn
        self.count += 1

    def close_chunk(self) -> None:
        """Compress the frames since the last keyframe."""
        if self.records:
            self.chunks.append(lzma.compress(b"".join(self.records), preset=COMPRESSION))
            self.records = []

    def finish(self) -> bytes:
        """The whole film."""
        self.close_chunk()
        offsets = [0]
        for chunk in self.chunks:
            offsets.append(offsets[-1] + len(chunk))
        table = tuple(Chunk(offsets[i], len(chunk), *self.starts[i]) for i, chunk in enumerate(self.chunks))
        header = FilmHeader(self.columns, self.rows, self.name, self.seed, self.version, self.count, self.turn, table)
        text = json.dumps(header.to_plain(), separators=(",", ":")).encode()
        return MAGIC + LENGTH.pack(len(text)) + text + b"".join(self.chunks)


@dataclass(frozen=True)
class Reel:
    """One chunk decompressed: each frame's turn and where its message lies."""

    number: int
    raw: bytes
    turns: tuple[int, ...]
    spans: tuple[tuple[int, int], ...]

    def message(self, offset: int) -> bytes:
        """The message of the chunk's frame ``offset``."""
        start, end = self.spans[offset]
        return self.raw[start:end]


class Film:
    """A film read into memory: any frame by index, any turn's first frame.

    The last chunk decompressed and the last frame built are kept, so playing forward
    applies one diff a frame and a seek decompresses at most one chunk.
    """

    def __init__(self, data: bytes) -> None:
        self.header, self.body = parse(data)
        self.reel: Reel | None = None
        self.built: tuple[int, frames.Cells] | None = None  # the last frame built, changed in place

    @classmethod
    def read(cls, path: Path) -> Film:
        """The film in a file; FilmError (or OSError) if it cannot be read as one."""
        if path.stat().st_size > MAX_FILE:
            raise FilmError("too large to be a film")
        return cls(path.read_bytes())

    @property
    def frame_count(self) -> int:
        """How many frames the film holds."""
        return self.header.frames

    @property
    def final_turn(self) -> int:
        """The game turn of the last frame."""
        return self.header.final_turn

    def frame(self, index: int) -> tuple[int, frames.Cells]:
        """The game turn and the screen (a copy) of frame ``index``."""
        if not 0 <= index < self.frame_count:
            raise IndexError(index)
        number, offset = divmod(index, FRAMES_PER_CHUNK)
        reel = self.reel_of(number)
        start, cells = 0, None
        if self.built is not None and divmod(self.built[0], FRAMES_PER_CHUNK)[0] == number and self.built[0] <= index:
            start, cells = self.built[0] % FRAMES_PER_CHUNK + 1, self.built[1]
        for at in range(start, offset + 1):
            cells = self.build(reel, at, cells)
        assert cells is not None
        self.built = (index, cells)
        return reel.turns[offset], cells.copy()

    def build(self, reel: Reel, offset: int, cells: frames.Cells | None) -> frames.Cells:
        """The screen after one more frame of a chunk (the first is its keyframe)."""
        message = reel.message(offset)
        try:
            if offset == 0:
                if message[:1] != bytes([frames.KEYFRAME]):
                    raise frames.FrameError("a chunk that does not start with a keyframe")
                return frames.read_keyframe(message)
            if message[:1] != bytes([frames.DIFF]) or cells is None:
                raise frames.FrameError("a keyframe inside a chunk")
            return frames.read_diff(cells, message)
        except frames.FrameError as error:
            self.built = None
            raise FilmError(f"frame {reel.number * FRAMES_PER_CHUNK + offset} is damaged: {error}") from None

    def first_frame_of_turn(self, turn: int) -> int:
        """The first frame that shows game turn ``turn`` or a later one (the last frame if none)."""
        firsts = [chunk.first_turn for chunk in self.header.chunks]
        for number in range(max(0, bisect.bisect_left(firsts, turn) - 1), len(self.header.chunks)):
            turns = self.reel_of(number).turns
            offset = bisect.bisect_left(turns, turn)
            if offset < len(turns):
                return number * FRAMES_PER_CHUNK + offset
        return max(0, self.frame_count - 1)

    def reel_of(self, number: int) -> Reel:
        """A chunk decompressed (the last one asked for is kept)."""
        if self.reel is None or self.reel.number != number:
            self.reel = unpack_chunk(self.body, self.header, number)
        return self.reel


def parse(data: bytes) -> tuple[FilmHeader, bytes]:
    """The header and the chunks' bytes of a film."""
    if data[: len(MAGIC) - 1] != MAGIC[:-1]:
        raise FilmError("not a film (no film marker at the start)")
    if data[len(MAGIC) - 1] != MAGIC[-1]:
        raise FilmError(f"a film of format {data[len(MAGIC) - 1]}, which this game does not know")
    if len(data) < len(MAGIC) + LENGTH.size:
        raise FilmError("cut short")
    (length,) = LENGTH.unpack_from(data, len(MAGIC))
    start = len(MAGIC) + LENGTH.size
    if length > MAX_HEADER or start + length > len(data):
        raise FilmError("its header is cut short or too large")
    try:
        plain = json.loads(data[start : start + length].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise FilmError("its header is not readable") from None
    header = header_of(plain)
    body = data[start + length :]
    for chunk in header.chunks:
        if chunk.offset + chunk.size > len(body):
            raise FilmError("cut short: a chunk is missing")
    return header, body


def header_of(plain: object) -> FilmHeader:
    """A header from its stored form, every field checked."""
    if not isinstance(plain, dict):
        raise FilmError("its header is not a table")
    try:
        columns, rows, count, final = (int_field(plain, key) for key in ("columns", "rows", "frames", "final_turn"))
        name, version, seed = str_field(plain, "name"), str_field(plain, "version"), int_field(plain, "seed")
        chunks = tuple(Chunk(*(int(value) for value in entry)) for entry in plain["chunks"])
    except (KeyError, TypeError, ValueError) as error:
        raise FilmError(f"its header is damaged ({error})") from None
    if (columns, rows) != (80, 25):
        raise FilmError(f"a {columns}x{rows} film: this game shows 80x25")
    starts = [chunk.first_frame for chunk in chunks]
    if (
        starts != [FRAMES_PER_CHUNK * number for number in range(len(chunks))]
        or not (len(chunks) - 1) * FRAMES_PER_CHUNK < count <= len(chunks) * FRAMES_PER_CHUNK
    ):
        raise FilmError("its header's chunks do not add up")
    return FilmHeader(columns, rows, name, seed, version, count, final, chunks)


def int_field(plain: dict[str, Any], key: str) -> int:
    """A whole number from the header (booleans are not numbers here)."""
    value = plain[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{key} is not a count")
    return value


def str_field(plain: dict[str, Any], key: str) -> str:
    """A text from the header."""
    value = plain[key]
    if not isinstance(value, str):
        raise ValueError(f"{key} is not text")
    return value


def unpack_chunk(body: bytes, header: FilmHeader, number: int) -> Reel:
    """A chunk decompressed, with its frames' turns and messages found."""
    chunk = header.chunks[number]
    expected = min(FRAMES_PER_CHUNK, header.frames - chunk.first_frame)
    raw = inflate(body[chunk.offset : chunk.offset + chunk.size])
    turns: list[int] = []
    spans: list[tuple[int, int]] = []
    at = 0
    while at < len(raw):
        if at + RECORD.size > len(raw):
            raise FilmError(f"chunk {number} is cut short")
        turn, length = RECORD.unpack_from(raw, at)
        at += RECORD.size
        if at + length > len(raw) or (turns and turn < turns[-1]):
            raise FilmError(f"chunk {number} is damaged")
        turns.append(turn)
        spans.append((at, at + length))
        at += length
    if len(turns) != expected:
        raise FilmError(f"chunk {number} holds {len(turns)} frames, not {expected}")
    return Reel(number, raw, tuple(turns), tuple(spans))


def inflate(data: bytes) -> bytes:
    """A chunk decompressed, refusing one that would grow past any real chunk's size."""
    inflater = lzma.LZMADecompressor(lzma.FORMAT_XZ)
    try:
        raw = inflater.decompress(data, MAX_CHUNK)
    except lzma.LZMAError:
        raise FilmError("a chunk is damaged (it does not decompress)") from None
    if not inflater.eof or inflater.unused_data:
        raise FilmError("a chunk is damaged (too large, or cut short)")
    return raw
