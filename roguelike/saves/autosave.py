"""The autosave: an observer of the session that saves after every step.

After each command the step's already-encoded snapshot is written into the older of the
save file's two slots, in place, and ``fdatasync``-ed (slots.py: the newest whole slot is
the save, so a write cut short loses at most that turn); a new, outgrown or older-format
file is written whole, atomically (temp file, fsync, replace, fsync the folder). The
waits on the disk happen on one background thread so the player never waits for them:
the frame of the turn is drawn at once, and the next key is only read once the turn's
save is on disk (the in-game screen's ``before_input`` hook calls :func:`settle`; a step
also finishes the write before it, so writes never overlap).

When the character dies, its record goes durably into the history first; only then is
the save retired. A save that cannot be written (read-only or full disk) leaves the last
good one intact and shows a notice; the game keeps going and tries again every turn.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Protocol, runtime_checkable

from roguelike.core.game import Game
from roguelike.core.notices import Notices
from roguelike.core.session import Session, Step
from roguelike.core.snapshot import snapshot_bytes
from roguelike.saves.history import record_of, write_record
from roguelike.saves.lock import SaveLock
from roguelike.saves.savefile import write_save
from roguelike.saves.slots import SlotWriter
from roguelike.storage.atomic import discard, remove_durably, temp_path
from roguelike.storage.datadir import DataDir
from roguelike.storage.errors import SaveError, in_words

SAVE_TOPIC = "save"
DEATH_TOPIC = "death"

Pending = tuple[bytes, int, int, bytes]  # snapshot, step index, turn, replay tail: a state not yet on disk


@runtime_checkable
class CarriedBySave(Protocol):
    """An observer whose latest writes each save carries (the replay recorder's unsynced records)."""

    def unsynced(self) -> bytes:
        """What the next save must carry."""
        ...


_writer: ThreadPoolExecutor | None = None


def writer() -> ThreadPoolExecutor:
    """The one background thread that writes saves (its threads are joined at exit)."""
    global _writer
    if _writer is None:
        _writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="autosave")
    return _writer


def settle(session: Session) -> None:
    """Wait until the session's last save is on disk; its notices then tell how it went (:meth:`Session.settle`)."""
    session.settle()


class Autosave:
    """Writes a character's save every step and retires it when the character dies."""

    def __init__(
        self, root: Path, path: Path, notices: Notices, lock: SaveLock | None, saved_turn: int | None = None
    ) -> None:
        self.root = root
        self.path = path
        self.notices = notices
        self.lock = lock
        self.saved_turn = saved_turn
        self.pending: Pending | None = None
        self.writing: Future[None] | None = None
        self.buried = False
        self.slots = SlotWriter(path)  # written by one thread at a time: each write settles the one before
        self.replay: CarriedBySave | None = None  # the replay recorder, whose last records each save holds

    def start(self, game: Game, steps: int = 0) -> None:
        """Save a game that has had no step yet (a new character), before it is played."""
        self.pending = (snapshot_bytes(game), steps, game.state.turn, b"")
        self.write_now()

    def after_step(self, game: Game, step: Step) -> None:
        """Save the state this step led to; on death, record the character and retire the save."""
        self.settle()
        tail = self.replay.unsynced() if self.replay is not None else b""
        self.pending = (step.snapshot, step.index, step.turn, tail)
        if game.state.game_over:
            self.write_now()
            self.bury(game)
            return
        self.writing = writer().submit(
            write_save, self.path, step.snapshot, steps=step.index, slots=self.slots, replay_tail=tail
        )

    def settle(self) -> bool:
        """Wait for the save being written and report how it went; True if all is saved."""
        if self.writing is not None:
            done, self.writing = self.writing, None
            self.finish(done.exception())
        return self.pending is None

    def write_now(self) -> None:
        """Write the pending state on this thread (a new game, a death, quitting)."""
        if self.pending is None or self.buried:
            return
        snapshot, steps, _, tail = self.pending
        try:
            write_save(self.path, snapshot, steps=steps, slots=self.slots, replay_tail=tail)
        except SaveError as error:
            self.finish(error)
            return
        self.finish(None)

    def finish(self, error: BaseException | None) -> None:
        """Note a finished write: the pending state is saved, or a notice says why not."""
        if error is None:
            self.saved_turn = self.pending[2] if self.pending is not None else self.saved_turn
            self.pending = None
            self.notices.clear(SAVE_TOPIC)
        elif isinstance(error, SaveError):
            self.notices.warn(SAVE_TOPIC, self.trouble(error))
        else:
            raise error  # a bug, not a disk problem: let the crash handler report it

    def trouble(self, error: SaveError) -> str:
        """The notice shown while saving fails."""
        kept = "nothing is saved yet" if self.saved_turn is None else f"your save from turn {self.saved_turn} is kept"
        return f"Cannot save: {error.reason}; {kept}. Trying again every turn."

    def bury(self, game: Game) -> None:
        """Record the dead character durably, then retire its save."""
        if self.buried:
            return
        try:
            write_record(DataDir(self.root).record(self.path.stem), record_of(game))
            remove_durably(self.path)
        except (SaveError, OSError) as error:
            self.notices.warn(
                DEATH_TOPIC, f"Cannot record this death yet ({in_words(error, self.path)}); the save is kept."
            )
            return
        discard(temp_path(self.path))
        self.buried = True
        self.notices.clear(SAVE_TOPIC)

    def close(self, game: Game) -> None:
        """Quit or death: save what is still unsaved, bury the dead, release the lock."""
        if not self.settle():
            self.write_now()  # the last write failed: one more try before letting go
        if game.state.game_over:
            self.bury(game)
        if self.lock is not None:
            self.lock.release(remove=self.buried)
            self.lock = None
