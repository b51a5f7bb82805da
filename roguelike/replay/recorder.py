"""Recording: the session observer that appends every command to the game's replay file.

The session factory of every frontend and of ``hedonic simulate`` calls
:func:`recording_observers`. The file is ``replays/<game id>.replay`` in the data
directory; each record is written with one unbuffered write as soon as its command is
applied, so a killed game leaves a replay complete up to its last turn. Recording
problems (a full disk) stop the recording with a warning; they never stop the game.
"""

from __future__ import annotations

import os
import secrets
import sys
from datetime import datetime, timezone
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from roguelike import __version__

from roguelike.saves import crash
from roguelike.core.commands import Command
from roguelike.saves.datadir import subdir
from roguelike.core.game import Game
from roguelike.core.notices import Notices
from roguelike.replay.fileformat import (
    SUFFIX, Header, ReplayError, Witness, crash_bytes, header_bytes, read_replay, step_bytes,
)
from roguelike.replay.witness import changes, recorded_facts, witness
from roguelike.saves.layout import save_path
from roguelike.core.session import Observer, Step
from roguelike.core.snapshot import digest, snapshot_bytes

REPLAYS = "replays"
RECORDING_TOPIC = "recording"


def new_game_id() -> str:
    """A fresh id for a game's files: when it started, and a random tail."""
    return f"{datetime.now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def replay_path(data_dir: Path, game_id: str) -> Path:
    """Where the replay of a game lives."""
    return subdir(data_dir, REPLAYS) / f"{game_id}{SUFFIX}"


def recording_observers(
    data_dir: Path, game: Game, game_id: str | None = None, steps: int = 0, notices: Notices | None = None
) -> list[Observer]:
    """The observers that record a session's game: a new replay, or the resumed game's own.

    ``game_id`` is the save's id when the game is saved, so save and replay share it.
    Recording problems go to ``notices`` (shown in the game) when given, else to stderr.
    """
    game_id = game_id or new_game_id()
    tell = teller(notices)
    save = save_path(data_dir, game_id)
    if save.exists():
        crash.watch(game, "save", save)
    try:
        path = replay_path(data_dir, game_id)
        if path.exists():  # a resumed game, even one saved before its first move
            recorder = ReplayRecorder.resume(path, game, steps)
        else:
            recorder = ReplayRecorder.start(path, game, game_id)
    except (OSError, ReplayError) as error:
        tell(f"this game is not being recorded: {error}")
        return []
    recorder.tell = tell
    return [recorder]


class ReplayRecorder:
    """Appends one step record per command to an open replay file."""

    def __init__(self, path: Path, game: Game, next_index: int, facts: Witness | None = None) -> None:
        self.path = path
        self.next_index = next_index
        self.facts: Witness = facts or {}
        self.file: BinaryIO | None = open(path, "ab", buffering=0)
        self.tell: Callable[[str], None] = warn
        crash.watch(game, "replay", path, self.record_crash)

    @classmethod
    def start(cls, path: Path, game: Game, game_id: str) -> ReplayRecorder:
        """Create the replay of a new game (never overwriting a file)."""
        state = game.state
        header = Header(game_id, state.seed, state.name, __version__, datetime.now(timezone.utc).isoformat(timespec="seconds"))
        with open(path, "xb") as file:
            file.write(header_bytes(header))
        return cls(path, game, 1)

    @classmethod
    def resume(cls, path: Path, game: Game, steps: int) -> ReplayRecorder:
        """Go on recording a loaded game whose replay holds at least its ``steps`` commands."""
        replay = read_replay(path)
        if len(replay.steps) < steps:
            raise ReplayError(f"its replay {path} stops at step {len(replay.steps)}, before the save's {steps}")
        if replay.steps and steps and replay.steps[steps - 1].checksum != digest(snapshot_bytes(game)):
            raise ReplayError(f"its replay {path} does not lead to the saved game")
        # Records after the save's step are a future the loaded game did not have.
        os.truncate(path, replay.ends[steps])
        return cls(path, game, steps + 1, recorded_facts(replay.steps, steps))

    def after_step(self, game: Game, step: Step) -> None:
        """Append the step's record."""
        facts = witness(game)
        self.write(step_bytes(step.index, step.command, step.turn, step.checksum, changes(self.facts, facts)))
        self.facts, self.next_index = facts, step.index + 1

    def record_crash(self, command: Command | None, error: str) -> None:
        """End the replay with the command the game crashed on (after the session closed too)."""
        if self.file is None:
            try:
                self.file = open(self.path, "ab", buffering=0)
            except OSError:
                return
        self.write(crash_bytes(self.next_index, command, error))
        self.close_file()

    def write(self, data: bytes) -> None:
        """One unbuffered write; a failure stops recording, not the game."""
        if self.file is None:
            return
        try:
            self.file.write(data)
        except OSError as error:
            self.tell(f"recording stopped: cannot write {self.path}: {error.strerror or error}")
            self.close_file()

    def close(self, game: Game) -> None:
        """The session ended: make the file durable and close it."""
        self.close_file()

    def close_file(self) -> None:
        """Flush to disk and close, ignoring errors (the records are already written)."""
        if self.file is None:
            return
        try:
            os.fsync(self.file.fileno())
            self.file.close()
        except OSError:
            pass
        self.file = None


def warn(text: str) -> None:
    """A recording problem, told on stderr (the game goes on)."""
    print(f"hedonic: {text}", file=sys.stderr)


def teller(notices: Notices | None) -> Callable[[str], None]:
    """Where recording problems are told: the game's notices (a screen is up) or stderr."""
    if notices is None:
        return warn
    return lambda text: notices.warn(RECORDING_TOPIC, f"Replay: {text}")
