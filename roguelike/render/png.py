"""A minimal PNG writer for RGBA arrays, so screenshots need no image library."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import numpy as np
from numpy.typing import NDArray


def encode_png(rgba: NDArray[np.uint8]) -> bytes:
    """PNG bytes of an ``[height, width, 4]`` RGBA image."""
    height, width, channels = rgba.shape
    if channels != 4:
        raise ValueError("expected RGBA pixels")
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), rgba.reshape(height, width * 4)], axis=1)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
        + _chunk(b"IEND", b"")
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk with its length and CRC."""
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def decode_png(data: bytes) -> NDArray[np.uint8]:
    """The RGBA pixels of a PNG written by :func:`encode_png` (for tests and tools)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    pos, idat = 8, b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        if data[pos + 4 : pos + 8] == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    rows = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(height, width * 4 + 1)
    if rows[:, 0].any():
        raise ValueError("only unfiltered rows are supported")
    return rows[:, 1:].reshape(height, width, 4).copy()


def write_png(path: Path, rgba: NDArray[np.uint8]) -> None:
    """Write an RGBA image to a PNG file."""
    path.write_bytes(encode_png(rgba))
