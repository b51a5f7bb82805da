"""The hall of fame: the best games of this machine, each counted only if its replay verifies.

Built from the data directory's replays (and the score files imported into ``imported/``),
leaving out the replays of games still being played. Each file's proof is cached in a
small SQLite file under the replay's SHA-256, this game's rules epoch and a digest of the
feats table (a feat added later is awarded to old games when they are proved again), so an edited
replay is a new file, verified anew; the cache holds nothing the replays cannot give
again and is rebuilt whenever it is missing or damaged (even deleted mid-run). A cache that
is merely busy (another ``hedonic`` holds its lock) is never moved aside: the listing goes
on without it and says so.

A game is in the hall once, however many files hold it: files of one rules epoch, seed, name
and commands (another game id, date or version in the header, a cut frame appended, an
import of one's own game) are one game, and the first file listed (one's own replays before
imports) stands for it.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from roguelike.core.commands import encode_command
from roguelike.core.epoch import RULES_EPOCH
from roguelike.ground.ranking import Placing, first_attempts
from roguelike.replay.fileformat import SUFFIX, ReplayError, read_replay
from roguelike.scores import feats
from roguelike.scores.proof import DIVERGED, UNREADABLE, UNVERIFIABLE, VERIFIED, Proof
from roguelike.storage.datadir import SAVE_SUFFIX, DataDir

VERIFIED_MARK, DIVERGED_MARK, PENDING, UNRANKED = "verified", "diverged", "pending", "unranked"
MARKS = {VERIFIED: VERIFIED_MARK, DIVERGED: DIVERGED_MARK, UNREADABLE: DIVERGED_MARK, UNVERIFIABLE: PENDING}
BUSY_SECONDS = 5.0  # how long to wait for another hedonic writing the cache before going on without it
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS proofs (hash TEXT, epoch INTEGER, feats TEXT, proof TEXT, "
    "PRIMARY KEY (hash, epoch, feats))"
)

Prover = Callable[[list[Path]], list[Proof]]


@dataclass(frozen=True)
class Entry:
    """One game in the hall: its file, its proof (None while pending) and its mark."""

    path: Path
    digest: str
    proof: Proof | None
    mark: str

    @property
    def score(self) -> int | None:
        """The proved score (None unless verified)."""
        return self.proof.score if self.proof is not None and self.mark != DIVERGED_MARK else None


def hall_files(root: Path) -> list[Path]:
    """The finished games' replays and every imported score file, by path."""
    folders = DataDir(root)
    living = {path.name[: -len(SAVE_SUFFIX)] for path in folders.save_files()}
    finished = [path for path in folders.replay_files() if path.stem not in living]
    imported = sorted(folders.imported.glob(f"*/*{SUFFIX}")) if folders.imported.is_dir() else []
    return finished + imported


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes ("" if it cannot be read)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def quiet(text: str) -> None:
    """Say nothing (what the cache tells is for a listing that shows it)."""


class ProofCache:
    """Proofs by replay hash and rules epoch, in ``hall.sqlite``.

    A damaged cache is kept aside and rebuilt, a deleted one (even while the hall is being
    proved) rebuilt; a busy one (another ``hedonic`` holding its lock) is left as it is: the
    listing goes on with a cache in memory, and ``tell`` says why its proofs are not kept.
    """

    def __init__(self, root: Path, tell: Callable[[str], None] = quiet) -> None:
        self.path = DataDir(root).hall_cache
        self.tell = tell
        self.identity: tuple[int, int] | None = None  # the file opened, to notice it deleted or replaced
        root.mkdir(parents=True, exist_ok=True)
        self.db = self.connect()

    def connect(self) -> sqlite3.Connection:
        """The cache file (rebuilt if damaged), or one in memory while the file cannot be used."""
        self.identity = None
        try:
            db = self.open(self.path)
        except sqlite3.OperationalError as error:  # busy (locked), or the folder refuses: not damage
            self.tell(
                f"the hall's cache {self.path} cannot be used now ({error}): it is left as it is, "
                "and the proofs made now are not kept"
            )
            return self.open(":memory:")
        except sqlite3.DatabaseError:  # not a database, or a damaged one: it only ever held what replays give
            self.set_aside()
            db = self.open(self.path)
        stat = self.path.stat()
        self.identity = (stat.st_dev, stat.st_ino)
        return db

    def set_aside(self) -> None:
        """Keep a damaged cache file aside, where the next connection will not find it."""
        damaged = self.path.with_name(self.path.name + ".damaged")
        self.path.replace(damaged)
        self.tell(f"the hall's cache {self.path} was damaged: it is kept as {damaged.name} and rebuilt")

    def damaged(self, error: sqlite3.Error) -> bool:
        """Whether an error met in use is damage found only now (a page past the first): then the file is set aside,
        and the next hall rebuilds it."""
        if isinstance(error, sqlite3.OperationalError) or not isinstance(error, sqlite3.DatabaseError):
            return False  # busy, locked, or the disk refused: not the file's fault
        self.db.close()
        self.db = sqlite3.connect(":memory:")
        self.identity = None
        with contextlib.suppress(OSError):
            self.set_aside()
        return True

    @staticmethod
    def open(where: Path | str) -> sqlite3.Connection:
        """Connect and make sure the table is there (this raises on a file that is not a database)."""
        db = sqlite3.connect(where, timeout=BUSY_SECONDS)
        try:
            db.execute(SCHEMA)
            db.execute("SELECT hash, epoch, feats, proof FROM proofs LIMIT 1").fetchall()
        except sqlite3.Error:
            db.close()
            raise
        return db

    def gone(self) -> bool:
        """Whether the cache file was deleted or replaced since it was opened."""
        if self.identity is None:
            return False  # a cache in memory
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return True
        return self.identity != (stat.st_dev, stat.st_ino)

    def known(self, digests: Iterable[str]) -> dict[str, Proof]:
        """The cached proofs of these hashes under this epoch (unreadable rows are left out)."""
        try:
            rows = self.db.execute(
                "SELECT hash, proof FROM proofs WHERE epoch = ? AND feats = ?", (RULES_EPOCH, feats.table_key())
            ).fetchall()
        except sqlite3.Error as error:
            if not self.damaged(error):
                self.tell(f"the hall's cache {self.path} cannot be read now ({error}): every game is proved anew")
            return {}
        wanted, found = set(digests), {}
        for digest, text in rows:
            if digest in wanted:
                try:
                    found[digest] = Proof.from_json(text)
                except (ValueError, TypeError):
                    continue
        return found

    def keep(self, proofs: dict[str, Proof]) -> None:
        """Remember proofs (never an 'unverifiable here': a runtime may come); a cache deleted meanwhile is rebuilt."""
        table = feats.table_key()
        rows = [
            (digest, RULES_EPOCH, table, proof.to_json())
            for digest, proof in proofs.items()
            if proof.verdict != UNVERIFIABLE
        ]
        if self.gone():
            self.db.close()
            self.db = self.connect()
        try:
            with self.db:
                self.db.executemany("INSERT OR REPLACE INTO proofs VALUES (?, ?, ?, ?)", rows)
        except sqlite3.Error as error:
            if not self.damaged(error):
                self.tell(
                    f"the hall's cache {self.path} cannot be written now ({error}): the proofs made now are not kept"
                )

    def close(self) -> None:
        """Close the database."""
        self.db.close()


def hall(root: Path, prover: Prover | None, tell: Callable[[str], None] = quiet) -> list[Entry]:
    """Every game of the hall, best first; with no prover, the files not yet proved are pending
    (``tell`` hears what went wrong with the cache)."""
    files = hall_files(root)
    digests = {path: file_digest(path) for path in files}
    cache = ProofCache(root, tell)
    try:
        known = cache.known(digests.values())
        missing = [path for path in files if digests[path] not in known]
        if prover is not None and missing:
            fresh = dict(zip((digests[path] for path in missing), prover(missing)))
            cache.keep(fresh)
            known.update(fresh)
    finally:
        cache.close()
    return ranked(one_per_game([entry(path, digests[path], known.get(digests[path])) for path in files]))


def one_per_game(entries: list[Entry]) -> list[Entry]:
    """The entries less the later files of a game already listed (only files whose proofs agree on epoch,
    seed, name and length are read to compare their commands)."""
    alike: dict[tuple[object, ...], list[Entry]] = {}
    for item in entries:
        proof = item.proof
        if proof is not None and item.mark != DIVERGED_MARK:
            alike.setdefault((proof.rules_epoch, proof.seed, proof.name, proof.commands, proof.turns), []).append(item)
    copies: set[int] = set()
    for group in (group for group in alike.values() if len(group) > 1):
        seen: set[str] = set()
        for item in group:
            key = game_key(item.path)
            if key in seen:
                copies.add(id(item))
            elif key is not None:
                seen.add(key)
    return [item for item in entries if id(item) not in copies]


def game_key(path: Path) -> str | None:
    """The SHA-256 of what makes a replay's game: its rules epoch, seed, name and commands (None if unreadable)."""
    import msgpack

    try:
        replay = read_replay(path)
    except ReplayError:
        return None
    header = replay.header
    game = [header.epoch, header.seed, header.name, [encode_command(step.command) for step in replay.steps]]
    return hashlib.sha256(msgpack.packb(game)).hexdigest()


def entry(path: Path, digest: str, proof: Proof | None) -> Entry:
    """A file's entry and mark."""
    if proof is None:
        return Entry(path, digest, None, PENDING)
    mark = MARKS[proof.verdict]
    return Entry(path, digest, proof, UNRANKED if mark == VERIFIED_MARK and not proof.ranked else mark)


def ranked(entries: Iterable[Entry]) -> list[Entry]:
    """Ranked games best first (:mod:`roguelike.ground.ranking`, as the score server's board), then
    the rest; a daily game after a character's first on its date is practice."""
    every = practice_after_first(list(entries))
    order = {VERIFIED_MARK: 0, UNRANKED: 1, PENDING: 2, DIVERGED_MARK: 3}
    return sorted(every, key=lambda e: (order[e.mark], *placing(e).order, str(e.path)))


def placing(item: Entry) -> Placing:
    """What the ranking reads of an entry (no score counts as 0: only verified entries are ranked)."""
    proof = item.proof
    if proof is None:
        return Placing(0, 0, "", item.digest)
    return Placing(item.score or 0, proof.turns, proof.recorded, item.digest, proof.name or "", proof.daily)


def practice_after_first(entries: list[Entry]) -> list[Entry]:
    """Only a character's first daily game of a date ranks; later ones (say, imported) are unranked."""
    verified = [e for e in entries if e.mark == VERIFIED_MARK]
    _, later = first_attempts(verified, placing)
    practice = {id(e) for e in later}
    return [Entry(e.path, e.digest, e.proof, UNRANKED) if id(e) in practice else e for e in entries]


def daily_board(entries: list[Entry], day: str) -> list[Entry]:
    """The games of one date's daily seed (ranked attempts first)."""
    return [e for e in entries if e.proof is not None and e.proof.daily == day]
