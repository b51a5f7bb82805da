"""Proofs: ``--verify --json`` recomputes the score from the re-simulated game; origins are marked inside the checksum."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from components import HighStreak, Record, Score
from conftest import ROOT
from replay_helpers import record_bot_game
from roguelike.core.commands import Mark, Wait, Wizard
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.score import breakdown
from roguelike.core.wizard import origin_after
from roguelike.replay.fileformat import Header, read_replay, replay_bytes
from roguelike.runtimes.sources import add_source
from roguelike.scores.proof import DIVERGED, UNREADABLE, UNVERIFIABLE, VERIFIED, prove_file


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


def test_the_score_is_computed_from_the_re_simulated_game(tmp_path: Path) -> None:
    from replay_helpers import play
    from roguelike.core.game import Game
    from roguelike.core.session import Session
    from roguelike.replay.recorder import recording_observers

    game = Game.new(2, "Ann")
    session = Session(game, recording_observers(tmp_path, game))
    play(session, 400)
    expected = breakdown(
        game.state.floor, game.player_component(Record), game.player_component(Score), game.player_component(HighStreak)
    )
    cause = game.state.cause_of_death
    session.close()
    game.close()
    proof = prove_file(next((tmp_path / "replays").glob("*.replay")))
    assert (proof.verdict, proof.name, proof.seed, proof.origin, proof.cause) == (VERIFIED, "Ann", 2, "played", cause)
    assert proof.score == expected.total and proof.breakdown[-1] == {
        "part": "Score",
        "counted": "",
        "points": expected.total,
    }
    assert proof.ranked == (cause is not None)


def test_an_edited_replay_is_diverged_and_never_shows_a_score(tmp_path: Path) -> None:
    path, _ = record_bot_game(tmp_path, seed=3, turns=80)
    replay = read_replay(path)
    steps = list(replay.steps)
    steps[40] = replace(steps[40], command=Wait() if steps[40].command != Wait() else steps[41].command)
    path.write_bytes(replay_bytes(replace(replay, steps=steps)))
    proof = prove_file(path)
    assert proof.verdict == DIVERGED and proof.score is None and proof.breakdown == [] and not proof.ranked
    assert "step 41" in proof.detail


def test_verify_json_prints_one_object_a_file_with_the_usual_exit_status(tmp_path: Path) -> None:
    bad = tmp_path / "bad.replay"
    bad.write_bytes(b"not a replay")
    done = hedonic("replay", "--verify", "--json", str(ROOT / "replays/death-overdose.replay"), str(bad))
    assert done.returncode == 2, done.stderr
    good, broken = (json.loads(line) for line in done.stdout.splitlines())
    assert good["verdict"] == VERIFIED and good["rules_epoch"] == RULES_EPOCH and good["cause"] == "overdose"
    last_turn = list(read_replay(ROOT / "replays/death-overdose.replay").steps)[-1].turn
    assert good["score"] == good["breakdown"][-1]["points"] and good["turns"] == last_turn
    assert broken["verdict"] == UNREADABLE and broken["score"] is None


def test_a_bots_game_is_marked_bot_inside_the_checksum_and_never_ranks(tmp_path: Path) -> None:
    done = hedonic("simulate", "--seed", "1", "--turns", "300", "--data-dir", str(tmp_path))
    assert done.returncode == 0, done.stderr
    path = next((tmp_path / "replays").glob("*.replay"))
    assert read_replay(path).steps[0].command == Mark("bot")
    proof = prove_file(path)
    assert proof.verdict == VERIFIED and proof.origin == "bot" and not proof.ranked


def test_marks_keep_the_first_unranked_origin_and_a_wizard_change_always_wins() -> None:
    assert origin_after(None, Mark("daily")) == "daily"
    assert origin_after("daily", Mark("bot")) == "bot"  # a daily game a bot played on never ranks
    assert origin_after("replay", Mark("bot")) == "replay"
    assert origin_after("bot", Wizard("reveal")) == "wizard"


def old_runtime_replay(tmp_path: Path, knows_json: bool) -> Path:
    """A replay of another epoch, and that epoch's runtime (which may predate --json)."""
    from test_runtimes import game_copy

    epoch = RULES_EPOCH + 2
    code = game_copy(tmp_path / "old", epoch)
    if not knows_json:
        cli = code / "roguelike/cli/replay.py"
        cli.write_text(re.sub(r'add_argument\(\s*"--json"', 'add_argument("--no-json"', cli.read_text()))
    add_source(str(code))
    path, _ = record_bot_game(tmp_path / "data", seed=4, turns=50)
    replay = read_replay(path)
    path.write_bytes(replay_bytes(replace(replay, header=Header(**{**replay.header.__dict__, "epoch": epoch}))))
    return path


@pytest.mark.parametrize("knows_json", [True, False])
def test_another_epochs_replay_is_proved_by_its_runtime_or_said_unverifiable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, knows_json: bool
) -> None:
    monkeypatch.setenv("HEDONIC_CACHE_DIR", str(tmp_path / "cache"))
    proof = prove_file(old_runtime_replay(tmp_path, knows_json))
    if knows_json:
        assert proof.verdict == VERIFIED and proof.rules_epoch == RULES_EPOCH + 2 and proof.score is not None
    else:
        assert proof.verdict == UNVERIFIABLE and proof.score is None and "too old" in proof.detail
