"""Spectators' frames on a tick: at once after a quiet tick, merged within one, the settled screen always sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import tcod.console

from roguelike.frontend import frames
from roguelike.frontend.web.live import SPECTATOR_TICK, LiveGame, Viewer
from roguelike.saves import Games
from roguelike.screens.base import App
from roguelike.screens.title import TitleScreen


class Ticks:
    """A clock and the event loop's timers, both moved by hand."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.now = 0.0
        self.loop = loop
        self.timers: list[tuple[float, asyncio.TimerHandle, Callable[[], None]]] = []

    def clock(self) -> float:
        return self.now

    def later(self, delay: float, then: Callable[[], None]) -> asyncio.TimerHandle:
        handle = self.loop.call_later(delay, then)
        self.timers.append((self.now + delay, handle, then))
        return handle

    def until(self, when: float) -> None:
        """Move the clock to ``when``, firing the timers due by then."""
        self.now = when
        for due, handle, then in list(self.timers):
            if due <= when:
                self.timers.remove((due, handle, then))
                if not handle.cancelled():
                    then()


@pytest.fixture
def ticks() -> Iterator[Ticks]:
    loop = asyncio.new_event_loop()
    yield Ticks(loop)
    loop.close()


def watched(root: Path, ticks: Ticks, count: int = 3) -> tuple[LiveGame, Viewer, list[Viewer]]:
    """A live game with a player and ``count`` spectators, on the hand-moved clock."""
    live = LiveGame(App(TitleScreen(Games(root, seed=7))), "g1", clock=ticks.clock)
    live.later = ticks.later
    player, spectators = Viewer(), [Viewer() for _ in range(count)]
    live.join(player, playing=True)
    for spectator in spectators:
        live.join(spectator, playing=False)
    return live, player, spectators


def screen(text: str) -> tcod.console.Console:
    """A player's screen showing ``text``."""
    console = tcod.console.Console(80, 25, order="C")
    console.print(2, 3, text, fg=(200, 100, 0))
    return console


def sent(viewer: Viewer) -> list[bytes]:
    """The frames queued for a viewer (its notes left out)."""
    return [message for message in viewer.pending if isinstance(message, bytes)]


def rebuilt(viewer: Viewer) -> frames.Cells:
    """The screen a viewer's frames make."""
    cells = None
    for message in sent(viewer):
        cells = frames.apply(cells, message)
    assert cells is not None
    return cells


def test_a_frame_after_a_quiet_tick_reaches_spectators_at_once_as_the_players_own_bytes(
    tmp_path: Path, ticks: Ticks
) -> None:
    live, player, spectators = watched(tmp_path, ticks)
    ticks.until(1.0)
    live.send(screen("a turn"))
    assert all(sent(spectator)[-1] is sent(player)[-1] for spectator in spectators) and live.due is None
    assert all((rebuilt(spectator) == live.screenful.cells).all() for spectator in spectators)


def test_a_burst_within_a_tick_reaches_spectators_as_one_message_that_settles_on_the_players_screen(
    tmp_path: Path, ticks: Ticks
) -> None:
    live, player, spectators = watched(tmp_path, ticks)
    ticks.until(1.0)
    live.send(screen("a turn"))
    before = [len(sent(spectator)) for spectator in spectators]
    for step, text in enumerate(("swirl 1", "swirl 22", "swirl 333", "settled")):
        ticks.until(1.0 + 0.01 * (step + 1))
        live.send(screen(text))
    assert [len(sent(spectator)) for spectator in spectators] == before  # nothing yet: the tick is not over
    ticks.until(1.0 + SPECTATOR_TICK)
    assert [len(sent(spectator)) for spectator in spectators] == [count + 1 for count in before]
    assert len({id(sent(spectator)[-1]) for spectator in spectators}) == 1  # one message, the same for all
    assert all((rebuilt(spectator) == rebuilt(player)).all() for spectator in spectators)
    assert "settled" in frames.text_rows(rebuilt(spectators[0]))[3]


def test_spectators_get_at_most_one_frame_a_tick_however_many_the_player_gets(tmp_path: Path, ticks: Ticks) -> None:
    live, player, spectators = watched(tmp_path, ticks, count=2)
    ticks.until(1.0)
    for step in range(60):  # 0.6 s of frames every 10 ms (fewer than a viewer may have queued)
        ticks.until(1.0 + step * 0.01)
        live.send(screen(f"frame {step}"))
    ticks.until(3.0)
    spectator_frames = len(sent(spectators[0])) - 1  # its keyframe on joining left out
    assert len(sent(player)) - 1 == 60 and spectator_frames <= round(0.6 / SPECTATOR_TICK) + 1
    assert (rebuilt(spectators[0]) == rebuilt(player)).all() and sent(spectators[0]) == sent(spectators[1])


def test_a_newcomer_in_a_tick_starts_with_a_keyframe_of_the_players_screen_and_the_others_catch_up(
    tmp_path: Path, ticks: Ticks
) -> None:
    live, player, spectators = watched(tmp_path, ticks)
    ticks.until(1.0)
    live.send(screen("a turn"))
    ticks.until(1.02)
    live.send(screen("another"))
    late = Viewer()
    live.join(late, playing=False)
    assert frames.inflated(sent(late)[0])[0] == frames.KEYFRAME and len(sent(late)) == 1
    assert all((rebuilt(viewer) == rebuilt(player)).all() for viewer in (*spectators, late))
    counts = [len(sent(viewer)) for viewer in (*spectators, late)]
    ticks.until(2.0)
    assert [len(sent(viewer)) for viewer in (*spectators, late)] == counts  # nothing was left for the tick's end


def test_the_last_screen_reaches_spectators_when_the_game_ends(tmp_path: Path, ticks: Ticks) -> None:
    live, player, spectators = watched(tmp_path, ticks)
    ticks.until(1.0)
    live.send(screen("a turn"))
    ticks.until(1.01)
    live.send(screen("the last one"))
    live.finish("The game closed")
    assert all((rebuilt(spectator) == rebuilt(player)).all() for spectator in spectators)
    assert all(spectator.closed == "The game closed" for spectator in spectators)
