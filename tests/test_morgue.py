"""The morgue file: written at a bot's death and from the in-game menu, text and JSON twin."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from components import Record, StateOfMind
from roguelike.bots.bot import Bot
from roguelike.cli.main import main
from roguelike.content import formulas
from roguelike.content.finds import finds_words
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.records.morgue import chart
from roguelike.replay.fileformat import read_replay
from roguelike.replay.recorder import recording_observers
from roguelike.screens.base import Replace
from roguelike.screens.death import DyingScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.pause import PauseScreen


def press(sym: KeySym) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


def bot_death(data: Path, seed: int = 7) -> tuple[Game, DyingScreen]:
    """A bot plays a recorded game through the in-game screen until it dies."""
    game = Game.new(seed, "Morgan")
    screen = InGameScreen(Session(game, recording_observers(data, game)))
    bot = Bot()
    for _ in range(20000):
        transition = screen.play(bot.choose(game))
        if isinstance(transition, Replace):
            assert isinstance(transition.screen, DyingScreen)
            return game, transition.screen
    raise AssertionError("the bot did not die")


def test_a_bots_death_writes_the_morgue_file_and_its_json_twin(tmp_path: Path) -> None:
    game, death = bot_death(tmp_path)
    assert death.morgue.startswith("Morgue file: ")
    text_path = Path(death.morgue.removeprefix("Morgue file: "))
    assert text_path.parent == tmp_path / "morgue"
    (replay_path,) = (tmp_path / "replays").glob("*.replay")
    assert text_path.name == f"{replay_path.stem}-turn{game.state.turn}.txt"
    data = json.loads(text_path.with_suffix(".json").read_text(encoding="utf-8"))
    text = text_path.read_text(encoding="utf-8")
    record = game.player_component(Record)

    assert data["character"] == {"name": "Morgan", "seed": 7, "game": replay_path.stem}
    assert data["replay"] == replay_path.name and replay_path.name in text
    assert data["end"]["cause"] == game.state.cause_of_death and data["end"]["turn"] == game.state.turn
    assert f"Morgan {data['end']['how']} on floor {game.state.depth}, turn {game.state.turn}." in text
    assert data["record"]["doses_used"] == record.doses_used
    doses = [e for e in data["events"] if e["kind"] == "dose"]
    assert len(doses) == record.doses_used
    floors = [e for e in data["events"] if e["kind"] == "floor"]
    assert len(floors) >= record.deepest_floor - 1
    series = data["state_of_mind"]
    assert series[0] == [0, 20] and series[-1] == [game.state.turn, game.player_component(StateOfMind).value]
    assert [turn for turn, _ in series] == sorted({turn for turn, _ in series})
    assert data["messages"][-1]["text"] == game.state.messages[-1].text
    assert game.state.messages[-1].text in text
    assert any("@" in row for row in data["map"]) and "\n".join(f"  {row}" for row in data["map"]) in text
    for event in doses[:3]:
        assert f"turn {event['turn']:>5}: {event['text']}" in text


def test_the_morgue_events_match_a_replay_of_the_game(tmp_path: Path) -> None:
    game, death = bot_death(tmp_path, seed=12)
    text_path = Path(death.morgue.removeprefix("Morgue file: "))
    data = json.loads(text_path.with_suffix(".json").read_text(encoding="utf-8"))
    (replay_path,) = (tmp_path / "replays").glob("*.replay")
    # Play the replay's commands again and watch the dose count and the floor ourselves.
    replay = read_replay(replay_path)
    again = Game.new(replay.header.seed, replay.header.name)
    seen: list[tuple[int, str]] = []
    for record in replay.steps:
        turn, doses, depth = again.state.turn, again.player_component(Record).doses_used, again.state.depth
        again.apply(record.command)
        seen += [(turn, "dose")] * (again.player_component(Record).doses_used - doses)
        seen += [(turn, "floor")] if again.state.depth != depth else []
    told = [(e["turn"], e["kind"]) for e in data["events"] if e["kind"] in ("dose", "floor")]
    assert told == seen


def test_the_in_game_menu_writes_a_morgue_file_of_a_living_character(tmp_path: Path) -> None:
    game = Game.new(3, "Alive")
    session = Session(game, recording_observers(tmp_path, game))
    bot = Bot()
    for _ in range(30):
        session.apply(bot.choose(game))
    menu = PauseScreen(session)
    menu.on_event(press(KeySym.M))
    assert menu.status.startswith(f"Morgue file: {tmp_path / 'morgue'}")
    text = Path(menu.status.removeprefix("Morgue file: ")).read_text(encoding="utf-8")
    assert f"Alive is still alive on floor {game.state.depth}, turn {game.state.turn}." in text
    session.close()


def test_a_game_that_is_not_recorded_has_no_morgue_file() -> None:
    game = Game.new(3, "Ghost")
    menu = PauseScreen(Session(game))
    menu.on_event(press(KeySym.M))
    assert menu.status == "No morgue file: this game is not being recorded."


def test_the_chart_draws_each_stretch_of_turns_over_its_range() -> None:
    lines = chart([[0, 20], [1, 19], [2, 75], [3, 74]])
    assert lines[-1].split() == ["turn", "0", "turn", "3"]
    rows = {line.split("|")[0].strip(): line.split("|")[1] for line in lines[:-2]}
    assert rows["70"] == "  **" and rows["20"] == "*   " and rows["10"] == " *  " and rows["40"] == "    "
    assert rows["50"] == "...." and rows["60"] == "...."  # the Withdrawal and High lines
    swings = chart([[turn, 10 if turn % 2 else 90] for turn in range(120)])  # two turns a column
    assert all(line.endswith("|" + "*" * 60) for line in swings[1:10]) and swings[0].endswith("|" + " " * 60)


def test_the_morgue_score_agrees_with_the_death_record(tmp_path: Path) -> None:
    game, death = bot_death(tmp_path)
    text_path = Path(death.morgue.removeprefix("Morgue file: "))
    score = json.loads(text_path.with_suffix(".json").read_text(encoding="utf-8"))["score"]
    text = text_path.read_text(encoding="utf-8")
    record = death.record  # what the death screen and the history show

    assert record.score is not None and score["total"] == record.score
    counted = {part["part"]: (part["counted"], part["points"]) for part in score["parts"]}
    dose, close_call, kill = formulas.POINTS_PER_DOSE, formulas.POINTS_PER_CLOSE_CALL, formulas.POINTS_PER_KILL
    assert counted["Doses"] == (f"{record.doses} x {dose}", record.doses * dose)
    assert counted["Close calls"] == (f"{record.close_calls} x {close_call}", record.close_calls * close_call)
    assert counted["Monsters slain"] == (f"{record.kills} x {kill}", record.kills * kill)
    assert counted["Floors reached"][1] == formulas.depth_points(record.deepest)
    assert record.streak_points is not None and record.best_streak is not None
    assert (
        score["before_exploring"]
        == (
            record.doses * dose
            + record.close_calls * close_call
            + record.kills * kill
            + formulas.depth_points(record.deepest)
            + record.streak_points
        )
        > 0
    )
    assert counted["Unexplored"] == (f"{score['kept_percent']}% kept", score["unexplored"])
    assert counted["Longest High"] == (f"{record.best_streak} turns", record.streak_points)
    assert sum(points for _, points in counted.values()) == record.score
    assert score["unexplored"] <= 0 and score["kept_percent"] == record.score * 100 // score["before_exploring"]
    data = json.loads(text_path.with_suffix(".json").read_text(encoding="utf-8"))["record"]
    assert data["best_high_streak"] == record.best_streak and data["finds_taken"] == record.finds
    assert f"  {'Best High streak':<16}{record.best_streak:>6}" in text
    assert f"  Finds taken     {finds_words(record.finds)}" in text
    for label, (how, points) in counted.items():
        assert f"  {label:<16}{how:>12}{points:>8}" in text
    assert f"  {'Score':<16}{'':>12}{record.score:>8}" in text


def test_the_morgue_command_plays_the_replay_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "my games; it's here"  # a space, a semicolon and a quote: the path must be quoted
    game, death = bot_death(data)
    text = Path(death.morgue.removeprefix("Morgue file: ")).read_text(encoding="utf-8")
    (line,) = [line for line in text.splitlines() if "watch it again: " in line]
    command = shlex.split(line.partition("watch it again: ")[2])
    (replay_path,) = (data / "replays").glob("*.replay")
    assert command == ["hedonic", "replay", str(replay_path.resolve())]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main([command[1], "--verify", command[2]]) == 0
    assert "verified" in capsys.readouterr().out
