"""Take the README's pictures of hosted play: the lobby, and a daily board with a witnessed run.

Run: ``.venv/bin/python tools/hosted-pictures.py [OUT_FOLDER]`` (default ``docs``), with the
``server`` and ``web`` extras, Playwright and Debian's ``chromium``. It starts the real
``hedonic serve --play`` on a free loopback port over a new data folder, and a real browser
signs two players up: Ann plays today's daily seed to its end by waiting, Bea starts a game
and leaves it live. Once Ann's game is verified (witnessed: this server saw it played), the
browser takes ``screenshot-lobby.png`` and ``screenshot-witnessed.png``.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository's bench helpers

from bench.browser import VIEWPORT, HostedServer, chromium, sign_up, until  # noqa: E402

MOST_PRESSES = 4000


def witnessed(server: HostedServer, day: str) -> bool:
    """Whether the day's board has a witnessed run."""
    return bool((server.json(f"/board.json?daily={day}") or {}).get("witnessed"))


def play_daily_to_the_end(page: Any, server: HostedServer, day: str) -> None:
    """Start today's daily and wait, one key at a human rate, until the board has it witnessed."""
    page.goto(f"{server.base}/play?daily=1")
    page.wait_for_function("() => window.hedonic && window.hedonic.state.frames > 0")
    for presses in range(MOST_PRESSES):
        page.keyboard.press(".")
        page.wait_for_timeout(25)
        if presses % 50 == 0 and witnessed(server, day):
            return
    until(lambda: witnessed(server, day), 300.0)


def main() -> int:
    """Serve, play, photograph."""
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs")
    day = datetime.now(UTC).date().isoformat()
    with tempfile.TemporaryDirectory() as folder, HostedServer(Path(folder)) as server, chromium() as browser:
        ann = browser.new_context(viewport=VIEWPORT).new_page()
        sign_up(ann, server.base, "Ann")
        play_daily_to_the_end(ann, server, day)
        bea = browser.new_context(viewport=VIEWPORT).new_page()
        sign_up(bea, server.base, "Bea")
        bea.goto(f"{server.base}/play")
        bea.wait_for_function("() => window.hedonic && window.hedonic.state.frames > 0")
        for key in ("ArrowRight", "ArrowRight", ".", "ArrowDown"):
            bea.keyboard.press(key)
            bea.wait_for_timeout(100)
        ann.goto(f"{server.base}/lobby")
        ann.screenshot(path=str(out / "screenshot-lobby.png"), full_page=True)
        ann.goto(f"{server.base}/board?daily={day}")
        ann.screenshot(path=str(out / "screenshot-witnessed.png"), full_page=True)
    print(f"wrote {out / 'screenshot-lobby.png'} and {out / 'screenshot-witnessed.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
