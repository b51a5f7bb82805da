"""The web frontend in a real browser: Debian's chromium, driven by Playwright, on a loopback port."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from bench.browser import chromium, open_page, page_rows, same_screen, served_game, start_new_game, until
from roguelike.replay.fileformat import read_replay
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import Games
from roguelike.screens.ingame import InGameScreen

pytestmark = pytest.mark.slow
MOVES = ["l", "j", "h", "k", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "Numpad6", "Numpad2", "."]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for the module's tests."""
    with chromium() as found:
        yield found


def player_cell(rows: list[str]) -> tuple[int, int]:
    """Where the @ is on the map rows."""
    return next((row.index("@"), y) for y, row in enumerate(rows[:21]) if "@" in row)


def test_a_game_played_in_the_browser_is_the_server_s_and_a_spectator_s(browser: Any, tmp_path: Path) -> None:
    with served_game(tmp_path, seed=7) as server:
        page = open_page(browser, server.url("/play"))
        assert "H E D O N I C" in "".join(same_screen(page, server))
        start_new_game(page, server, "Tess")
        watcher = open_page(browser, server.url("/watch/live"))
        places = {player_cell(same_screen(page, server))}
        for move in MOVES:
            frames_before = page.evaluate("() => hedonic.state.frames")
            page.keyboard.press(move)
            until(lambda: page.evaluate("() => hedonic.state.frames") > frames_before, 10.0)
            places.add(player_cell(same_screen(page, server)))
        assert len(places) > 1  # the @ moved
        rows = same_screen(page, server)
        until(lambda: page_rows(watcher) == rows, 10.0)
        assert page.evaluate("() => hedonic.state.latencies.length") >= len(MOVES)
        until(lambda: "1 watching" in page.inner_text("#status"), 10.0)
        check_screenshot(page.locator("#screen").screenshot(), rows)
        screen = server.live.app.stack[-1]
        assert isinstance(screen, InGameScreen)
        turn = screen.game.state.turn
    (save,) = Games(tmp_path).saves()
    assert save.name == "Tess" and save.turn == turn
    resumed = Games(tmp_path).resume(save.path)  # what the window and the terminal open from the title
    assert resumed.game.state.turn == turn
    resumed.close()
    resumed.game.close()
    (replay,) = (tmp_path / "replays").glob("*.replay")
    verdict = verify(read_replay(replay))
    assert verdict.outcome is Outcome.MATCHED and verdict.turns == turn


def check_screenshot(png: bytes, rows: list[str]) -> None:
    """The canvas as the player sees it: 80x25 cells filling it, the @ drawn bright where it stands."""
    image = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int32)
    height, width, _ = image.shape
    assert width >= 640 and height >= 300
    cell_w, cell_h = width / 80, height / 25
    x, y = player_cell(rows)
    cell = image[int(y * cell_h) : int((y + 1) * cell_h), int(x * cell_w) : int((x + 1) * cell_w)]
    assert cell.max() > 180  # the @'s glyph is drawn in its light colour
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 20  # colours, not a blank canvas
