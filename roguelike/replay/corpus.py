"""The regression corpus: the repository's ``replays/`` folder, and re-recording it.

``replays/corpus.json`` lists recipes: a bot, a seed and what the game must show (a
cause of death, a floor reached). ``hedonic replay --rerecord replays/`` plays every
recipe again with the current game, moving to the next seed when the old one no longer
shows what it must, and writes the seed it used back to the manifest; its header names the
``bot`` origin, so a bot's game never ranks as a played one. Every other ``.replay`` in the
folder (the replay of a fixed bug) is re-recorded by applying its own commands again, its
header's origin kept. Files whose records did not change are left untouched (a file whose
header lacks only its origin gets it, every other byte kept).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TextIO

from roguelike.bots.registry import BOTS, Player
from roguelike.core.commands import Command
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import FORMAT_VERSION, SUFFIX, Replay, ReplayError, header_bytes, read_replay
from roguelike.replay.recorder import ReplayRecorder
from roguelike.saves.crash import one_line
from roguelike.storage.atomic import write_atomic

MANIFEST = "corpus.json"
EPOCHS = "epochs"  # the folder beside a corpus keeping the replays of older rules epochs
SEED_SEARCH = 300
ACTIONS_PER_TURN = 8  # as in headless.play_bot: a bot bumping into nothing cannot loop forever
BOT_ORIGIN = "bot"  # the origin a recipe's game is recorded with


@dataclass(frozen=True)
class Recipe:
    """How one corpus replay is made and what it must show."""

    file: str
    bot: str
    seed: int
    turns: int = 5000
    name: str = "Bot"
    cause: str | None = None  # the game must end with this cause of death
    min_floor: int = 1  # ...and reach at least this floor

    def shown_by(self, game: Game) -> bool:
        """Whether a finished game shows what this recipe is for."""
        state = game.state
        return (self.cause is None or state.cause_of_death == self.cause) and state.depth >= self.min_floor


def load_recipes(folder: Path) -> list[Recipe]:
    """The recipes of a corpus folder (none if it has no manifest)."""
    path = folder / MANIFEST
    if not path.exists():
        return []
    return [Recipe(**entry) for entry in json.loads(path.read_text(encoding="utf-8"))["games"]]


def save_recipes(folder: Path, recipes: list[Recipe]) -> None:
    """Write the manifest back (seeds may have moved)."""
    text = json.dumps({"games": [asdict(r) for r in recipes]}, indent=2) + "\n"
    temporary = folder / (MANIFEST + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, folder / MANIFEST)


def rerecord_paths(paths: list[Path], out: TextIO, err: TextIO) -> int:
    """Re-record corpus folders and single replay files; 1 if any could not be."""
    failures = 0
    for path in paths:
        failures += rerecord_folder(path, out, err) if path.is_dir() else rerecord_one(path, out, err)
    return 1 if failures else 0


def rerecord_folder(folder: Path, out: TextIO, err: TextIO) -> int:
    """Every recipe, then every other replay in the folder; the number of failures."""
    recipes, failures = [], 0
    for recipe in load_recipes(folder):
        found = record_recipe(recipe, folder)
        if found is None:
            print(f"{folder / recipe.file}: no seed from {recipe.seed} on shows {describe(recipe)}", file=err)
            failures += 1
        else:
            print(f"{folder / recipe.file}: {found[1]} (seed {found[0].seed})", file=out)
        recipes.append(found[0] if found else recipe)
    if recipes:
        save_recipes(folder, recipes)
    listed = {recipe.file for recipe in recipes}
    for path in sorted(folder.glob(f"*{SUFFIX}")):
        if path.name not in listed:
            failures += rerecord_one(path, out, err)
    return failures


def describe(recipe: Recipe) -> str:
    """What a recipe must show, in words."""
    parts = [f"death by {recipe.cause}"] if recipe.cause else []
    return " and ".join(parts + ([f"floor {recipe.min_floor}"] if recipe.min_floor > 1 else [])) or "a game"


def record_recipe(recipe: Recipe, folder: Path) -> tuple[Recipe, str] | None:
    """Record the first seed from the recipe's on that shows what it must; the recipe used."""
    for seed in range(recipe.seed, recipe.seed + SEED_SEARCH):
        tried = replace(recipe, seed=seed)
        game = Game.new(seed, recipe.name)
        commands = bot_commands(game, BOTS[recipe.bot](), recipe.turns)
        shown = tried.shown_by(game)
        game.close()
        if shown:
            return tried, write_recording(folder / recipe.file, seed, recipe.name, commands, origin=BOT_ORIGIN)
    return None


def bot_commands(game: Game, bot: Player, turns: int) -> list[Command]:
    """Let a bot play a game to its end (or ``turns``); the commands it chose."""
    commands: list[Command] = []
    budget = turns * ACTIONS_PER_TURN
    while not game.state.game_over and game.state.turn < turns and len(commands) < budget:
        command = bot.choose(game)
        game.apply(command)
        commands.append(command)
    return commands


def rerecord_one(path: Path, out: TextIO, err: TextIO) -> int:
    """Apply a replay's own commands again and record them; 1 if the file is unusable."""
    try:
        replay = read_replay(path)
    except ReplayError as error:
        print(f"{path}: {error}", file=err)
        return 1
    commands = [step.command for step in replay.steps]
    crash = replay.crash.command if replay.crash is not None else None
    header = replay.header
    print(f"{path}: {write_recording(path, header.seed, header.name, commands, crash, header.origin)}", file=out)
    return 0


def write_recording(
    path: Path, seed: int, name: str, commands: list[Command], crash: Command | None = None, origin: str | None = None
) -> str:
    """Record commands into ``path`` (replacing it only if the game changed), its header naming
    ``origin``; what happened.

    A file whose game is unchanged is kept as it is, in the format it was made in: it is
    compared with a recording in its own format, and only a changed game is written anew,
    in today's format; if only its header's origin differs, the header alone is written anew. A file of an older rules epoch is always recorded anew, the old one
    first kept in ``epochs/<its epoch>/`` beside it, where it goes on verifying through
    that epoch's runtime.
    """
    temporary = path.with_name(path.name + ".tmp")
    existing = readable(path)
    same_epoch = existing is not None and existing.header.epoch == RULES_EPOCH
    kept_format = existing.format if existing is not None and same_epoch else FORMAT_VERSION
    every = commands + ([crash] if crash is not None else [])
    record(temporary, path.stem, seed, name, every, kept_format, origin)
    if existing is not None and same_epoch and same_records(existing, read_replay(temporary)):
        temporary.unlink()
        return "unchanged" if existing.header.origin == origin else mark_origin(path, existing, origin)
    if kept_format != FORMAT_VERSION:
        record(temporary, path.stem, seed, name, every, FORMAT_VERSION, origin)
    kept = keep_old_epoch(path, existing) if existing is not None and not same_epoch else ""
    os.replace(temporary, path)
    return "re-recorded" + kept


def mark_origin(path: Path, existing: Replay, origin: str | None) -> str:
    """Write ``path`` anew with its header naming ``origin``, every record's bytes kept; what was done."""
    header = replace(existing.header, origin=origin)
    write_atomic(path, header_bytes(header, existing.format) + path.read_bytes()[existing.ends[0] :])
    return f"origin marked ({origin or 'none'})"


def keep_old_epoch(path: Path, existing: Replay) -> str:
    """Copy a replay of an older rules epoch into ``epochs/<epoch>/`` beside it; what was done."""
    folder = path.parent / EPOCHS / str(existing.header.epoch)
    kept = folder / path.name
    if kept.exists():
        if kept.read_bytes() != path.read_bytes():
            raise FileExistsError(f"{kept} already holds another replay of that name")
        return f" (epoch {existing.header.epoch}'s file already kept in {kept})"
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, kept)
    return f" (epoch {existing.header.epoch}'s file kept in {kept})"


def readable(path: Path) -> Replay | None:
    """The replay at ``path``, or None if there is none or it cannot be read."""
    try:
        return read_replay(path)
    except ReplayError:
        return None


def record(
    path: Path,
    game_id: str,
    seed: int,
    name: str,
    commands: list[Command],
    replay_format: int,
    origin: str | None = None,
) -> None:
    """Record a game of ``commands`` into ``path`` (its header naming ``origin``), ending with a
    crash if one crashes."""
    path.unlink(missing_ok=True)
    game = Game.new(seed, name)
    recorder = ReplayRecorder.start(path, game, game_id, replay_format, origin)
    session = Session(game, [recorder])
    try:
        for command in commands:
            if not applied(session, recorder, command):
                break
    finally:
        session.close()
        game.close()


def applied(session: Session, recorder: ReplayRecorder, command: Command) -> bool:
    """Apply a command; if the game crashes on it, end the recording with that crash."""
    try:
        session.apply(command)
    except Exception as error:
        recorder.record_crash(command, one_line(error))
        return False
    return True


def same_records(before: Replay, after: Replay) -> bool:
    """Whether two replays hold the same records of the same game.

    The game version is left out: it goes up with every change a player sees (CHANGELOG.md),
    and a corpus file whose every record is the same stays byte for byte what it was."""
    return (before.steps, before.crash) == (after.steps, after.crash) and (before.header.seed, before.header.name) == (
        after.header.seed,
        after.header.name,
    )
