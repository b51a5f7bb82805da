"""Starting and continuing games with their saves: what the menus and ``simulate`` use.

:class:`Games` knows the data directory and makes :class:`~roguelike.core.session.Session`
objects that autosave (and carry any extra observers, such as a replay recorder).
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from roguelike.core.commands import Mark
from roguelike.core.game import Game
from roguelike.core.names import DEFAULT_NAME, clean_name
from roguelike.core.session import Observer, Session
from roguelike.core.snapshot import snapshot_bytes
from roguelike.core.wizard import origin_after
from roguelike.saves.autosave import SAVE_TOPIC, Autosave, CarriedBySave
from roguelike.saves.history import History, read_history, record_of, write_record
from roguelike.saves.listing import SaveInfo, list_saves
from roguelike.saves.lock import LOCK_SUFFIX, CannotLock, SaveLock
from roguelike.saves.meaning import first_turn_problem
from roguelike.saves.savefile import read_save, sealed_save
from roguelike.storage.atomic import TEMP_SUFFIX, discard, remove_durably, temp_path
from roguelike.storage.datadir import SAVE_SUFFIX, DataDir, new_save_id
from roguelike.storage.errors import SaveError, in_words

# (session, save file, the replay records the save carries) -> observers
ObserverFactory = Callable[[Session, Path, bytes], list[Observer]]
DEAD = "this character has died; see Character stats"


@dataclass
class Games:
    """The player's games in one data directory."""

    root: Path
    seed: int | None = None  # seed of new games; random when None
    observers: list[ObserverFactory] = field(default_factory=list)  # more observers per session
    wizard: bool = False  # every game played is marked (hedonic play --wizard) and never counts
    draw: Callable[[Game], object] | None = None  # draws a frame of a game (the frontends' Games pass one)
    catch_up: Callable[[Path], object] | None = None  # brings a save up to a replay that went on without it
    origin: str | None = None  # every game played is marked so (bot, daily, practice) when it starts or resumes

    def saves(self) -> list[SaveInfo]:
        """Saves of living characters (and damaged ones), most recent first; the Load menu offers these."""
        return [playable(info, self.draw) for info in self.living()]

    def last(self) -> SaveInfo | None:
        """The most recently played save that can be resumed, if any (the title's Resume)."""
        return next((info for info in map(playable, self.living()) if info.ok), None)

    def find(self, name: str) -> SaveInfo | None:
        """The most recent good save of a character with this name."""
        wanted = clean_name(name) or DEFAULT_NAME
        named = (playable(info) for info in self.living() if info.name == wanted)
        return next((info for info in named if info.ok), None)

    def living(self) -> list[SaveInfo]:
        """Saves of living characters (and damaged ones) as their files list them, first turns untried."""
        sweep(self.root)
        listed = list_saves(self.root)
        settle_deaths(self.root, listed)  # the dead are buried, or stay listed as dead: left out either way
        return [info for info in listed if not info.dead]

    def new(self, name: str) -> Session:
        """A new character's game, saved before its first turn."""
        seed = self.seed if self.seed is not None else secrets.randbits(63)
        session = Session(Game.new(seed, clean_name(name) or DEFAULT_NAME))
        path = DataDir(self.root).save(new_save_id())
        autosave = Autosave(self.root, path, session.notices, self.lock_new(path, session))
        autosave.start(session.game)
        return self.attach(session, autosave, path, b"")

    def resume(self, path: Path) -> Session:
        """Continue a saved game; SaveError if it is open elsewhere, damaged or over."""
        # Before the lock: catching up takes the save's lock itself to rewrite it.
        if self.catch_up is not None and self.catch_up(path) and not path.exists():
            raise SaveError(path, DEAD)  # the replay held the character's death, now in the history
        lock = lock_if_possible(path)
        try:
            save = read_save(path)
            if save.plain["cause"] is not None:
                raise SaveError(path, DEAD)
            problem = first_turn_problem(save.game, trials(save.header["steps"], self.draw))
            if problem is not None:
                raise SaveError(path, problem)
            game = save.game()
        except SaveError:
            if lock is not None:
                lock.release()
            raise
        session = Session(game, steps=save.header["steps"])
        if lock is None:
            session.notices.warn(SAVE_TOPIC, f"Cannot save in {path.parent}: the folder cannot be written. Playing on.")
        autosave = Autosave(self.root, path, session.notices, lock, saved_turn=game.state.turn)
        return self.attach(session, autosave, path, save.header.get("replay_tail", b""))

    def delete(self, info: SaveInfo) -> None:
        """Delete a save the player chose to delete; SaveError if it is open elsewhere."""
        lock = SaveLock.acquire(info.path)
        try:
            remove_durably(info.path)
        except OSError as error:
            lock.release()
            raise SaveError(info.path, str(error.strerror), doing="delete") from error
        discard(temp_path(info.path))
        lock.release(remove=True)

    def history(self) -> History:
        """The records of every dead character."""
        settle_deaths(self.root)
        return read_history(self.root)

    def known_monsters(self) -> frozenset[str]:
        """The monster kinds any dead character met (the help's bestiary shows them)."""
        return frozenset(kind for record in read_history(self.root).records for kind in record.met)

    def lock_new(self, path: Path, session: Session) -> SaveLock | None:
        """Lock a new save; a folder that refuses only costs a notice (the game goes on)."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            return SaveLock.acquire(path)
        except (OSError, SaveError) as error:
            session.notices.warn(SAVE_TOPIC, f"Cannot save in {path.parent}: {in_words(error)}.")
            return None

    def attach(self, session: Session, autosave: Autosave, path: Path, carried: bytes) -> Session:
        """The session with the extra observers (the replay recorder) first, then its autosave.

        A game killed between the two writes then has a replay one step ahead of its save,
        which resuming trims; the other way round the game would go on unrecorded.
        """
        session.known_monsters = self.known_monsters()
        extra = [observer for make in self.observers for observer in make(session, path, carried)]
        autosave.replay = next((observer for observer in extra if isinstance(observer, CarriedBySave)), None)
        session.observers = [*extra, autosave]
        if self.wizard and session.game.state.origin != "wizard":
            session.apply(Mark("wizard"))  # saved and recorded: the game can never pass for the character's own
        if self.origin is not None:
            mark(session, self.origin)
        return session


def mark(session: Session, origin: str) -> None:
    """Mark the game's origin (recorded, inside the checksum) unless the mark would change nothing."""
    command = Mark(origin)
    if origin_after(session.game.state.origin, command) != session.game.state.origin:
        session.apply(command)


def playable(info: SaveInfo, draw: Callable[[Game], object] | None = None) -> SaveInfo:
    """The listed save, damaged if its first turn fails (tried on a throwaway copy; the file is untouched)."""
    if not info.ok:
        return info
    try:
        save = info.save or read_save(info.path)  # the listing's read when it kept one
        problem = first_turn_problem(save.game, trials(save.header["steps"], draw))
    except SaveError as error:
        problem = error.reason
    return info if problem is None else dataclasses.replace(info, problem=problem)


def trials(steps: int, draw: Callable[[Game], object] | None) -> list[Callable[[Game], object]]:
    """What a save's first turn must also survive: encoding the save after it, and a frame."""

    def next_save(game: Game) -> object:
        return sealed_save(snapshot_bytes(game), steps + 1)

    return [next_save] if draw is None else [next_save, draw]


def lock_if_possible(path: Path) -> SaveLock | None:
    """The save's lock, or None in a folder where no lock (and no save) can be written."""
    try:
        return SaveLock.acquire(path)
    except CannotLock:
        return None


def sweep(root: Path) -> None:
    """Remove what crashed games left behind: temp files and locks of no save (never a save)."""
    folder = DataDir(root).saves
    temps = [(t, t.with_name(t.name.removesuffix(TEMP_SUFFIX))) for t in folder.glob(f"*{SAVE_SUFFIX}{TEMP_SUFFIX}")]
    locks = [(lock, lock.with_suffix(SAVE_SUFFIX)) for lock in folder.glob(f"*{LOCK_SUFFIX}")]
    for leftover, save in sorted(temps + locks):
        if leftover.suffix == LOCK_SUFFIX and save.exists():
            continue
        try:
            lock = SaveLock.acquire(save)
        except SaveError:
            continue  # a running game owns it
        discard(temp_path(save))
        lock.release(remove=not save.exists())


def settle_deaths(root: Path, listed: list[SaveInfo] | None = None) -> None:
    """Finish deaths a crash interrupted: record the character if needed, retire the save."""
    for info in list_saves(root) if listed is None else listed:
        if info.ok and info.dead and not info.open_elsewhere:
            try:
                bury_saved(root, info)
            except SaveError:
                continue  # a read-only folder: try again next time


def bury_saved(root: Path, info: SaveInfo) -> None:
    """Record and retire one save of a dead character."""
    lock = SaveLock.acquire(info.path)
    try:
        record = DataDir(root).record(info.save_id)
        if not record.exists():
            game = read_save(info.path).game()
            write_record(record, record_of(game, died_at=info.saved_at))
            game.close()
        remove_durably(info.path)
    except OSError as error:
        raise SaveError(info.path, str(error.strerror), doing="retire") from error
    finally:
        lock.release(remove=not info.path.exists())
