"""The end of a game: everything a finished game leaves, in one call.

A game ends when its character dies, in the in-game screen every frontend shows (the
window, the terminal, the web). :func:`end_game` closes the session, so the replay is
complete and durable before anything reads it (the autosave has written the history
record and retired the save as the fatal step was saved), writes the morgue file from
the replay, and starts proving the replay for the hall and, for a daily game, working out
its seed's par (:mod:`roguelike.records.coaching`, which also reviews the game when asked);
the death screen shows what it returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.records.coaching import Coaching, coaching_for
from roguelike.records.morguefile import morgue_file, recorded_replay
from roguelike.scores.standing import Standing
from roguelike.storage.datadir import DataDir


@dataclass(frozen=True)
class Ending:
    """What a finished game left: its replay, its morgue file and the line saying where, its standing in the hall."""

    game: Game
    replay: Path | None  # None: the game was not recorded
    morgue: Path | None  # None: no morgue file (not recorded, or the disk refused)
    morgue_line: str
    standing: Standing | None  # None: there is no replay in a data directory to prove
    coaching: Coaching | None = None  # None: no replay in a data directory for the coach to work from


def end_game(session: Session) -> Ending:
    """Close a finished game's session, write its morgue file and start proving its replay for the hall."""
    replay = recorded_replay(session)
    session.close()  # the replay is complete and closed before the morgue reads it
    morgue = morgue_file(session.game, replay)
    folders = DataDir.of_replay(replay) if replay is not None else None
    if folders is None or replay is None:
        return Ending(session.game, replay, morgue.path, morgue.line, None)
    game, standing = session.game, Standing(folders.root, replay)
    coaching = coaching_for(
        folders.root, replay, game.state.seed, game.score().total, game.state.origin, standing.thread
    )
    return Ending(game, replay, morgue.path, morgue.line, standing, coaching)
