"""Text in lines: the one word wrapper of the panel, the screens and both frontends; a line ending in a path."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from roguelike.core.names import fit


def wrap(text: str, width: int, *, hyphens: bool = True) -> list[str]:
    """Text in lines of at most ``width`` characters, broken at spaces and after hyphens (not
    after hyphens if ``hyphens`` is False, which keeps paths and commands whole); a word longer
    than a line is cut. An empty text gives no line."""
    return textwrap.wrap(text, width, break_on_hyphens=hyphens)


def fit_path(text: str, width: int) -> str:
    """A line ending in a path, in ``width`` columns: the home folder as ``~``, then, if still too
    long, the path's first folders left out (``Morgue file: …/morgue/<game>-turn9.txt``), so
    its file name always shows whole."""
    home = str(Path.home())
    if len(home) > 1:
        text = text.replace(home + os.sep, "~" + os.sep)
    if len(text) <= width:
        return text
    start = min((text.find(mark) for mark in (" /", " ~") if mark in text), default=-1) + 1
    tail = text[len(text) - (width - start - 1) :]
    tail = tail[tail.find(os.sep) :] if os.sep in tail else tail
    return fit(text[:start] + "…" + tail, width)
