"""The hall of fame: verified games ranked, the rest marked; its cache rebuilt from the replays; score files."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from conftest import ROOT
from replay_helpers import play
from roguelike.core.commands import Mark
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.replay.recorder import recording_observers
from roguelike.scores.hall import DIVERGED_MARK, PENDING, UNRANKED, VERIFIED_MARK, hall
from roguelike.scores.proof import Proof, prove_file
from roguelike.storage.datadir import DataDir


def hedonic(*args: str) -> subprocess.CompletedProcess[str]:
    """The game's command line."""
    return subprocess.run(
        [sys.executable, "-m", "roguelike", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=600,
    )


def prover(paths: list[Path]) -> list[Proof]:
    """Prove in this process (the tests need no workers)."""
    return [prove_file(path) for path in paths]


def played(root: Path, name: str, seed: int, mark: str | None = None) -> Path:
    """A game played to its death by the bot, marked if asked; its replay."""
    game = Game.new(seed, name)
    session = Session(game, recording_observers(root, game, name.lower()))
    if mark is not None:
        session.apply(Mark(mark))
    play(session, 3000)
    session.close()
    return root / "replays" / f"{name.lower()}.replay"


def marks(root: Path) -> dict[str, str]:
    """Each file's mark in the hall, by name."""
    return {entry.path.stem: entry.mark for entry in hall(root, prover)}


def test_only_played_and_daily_games_rank_bots_wizards_and_replay_made_games_do_not(tmp_path: Path) -> None:
    played(tmp_path, "Ann", 11)
    for origin, seed in (("bot", 11), ("wizard", 9), ("replay", 13)):
        played(tmp_path, origin.capitalize(), seed, origin)
    assert marks(tmp_path) == {"ann": VERIFIED_MARK, "bot": UNRANKED, "wizard": UNRANKED, "replay": UNRANKED}
    assert hall(tmp_path, prover)[0].path.stem == "ann"


def test_an_edited_replay_shows_as_diverged_never_with_its_claimed_score(tmp_path: Path) -> None:
    path = played(tmp_path, "Ann", 11)
    hall(tmp_path, prover)
    replay = read_replay(path)
    steps = list(replay.steps)
    steps[5] = replace(steps[5], command=steps[6].command if steps[6].command != steps[5].command else Mark("bot"))
    path.write_bytes(replay_bytes(replace(replay, steps=steps)))
    (entry,) = hall(tmp_path, prover)  # a new hash: verified anew, never the cached verdict
    assert entry.mark == DIVERGED_MARK and entry.score is None


def test_the_cache_is_rebuilt_when_deleted_or_damaged_and_pending_without_verifying(tmp_path: Path) -> None:
    played(tmp_path, "Ann", 11)
    played(tmp_path, "Bob", 9)
    assert {e.mark for e in hall(tmp_path / "elsewhere", None)} == set()
    fresh = [(e.path, e.mark, e.score) for e in hall(tmp_path, prover)]
    assert [(e.path, e.mark, e.score) for e in hall(tmp_path, None)] == fresh  # cached: nothing to verify
    DataDir(tmp_path).hall_cache.unlink()
    assert {e.mark for e in hall(tmp_path, None)} == {PENDING}
    assert [(e.path, e.mark, e.score) for e in hall(tmp_path, prover)] == fresh
    DataDir(tmp_path).hall_cache.write_bytes(b"this is not a database" * 100)
    assert [(e.path, e.mark, e.score) for e in hall(tmp_path, prover)] == fresh
    assert DataDir(tmp_path).hall_cache.with_name("hall.sqlite.damaged").exists()


def test_a_game_still_being_played_is_not_in_the_hall(tmp_path: Path) -> None:
    played(tmp_path, "Ann", 11)
    (tmp_path / "saves").mkdir()
    (tmp_path / "saves" / "ann.save").write_bytes(b"")
    assert hall(tmp_path, prover) == []


def test_export_then_import_files_it_under_its_name_and_importing_again_changes_nothing(tmp_path: Path) -> None:
    played(tmp_path / "mine", "Ann", 11)
    score_file = tmp_path / "ann-score.replay"
    done = hedonic("export", "Ann", "--out", str(score_file), "--data-dir", str(tmp_path / "mine"))
    assert done.returncode == 0 and "hedonic replay --verify" in done.stdout, done.stderr
    first = hedonic("import", str(score_file), "--data-dir", str(tmp_path / "theirs"))
    again = hedonic("import", str(score_file), "--data-dir", str(tmp_path / "theirs"))
    assert first.returncode == again.returncode == 0, first.stderr
    assert " imported as " in first.stdout and "already imported (nothing changed)" in again.stdout
    (filed,) = (tmp_path / "theirs" / "imported").glob("*/*.replay")
    assert filed.parent.name == "Ann"
    (entry,) = hall(tmp_path / "theirs", prover)
    assert entry.mark == VERIFIED_MARK and entry.score == prove_file(score_file).score


def test_import_refuses_a_tampered_score_file(tmp_path: Path) -> None:
    path = played(tmp_path, "Ann", 11)
    replay = read_replay(path)
    steps = list(replay.steps)
    steps[3] = replace(steps[3], checksum="0" * 16)
    path.write_bytes(replay_bytes(replace(replay, steps=steps)))
    done = hedonic("import", str(path), "--data-dir", str(tmp_path / "theirs"))
    assert done.returncode == 1 and "not imported: diverged" in done.stderr
    assert not (tmp_path / "theirs" / "imported").exists()


def test_hall_on_the_command_line_lists_and_prints_json(tmp_path: Path) -> None:
    played(tmp_path, "Ann", 11)
    table = hedonic("hall", "--data-dir", str(tmp_path))
    assert table.returncode == 0 and "Ann" in table.stdout and "verified" in table.stdout, table.stderr
    as_json = hedonic("hall", "--json", "--data-dir", str(tmp_path))
    assert '"place": 1' in as_json.stdout and '"mark": "verified"' in as_json.stdout


def test_a_feat_added_later_is_awarded_to_games_already_in_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from roguelike.scores import feats

    played(tmp_path, "Ann", 11)
    (before,) = hall(tmp_path, prover)
    assert "first_steps" not in (before.proof.feats if before.proof else [])
    monkeypatch.setattr(
        feats,
        "FEATS",
        (*feats.FEATS, feats.Feat("first_steps", "First steps", "took a turn", lambda trace: trace.turn > 0)),
    )
    assert {e.mark for e in hall(tmp_path, None)} == {PENDING}  # proved under another table: not believed
    (after,) = hall(tmp_path, prover)
    assert after.proof is not None and "first_steps" in after.proof.feats


def test_one_game_is_in_the_hall_once_whatever_its_files_headers_or_a_cut_frame_appended(tmp_path: Path) -> None:
    path = played(tmp_path, "Ann", 11)
    replay = read_replay(path)
    imported = DataDir(tmp_path).imported / "ann"
    imported.mkdir(parents=True)
    copy = replace(replay.header, game_id="another-id", date="2030-01-01T00:00:00+00:00", version="9.9")
    (imported / "copy.replay").write_bytes(replay_bytes(replace(replay, header=copy)))
    (tmp_path / "replays" / "ann2.replay").write_bytes(path.read_bytes() + b"\0\0\0\x10\xff\xff")
    played(tmp_path, "Bea", 12)
    entries = hall(tmp_path, prover)
    assert sorted(entry.path.name for entry in entries) == ["ann.replay", "bea.replay"]
    assert [entry.mark for entry in entries] == [VERIFIED_MARK, VERIFIED_MARK]
