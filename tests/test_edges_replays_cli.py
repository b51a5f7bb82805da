"""``hedonic replays``: every recorded game listed; pruning by a rule keeps what is still needed."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from replay_helpers import record_bot_game
from roguelike.cli.main import main
from test_replay_saves import bot_steps, games, the_save

MONTH = 31 * 24 * 60 * 60


def library(root: Path) -> dict[str, Path]:
    """A data directory with a living save's replay, a bot game's, and a crashed game's."""
    session = games(root).new("Ann")
    bot_steps(session, 12)
    session.close()
    living = root / "replays" / f"{the_save(root).stem}.replay"
    bot, _ = record_bot_game(root / "bot", seed=5, turns=15, name="Bot")
    crashed, _ = record_bot_game(root / "crashy", seed=6, turns=10, name="Crashy")
    bot, crashed = (path.rename(root / "replays" / path.name) for path in (bot, crashed))
    (root / "crashes").mkdir()
    (root / "crashes" / "crash-1.txt").write_text(
        f"Hedonic Hypothesis crash report\ngame replay: {crashed.resolve()}\n"
    )
    old = time.time() - MONTH
    for path in (living, bot, crashed):
        os.utime(path, (old, old))
    return {"living": living, "bot": bot, "crashed": crashed}


def test_the_list_names_each_recorded_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = library(tmp_path)
    assert main(["replays", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    line_of = {name: next(line for line in lines if line.startswith(path.name)) for name, path in files.items()}
    assert "Ann" in line_of["living"] and "still playing (saved)" in line_of["living"]
    assert "Bot  seed 5  turn" in line_of["bot"] and "stopped" in line_of["bot"]
    assert all(line.endswith("verifies: yes") for line in lines)


def test_pruning_old_replays_never_removes_a_living_saves_or_a_crash_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = library(tmp_path)
    assert main(["replays", "--prune", "--older-than", "30", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert not files["bot"].exists() and files["living"].exists() and files["crashed"].exists()
    assert f"kept {files['living'].name}: its save is alive" in out and "named by crash-1.txt" in out
    assert "1 replay removed" in out


def test_pruning_needs_a_rule_and_keep_counts_the_newest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = library(tmp_path)
    assert main(["replays", "--prune", "--data-dir", str(tmp_path)]) == 2
    assert "needs a rule" in capsys.readouterr().err
    assert main(["replays", "--prune", "--keep", "0", "--data-dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in (tmp_path / "replays").iterdir()) == sorted(
        [files["living"].name, files["crashed"].name]
    )


def test_rules_combine_as_each_applied_to_every_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = library(tmp_path)
    older = time.time() - 2 * MONTH
    for name in ("living", "crashed"):
        os.utime(files[name], (older, older))  # the bot's is now the newest of the old ones
    fresh, _ = record_bot_game(tmp_path / "fresh", seed=7, turns=5, name="Fresh")
    fresh = fresh.rename(tmp_path / "replays" / fresh.name)
    status = main(["replays", "--prune", "--older-than", "30", "--keep", "1", "--data-dir", str(tmp_path)])
    assert status == 0 and "1 replay removed" in capsys.readouterr().out
    assert not files["bot"].exists()  # over 30 days old, and not the one newest replay
    assert fresh.exists() and files["living"].exists() and files["crashed"].exists()


def test_odd_entries_in_the_replays_folder_are_listed_and_pruning_goes_on_past_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = library(tmp_path)
    (tmp_path / "replays" / "folder.replay").mkdir()
    (tmp_path / "replays" / "dangling.replay").symlink_to(tmp_path / "gone.replay")
    assert main(["replays", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("dangling.replay") and "damaged" in line for line in lines)
    assert main(["replays", "--prune", "--keep", "0", "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "kept folder.replay: it cannot be removed" in out and "removed dangling.replay" in out
    assert not files["bot"].exists() and (tmp_path / "replays" / "folder.replay").is_dir()
