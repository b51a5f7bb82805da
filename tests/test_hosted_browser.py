"""Hosted play in a real browser: Debian's chromium, driven by Playwright, on `hedonic serve --play` itself.

What a test client cannot show: the headers a real browser sends with the accounts' forms (a page's
Referrer-Policy of no-referrer made Chromium send "Origin: null", and no one could sign up), and the
game's page drawing the account's game from the lobby.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.browser import VIEWPORT, HostedServer, chromium, page_rows, sign_up, until

PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One chromium for the module's tests."""
    with chromium() as found:
        yield found


def turn_shown(page: Any) -> int | None:
    """The turn the game's panel shows, if it shows one."""
    for row in page_rows(page):
        if "Turn " in row:
            return int(row.split("Turn ")[1].split()[0])
    return None


def test_sign_up_play_log_out_and_log_in_again_in_chromium(browser: Any, tmp_path: Path) -> None:
    with HostedServer(tmp_path) as server:
        page = browser.new_context(viewport=VIEWPORT).new_page()
        sign_up(page, server.base, "Ann", PASSWORD)
        assert page.url == f"{server.base}/lobby" and "logged in as Ann" in page.inner_text("body")
        page.click("text=Start a game")
        page.wait_for_function("() => window.hedonic && window.hedonic.state.frames > 0")
        until(lambda: turn_shown(page) == 0, 30.0)
        page.keyboard.press(".")
        until(lambda: turn_shown(page) == 1, 30.0)  # the key reached the game's process, and its frame came back
        page.goto(f"{server.base}/lobby")
        assert "Your game (played) is live" in page.inner_text("body")
        page.click("text=Log out")
        page.wait_for_load_state()
        assert "logged in as" not in page.inner_text("body")
        page.goto(f"{server.base}/login")
        page.fill("#name", "ann")
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(f"{server.base}/lobby")
        assert "logged in as Ann" in page.inner_text("body") and "resume it" in page.inner_text("body")
