"""The hall's proof cache under attack: deleted or corrupted mid-run, rows that are no proof, or busy in another
process (issue 47: R17; issue 46).

The cache holds nothing the replays cannot give again: deleted, it is rebuilt, even while
the hall is being proved; corrupted (even a page past the first, found only in use), it is kept
aside and rebuilt; a row that is no proof is proved anew. Busy (another ``hedonic`` holding its lock), it is not damaged:
it is left exactly where it is, the listing goes on and says why nothing was cached.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from roguelike.scores import hall as hall_module
from roguelike.scores.hall import VERIFIED_MARK, hall
from roguelike.scores.proof import Proof, prove_file
from roguelike.storage.datadir import HALL_CACHE as CACHE
from test_scores_hall import played


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with one finished game."""
    root = tmp_path_factory.mktemp("hall")
    played(root, "Ann", 11)
    return root


def copy_of(games: Path, to: Path) -> Path:
    """A fresh data directory holding the same replays."""
    (to / "replays").mkdir(parents=True)
    for path in (games / "replays").iterdir():
        (to / "replays" / path.name).write_bytes(path.read_bytes())
    return to


def test_the_cache_deleted_while_the_hall_is_proved_is_rebuilt(games: Path, tmp_path: Path) -> None:
    root = copy_of(games, tmp_path)

    def deleting_prover(paths: list[Path]) -> list[Proof]:
        (root / CACHE).unlink()  # someone deletes the cache while the games are verified
        return prove(paths)

    (entry,) = hall(root, deleting_prover)
    assert entry.mark == VERIFIED_MARK
    (cached,) = hall(root, None)  # nothing proved now: the proof came from the rebuilt cache
    assert (cached.mark, cached.score) == (VERIFIED_MARK, entry.score)


@pytest.mark.parametrize("damage", ["garbage", "torn", "pages"])
def test_the_cache_corrupted_while_the_hall_is_proved_is_kept_aside_and_rebuilt(
    games: Path, tmp_path: Path, damage: str
) -> None:
    root = copy_of(games, tmp_path)
    (truth,) = hall(root, prove)
    (root / CACHE).unlink()  # a file of one row, then empty: the run below proves the game again and writes it
    hall(root, None)
    size = (root / CACHE).stat().st_size

    def corrupting_prover(paths: list[Path]) -> list[Proof]:
        with open(root / CACHE, "r+b") as cache:  # the same file, changed under the open connection
            if damage == "garbage":
                cache.write(b"this is not a database" * (size // 22))
            elif damage == "torn":
                cache.truncate(size // 3)
            else:
                cache.seek(size // 2)
                cache.write(bytes(range(256)) * (size // 512))
        return prove(paths)

    told: list[str] = []
    (entry,) = hall(root, corrupting_prover, told.append)
    assert (entry.mark, entry.score) == (VERIFIED_MARK, truth.score)
    (later,) = hall(root, prove, told.append)  # the damage is found, kept aside, the cache made anew
    assert (later.mark, later.score) == (entry.mark, entry.score)
    (cached,) = hall(root, None, told.append)
    assert (cached.mark, cached.score) == (entry.mark, entry.score)  # and it caches again
    damaged = root / (CACHE + ".damaged")
    assert damaged.exists() and any(str(root / CACHE) in line and "damaged" in line for line in told)


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        '{"file": "x"}',
        '{"file": "x", "verdict": "verified", "score": "lots", "turns": "many", "cause": 7}',
        '{"file": "x", "verdict": "verified", "breakdown": 3, "feats": {"a": 1}, "rules_epoch": "12"}',
    ],
)
def test_a_cached_proof_that_is_not_one_is_proved_anew(games: Path, tmp_path: Path, text: str) -> None:
    root = copy_of(games, tmp_path)
    (truth,) = hall(root, prove)
    db = sqlite3.connect(root / CACHE)
    with db:
        db.execute("UPDATE proofs SET proof = ?", (text,))
    db.close()
    proved: list[Path] = []

    def telling_prover(paths: list[Path]) -> list[Proof]:
        proved.extend(paths)
        return prove(paths)

    (entry,) = hall(root, telling_prover)
    assert proved and (entry.mark, entry.score, entry.proof) == (truth.mark, truth.score, truth.proof)


def test_a_busy_cache_is_left_where_it_is_and_the_listing_says_why(
    games: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_of(games, tmp_path)
    hall(root, None)  # the cache exists
    before = (root / CACHE).stat().st_ino
    monkeypatch.setattr(hall_module, "BUSY_SECONDS", 0.05, raising=False)
    other = sqlite3.connect(root / CACHE, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another hedonic writing it
    told: list[str] = []
    try:
        (entry,) = hall(root, prove)
        assert (root / CACHE).stat().st_ino == before and not (root / (CACHE + ".damaged")).exists()
        hall(root, prove, told.append)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert entry.mark == VERIFIED_MARK  # the listing went on
    assert len(told) == 1 and str(root / CACHE) in told[0] and "left as it is" in told[0]
    (later,) = hall(root, prove)
    assert later.mark == VERIFIED_MARK and hall(root, None)[0].mark == VERIFIED_MARK  # free again: it caches


def prove(paths: list[Path]) -> list[Proof]:
    """Prove in this process."""
    return [prove_file(path) for path in paths]
