"""Spectators: any number watch the same bytes; a late one starts with the whole screen; a slow one is dropped."""

from __future__ import annotations

import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from roguelike.frontend import frames
from roguelike.frontend.web.live import MAX_PENDING, Viewer
from roguelike.ground import fanout
from roguelike.screens.ingame import InGameScreen
from web_helpers import Client, connect, live_game, new_game, served

SPECTATORS = 20


def caught_up(viewer: Client, other: Client) -> None:
    """Take ``viewer``'s frames until its screen is ``other``'s."""
    viewer.until(
        lambda rows: viewer.cells is not None and other.cells is not None and (viewer.cells == other.cells).all()
    )


def test_twenty_spectators_get_identical_bytes_and_a_late_one_a_keyframe(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player, ExitStack() as stack:
        spectators = [stack.enter_context(connect(client, "/ws/watch/g1")) for _ in range(SPECTATORS)]
        new_game(player)
        for code in ("KeyL", "KeyJ", "Period", "KeyH", "KeyK"):
            player.press(code)
            player.frame()

        def caught_up_with_the_game(rows: list[str]) -> bool:
            assert player.cells is not None  # until asks only once a frame came
            return bool((player.cells == live.screenful.cells).all())

        player.until(caught_up_with_the_game)
        for spectator in spectators:
            caught_up(spectator, player)
        first = spectators[0].messages
        assert len(first) >= 2 and first[0][0] == frames.KEYFRAME  # the frames since came merged on their tick
        assert all(spectator.messages == first for spectator in spectators)
        assert {"watchers": SPECTATORS, "title": "at the title screen"} in player.notes
        with connect(client, "/ws/watch/g1") as late:
            assert late.messages[0][0] == frames.KEYFRAME
            assert late.cells is not None and (late.cells == player.cells).all()
            assert "@" in "".join(late.rows()[:21])


def test_a_spectator_s_keys_do_nothing(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client, connect(client, "/ws/watch/g1") as spectator:
        spectator.press("KeyN", text="n")
        spectator.type("Mallory")
        spectator.press("Enter")
        time.sleep(0.3)
        assert [type(screen).__name__ for screen in live.app.stack] == ["TitleScreen"]
        assert live.events.empty()


def test_a_second_player_tab_takes_over_the_same_game(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    with served(live) as client:
        with connect(client) as first:
            new_game(first)
            with connect(client) as second:
                assert "@" in "".join(second.rows()[:21])
                assert first.ended() == (1008, "the game was opened in another tab")
                second.press("Period")
                second.frame()
                screen = live.app.stack[-1]
                assert isinstance(screen, InGameScreen) and screen.game.state.turn >= 1


def test_a_slow_spectator_is_dropped_and_the_game_does_not_wait(tmp_path: Path) -> None:
    live = live_game(tmp_path)
    slow, player, keeping_up = Viewer(), Viewer(), Viewer()
    live.join(player, playing=True)
    live.join(slow, playing=False)
    live.join(keeping_up, playing=False)
    for _ in range(MAX_PENDING * 2):
        live.broadcast(bytes([frames.DIFF, 0, 0]))
        player.pending.clear()
        keeping_up.pending.clear()
    assert slow.closed is not None and slow.closed.startswith("too slow")
    assert slow not in live.watchers and not slow.pending
    assert keeping_up in live.watchers and keeping_up.closed is None
    assert player.closed is None and live.player is player


def test_each_message_is_compressed_once_for_the_player_and_every_spectator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compressed: list[bytes] = []

    def counted(message: bytes) -> bytes:
        compressed.append(message)
        return frames.deflated(message)

    monkeypatch.setattr(fanout, "deflated", counted)  # the fan-out compresses for every viewer
    live = live_game(tmp_path)
    with served(live) as client, connect(client) as player, ExitStack() as stack:
        spectators = [stack.enter_context(connect(client, "/ws/watch/g1")) for _ in range(5)]
        new_game(player)
        for spectator in spectators:
            caught_up(spectator, player)
        joined = 1 + len(spectators)  # the player's keyframe, and one a newcomer at most (one screen, one keyframe)
        # The player's frames, the keyframes, and what the first spectator got since its own (the player's
        # messages again, or merges every spectator shares): never once a connection.
        assert live.frames + 2 <= len(compressed) <= live.frames + joined + len(spectators[0].wire) - 1
        assert player.wire[-1][0] == frames.DEFLATED or len(player.wire[-1]) < 64
        since = [spectator.wire[1:] for spectator in spectators]  # after each one's keyframe
        assert all(later == since[0][len(since[0]) - len(later) :] for later in since)  # the same bytes as the first
