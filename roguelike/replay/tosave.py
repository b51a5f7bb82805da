"""From replay to save: play on from any turn of a replay, or rebuild a damaged save.

``hedonic replay FILE --to-turn N --save-as NAME`` re-simulates the replay up to turn N
as a new character called NAME (with its own replay, so the game played on from there
is recorded too). ``hedonic replay --rebuild SAVE`` and the Load screen's R key rebuild
a damaged save from the replay that shares its id; the damaged file is kept beside it
as ``<id>.save.damaged``. Re-simulation checks every recorded checksum on the way.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from roguelike.core.commands import Mark
from roguelike.core.game import Game
from roguelike.core.names import clean_name
from roguelike.core.session import Observer, Session
from roguelike.replay.fileformat import SUFFIX, Replay, ReplayError, checksum_in, read_replay
from roguelike.replay.recorder import ReplayRecorder, replay_path
from roguelike.saves import SaveLock, read_save, save_game
from roguelike.storage.datadir import SAVE_SUFFIX, DataDir, data_dir, new_save_id
from roguelike.storage.errors import SaveError

EXIT_OK, EXIT_CANNOT, EXIT_BAD_INPUT = 0, 1, 2
DAMAGED_SUFFIX = ".damaged"


class CannotSave(Exception):
    """The replay cannot become a save (it diverges, or the character is dead); says why."""


def steps_to_turn(replay: Replay, turn: int) -> int:
    """How many commands bring the game to ``turn`` (the first step that reaches it)."""
    if turn < 0:
        raise CannotSave(f"turn {turn} is not in the replay, which runs from turn 0 to {replay.final_turn}")
    if turn == 0:
        return 0
    for record in replay.steps:
        if record.turn >= turn:
            return record.index
    raise CannotSave(f"the replay ends at turn {replay.final_turn}, before turn {turn}")


def simulate(replay: Replay, steps: int, name: str, observers: Callable[[Game], list[Observer]]) -> Session:
    """The replay's game after ``steps`` commands, checked against the recording."""
    game = Game.new(replay.header.seed, name)
    session = Session(game, observers(game))
    renamed = name != replay.header.name  # the name is part of the state: checksums differ
    for record in replay.steps[:steps]:
        step = session.apply(record.command)
        if not renamed and checksum_in(replay.format, step.state) != record.checksum:
            session.close()
            raise CannotSave(f"this game no longer plays the replay the same way (diverged at turn {record.turn})")
    return session


def save_as(replay: Replay, root: Path, turn: int | None, name: str, origin: str = "replay") -> tuple[Path, int]:
    """A new save (and its replay) of the replay's game at ``turn`` (None: after its last command), marked
    with ``origin``; its path and turn.

    The mark is a recorded command: the new save is never the character's own, and never counts.
    """
    # The end is every command, not the first reaching the last turn: a death that takes no turn
    # (a dose) would otherwise be left out, and a dead character saved alive.
    steps = len(replay.steps) if turn is None else steps_to_turn(replay, turn)
    save_id = new_save_id()
    save = DataDir(root).save(save_id)
    new_replay = replay_path(root, save_id)
    problems: list[str] = []
    try:
        session = simulate(replay, steps, name, lambda game: [quiet_recorder(new_replay, game, save_id, problems)])
    except CannotSave:
        new_replay.unlink(missing_ok=True)  # our own new file: the game it began diverged
        raise
    try:
        if session.game.state.game_over:
            raise CannotSave(f"the character is dead by turn {session.game.state.turn}; pick an earlier turn")
        session.apply(Mark(origin))
        if problems:  # a save whose replay could not be written could never be rebuilt or verified
            raise CannotSave(problems[0])
        save_game(save, session.game, steps=steps + 1)
    except (CannotSave, SaveError):
        session.close()
        new_replay.unlink(missing_ok=True)  # our own new file, of a save that does not exist
        raise
    session.close()
    return save, session.game.state.turn


def quiet_recorder(path: Path, game: Game, save_id: str, problems: list[str]) -> ReplayRecorder:
    """The new save's recorder, collecting its problems instead of printing them (one line in the end)."""
    recorder = ReplayRecorder.start(path, game, save_id)
    recorder.tell = problems.append
    recorder.flush()
    return recorder


def save_from_replay(args: argparse.Namespace, play: Callable[[Path], int] | None = None) -> int:
    """``hedonic replay FILE [--to-turn N] --save-as NAME``, or ``--wizard``: ``play`` opens the new save."""
    wizard = getattr(args, "wizard", False)
    if args.save_as is None and not wizard:
        return say("--to-turn needs --save-as NAME (the name of the character in the new save)", EXIT_BAD_INPUT)
    path: Path = args.files[0]
    try:
        replay = read_replay(path)
    except ReplayError as error:
        return say(f"{path}: {error}", EXIT_BAD_INPUT)
    name = clean_name(args.save_as if args.save_as is not None else replay.header.name)
    if not name:
        return say("the name has nothing printable in it", EXIT_BAD_INPUT)
    try:
        save, reached = save_as(replay, data_dir(args.data_dir), args.to_turn, name, "wizard" if wizard else "replay")
    except (CannotSave, SaveError) as error:
        return say(f"{path}: {error}", EXIT_CANNOT)
    except OSError as error:  # the data directory's folders cannot be made or written
        return say(f"cannot write in {data_dir(args.data_dir)}: {error.strerror or error}", EXIT_CANNOT)
    if wizard and play is not None:
        return play(save)
    print(f"saved {name} at turn {reached} as {save} (marked: made from a replay, it never counts)")
    print(
        "play on with `hedonic play` (Load game), or let the bot: "
        f"hedonic simulate --name {name!r} --seed {replay.header.seed} --turns N"
    )
    return EXIT_OK


def rebuild_save(save: Path) -> str:
    """Rebuild a damaged (or lost) save from the replay with its id; what was done."""
    folders = data_dir_of(save)
    lock = SaveLock.acquire(save)
    try:
        refuse_good(save)
        replay = read_replay(folders.replay(save.stem))
        session = simulate(replay, len(replay.steps), replay.header.name, lambda game: [])
        session.close()
        kept = keep_damaged(save)
        try:
            save_game(save, session.game, steps=len(replay.steps))
        except SaveError:
            if kept is not None:
                os.replace(kept, save)  # the damaged save stays where the listings look for it
            raise
    except ReplayError as error:
        raise CannotSave(f"its replay cannot be used: {error}") from None
    finally:
        lock.release()
    kept_note = f"; the damaged file is kept as {kept.name}" if kept is not None else ""
    return f"Rebuilt {replay.header.name}'s save at turn {session.game.state.turn} from its replay{kept_note}."


def data_dir_of(save: Path) -> DataDir:
    """The data directory a save lives in; CannotSave for a save anywhere else."""
    folders = DataDir.of_save(save)
    if folders is None or save.suffix != SAVE_SUFFIX:
        raise CannotSave("it is not in a data directory's saves/ folder, where its replay would be found")
    return folders


def refuse_good(save: Path) -> None:
    """Only a damaged or missing save is rebuilt: a good one may be ahead of its replay's end."""
    if not save.exists():
        return
    try:
        read_save(save)
    except SaveError:
        return
    raise CannotSave("it is not damaged; nothing to rebuild")


def rebuild_status(save: Path, damaged: bool) -> str:
    """Rebuild a save for the Load screen; one line saying what happened."""
    if not damaged:
        return "This save is fine: only a damaged save is rebuilt from its replay."
    try:
        return rebuild_save(save)
    except SaveError as error:
        return error.brief()
    except (CannotSave, OSError) as error:
        return f"Cannot rebuild it: {error}."


def keep_damaged(save: Path) -> Path | None:
    """Move the damaged save aside (never deleting it); where it went."""
    if not save.exists():
        return None
    for number in range(1, 1000):
        kept = save.with_name(save.name + DAMAGED_SUFFIX + (f".{number}" if number > 1 else ""))
        if not kept.exists():
            os.replace(save, kept)
            return kept
    raise CannotSave("too many damaged copies are kept already")


def rebuild_command(args: argparse.Namespace) -> int:
    """``hedonic replay --rebuild SAVE...``: rebuild each damaged save from its replay."""
    status = EXIT_OK
    for path in args.files:
        save = save_of(path)
        try:
            print(rebuild_save(save))
        except (CannotSave, SaveError, OSError) as error:
            status = max(status, say(f"{save}: cannot rebuild: {error}", EXIT_CANNOT))
    return status


def save_of(path: Path) -> Path:
    """The save a path names: itself, or the save sharing a replay's id."""
    folders = DataDir.of_replay(path) if path.suffix == SUFFIX else None
    return folders.save(path.stem) if folders is not None else path


def say(text: str, status: int) -> int:
    """A one-line message on stderr, and the status to exit with."""
    print(f"hedonic replay: {text}", file=sys.stderr)
    return status
