"""The replay file: a header and one record per command, each framed and CRC-checked.

Layout: ``MAGIC``, the format version (2 bytes, big-endian), then frames. A frame is its
payload length, the length's bitwise complement, the CRC-32 of the payload (three
big-endian 32-bit words) and the payload, one msgpack value. The first frame is the
header; every later one is a step ``[0, index, command, turn, checksum, changes]``
(``changes``: the facts of :mod:`roguelike.replay.witness` that changed that turn)
or, last, a crash ``[1, index, command | None, error]``. The two formats differ only in
the checksum: format 1 hashes the snapshot's bytes whole, format 2 on with each floor's
bytes replaced by their own SHA-256 (:func:`checksum_in`); all are read and verified.
Format 3 adds the rules epoch to the header (:mod:`roguelike.core.epoch`); a file of an
older format was recorded under :data:`~roguelike.core.epoch.FIRST_EPOCH`.

Any single flipped bit is caught (length vs complement, or the CRC), so a damaged file
is rejected before anything is simulated. A file cut inside its last frame is what a
killed game leaves: it reads as complete up to its last full record (``torn_at`` says
where the cut record starts). A game resuming reads its own replay with ``torn_tail``: a
power cut can leave any bytes after the last record that reached the disk whole (zeros, or
old blocks of the disk), so whatever follows the last whole, checksummed frame is taken
for that torn tail and cut off, and the records the save carries are put back there. Everything read is validated; problems raise
:class:`ReplayError` with a one-line reason, never anything else.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import msgpack

from roguelike.core.commands import Command, decode_command, encode_command
from roguelike.core.epoch import FIRST_EPOCH, RULES_EPOCH
from roguelike.core.names import clean_name
from roguelike.ground.replayframe import EPOCH_SINCE, FRAME, MAGIC, MASK32, MAX_HEADER_BYTES, PREAMBLE
from roguelike.storage.datadir import REPLAY_SUFFIX

FORMAT_VERSION = 3
WHOLE_BYTES_CHECKSUM = 1  # the last format whose checksum hashes the snapshot's bytes whole
MAX_EPOCH = 2**31 - 1
SUFFIX = REPLAY_SUFFIX  # the data directory names it (roguelike.storage.datadir)
MAX_RECORD_BYTES = 16 * 1024
MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_TEXT = 200
MAX_WITNESS_ENTRIES = 64
MAX_WITNESS_DEPTH = 16  # a fact is a component's fields: a few lists deep at most
MAX_NESTING = MAX_WITNESS_DEPTH + 1  # a record is a list holding the facts
CHECKSUM_BYTES = 8
MIN_ZERO_TAIL = 12  # zero bytes at the end taken for a power cut's leftovers, not damage
STEP, CRASH = 0, 1
READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
HEADER_ORIGINS = ("bot",)  # the origins a header may name: none of them ranks

Witness = dict[str, Any]


class Checksums(Protocol):
    """A game state's checksums (:class:`roguelike.core.snapshot.EncodedState`)."""

    @property
    def checksum(self) -> str:
        """Each floor counted by its digest (format 2 on)."""
        ...

    @property
    def whole_checksum(self) -> str:
        """The whole bytes hashed at once (format 1)."""
        ...


def checksum_in(replay_format: int, state: Checksums) -> str:
    """The checksum a replay of ``replay_format`` records for a game state."""
    return state.whole_checksum if replay_format <= WHOLE_BYTES_CHECKSUM else state.checksum


class ReplayError(Exception):
    """A replay file that cannot be used; the message is one line saying why."""


@dataclass(frozen=True)
class Header:
    """Who played what: the game id, seed, player name, game version, date and rules epoch.

    ``origin`` marks a game recorded as one that never ranks (a corpus's bot game) outside
    the checksums: it can only take a game out of the rankings, never put one in."""

    game_id: str
    seed: int
    name: str
    version: str
    date: str
    epoch: int = RULES_EPOCH
    origin: str | None = None  # one of HEADER_ORIGINS, written only when set

    def to_plain(self, replay_format: int = FORMAT_VERSION) -> dict[str, Any]:
        """The header as the msgpack map stored in a file of ``replay_format``."""
        plain: dict[str, Any] = {
            "id": self.game_id,
            "seed": self.seed,
            "name": self.name,
            "version": self.version,
            "date": self.date,
        }
        if replay_format >= EPOCH_SINCE:
            plain["epoch"] = self.epoch
        if self.origin is not None:
            plain["origin"] = self.origin
        return plain


@dataclass(frozen=True)
class StepRecord:
    """One command and the game it led to: turn, checksum and the readable facts that changed."""

    index: int
    command: Command
    turn: int
    checksum: str
    changes: Witness


@dataclass(frozen=True)
class CrashRecord:
    """The command during which the game crashed (None if it crashed between commands)."""

    index: int
    command: Command | None
    error: str


@dataclass(frozen=True)
class Replay:
    """A read replay: header, steps, an optional crash, and where each record ends."""

    header: Header
    steps: list[StepRecord]
    crash: CrashRecord | None
    ends: list[int]  # ends[i]: byte offset just after the header (i = 0) or step i
    torn_at: int | None = None
    format: int = FORMAT_VERSION  # the file's format version, which says how its checksums are made

    @property
    def final_turn(self) -> int:
        """The game turn after the last recorded command."""
        return self.steps[-1].turn if self.steps else 0


def preamble(replay_format: int = FORMAT_VERSION) -> bytes:
    """The bytes every replay starts with."""
    return PREAMBLE.pack(MAGIC, replay_format)


def frame(value: object) -> bytes:
    """One framed record."""
    payload: bytes = msgpack.packb(value, use_bin_type=True)
    return FRAME.pack(len(payload), len(payload) ^ MASK32, zlib.crc32(payload)) + payload


def header_bytes(header: Header, replay_format: int = FORMAT_VERSION) -> bytes:
    """The start of a replay file: preamble and header frame."""
    return preamble(replay_format) + frame(header.to_plain(replay_format))


def step_bytes(index: int, command: Command, turn: int, checksum: str, changes: Witness) -> bytes:
    """The frame of one step."""
    return frame([STEP, index, encode_command(command), turn, bytes.fromhex(checksum), changes])


def crash_bytes(index: int, command: Command | None, error: str) -> bytes:
    """The frame that ends a crashed game's replay."""
    encoded = encode_command(command) if command is not None else None
    return frame([CRASH, index, encoded, error[:MAX_TEXT]])


def replay_bytes(replay: Replay) -> bytes:
    """A whole replay file's bytes (used when rewriting one)."""
    parts = [header_bytes(replay.header, replay.format)]
    parts += [step_bytes(s.index, s.command, s.turn, s.checksum, s.changes) for s in replay.steps]
    if replay.crash is not None:
        parts.append(crash_bytes(replay.crash.index, replay.crash.command, replay.crash.error))
    return b"".join(parts)


def read_replay(path: Path, torn_tail: bool = False) -> Replay:
    """Read and validate a replay file (``torn_tail``: up to its last whole frame, whatever follows)."""
    return parse_replay(read_bytes(path), torn_tail)


def read_header(path: Path) -> tuple[int, Header]:
    """A replay's format and header, reading no further than the header frame."""
    data = read_bytes(path, PREAMBLE.size + FRAME.size + MAX_HEADER_BYTES)
    replay_format = check_preamble(data)
    payloads, _, _ = split_frames(data[: PREAMBLE.size + FRAME.size + header_length(data)])
    if not payloads:
        raise ReplayError("the file ends inside its header")
    return replay_format, parse_header(unpack(payloads[0], "the header"), replay_format)


def header_length(data: bytes) -> int:
    """The header frame's payload length as its frame says (0 if the frame is cut short)."""
    if len(data) < PREAMBLE.size + FRAME.size:
        return 0
    return int(FRAME.unpack_from(data, PREAMBLE.size)[0])


def read_bytes(path: Path, head: int | None = None) -> bytes:
    """A regular file's bytes (only its first ``head`` when given), refusing devices, pipes and
    files too large to be replays."""
    try:
        fd = os.open(path, READ_FLAGS)
    except OSError as error:
        raise ReplayError(f"cannot read it ({error.strerror or error})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReplayError("not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise ReplayError(f"too large to be a replay (over {MAX_FILE_BYTES // 2**20} MiB)")
        with os.fdopen(os.dup(fd), "rb") as file:
            return file.read(MAX_FILE_BYTES + 1 if head is None else head)
    except OSError as error:
        raise ReplayError(f"cannot read it ({error.strerror or error})") from None
    finally:
        os.close(fd)


def parse_replay(data: bytes, torn_tail: bool = False) -> Replay:
    """Validate a replay's bytes and return what they hold (``torn_tail``: see :func:`split_frames`)."""
    replay_format = check_preamble(data)
    payloads, ends, torn_at = split_frames(data, torn_tail=torn_tail)
    if not payloads:
        raise ReplayError("the file ends inside its header")
    header = parse_header(unpack(payloads[0], "the header"), replay_format)
    steps, crash = parse_records(payloads[1:])
    return Replay(header, steps, crash, ends[: len(steps) + 1], torn_at, replay_format)


def check_preamble(data: bytes) -> int:
    """The format version; rejects files that are not replays, or from a newer game."""
    if not data:
        raise ReplayError("the file is empty")
    if MAGIC.startswith(data[: len(MAGIC)]) and len(data) < PREAMBLE.size:
        raise ReplayError("the file ends inside its header")
    if not data.startswith(MAGIC):
        raise ReplayError("not a Hedonic Hypothesis replay (it does not start with HHREPLAY)")
    version = PREAMBLE.unpack_from(data)[1]
    if version > FORMAT_VERSION:
        raise ReplayError(f"made by a newer game (replay format {version}; this game reads up to {FORMAT_VERSION})")
    if version < 1:
        raise ReplayError(f"unknown replay format {version}")
    return int(version)


def split_frames(
    data: bytes, pos: int = PREAMBLE.size, header: bool = True, torn_tail: bool = False
) -> tuple[list[memoryview], list[int], int | None]:
    """The payloads of the complete frames, where each ends, and where a cut-off one starts.

    The frames start at ``pos``, the first being the header unless ``header`` is False. A
    power cut can leave a file's last blocks as zero bytes: a frame that fails its checks
    where such a tail of zeros begins is a cut-off record too, not damage. With
    ``torn_tail`` (the game resuming its own replay) any frame that fails its checks starts
    the torn tail: the disk may hold anything where the unsynced records were.
    """
    view = memoryview(data)
    zeros_from = 0 if torn_tail else zero_tail(data)
    payloads: list[memoryview] = []
    ends: list[int] = []
    while pos < len(data):
        first = header and not payloads
        what = "the header" if first else f"record {len(payloads) + (0 if header else 1)}"
        if len(data) - pos < FRAME.size:
            return payloads, ends, pos
        length, check, crc = FRAME.unpack_from(data, pos)
        limit = MAX_HEADER_BYTES if first else MAX_RECORD_BYTES
        if length ^ check != MASK32 or length > limit:
            if zeros_from <= pos + FRAME.size:
                return payloads, ends, pos
        if length ^ check != MASK32:
            raise ReplayError(f"{what} is damaged (its length field is corrupt, at byte {pos})")
        if length > limit:
            raise ReplayError(f"{what} claims {length} bytes, more than the {limit} a record may have")
        if len(data) - pos - FRAME.size < length:
            return payloads, ends, pos
        payload = view[pos + FRAME.size : pos + FRAME.size + length]
        if zlib.crc32(payload) != crc and zeros_from <= pos + FRAME.size + length:
            return payloads, ends, pos
        if zlib.crc32(payload) != crc:
            raise ReplayError(f"{what} is damaged (CRC mismatch, at byte {pos})")
        payloads.append(payload)
        pos += FRAME.size + length
        ends.append(pos)
    return payloads, ends, None


def zero_tail(data: bytes) -> int:
    """Where a run of zero bytes ending the file begins (past the end if it has none)."""
    kept = len(data.rstrip(b"\0"))
    return kept if len(data) - kept >= MIN_ZERO_TAIL else len(data) + 1


def unpack(payload: memoryview, what: str) -> Any:
    """One msgpack value nested at most MAX_NESTING levels, or a ReplayError."""
    try:
        value = msgpack.unpackb(payload, raw=False, strict_map_key=True, ext_hook=refuse_extension)
    except Exception:  # msgpack documents that exceptions other than its own can escape
        raise ReplayError(f"{what} is not readable msgpack") from None
    # before anything looks at it: a value a thousand levels deep cannot even be repr'd
    if isinstance(value, (list, dict)) and not nests_within(value, MAX_NESTING - 1):
        raise ReplayError(f"{what} is nested deeper than {MAX_NESTING} levels")
    return value


def nests_within(container: list[Any] | dict[str, Any], room: int) -> bool:
    """Whether the lists and tables inside a container nest at most ``room`` levels.

    Only containers are visited (map keys are text or bytes: ``strict_map_key``), and the
    recursion stops at ``room``, so it is cheap and can never run out of stack.
    """
    for item in container.values() if type(container) is dict else container:
        if type(item) is list or type(item) is dict:
            if room < 1 or not nests_within(item, room - 1):
                return False
    return True


def refuse_extension(code: int, data: bytes) -> Any:
    """msgpack extension types never appear in replays."""
    raise ValueError(f"extension type {code}")


def parse_header(value: Any, replay_format: int = FORMAT_VERSION) -> Header:
    """The header of a file of ``replay_format``, with every field checked."""
    if not isinstance(value, dict):
        raise ReplayError(f"the header should be a table, not {kind_of(value)}")
    header = Header(
        game_id=header_field(value, "id", str),
        seed=header_field(value, "seed", int),
        name=header_field(value, "name", str),
        version=header_field(value, "version", str),
        date=header_field(value, "date", str),
        epoch=header_epoch(value, replay_format),
        origin=header_origin(value),
    )
    if not GAME_ID.fullmatch(header.game_id):
        raise ReplayError("the header's game id has characters a game id never has")
    if clean_name(header.name) != header.name or not header.name:
        raise ReplayError("the header's name has characters a player's name never has")
    return header


def header_origin(header: dict[str, Any]) -> str | None:
    """The origin a header names (None: it names none)."""
    if "origin" not in header:
        return None
    origin: str = header_field(header, "origin", str)
    if origin not in HEADER_ORIGINS:
        raise ReplayError(f"the header's origin {origin!r} is not one a header may name")
    return origin


def header_epoch(header: dict[str, Any], replay_format: int) -> int:
    """The rules epoch a file was recorded under (older formats: the first epoch)."""
    if replay_format < EPOCH_SINCE:
        if "epoch" in header:  # a flipped version bit, or a hand-made file: its checksums cannot be trusted
            raise ReplayError(f"the header names a rules epoch, which replay format {replay_format} never does")
        return FIRST_EPOCH
    epoch: int = header_field(header, "epoch", int)
    if not FIRST_EPOCH <= epoch <= MAX_EPOCH:
        raise ReplayError(f"the header's rules epoch {epoch} is not one any game has had")
    return epoch


def header_field(header: dict[str, Any], key: str, kind: type) -> Any:
    """A header field of an exact type."""
    if key not in header:
        raise ReplayError(f"the header has no {key!r}")
    value = header[key]
    if type(value) is not kind:
        raise ReplayError(f"the header's {key!r} should be {kind.__name__}, not {kind_of(value)}")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise ReplayError(f"the header's {key!r} is longer than {MAX_TEXT} characters")
    return value


def carried_steps(data: bytes) -> list[tuple[StepRecord, bytes]]:
    """Step frames kept outside the file (a save carries its replay's last ones), each with
    its bytes; ReplayError if any is damaged, cut short or out of order."""
    payloads, ends, torn_at = split_frames(data, 0, header=False)
    if torn_at is not None:
        raise ReplayError("the records carried in the save are cut short")
    records = [unpack(payload, "a carried record") for payload in payloads]
    first = records[0][1] if records and is_kind(records[0], STEP, 6) and type(records[0][1]) is int else 1
    starts = [0, *ends]
    return [(parse_step(record, first + n), data[starts[n] : ends[n]]) for n, record in enumerate(records)]


def parse_records(payloads: list[memoryview]) -> tuple[list[StepRecord], CrashRecord | None]:
    """Steps in order (indices 1, 2, ...) and an optional crash as the very last record."""
    steps: list[StepRecord] = []
    crash: CrashRecord | None = None
    for number, payload in enumerate(payloads, start=1):
        record = unpack(payload, f"record {number}")
        if crash is not None:
            raise ReplayError(f"record {number} follows the crash record, which must be last")
        if is_kind(record, CRASH, 4):
            crash = parse_crash(record, number)
        else:
            steps.append(parse_step(record, number))
    return steps, crash


def is_kind(record: Any, kind: int, size: int) -> bool:
    """Whether a record is a list of ``size`` items starting with ``kind``."""
    return isinstance(record, list) and len(record) == size and type(record[0]) is int and record[0] == kind


def parse_step(record: Any, number: int) -> StepRecord:
    """A step record, checked."""
    if not is_kind(record, STEP, 6):
        raise ReplayError(f"record {number} is neither a step nor a crash")
    _, index, command, turn, checksum, changes = record
    check_index(index, number)
    if type(turn) is not int or turn < 0:
        raise ReplayError(f"record {number}'s turn should be a whole number, not {kind_of(turn)}")
    if type(checksum) is not bytes or len(checksum) != CHECKSUM_BYTES:
        raise ReplayError(f"record {number}'s checksum should be {CHECKSUM_BYTES} bytes")
    check_changes(changes, number)
    return StepRecord(index, parse_command(command, number), turn, checksum.hex(), changes)


def parse_crash(record: list[Any], number: int) -> CrashRecord:
    """The crash record, checked."""
    _, index, command, error = record
    check_index(index, number)
    if type(error) is not str:
        raise ReplayError(f"record {number}'s error should be text, not {kind_of(error)}")
    return CrashRecord(index, None if command is None else parse_command(command, number), error[:MAX_TEXT])


def check_index(index: Any, number: int) -> None:
    """Records are numbered 1, 2, 3... with nothing missing or repeated."""
    if type(index) is not int or index != number:
        raise ReplayError(f"record {number} is numbered {safe(index)}: records are missing or out of order")


def parse_command(encoded: Any, number: int) -> Command:
    """A recorded command."""
    try:
        return decode_command(encoded)
    except ValueError:
        raise ReplayError(f"record {number} holds no command this game knows: {safe(encoded)}") from None


def check_changes(changes: Any, number: int) -> None:
    """The changed facts are a small table."""
    if not isinstance(changes, dict) or len(changes) > MAX_WITNESS_ENTRIES:
        raise ReplayError(f"record {number}'s facts should be a small table, not {kind_of(changes)}")


def kind_of(value: object) -> str:
    """A value's type in words, for messages."""
    return {
        dict: "a table",
        list: "a list",
        str: "text",
        bytes: "bytes",
        int: "a number",
        float: "a fraction",
        bool: "true/false",
        type(None): "nothing",
    }.get(type(value), type(value).__name__)


def safe(value: object, limit: int = 60) -> str:
    """A value from a file, fit to print on one line (no control characters)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
