"""Developer tools: the whole state at a turn as JSON, and where two replays of one seed part."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from replay_helpers import bot_commands, only_replay, record_bot_game
from roguelike.cli.main import main
from roguelike.content import formulas
from roguelike.content.terrain import GLYPHS
from roguelike.core.commands import Command, Wait, Wizard
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import read_replay
from roguelike.replay.recorder import recording_observers
from roguelike.replay.witness import differences as fact_differences
from roguelike.replay.witness import recorded_facts


def record(root: Path, seed: int, commands: list[Command], name: str = "Bot") -> Path:
    """A replay of exactly these commands."""
    game = Game.new(seed, name)
    session = Session(game, recording_observers(root, game))
    for command in commands:
        if game.state.game_over:
            break
        session.apply(command)
    session.close()
    game.close()
    return only_replay(root)


def test_inspect_prints_the_whole_state_at_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = record_bot_game(tmp_path, seed=5, turns=40)
    replay = read_replay(path)
    assert main(["replay", str(path), "--inspect", "20"]) == 0
    state = json.loads(capsys.readouterr().out)
    step = next(record for record in replay.steps if record.turn >= 20)
    assert state["turn"] == step.turn and state["rules_epoch"] == RULES_EPOCH
    player = next(entity for entity in state["entities"] if entity["id"] == state["player"])
    facts = recorded_facts(replay.steps, step.index)
    assert [player["position"]["x"], player["position"]["y"]] == facts["@position"]
    assert player["state_of_mind"]["value"] == facts["@state_of_mind"][0]
    floor = state["floors"][0]
    assert sum(floor["tiles"].values()) == formulas.MAP_WIDTH * formulas.MAP_HEIGHT
    assert len(floor["map"]) == formulas.MAP_HEIGHT and set("".join(floor["map"])) <= set(GLYPHS)


def test_inspect_refuses_a_turn_the_replay_does_not_have(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _ = record_bot_game(tmp_path, seed=5, turns=10)
    assert main(["replay", str(path), "--inspect", "500"]) == 1
    assert main(["replay", str(path), "--inspect", "-1"]) == 1
    assert "not in the replay" in capsys.readouterr().err


def test_diff_names_the_first_step_that_differs_and_what_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = bot_commands(5, 30)
    changed = list(commands)
    changed[11] = Wait() if commands[11] != Wait() else replace(commands[12])
    a, b = record(tmp_path / "a", 5, commands), record(tmp_path / "b", 5, changed)
    assert main(["replay", "--diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("first difference at step 12")
    assert f"commands: A {commands[11]}, B {changed[11]}" in out
    assert "state: " in out and "position" in out
    assert main(["replay", "--diff", str(a), str(a)]) == 0
    assert "the same game: 30 identical steps" in capsys.readouterr().out


def test_diff_says_games_of_different_names_differ_from_the_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    commands = bot_commands(5, 10)
    a, b = record(tmp_path / "a", 5, commands, "Rev"), record(tmp_path / "b", 5, commands, "Botty")
    assert main(["replay", "--diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("the games differ from the start: their headers differ")
    assert "name: A 'Rev', B 'Botty'" in out and "step 1" not in out


def test_a_differing_player_fact_is_named_once() -> None:
    recorded, now = {"@player": ["Rev"], "@position": [1, 2]}, {"@player": ["Botty"], "@position": [1, 3]}
    assert fact_differences(recorded, now) == [
        "player: recorded ['Rev'], now ['Botty']",
        "player position: recorded [1, 2], now [1, 3]",
    ]


def test_diff_refuses_replays_of_different_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, _ = record_bot_game(tmp_path / "a", seed=5, turns=5)
    b, _ = record_bot_game(tmp_path / "b", seed=6, turns=5)
    assert main(["replay", "--diff", str(a), str(b)]) == 2
    assert "different seeds" in capsys.readouterr().err


def test_a_crash_report_names_the_commands_that_reproduce_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_crash_reports import CRASH_TURN, explode_at_turn, simulate, the_report

    explode_at_turn(monkeypatch)
    simulate(tmp_path)
    monkeypatch.undo()
    report = the_report(tmp_path)
    copy = str(report.with_suffix(".replay"))
    lines = [line.strip() for line in report.read_text().splitlines()]
    assert f"hedonic replay --verify {copy}" in lines
    inspect = f"hedonic replay {copy} --inspect {CRASH_TURN}"
    assert inspect in lines and f"hedonic replay {copy} --to-turn {CRASH_TURN} --wizard" in lines
    assert inspect in capsys.readouterr().err  # the player is shown the same lines
    assert main(inspect.split()[1:]) == 0
    assert json.loads(capsys.readouterr().out)["turn"] == CRASH_TURN


def test_inspect_shows_a_wizard_games_marks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = record(tmp_path / "wizard", 5, [Wait(), Wizard("still"), Wait(), Wait()])
    assert main(["replay", str(path), "--inspect", "2"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["origin"] == "wizard" and state["monsters_still"] is True  # why no monster moves here
    ordinary = record(tmp_path / "plain", 5, [Wait(), Wait()])
    assert main(["replay", str(ordinary), "--inspect", "1"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["origin"] is None and state["monsters_still"] is False
