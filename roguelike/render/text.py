"""Text in lines: the one word wrapper of the panel, the screens and both frontends."""

from __future__ import annotations

import textwrap


def wrap(text: str, width: int, *, hyphens: bool = True) -> list[str]:
    """Text in lines of at most ``width`` characters, broken at spaces and after hyphens (not
    after hyphens if ``hyphens`` is False, which keeps paths and commands whole); a word longer
    than a line is cut. An empty text gives no line."""
    return textwrap.wrap(text, width, break_on_hyphens=hyphens)
