"""A replay ahead of its save: the turns recorded while the saves failed are kept, not cut.

A game whose saves fail (a read-only or full data directory) plays on with a notice, and
its replay, already open, may go on recording: hundreds of turns, the character's death.
Resuming the older save used to cut the replay back to it, so the character lived again
and the only record of those turns was deleted. Now, before a save is resumed, a replay
that holds more commands than the save, passes through the saved state and plays the
same from there, brings the save up to its last command: the save is rewritten there, or,
if the character died there, the death is recorded in the history and the save retired.
A replay that does not verify is left as it is, and the save is resumed as before.
"""

from __future__ import annotations

import os
from pathlib import Path

from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import encoded_state
from roguelike.replay.fileformat import Replay, ReplayError, checksum_in, read_replay
from roguelike.saves import SaveLock, read_save, save_game
from roguelike.saves.history import record_of, write_record
from roguelike.saves.savefile import SaveFile
from roguelike.storage.atomic import remove_durably
from roguelike.storage.datadir import DataDir
from roguelike.storage.errors import SaveError


def catch_up(save: Path) -> bool:
    """Bring a save up to the end of its replay when the replay is ahead and verifies; whether it did.

    Anything that stops it (no replay, a damaged file, a divergence, a disk that refuses)
    leaves both files exactly as they were.
    """
    folders = DataDir.of_save(save)
    if folders is None:
        return False
    replay_file = folders.replay(save.stem)
    try:
        saved, replay = read_save(save), read_replay(replay_file)
    except (SaveError, ReplayError):
        return False
    if len(replay.steps) <= saved.header["steps"] or saved.plain["cause"] is not None:
        return False
    if replay.header.epoch != RULES_EPOCH:
        return False  # recorded under other rules: these rules could not play it the same
    game = played_on(saved, replay)
    if game is None:
        return False
    try:
        return write_caught_up(folders, save, game, len(replay.steps), replay_file)
    finally:
        game.close()


def played_on(saved: SaveFile, replay: Replay) -> Game | None:
    """The saved game with the replay's later commands applied, every checksum matching; or None."""
    steps = saved.header["steps"]
    session = Session(saved.game(), steps=steps)
    if steps and checksum_in(replay.format, encoded_state(session.game)) != replay.steps[steps - 1].checksum:
        session.game.close()
        return None  # the replay does not pass through this save
    for record in replay.steps[steps:]:
        if checksum_in(replay.format, session.apply(record.command).state) != record.checksum:
            session.game.close()
            return None
    return session.game


def write_caught_up(folders: DataDir, save: Path, game: Game, steps: int, replay_file: Path) -> bool:
    """Save the game at the replay's end, or bury the character who died there; False if the disk refuses."""
    try:
        lock = SaveLock.acquire(save)
    except SaveError:
        return False  # open in another game, or a folder where nothing can be written
    try:
        sync(replay_file)  # the save is never ahead of a replay a power cut could still take
        if game.state.game_over:
            write_record(folders.record(save.stem), record_of(game))
            remove_durably(save)
        else:
            save_game(save, game, steps=steps)
    except (SaveError, OSError):
        return False
    finally:
        lock.release(remove=not save.exists())
    return True


def sync(path: Path) -> None:
    """fsync a file's data (OSError if it cannot be opened or synced)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
