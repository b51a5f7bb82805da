"""Score files: a finished game's replay (optionally bundled in a zip with its morgue file) that anyone can check.

``hedonic export`` writes one; ``hedonic import`` proves it (re-simulating it, as the hall
does) and files a verified one under its player's name in the data directory's
``imported/`` folder, named by the replay's hash, so importing the same file again
changes nothing. Nothing in a score file is believed: the score shown is the proof's.
"""

from __future__ import annotations

import hashlib
import io
import re
import tempfile
import zipfile
from pathlib import Path

from roguelike.ground.unzip import MemberTooLarge, ZipRefused, read_member
from roguelike.replay.fileformat import MAX_FILE_BYTES, SUFFIX, ReplayError, read_bytes, read_header
from roguelike.scores.proof import VERIFIED, Proof, prove_file
from roguelike.storage.atomic import write_over_regular
from roguelike.storage.datadir import DataDir

REPLAY_MEMBER, MORGUE_MEMBER = "game.replay", "morgue.txt"
# A replay deflates to a third or so; a bundle's replay more than this many times its zip is a bomb.
MAX_RATIO = 32


class ScoreFileError(Exception):
    """A score file that cannot be written or read, said in words."""


def find_game(root: Path, game: str) -> Path:
    """A game's replay: a replay file, a game id of this data directory, or a character's latest game."""
    given = Path(game)
    if given.is_file():
        return given
    folders = DataDir(root)
    own = folders.replay(game)
    if own.is_file():
        return own
    named = [path for path in folders.replay_files() if header_name(path) == game]
    if not named:
        raise ScoreFileError(f"no game called {game!r}: give a replay file, a game id or a character's name")
    return max(named, key=lambda path: path.stat().st_mtime)


def header_name(path: Path) -> str | None:
    """The character's name in a replay's header (None if unreadable)."""
    try:
        return read_header(path)[1].name
    except ReplayError:
        return None


def morgue_of(root: Path, replay: Path) -> Path | None:
    """The morgue file of a game of this data directory, if it died here."""
    folder = DataDir(root).morgue
    found = sorted(folder.glob(f"{replay.stem}-turn*.txt")) if folder.is_dir() else []
    return found[-1] if found else None


def export(root: Path, game: str, out: Path, with_morgue: bool) -> Path | None:
    """Write a game's score file (a zip with its morgue file when asked and there is one); the morgue bundled."""
    replay = find_game(root, game)
    morgue = morgue_of(root, replay) if with_morgue else None
    data = replay.read_bytes()
    if morgue is None:
        write_over_regular(out, data)
        return None
    with tempfile.SpooledTemporaryFile() as buffer:
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
            bundle.writestr(REPLAY_MEMBER, data)
            bundle.writestr(MORGUE_MEMBER, morgue.read_bytes())
        buffer.seek(0)
        write_over_regular(out, buffer.read())
    return morgue


def replay_bytes_of(path: Path) -> bytes:
    """The replay in a score file: the file itself, or a bundle's replay, never read past a replay's
    largest size (devices, pipes and other files that are not regular are refused unread)."""
    try:
        data = read_bytes(path)
    except ReplayError as error:
        raise ScoreFileError(f"{path}: {error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise ScoreFileError(f"{path}: larger than a score file can be")
    if not zipfile.is_zipfile(io.BytesIO(data)):
        return data
    try:
        return read_member(io.BytesIO(data), REPLAY_MEMBER, min(MAX_FILE_BYTES, MAX_RATIO * len(data)))
    except MemberTooLarge:
        raise ScoreFileError(f"{path}: its replay unzips to more than a score file's replay can be") from None
    except ZipRefused as error:
        raise ScoreFileError(f"{path}: a zip without a readable {REPLAY_MEMBER}: {error}") from None


def folder_name(name: str) -> str:
    """A character's name as a folder name (what a file system might refuse becomes _)."""
    safe = re.sub(r"[^\w\- ]", "_", name).strip(" .")[:48]
    return safe or "_"


def import_file(root: Path, path: Path) -> tuple[Proof, Path, bool]:
    """Prove a score file and file it if verified: the proof, where it is filed, and whether it is new."""
    data = replay_bytes_of(path)
    digest = hashlib.sha256(data).hexdigest()
    with tempfile.TemporaryDirectory(prefix="hedonic-import-") as scratch:
        candidate = Path(scratch) / f"{digest[:16]}{SUFFIX}"
        candidate.write_bytes(data)
        proof = prove_file(candidate)
        if proof.verdict != VERIFIED:
            return proof, path, False
        target = DataDir(root).imported / folder_name(proof.name or "") / candidate.name
        if target.exists() and hashlib.sha256(target.read_bytes()).hexdigest() == digest:
            return proof, target, False
        target.parent.mkdir(parents=True, exist_ok=True)
        write_over_regular(target, data)
    return proof, target, True
