"""What the server reads of an upload before keeping it: the replay's frame and its header's epoch.

A score file is a replay, or a zip holding ``game.replay`` (``hedonic export --morgue``).
The web process never imports the game, so this reads only the replay's outer frame
(:mod:`roguelike.ground.replayframe`, the game's own constants): the magic, the format, each frame's length, complement and CRC, and the
header's ``epoch``. That is enough to refuse garbage and files too long (400) or too large
(413) in one line, count the commands, and choose the rules epoch's queue. Nothing read here
is believed: the verdict and the score come from the re-simulation.
"""

from __future__ import annotations

import hashlib
import io
import zlib
from dataclasses import dataclass
from typing import Any

import msgpack

from roguelike.ground.replayframe import EPOCH_SINCE, FIRST_EPOCH, FRAME, MAGIC, MASK32, MAX_HEADER_BYTES, PREAMBLE
from roguelike.ground.unzip import MemberTooLarge, ZipRefused, read_member

KNOWN_FORMATS = range(1, 100)
REPLAY_MEMBER = "game.replay"


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
    """An upload's replay, its hash (SHA-256 of the replay's bytes), rules epoch and command count."""

    data: bytes
    digest: str
    epoch: int
    commands: int


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
    epoch = header_epoch(data[payloads[0][0]:payloads[0][1]], replay_format)
    return Envelope(data, hashlib.sha256(data).hexdigest(), epoch, commands)


def unzipped(body: bytes, limits: Limits) -> bytes:
    """The replay inside a score file's zip, decompressed no further than the size limit (its header is not believed)."""
    try:
        return read_member(io.BytesIO(body), REPLAY_MEMBER, limits.max_bytes)
    except MemberTooLarge:
        raise Refused(413, f"the zip's replay is larger than {limits.max_bytes} bytes") from None
    except ZipRefused as error:
        raise Refused(400, f"a zip without a readable {REPLAY_MEMBER}: {error}") from None


def frames(data: bytes, at: int, most: int) -> list[tuple[int, int]]:
    """Where each frame's payload starts and ends (stopping after ``most``); a cut last frame is left out."""
    found: list[tuple[int, int]] = []
    while at + FRAME.size <= len(data) and len(found) < most:
        length, complement, crc = FRAME.unpack_from(data, at)
        start = at + FRAME.size
        if length ^ complement != MASK32:
            raise Refused(400, f"a damaged replay: a frame's length is broken at byte {at}")
        if start + length > len(data):
            break  # a killed game's torn last record: the game reads up to the one before
        if zlib.crc32(data[start:start + length]) != crc:
            raise Refused(400, f"a damaged replay: a frame's CRC does not match at byte {at}")
        found.append((start, start + length))
        at = start + length
    if not found:
        raise Refused(400, "a replay without a header")
    return found


def header_epoch(payload: bytes, replay_format: int) -> int:
    """The rules epoch a replay's header records (the first epoch before it was recorded)."""
    if len(payload) > MAX_HEADER_BYTES:
        raise Refused(400, "a replay whose header is too large")
    try:
        header: Any = msgpack.unpackb(payload, raw=False, strict_map_key=True, max_bin_len=0, max_ext_len=0)
    except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as error:
        raise Refused(400, f"a replay whose header cannot be read: {error}") from None
    if not isinstance(header, dict):
        raise Refused(400, "a replay whose header is not a map")
    if replay_format < EPOCH_SINCE:
        return FIRST_EPOCH
    epoch = header.get("epoch")
    if not isinstance(epoch, int) or isinstance(epoch, bool) or not 1 <= epoch < 2**31:
        raise Refused(400, "a replay whose header has no rules epoch")
    return epoch
