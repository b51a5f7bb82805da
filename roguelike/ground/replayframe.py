"""The replay file's outer frame, which the game writes and the score server reads without the game.

``MAGIC``, the format version (2 bytes, big-endian), then frames: a frame is its payload's
length, the length's bitwise complement and the payload's CRC-32 (three big-endian 32-bit
words), then the payload. ``roguelike.replay.fileformat`` reads and writes whole replays;
``roguelike.server.envelope`` reads only this frame and the header's epoch.
"""

from __future__ import annotations

import struct
from typing import Final

MAGIC: Final = b"HHREPLAY"
PREAMBLE: Final = struct.Struct(">8sH")
FRAME: Final = struct.Struct(">III")
MASK32: Final = 0xFFFFFFFF
MAX_HEADER_BYTES: Final = 64 * 1024
EPOCH_SINCE: Final = 3  # the first replay format whose header records the rules epoch
FIRST_EPOCH: Final = 1  # the rules epoch of replays and saves made before the epoch was recorded
