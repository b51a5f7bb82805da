"""The drawn console as frames: its cells in the protocol's layout, and the screen last sent.

The protocol itself (keyframes, diffs, deflate) is :mod:`roguelike.ground.frames`, which the
hosted server's web process shares without loading tcod's consoles; this module adds reading
a console's cells, and re-exports the protocol for the web frontend, films and tests.
"""

from __future__ import annotations

import numpy as np
import tcod.console

from roguelike.ground import frames as protocol
from roguelike.ground.frames import (
    CELL,
    DEFLATE_LEVEL,
    DEFLATED,
    DIFF,
    DIFF_HEAD,
    KEY_HEAD,
    KEYFRAME,
    MAX_INFLATED,
    Cells,
    FrameError,
    apply,
    blank,
    changed_runs,
    deflated,
    diff,
    inflated,
    keyframe,
    read_diff,
    read_keyframe,
    text_rows,
)

__all__ = [
    "CELL",
    "DEFLATED",
    "DEFLATE_LEVEL",
    "DIFF",
    "DIFF_HEAD",
    "KEYFRAME",
    "KEY_HEAD",
    "MAX_INFLATED",
    "Cells",
    "FrameError",
    "Screenful",
    "apply",
    "blank",
    "cells_of",
    "changed_runs",
    "deflated",
    "diff",
    "inflated",
    "keyframe",
    "read_diff",
    "read_keyframe",
    "text_rows",
]


def cells_of(console: tcod.console.Console) -> Cells:
    """The console's cells, row by row, in the protocol's packed layout (a new array)."""
    rgb = console.rgb if console.rgb.shape == (console.height, console.width) else console.rgb.T
    cells = np.empty(rgb.shape, CELL)
    cells["ch"], cells["fg"], cells["bg"] = rgb["ch"], rgb["fg"], rgb["bg"]
    return cells


class Screenful(protocol.Screenful):
    """The last screen sent out, updated from a drawn console."""

    def update(self, console: tcod.console.Console) -> bytes | None:
        """The message that brings clients to this console (a keyframe the first time)."""
        return self.update_cells(cells_of(console))
