"""Making a film of a replay: the game re-simulated command by command, each screen kept.

Every frame is the in-game screen after a command, drawn in the default look (so a film of
a replay is the same bytes on any machine, whatever the player's settings), with no
animation: a film is for watching what happened, at any speed.
"""

from __future__ import annotations

import tcod.console

from roguelike.content import formulas
from roguelike.frontend.film.fileformat import FilmWriter
from roguelike.render.draw import draw_game
from roguelike.render.look import Look, finish_frame
from roguelike.replay.fileformat import Replay
from roguelike.replay.playback import Playback
from roguelike.settings import Settings


class Diverged(Exception):
    """The replay no longer plays the same under these rules: the film stops where it parted."""

    def __init__(self, step: int, film: bytes) -> None:
        super().__init__(f"the game diverged at step {step}")
        self.step, self.film = step, film


def film_of(replay: Replay) -> bytes:
    """The film of a replay's game, one frame for the start and one per command (Diverged if it parts)."""
    look = Look.of(Settings())
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    header = replay.header
    writer = FilmWriter(header.name, header.seed, header.version, console.width, console.height)
    playback = Playback(replay)
    try:
        while True:
            console.clear()
            draw_game(console, playback.game, 0.0, look)
            finish_frame(console, look)
            writer.add(playback.game.state.turn, console)
            if not playback.step():
                break
    finally:
        playback.close()
    if playback.diverged_at is not None:
        raise Diverged(playback.diverged_at, writer.finish())
    return writer.finish()
