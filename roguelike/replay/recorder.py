"""Recording: the session observer that appends every command to the game's replay file.

The session factory of every frontend and of ``hedonic simulate`` calls
:func:`recording_observers`. The file is ``replays/<game id>.replay`` in the data
directory; each record is written with one unbuffered write as soon as its command is
applied, so a killed game leaves a replay complete up to its last turn. Recording
problems (a full disk) stop the recording with a warning; they never stop the game.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from roguelike import __version__
from roguelike.core.commands import Command
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.notices import Notices
from roguelike.core.session import Observer, Step
from roguelike.core.snapshot import encoded_state
from roguelike.replay.fileformat import (
    FORMAT_VERSION,
    Header,
    Replay,
    ReplayError,
    StepRecord,
    Witness,
    carried_steps,
    checksum_in,
    crash_bytes,
    header_bytes,
    read_replay,
    step_bytes,
)
from roguelike.replay.verify import first_divergence
from roguelike.replay.witness import Ledger, recorded_facts
from roguelike.saves import crash
from roguelike.saves.autosave import writer
from roguelike.storage.atomic import write_all
from roguelike.storage.datadir import DataDir, made
from roguelike.storage.errors import in_words

BINARY = getattr(os, "O_BINARY", 0)
RECORDING_TOPIC = "recording"
SYNC_EVERY = 32  # a saved game's replay is fsynced every this many records (its saves carry the rest)


def new_game_id() -> str:
    """A fresh id for a game's files: when it started, and a random tail."""
    return f"{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def replay_path(data_dir: Path, game_id: str) -> Path:
    """Where the replay of a game lives."""
    folders = DataDir(data_dir)
    made(folders.replays)
    return folders.replay(game_id)


def recording_observers(
    data_dir: Path,
    game: Game,
    game_id: str | None = None,
    steps: int = 0,
    notices: Notices | None = None,
    *,
    saved: bool = True,
    carried: bytes = b"",
) -> list[Observer]:
    """The observers that record a session's game: a new replay, or the resumed game's own.

    ``game_id`` is the save's id when the game is saved, so save and replay share it.
    A saved game's replay is synced to disk every :data:`SYNC_EVERY` records, and each
    save carries the records since (``carried`` when resuming: they put back what a power
    cut took from the replay); an unsaved game's (``saved=False``: ``hedonic simulate``'s
    Bot) is synced only when it closes.
    Recording problems go to ``notices`` (shown in the game) when given, else to stderr.
    A resumed game whose replay is gone is played unrecorded: a replay holds every
    command from the first, and a new file could never be verified or rebuild the save.
    """
    game_id = game_id or new_game_id()
    tell = teller(notices)
    save = DataDir(data_dir).save(game_id)
    if save.exists():
        crash.watch(game, "save", save)
    try:
        path = replay_path(data_dir, game_id)
        if path.exists():  # a resumed game, even one saved before its first move
            recorder = ReplayRecorder.resume(path, game, steps, carried)
        elif steps > 0:
            raise ReplayError(f"its replay {path} is missing")
        else:
            recorder = ReplayRecorder.start(path, game, game_id)
    except (OSError, ReplayError) as error:
        tell(f"this game is not being recorded: {in_words(error)}")
        return [KeptRecords(carried)] if carried else []  # the save keeps what it carried
    recorder.tell, recorder.notices = tell, notices
    recorder.sync_every = SYNC_EVERY if saved else None
    recorder.flush()
    if saved and not recorder.unwritten:
        recorder.sync()  # the header: the save carries records, never the header
    return [recorder]


class ReplayRecorder:
    """Appends one step record per command to an open replay file.

    Bytes the disk refused (a full disk) are kept and written again, from the last whole
    record, after every later command: once space returns the replay is complete. A saved
    game's replay is fsynced every ``sync_every`` records on the autosave's thread, and the
    records since are :meth:`unsynced`: the autosave writes them into each save, so the
    replay and the save it can rebuild survive a power cut together (resuming puts back
    what the replay lost) for one sync every few dozen turns instead of one every turn.
    The replay of an unsaved game is fsynced once, when it closes.
    """

    def __init__(
        self,
        path: Path,
        game: Game,
        next_index: int,
        facts: Witness | None = None,
        *,
        end: int,
        replay_format: int = FORMAT_VERSION,
    ) -> None:
        self.path = path
        self.format = replay_format  # a resumed game's replay goes on in the format it began in
        self.next_index = next_index
        self.ledger = Ledger(facts or {})  # the facts last recorded
        self.fd: int | None = os.open(path, os.O_WRONLY | BINARY)
        self.end = end  # bytes of whole records on disk
        self.unwritten = b""
        self.failing = False
        self.syncing: Future[None] | None = None
        self.sync_every: int | None = SYNC_EVERY  # None: only when it closes
        self.carried = b""  # the records since the last sync was queued
        self.tell: Callable[[str], None] = warn
        self.notices: Notices | None = None
        crash.watch(game, "replay", path, self.record_crash)

    @classmethod
    def start(
        cls, path: Path, game: Game, game_id: str, replay_format: int = FORMAT_VERSION, origin: str | None = None
    ) -> ReplayRecorder:
        """Create the replay of a new game (never overwriting a file), its header naming ``origin``
        if given; the header is written by ``flush``."""
        state = game.state
        header = Header(
            game_id,
            state.seed,
            state.name,
            __version__,
            datetime.now(UTC).isoformat(timespec="seconds"),
            RULES_EPOCH,
            origin,
        )
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | BINARY, 0o644))
        recorder = cls(path, game, 1, end=0, replay_format=replay_format)
        recorder.unwritten = header_bytes(header, replay_format)
        return recorder

    @classmethod
    def resume(cls, path: Path, game: Game, steps: int, carried: bytes = b"") -> ReplayRecorder:
        """Go on recording a loaded game whose replay holds at least its ``steps`` commands,
        once the records its save ``carried`` put back any a power cut took.

        If they cannot be put back yet (the disk is still full), they are kept to be written
        with the next records, and every save goes on carrying them until the replay has them.
        The whole replay up to the save is verified first: an edited record (its CRC made
        right again) would otherwise be recorded into as if the file still proved the game.
        """
        replay = read_replay(path, torn_tail=True)  # a power cut's leftovers past the last whole record are cut
        if replay.header.epoch != RULES_EPOCH:
            raise ReplayError(
                f"its replay {path} holds rules epoch {replay.header.epoch}'s turns; this game plays "
                f"epoch {RULES_EPOCH}'s rules, so the replay keeps the game as it was up to here"
            )
        pending: list[tuple[StepRecord, bytes]] = []
        if len(replay.steps) < steps and carried:
            try:
                replay = put_back(path, replay, carried)
            except OSError:
                pending = carried_after(replay, carried)[: steps - len(replay.steps)]
        known = replay.steps + [record for record, _ in pending]
        if len(known) < steps:
            raise ReplayError(f"its replay {path} stops at step {len(known)}, before the save's {steps}")
        if known and steps and known[steps - 1].checksum != checksum_in(replay.format, encoded_state(game)):
            raise ReplayError(f"its replay {path} does not lead to the saved game")
        divergence = first_divergence(replace(replay, steps=known[:steps], crash=None))
        if divergence is not None:
            raise ReplayError(f"its replay {path} no longer verifies ({divergence}); it is kept as it is")
        if len(known) > steps + 1:  # more than a game killed between its record and its save leaves
            raise ReplayError(
                f"its replay {path} holds {len(known) - steps} commands after the save, "
                "which are kept (they could not be brought into the save)"
            )
        end = replay.ends[min(steps, len(replay.steps))]
        os.truncate(path, end)  # a record after the save's step is a future the loaded game did not have
        recorder = cls(path, game, steps + 1, recorded_facts(known, steps), end=end, replay_format=replay.format)
        recorder.unwritten = recorder.carried = b"".join(frame for _, frame in pending)
        return recorder

    def after_step(self, game: Game, step: Step) -> None:
        """Append the step's record."""
        delta = self.ledger.record(game)
        checksum = checksum_in(self.format, step.state)
        record = step_bytes(step.index, step.command, step.turn, checksum, delta)
        self.write(record)
        self.next_index = step.index + 1
        if self.sync_every is None:
            return
        self.carried += record
        if step.index % self.sync_every == 0 and not self.unwritten:
            self.sync()

    def sync(self) -> None:
        """Have what is written synced on the autosave's thread, before any save queued later."""
        if self.fd is not None:
            self.syncing = writer().submit(sync_quietly, self.fd)
            self.carried = b""

    def unsynced(self) -> bytes:
        """The records not yet known to be on disk: each save carries them (see :class:`ReplayRecorder`)."""
        return self.carried

    def record_crash(self, command: Command | None, error: str) -> None:
        """End the replay with the command the game crashed on (after the session closed too)."""
        if self.fd is None:
            try:
                self.fd = os.open(self.path, os.O_WRONLY | BINARY)
            except OSError:
                return
        self.write(crash_bytes(self.next_index, command, error))
        self.close_file()

    def write(self, data: bytes) -> None:
        """Queue a record and write what is queued; a failure keeps it for the next try."""
        self.unwritten += data
        self.flush()

    def flush(self) -> None:
        """Write the queued bytes after the last whole record, then have them synced."""
        if self.fd is None or not self.unwritten:
            return
        try:
            if self.failing:
                os.ftruncate(self.fd, self.end)  # drop a record the full disk cut in half
            os.lseek(self.fd, self.end, os.SEEK_SET)
            write_all(self.fd, self.unwritten)
        except OSError as error:
            self.trouble(error)
            return
        self.end += len(self.unwritten)
        self.unwritten, self.failing = b"", False
        if self.notices is not None:
            self.notices.clear(RECORDING_TOPIC)

    def trouble(self, error: OSError) -> None:
        """Say once that recording is held up (it is tried again after every command)."""
        if not self.failing:
            self.tell(f"cannot write {self.path.name} ({error.strerror or error}); trying again every turn")
        self.failing = True

    def close(self, game: Game) -> None:
        """The session ended: make the file durable and close it."""
        self.close_file()

    def close_file(self) -> None:
        """Sync and close; a replay that never got its header is removed (it is our own empty file)."""
        if self.fd is None:
            return
        if self.syncing is not None:
            self.syncing.result()
        sync_quietly(self.fd)
        os.close(self.fd)
        self.fd = None
        if self.end == 0:
            with contextlib.suppress(OSError):
                os.unlink(self.path)


class KeptRecords:
    """A resumed game that cannot be recorded: its saves go on carrying the records its save carried.

    Those records may be all that is left of the replay's last turns (a power cut): a save
    written without them would lose them for good.
    """

    def __init__(self, carried: bytes) -> None:
        self.carried = carried

    def after_step(self, game: Game, step: Step) -> None:
        """Nothing is recorded."""

    def unsynced(self) -> bytes:
        """The records the save was loaded with."""
        return self.carried

    def close(self, game: Game) -> None:
        """Nothing to close."""


def carried_after(replay: Replay, carried: bytes) -> list[tuple[StepRecord, bytes]]:
    """The carried records that follow the replay's last one, with their bytes (none if they do
    not start right after it: the save does not reach back to where the replay stops)."""
    have = len(replay.steps)
    missing = [(record, frame) for record, frame in carried_steps(carried) if record.index > have]
    return missing if missing and missing[0][0].index == have + 1 else []


def put_back(path: Path, replay: Replay, carried: bytes) -> Replay:
    """The replay with the records its save carried appended where a power cut cut it short."""
    have = len(replay.steps)
    missing = carried_after(replay, carried)
    if not missing:
        return replay
    fd = os.open(path, os.O_WRONLY | BINARY)
    try:
        os.ftruncate(fd, replay.ends[have])
        os.lseek(fd, replay.ends[have], os.SEEK_SET)
        write_all(fd, b"".join(frame for _, frame in missing))
        os.fsync(fd)
    finally:
        os.close(fd)
    return read_replay(path)


def sync_quietly(fd: int) -> None:
    """fsync, ignoring errors: the bytes are written, the sync is only for power cuts."""
    with contextlib.suppress(OSError):
        os.fsync(fd)


def warn(text: str) -> None:
    """A recording problem, told on stderr (the game goes on)."""
    print(f"hedonic: {text}", file=sys.stderr)


def teller(notices: Notices | None) -> Callable[[str], None]:
    """Where recording problems are told: the game's notices (a screen is up) or stderr."""
    if notices is None:
        return warn
    return lambda text: notices.warn(RECORDING_TOPIC, f"Replay: {text}")
