"""The envelope around every file the game writes: magic, format version, lengths, checksum.

Layout (big-endian)::

    magic (8 bytes) | format version (u16) | header length (u32) | payload length (u32)
    | header (msgpack map) | payload (msgpack) | BLAKE2b-128 of everything before (16 bytes)

The magic and the place of the version never change, so any future game can tell an old
file from a newer one before trusting anything else in it.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

from roguelike.storage.errors import Damaged

SAVE_MAGIC = b"\x89HHS\r\n\x1a\n"
RECORD_MAGIC = b"\x89HHR\r\n\x1a\n"
PREFIX = struct.Struct(">8sHII")
DIGEST_SIZE = 16
MAX_FILE_SIZE = 8 * 1024 * 1024


@dataclass(frozen=True)
class Sealed:
    """The parts of a checked envelope."""

    version: int
    header: bytes
    payload: bytes


def file_digest(data: bytes) -> bytes:
    """The checksum stored at the end of a file."""
    return hashlib.blake2b(data, digest_size=DIGEST_SIZE).digest()


def seal(magic: bytes, version: int, header: bytes, payload: bytes) -> bytes:
    """The bytes of a file holding a header and a payload."""
    body = PREFIX.pack(magic, version, len(header), len(payload)) + header + payload
    return body + file_digest(body)


def unseal(data: bytes, magic: bytes, what: str, newest: int) -> Sealed:
    """Check magic, version, lengths and checksum; raise Damaged saying what is wrong."""
    check_prefix(data, magic, what)
    _, version, header_len, payload_len = PREFIX.unpack_from(data)
    if version > newest:
        raise Damaged(newer_format(version, newest))
    expected = PREFIX.size + header_len + payload_len + DIGEST_SIZE
    if len(data) < expected:
        raise Damaged("the file is cut short")
    if len(data) > expected:
        raise Damaged("the file has unexpected bytes at its end")
    if file_digest(data[:-DIGEST_SIZE]) != data[-DIGEST_SIZE:]:
        raise Damaged("its checksum does not match (the file was changed or damaged)")
    header_end = PREFIX.size + header_len
    return Sealed(version, data[PREFIX.size : header_end], data[header_end:-DIGEST_SIZE])


def newer_format(version: int, newest: int) -> str:
    """Why a file of a newer format is refused."""
    return (
        f"it was made by a newer version of the game (format {version}; this game reads "
        f"formats up to {newest}); update the game to open it"
    )


def check_prefix(data: bytes, magic: bytes, what: str) -> None:
    """The file starts like one of ours of the expected kind."""
    if not data:
        raise Damaged("the file is empty")
    if data[: len(magic)] != magic[: len(data)]:
        raise Damaged(f"it is not a Hedonic Hypothesis {what}")
    if len(data) < PREFIX.size + DIGEST_SIZE:
        raise Damaged("the file is cut short")
