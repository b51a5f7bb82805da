"""The browser protocol under attack (issue 46): a name of markup, a browser gone mid-game, in-process."""

from __future__ import annotations

from pathlib import Path

from roguelike.frontend.web.site import package_file
from roguelike.saves import Games
from roguelike.screens.ingame import InGameScreen
from web_helpers import WATCH_TOKEN, connect, live_game, new_game, served

MARKUP = "<script>alert(1)</script><b>Eve"


def test_a_name_of_markup_is_shown_as_text_on_the_list_and_the_watch_page(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player:
        new_game(player, MARKUP)
        listing = client.get(f"/?token={WATCH_TOKEN}").text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;Eve" in listing
        assert "<script" not in listing and "<b>" not in listing
        watch_page = client.get(f"/watch/g1?token={WATCH_TOKEN}")
        assert watch_page.content == package_file("roguelike.frontend.web", "static/index.html")  # no name in it
        with connect(client, "/ws/watch/g1") as spectator:
            player.press("Period")
            player.frame()
            spectator.frame()
            assert [note for note in player.notes if note.get("watchers") == 1 and MARKUP in str(note["title"])]
    client_js = package_file("roguelike.frontend.web", "static/client.js").decode()
    # The title reaches the page only through the client, which writes text, never markup.
    assert "textContent" in client_js
    assert not [
        word for word in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write") if word in client_js
    ]


def test_a_browser_gone_mid_game_loses_nothing_and_the_game_goes_on_when_it_comes_back(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client:
        with connect(client) as player:
            new_game(player)
            screen = live.app.stack[-1]
            assert isinstance(screen, InGameScreen)
            for count in (1, 2, 3):
                player.press("Period")
                player.until(lambda rows: screen.game.state.turn == count)
            player.press("Period")  # sent, then the tab closes before its frame comes
        with connect(client) as again:
            again.until(lambda rows: screen.game.state.turn == 4 and "@" in "".join(rows[:21]))
            at_the_keys = live.player
            assert live.app.stack[-1] is screen and at_the_keys is not None
            again.press("Period")
            again.until(lambda rows: screen.game.state.turn == 5)
        assert live.player is None and live.app.running  # nobody at the keys: the game waits
    (save,) = Games(tmp_path).saves()
    assert save.name == "Ann" and save.turn == 5 and save.ok  # the turn sent as the tab closed is kept too
