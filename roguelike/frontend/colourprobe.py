"""What colours a terminal can really show, when neither COLORTERM nor terminfo says.

Many truecolour terminals still send plain ``TERM=xterm`` (8 colours in terminfo). The
environment often gives them away (VTE_VERSION, KONSOLE_VERSION, WT_SESSION ...); else
the terminal is asked, where it will answer: XTGETTCAP for its ``RGB`` capability, and a
truecolour background read back with DECRQSS. A primary device attributes request
(``ESC [c``, answered by every real terminal) goes last, so the wait ends as soon as the
terminal has said what it will; a terminal that answers nothing costs ``PROBE_SECONDS``.
Where nothing says truecolour, the player is told once how to get full colour.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path

PROBE_SECONDS = 0.25
# XTGETTCAP "RGB"; a truecolour background, DECRQSS of the SGR state, reset; DA1 as the sentinel.
QUERY = b"\x1bP+q524742\x1b\\" + b"\x1b[48;2;1;2;3m\x1bP$qm\x1b\\\x1b[0m" + b"\x1b[c"
HAS_RGB = re.compile(rb"\x1bP1\+r524742")
KEPT_RGB = re.compile(rb"\x1bP1\$r[0-9;:]*48[:;]2[:;]+1[:;]2[:;]3")
ANSWERED = re.compile(rb"\x1b\[\?[0-9;]*c")
TRUECOLOUR_PROGRAMS = frozenset({"iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper", "Tabby", "rio"})
FIRST_TRUECOLOUR_VTE = 3600  # VTE 0.36
HINT = (
    "hedonic: this terminal says it shows {colours} colours, so the world's colour shifting was coarse. "
    "If it can show more, start the game with COLORTERM=truecolor (or TERM=xterm-256color) for full colour; "
    "HEDONIC_COLOURS=16 keeps 16 and silences this note."
)


def env_says_truecolour(env: Mapping[str, str]) -> bool:
    """Whether variables that truecolour terminals set are there."""
    vte = env.get("VTE_VERSION", "")
    return (
        (vte.isdigit() and int(vte) >= FIRST_TRUECOLOUR_VTE)
        or any(env.get(name) for name in ("KONSOLE_VERSION", "WT_SESSION", "KITTY_WINDOW_ID", "WEZTERM_PANE"))
        or env.get("TERM_PROGRAM", "") in TRUECOLOUR_PROGRAMS
    )


def ask_terminal(
    write: Callable[[bytes], None],
    read: Callable[[float | None], bytes | None],
    clock: Callable[[], float] = time.monotonic,
) -> bool:
    """Ask the terminal (in raw mode) whether it shows truecolour; False when it does not say."""
    write(QUERY)
    replies, deadline = b"", clock() + PROBE_SECONDS
    while not ANSWERED.search(replies) and (left := deadline - clock()) > 0:
        data = read(left)
        if data is None:
            break
        replies += data
    return bool(HAS_RGB.search(replies) or KEPT_RGB.search(replies))


def hint_once(marker: Path, colours: int, tell: Callable[[str], None]) -> None:
    """Tell the player how to get full colour, the first time only (the ``marker`` file remembers)."""
    if marker.exists():
        return
    tell(HINT.format(colours=colours))
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # a read-only folder: the note comes again next time, which is harmless
