"""A crowd of spectators never costs the player the game (issue 47: R12).

Two hundred spectators joining at once once filled the player's queue with notes of how
many watch, and the player was dropped as too slow. Now the note is one the viewer holds
(the newest), spectators join at a bounded rate, and the player's queue holds only its
frames. The clock is moved by hand: nothing here depends on how fast the machine is.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

from starlette.websockets import WebSocketDisconnect

from roguelike.frontend.web.live import JOIN_BURST, JOINS_PER_SECOND, TRY_AGAIN_LATER, LiveGame, Viewer
from roguelike.saves import Games
from roguelike.screens.base import App
from roguelike.screens.title import TitleScreen
from web_helpers import ORIGIN, SOCKET, WATCH_TOKEN, connect, served

CROWD = 200


class Clock:
    """A clock moved by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def crowd_game(root: Path, clock: Clock) -> LiveGame:
    """A live game at the title screen, on the hand-moved clock."""
    return LiveGame(App(TitleScreen(Games(root, seed=7))), "g1", clock=clock)


def test_two_hundred_spectators_joining_at_once_never_fill_the_players_queue(tmp_path: Path) -> None:
    live = crowd_game(tmp_path, Clock())
    player = Viewer()
    live.join(player, playing=True)
    crowd = [Viewer() for _ in range(CROWD)]
    for spectator in crowd:
        live.join(spectator, playing=False)
    assert player.closed is None and live.player is player
    assert len(player.pending) <= 2 and player.note is not None and f'"watchers": {CROWD}' in player.note
    assert all(spectator.closed is None and len(spectator.pending) <= 2 for spectator in crowd)


def test_spectators_join_at_a_bounded_rate_and_the_player_plays_on(tmp_path: Path) -> None:
    clock = Clock()
    live = crowd_game(tmp_path, clock)
    refused: list[tuple[int, str]] = []
    with served(live) as client, connect(client) as player, ExitStack() as stack:
        for _ in range(CROWD):
            try:
                stack.enter_context(
                    client.websocket_connect(f"{SOCKET}/ws/watch/g1?token={WATCH_TOKEN}", headers=dict(ORIGIN))
                )
            except WebSocketDisconnect as closed:
                refused.append((closed.code, closed.reason))
        assert len(live.watchers) == JOIN_BURST and len(refused) == CROWD - JOIN_BURST
        assert set(refused) == {(TRY_AGAIN_LATER, "too many joining at once: try again in a moment")}
        player.press("ArrowDown")  # the title menu's selection moves: the player still plays
        player.frame()
        assert live.player is not None and live.player.closed is None
        clock.now += 1.0  # a second later, the next few get in
        for _ in range(int(JOINS_PER_SECOND)):
            stack.enter_context(connect(client, "/ws/watch/g1"))
        assert len(live.watchers) == JOIN_BURST + JOINS_PER_SECOND
