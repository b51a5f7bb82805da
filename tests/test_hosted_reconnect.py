"""The browser's client reconnects when hosted play's server goes away, and only then: Debian's chromium, driven
by Playwright, on `hedonic serve --play` itself.

A gateway that dies drops its sockets and the browser must come back through another (docs/server.md,
"Hosted play on several machines"); here the one server is killed with -9 and started again on the same port
and folder, which is what the page sees of that. A server that closed the game with a reason (another tab took
it over) must be left closed: the player has to read why.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bench.browser import VIEWPORT, HostedServer, chromium, page_rows, sign_up, until

FIRST_FRAME = "() => window.hedonic && window.hedonic.state.frames > 0"
OPENED_ELSEWHERE = "the game was opened in another tab"
RECONNECTING = "connection lost: reconnecting\u2026"


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


def status(page: Any) -> str:
    """The page's status line."""
    shown: str = page.inner_text("#status")
    return shown


def playing(browser: Any, server: HostedServer, name: str) -> tuple[Any, list[Any]]:
    """A new account's page at its new game's first turn, and every socket that page opens (as they open)."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    sign_up(page, server.base, name)
    page.click("text=Start a game")
    page.wait_for_function(FIRST_FRAME)
    until(lambda: turn_shown(page) == 0, 60.0)
    return page, sockets


def rest(page: Any, turn: int) -> None:
    """Rest a turn with the game's key, and wait until the panel shows the turn it leads to."""
    page.keyboard.press(".")
    until(lambda: turn_shown(page) == turn, 60.0)


def test_a_page_whose_server_was_killed_plays_on_when_it_is_started_again(browser: Any, tmp_path: Path) -> None:
    with HostedServer(tmp_path) as server:
        page, sockets = playing(browser, server, "Ann")
        watcher = browser.new_context(viewport=VIEWPORT).new_page()
        watcher.goto(f"{server.base}/lobby")
        watcher.click("text=Ann")
        watcher.wait_for_function(FIRST_FRAME)
        for turn in (1, 2, 3):
            rest(page, turn)
        until(lambda: turn_shown(watcher) == 3, 60.0)
        page.evaluate("() => { window.sameDocument = true; }")  # gone if the page were loaded again
        assert server.process is not None
        server.process.kill()
        server.process.wait(30)
        until(lambda: status(page) == status(watcher) == RECONNECTING, 60.0)
        page.keyboard.press("?")  # typed blind: never sent (help, had it opened, would swallow the rest below)
    with HostedServer(tmp_path, port=server.port):
        until(lambda: turn_shown(page) == 3 and status(page) != RECONNECTING, 120.0)  # the log's turn, not one more
        assert page.evaluate("() => window.sameDocument") is True
        assert page.evaluate("() => hedonic.state.sockets") >= len(sockets) >= 2
        rest(page, 4)
        until(lambda: turn_shown(watcher) == 4 and status(watcher).startswith("watching "), 120.0)


def test_a_page_whose_game_was_opened_in_another_tab_says_so_and_does_not_reconnect(
    browser: Any, tmp_path: Path
) -> None:
    with HostedServer(tmp_path) as server:
        first, sockets = playing(browser, server, "Bea")
        first.context.clock.install()  # the page's timers, moved on by hand below
        second = first.context.new_page()  # the same account's cookie: the same game
        second.goto(f"{server.base}/play")
        second.wait_for_function(FIRST_FRAME)
        until(lambda: status(first) == OPENED_ELSEWHERE, 60.0)
        first.context.clock.run_for(60_000)  # every try to reconnect the client could plan is due and made
        assert first.evaluate("() => hedonic.state.sockets") == len(sockets) == 1
        assert status(first) == OPENED_ELSEWHERE
        rest(second, 1)
