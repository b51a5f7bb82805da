"""The coach: a review names the turn a game went wrong; par and review are deterministic;
par of another rules epoch is never returned; a tampered replay is refused before any rollout.

The games are built with the game's own Session and recorder (wizard commands are recorded
and verified like any command); the reviews use few, short runs to stay cheap.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypedDict

import pytest

from components import Position
from roguelike.cli.main import main
from roguelike.coach.par import Par, par
from roguelike.coach.parcache import ParCache, par_for
from roguelike.coach.review import Review, ReviewRefused, review
from roguelike.core.commands import Command, Move, Wait, Wizard
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Replay, read_replay, replay_bytes
from roguelike.replay.recorder import recording_observers
from roguelike.storage.datadir import DataDir

REPOSITORY = Path(__file__).resolve().parent.parent
SEED = 3
TURN = 20  # the turn each constructed game goes wrong


class Reach(TypedDict):
    """How far a review looks: its runs, their horizon, and how often it stops to look."""

    runs: int
    horizon: int
    every: int


CHEAP: Reach = {"runs": 3, "horizon": 20, "every": 5}

Script = Callable[[Game], Iterator[Command]]


def record(root: Path, script: Script) -> Path:
    """A replay of the commands a script gives, played through a recording session."""
    game = Game.new(SEED, "Coached")
    session = Session(game, recording_observers(root, game))
    for command in script(game):
        if game.state.game_over:
            break
        session.apply(command)
    session.close()
    game.close()
    (path,) = sorted((root / "replays").glob("*.replay"))
    return path


def wait_until(game: Game, turn: int) -> Iterator[Command]:
    """Waits until the game reaches ``turn``."""
    while game.state.turn < turn and not game.state.game_over:
        yield Wait()


def onto_the_dose_beside(game: Game) -> Command:
    """The step onto the dose beside the player."""
    here = game.player_component(Position)
    (step,) = [
        Move(at.x - here.x, at.y - here.y)
        for _, at, _ in game.doses()
        if max(abs(at.x - here.x), abs(at.y - here.y)) == 1
    ]
    return step


def lethal_dose(game: Game) -> Iterator[Command]:
    """High from the start; a large dose appears beside the player, who waits, then takes it at TURN."""
    yield Wizard("mind", 90)
    yield from wait_until(game, TURN - 4)
    yield Wizard("dose", kind="strong_dose")
    yield from wait_until(game, TURN)
    yield onto_the_dose_beside(game)


def hunting_depression(game: Game) -> Iterator[Command]:
    """On floor 2, Sober and safe, until a Depression stands beside the player at TURN; then waiting."""
    yield Wizard("mind", 70)
    yield Wizard("descend")
    yield from wait_until(game, TURN)
    yield Wizard("monster", kind="depression")
    for _ in range(10):
        yield Wait()


@pytest.fixture(scope="module")
def dose_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return record(tmp_path_factory.mktemp("dose"), lethal_dose)


@pytest.fixture(scope="module")
def depression_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return record(tmp_path_factory.mktemp("depression"), hunting_depression)


@pytest.fixture(scope="module")
def depression_review(depression_replay: Path) -> Review:
    return review(read_replay(depression_replay), jobs=2, **CHEAP)


def test_review_names_the_turn_of_a_lethal_looking_dose(dose_replay: Path) -> None:
    done = review(read_replay(dose_replay), jobs=2, **CHEAP)
    named = done.named
    assert named is not None and named.turn == TURN
    assert named.words.startswith("took the large dose at ") and named.words.endswith("and overdosed")
    assert done.lines()[0].startswith(f"Turn {TURN}: took the large dose at ")
    before = done.outlooks[done.outlooks.index(next(o for o in done.outlooks if o.point == named)) - 1]
    assert before.alive == CHEAP["runs"]  # the planner, in the same place, left that dose alone


def test_review_names_the_turn_a_hunting_depression_is_met(depression_review: Review) -> None:
    named = depression_review.named
    assert named is not None and named.turn == TURN
    assert named.words == "first saw a Depression"
    line = depression_review.lines()[0]
    assert line.startswith(f"Turn {TURN}: first saw a Depression; from here the planner was killed by a Depression in ")


def test_review_is_the_same_twice_and_with_one_or_two_workers(
    depression_replay: Path, depression_review: Review
) -> None:
    replay = read_replay(depression_replay)
    assert review(replay, jobs=1, **CHEAP) == depression_review
    assert review(replay, jobs=2, **CHEAP).to_plain() == depression_review.to_plain()


def test_review_is_the_same_whatever_the_hash_seed(depression_replay: Path, depression_review: Review) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPOSITORY), "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "roguelike",
            "review",
            str(depression_replay),
            "--json",
            "--runs",
            "3",
            "--horizon",
            "20",
            "--every",
            "5",
            "--jobs",
            "2",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=True,
    )
    assert json.loads(done.stdout) == json.loads(json.dumps(depression_review.to_plain()))


def tampered(replay: Replay, path: Path) -> Path:
    """The replay with one command changed and its frames made whole again (its CRCs hold)."""
    steps = list(replay.steps)
    index = next(i for i, step in enumerate(steps) if isinstance(step.command, Wait) and step.turn > 5)
    steps[index] = dataclasses.replace(steps[index], command=Move(1, 0))
    path.write_bytes(replay_bytes(dataclasses.replace(replay, steps=steps)))
    return path


def test_a_tampered_replay_is_refused_before_any_rollout(depression_replay: Path, tmp_path: Path) -> None:
    changed = read_replay(tampered(read_replay(depression_replay), tmp_path / "changed.replay"))
    progress: list[tuple[int, int]] = []
    with pytest.raises(ReviewRefused, match="does not prove its game"):
        review(changed, jobs=2, progress=lambda done, total: progress.append((done, total)), **CHEAP)
    assert progress == []  # not one point was rolled out


def test_a_replay_of_another_epoch_is_refused(depression_replay: Path) -> None:
    replay = read_replay(depression_replay)
    older = dataclasses.replace(replay, header=dataclasses.replace(replay.header, epoch=RULES_EPOCH - 1))
    with pytest.raises(ReviewRefused, match=f"rules epoch {RULES_EPOCH - 1}"):
        review(older, **CHEAP)


def test_par_is_the_same_twice_and_with_one_or_two_workers() -> None:
    first = par(SEED, runs=8, jobs=2, limit=150)
    assert first.runs == 8 and first.epoch == RULES_EPOCH
    assert par(SEED, runs=8, jobs=1, limit=150) == first
    assert first.score.low <= first.score.median <= first.score.high


def made_up(seed: int, epoch: int, score: int) -> Par:
    """A par as the cache keeps it, with made-up games."""
    return Par(seed, epoch, (score,) * 8, (100,) * 8, ("overdose",) * 8)


def test_par_of_another_epoch_is_never_returned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ParCache(tmp_path).keep(made_up(77, RULES_EPOCH - 1, 5000))
    assert ParCache(tmp_path).find(77) is None
    worked_out = made_up(77, RULES_EPOCH, 1200)
    monkeypatch.setattr("roguelike.coach.parcache.par", lambda *args: worked_out)
    found, cache = par_for(tmp_path, 77)
    assert found == worked_out and cache.problem == ""
    assert {kept.epoch for kept in ParCache(tmp_path).entries()} == {RULES_EPOCH - 1, RULES_EPOCH}


def test_par_is_worked_out_once_and_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    kept = made_up(78, RULES_EPOCH, 4100)
    ParCache(tmp_path).keep(kept)
    assert par_for(tmp_path, 78)[0] == kept  # the file's, not a new one
    assert main(["--data-dir", str(tmp_path), "par", "--seed", "78", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["score"] == {"median": 4100, "low": 4100, "high": 4100}


def test_a_damaged_par_file_is_left_as_it_is(tmp_path: Path) -> None:
    damaged = DataDir(tmp_path).par
    damaged.write_text("{not json", encoding="utf-8")
    cache = ParCache(tmp_path)
    assert cache.keep(made_up(79, RULES_EPOCH, 10)) is False
    assert str(damaged) in cache.problem
    assert damaged.read_text(encoding="utf-8") == "{not json"


def test_the_review_command_prints_three_lines_json_and_a_chart(
    dose_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    options = ["--runs", "2", "--horizon", "10", "--every", "5", "--jobs", "1"]
    assert main(["review", str(dose_replay), *options, "--chart", str(tmp_path / "review.png")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 and lines[0].startswith(f"Turn {TURN}: took the large dose")
    assert (tmp_path / "review.png").read_bytes().startswith(b"\x89PNG")
    assert main(["review", str(dose_replay), *options, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["named"]["turn"] == TURN


def test_the_review_command_refuses_a_tampered_replay(
    depression_replay: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changed = tampered(read_replay(depression_replay), tmp_path / "changed.replay")
    assert main(["review", str(changed), "--runs", "2", "--horizon", "5"]) == 1
    assert "does not prove its game" in capsys.readouterr().err
