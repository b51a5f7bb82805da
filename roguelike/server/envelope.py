"""What the server reads of an upload before keeping it: the replay's frame and its header's epoch.

A score file is a replay, or a zip holding ``game.replay`` (``hedonic export --morgue``).
The web process never imports the game, so this reads only the replay's outer frame
(:mod:`roguelike.ground.replayframe`, the game's own constants): the magic, the format, each frame's length, complement and CRC, and the
header's ``epoch``. That is enough to refuse garbage and files too long (400) or too large
(413) in one line, count the commands, and choose the rules epoch's queue. Nothing read here
is believed: the verdict and the score come from the re-simulation.

Cheap checks refuse what the game's reader would refuse before anything is stored (a frame
with valid framing around a payload that is no record): the header's fields and each
record's shape. What the game's reader accepts, this accepts: a cut last frame, and a tail of
zero bytes where a power cut left the file's last blocks (the same rule as
``roguelike.replay.fileformat.split_frames``; tests/test_server_uploads.py holds them equal).

An upload's ``game`` is the SHA-256 of what makes the game: its rules epoch, seed, name and
commands. Two files of one game (another game id, date or version in the header, a cut frame
appended) are one game, whatever their bytes: the server keeps and ranks it once.
"""

from __future__ import annotations

import hashlib
import io
import re
import zlib
from dataclasses import dataclass
from typing import Any

import msgpack

from roguelike.ground.replayframe import EPOCH_SINCE, FIRST_EPOCH, FRAME, MAGIC, MASK32, MAX_HEADER_BYTES, PREAMBLE
from roguelike.ground.unzip import MemberTooLarge, ZipRefused, read_member

KNOWN_FORMATS = range(1, 100)
REPLAY_MEMBER = "game.replay"
MAX_RECORD_BYTES = 16 * 1024  # the game's own limit on one record (roguelike.replay.fileformat)
MIN_ZERO_TAIL = 12  # zero bytes ending a file that the game reads as a power cut's leftovers
CHECKSUM_BYTES = 8
MAX_FACTS = 64
MAX_TEXT = 200
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
STEP, CRASH = 0, 1


class Refused(Exception):
    """An upload the server will not keep: the HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """How large an upload may be, in bytes and in commands."""

    max_bytes: int = 8 * 1024 * 1024
    max_commands: int = 50_000


@dataclass(frozen=True)
class Envelope:
    """An upload's replay, its hash (SHA-256 of the replay's bytes), rules epoch, command count and game
    (the SHA-256 of its epoch, seed, name and commands: the same for every file of one game)."""

    data: bytes
    digest: str
    epoch: int
    commands: int
    game: str | None = None


def open_upload(body: bytes, limits: Limits) -> Envelope:
    """The replay in an uploaded score file, checked against the limits (:class:`Refused` if not)."""
    if len(body) > limits.max_bytes:
        raise Refused(413, f"the file is larger than {limits.max_bytes} bytes")
    data = unzipped(body, limits) if body.startswith(b"PK") else body
    if len(data) < PREAMBLE.size or not data.startswith(MAGIC):
        raise Refused(400, "not a score file: neither a replay nor a zip holding game.replay")
    replay_format = PREAMBLE.unpack_from(data)[1]
    if replay_format not in KNOWN_FORMATS:
        raise Refused(400, f"not a replay this server reads (format {replay_format})")
    payloads = frames(data, PREAMBLE.size, limits.max_commands + 2)
    commands = len(payloads) - 1
    if commands > limits.max_commands:
        raise Refused(400, f"the replay has more than {limits.max_commands} commands")
    header = read_header(data[payloads[0][0] : payloads[0][1]])
    epoch = header_epoch(header, replay_format)
    played = [record_command(data[start:end], number) for number, (start, end) in enumerate(payloads[1:], start=1)]
    if any(command is None for command in played[:-1]):
        raise Refused(400, "a replay whose crash record is not its last")
    game = msgpack.packb(
        [epoch, header["seed"], header["name"], [command for command in played if command is not None]]
    )
    return Envelope(data, hashlib.sha256(data).hexdigest(), epoch, commands, hashlib.sha256(game).hexdigest())


def unzipped(body: bytes, limits: Limits) -> bytes:
    """The replay inside a score file's zip, decompressed no further than the size limit (its header is not believed)."""
    try:
        return read_member(io.BytesIO(body), REPLAY_MEMBER, limits.max_bytes)
    except MemberTooLarge:
        raise Refused(413, f"the zip's replay is larger than {limits.max_bytes} bytes") from None
    except ZipRefused as error:
        raise Refused(400, f"a zip without a readable {REPLAY_MEMBER}: {error}") from None


def frames(data: bytes, at: int, most: int) -> list[tuple[int, int]]:
    """Where each frame's payload starts and ends (stopping after ``most``); a cut last frame, or one
    where a power cut's tail of zeros begins, is left out as the game's reader leaves it out."""
    found: list[tuple[int, int]] = []
    zeros_from = zero_tail(data)
    while at + FRAME.size <= len(data) and len(found) < most:
        length, complement, crc = FRAME.unpack_from(data, at)
        start = at + FRAME.size
        limit = MAX_HEADER_BYTES if not found else MAX_RECORD_BYTES
        if (length ^ complement != MASK32 or length > limit) and zeros_from <= start:
            break  # the file's last blocks were never written: the game reads up to the record before
        if length ^ complement != MASK32:
            raise Refused(400, f"a damaged replay: a frame's length is broken at byte {at}")
        if length > limit:
            raise Refused(400, f"a damaged replay: a frame claims {length} bytes, more than a record has, at byte {at}")
        if start + length > len(data):
            break  # a killed game's torn last record: the game reads up to the one before
        if zlib.crc32(data[start : start + length]) != crc:
            if zeros_from <= start + length:
                break
            raise Refused(400, f"a damaged replay: a frame's CRC does not match at byte {at}")
        found.append((start, start + length))
        at = start + length
    if not found:
        raise Refused(400, "a replay without a header")
    return found


def zero_tail(data: bytes) -> int:
    """Where a run of zero bytes ending the file begins (past the end if it has none)."""
    kept = len(data.rstrip(b"\0"))
    return kept if len(data) - kept >= MIN_ZERO_TAIL else len(data) + 1


def read_header(payload: bytes) -> dict[str, Any]:
    """The header's map, its fields of the types the game's reader requires (:class:`Refused` if not)."""
    if len(payload) > MAX_HEADER_BYTES:
        raise Refused(400, "a replay whose header is too large")
    try:
        header: Any = msgpack.unpackb(payload, raw=False, strict_map_key=True, max_bin_len=0, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as error:
        raise Refused(400, f"a replay whose header cannot be read: {error}") from None
    if not isinstance(header, dict):
        raise Refused(400, "a replay whose header is not a map")
    for key, kind in (("id", str), ("seed", int), ("name", str), ("version", str), ("date", str)):
        value = header.get(key)
        if type(value) is not kind or (isinstance(value, str) and len(value) > MAX_TEXT):
            raise Refused(400, f"a replay whose header has no proper {key!r}")
    if not header["name"]:
        raise Refused(400, "a replay whose header has no name")
    if not GAME_ID.fullmatch(header["id"]):
        raise Refused(400, "a replay whose header's game id has characters a game id never has")
    return header


def record_command(payload: bytes, number: int) -> Any:
    """A record's command as plain data (None for the crash record), after checking its shape as the
    game's reader does: a step ``[0, number, command, turn, checksum, facts]`` or a crash ``[1, number, ...]``."""
    try:
        record: Any = msgpack.unpackb(payload, raw=False, strict_map_key=True, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        raise Refused(400, f"a replay whose record {number} cannot be read") from None
    if isinstance(record, list) and len(record) == 4 and type(record[0]) is int and record[0] == CRASH:
        if type(record[1]) is not int or record[1] != number or type(record[3]) is not str:
            raise Refused(400, f"a replay whose record {number} is not a crash record")
        return None
    if not (isinstance(record, list) and len(record) == 6 and type(record[0]) is int and record[0] == STEP):
        raise Refused(400, f"a replay whose record {number} is neither a step nor a crash")
    _, index, command, turn, checksum, facts = record
    if type(index) is not int or index != number:
        raise Refused(400, f"a replay whose record {number} is out of order")
    if type(turn) is not int or turn < 0 or type(checksum) is not bytes or len(checksum) != CHECKSUM_BYTES:
        raise Refused(400, f"a replay whose record {number} has no proper turn or checksum")
    if not isinstance(facts, dict) or len(facts) > MAX_FACTS:
        raise Refused(400, f"a replay whose record {number} has no proper facts")
    return command


def header_epoch(header: dict[str, Any], replay_format: int) -> int:
    """The rules epoch a replay's header records (the first epoch before it was recorded)."""
    if replay_format < EPOCH_SINCE:
        return FIRST_EPOCH
    epoch = header.get("epoch")
    if not isinstance(epoch, int) or isinstance(epoch, bool) or not 1 <= epoch < 2**31:
        raise Refused(400, "a replay whose header has no rules epoch")
    return epoch
