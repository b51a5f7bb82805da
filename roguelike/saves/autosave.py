"""The autosave: an observer of the session that saves after every step.

After each command the step's already-encoded snapshot is written atomically before the
next input is read. When the character dies, its record goes durably into the history
first; only then is the save retired. A save that cannot be written (read-only or full
disk) leaves the last good one intact and shows a notice; the game keeps going.
"""

from __future__ import annotations

from pathlib import Path

from roguelike.game import Game
from roguelike.notices import Notices
from roguelike.saves.atomic import discard, remove_durably, temp_path
from roguelike.saves.errors import SaveError
from roguelike.saves.history import record_of, write_record
from roguelike.saves.layout import record_path
from roguelike.saves.lock import SaveLock
from roguelike.saves.savefile import write_save
from roguelike.session import Step
from roguelike.snapshot import encode, to_plain

SAVE_TOPIC = "save"
DEATH_TOPIC = "death"


class Autosave:
    """Writes a character's save every step and retires it when the character dies."""

    def __init__(self, root: Path, path: Path, notices: Notices, lock: SaveLock | None, saved_turn: int | None = None) -> None:
        self.root = root
        self.path = path
        self.notices = notices
        self.lock = lock
        self.saved_turn = saved_turn
        self.pending: tuple[bytes, int, int] | None = None  # snapshot, step index, turn not yet saved
        self.buried = False

    def start(self, game: Game, steps: int = 0) -> None:
        """Save a game that has had no step yet (a new character)."""
        self.pending = (encode(to_plain(game)), steps, game.state.turn)
        self.flush()

    def after_step(self, game: Game, step: Step) -> None:
        """Save the state this step led to; on death, record the character and retire the save."""
        self.pending = (step.snapshot, step.index, step.turn)
        self.flush()
        if game.state.game_over:
            self.bury(game)

    def flush(self) -> bool:
        """Write the pending snapshot; on failure warn and keep it for the next try."""
        if self.pending is None or self.buried:
            return True
        snapshot, steps, turn = self.pending
        try:
            write_save(self.path, snapshot, steps=steps)
        except SaveError as error:
            self.notices.warn(SAVE_TOPIC, self.trouble(error))
            return False
        self.pending, self.saved_turn = None, turn
        self.notices.clear(SAVE_TOPIC)
        return True

    def trouble(self, error: SaveError) -> str:
        """The notice shown while saving fails."""
        kept = "nothing is saved yet" if self.saved_turn is None else f"your save from turn {self.saved_turn} is kept"
        return f"Cannot save: {error.reason}; {kept}. Trying again every turn."

    def bury(self, game: Game) -> None:
        """Record the dead character durably, then retire its save."""
        if self.buried:
            return
        try:
            write_record(record_path(self.root, self.path.stem), record_of(game))
            remove_durably(self.path)
        except (SaveError, OSError) as error:
            self.notices.warn(DEATH_TOPIC, f"Cannot record this death yet ({error}); the save is kept.")
            return
        discard(temp_path(self.path))
        self.buried = True
        self.notices.clear(SAVE_TOPIC)

    def close(self, game: Game) -> None:
        """Quit or death: save what is still unsaved, bury the dead, release the lock."""
        self.flush()
        if game.state.game_over:
            self.bury(game)
        if self.lock is not None:
            self.lock.release(remove=self.buried)
            self.lock = None
