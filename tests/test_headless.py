"""The core stays headless: the game, its systems and components never load a frontend."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

CORE = (
    "components",
    "systems",
    "roguelike.core.game",
    "roguelike.core.session",
    "roguelike.core.snapshot",
    "roguelike.bots.headless",
    "roguelike.bots.bot",
    "roguelike.core.mapgen",
    "roguelike.core.world",
)
FRONTEND = ("roguelike.frontend", "roguelike.screens", "roguelike.render.draw", "roguelike.render.panel", "blessed")


def test_core_modules_load_no_frontend_and_play_without_one() -> None:
    code = (
        "import sys\n"
        f"for name in {CORE!r}: __import__(name)\n"
        "from roguelike.core.game import Game\n"
        "from roguelike.bots.headless import play_bot, summarise\n"
        "from roguelike.core.session import Session\n"
        "session = Session(Game.new(9, 'Headless'))\n"
        "play_bot(session, 50)\n"
        "print(summarise(session.game).turns)\n"
        f"loaded = [m for m in sys.modules if m.startswith({FRONTEND!r})]\n"
        "print(loaded)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    turns, loaded = result.stdout.splitlines()
    assert int(turns) > 0
    assert loaded == "[]"
