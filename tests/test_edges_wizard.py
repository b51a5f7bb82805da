"""Wizard mode and saves made from replays: marked in the file, the lists and the history; never counted."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import esper
import pytest
from tcod.event import KeySym, Modifier

from components import Attributes, Dose, Find, Monster, Position, StateOfMind
from replay_helpers import only_replay
from roguelike.cli.main import main
from roguelike.cli.saves import games_for
from roguelike.core.commands import Mark, Wait, Wizard, decode_command, encode_command
from roguelike.core.game import Game
from roguelike.replay.fileformat import read_replay
from roguelike.replay.verify import Outcome, verify
from roguelike.saves import Games, inspect_save, read_save, settle
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.loadgame import LoadGameScreen
from roguelike.screens.stats import StatsScreen
from roguelike.screens.wizard import WizardScreen
from save_helpers import key, screen_rows, text
from test_replay_saves import bot_steps, recorded_game, the_save

SEED = 53
Part = TypeVar("Part")  # a kind of component


def wizard_games(root: Path) -> Games:
    """The games of ``hedonic play --wizard``."""
    return games_for(argparse.Namespace(data_dir=str(root), seed=SEED, wizard=True))


def near(game: Game, kind: type[Part]) -> list[Part]:
    """Components of a kind on entities next to the player."""
    game.activate()
    player = esper.component_for_entity(game.state.player, Position)
    return [
        c for e, (c, p) in esper.get_components(kind, Position) if max(abs(p.x - player.x), abs(p.y - player.y)) == 1
    ]


def test_developer_commands_round_trip_and_ordinary_games_have_none(tmp_path: Path) -> None:
    for command in (Mark("replay"), Wizard("mind", 80), Wizard("monster", kind="hunger"), Wizard("reveal")):
        assert decode_command(encode_command(command)) == command
    with pytest.raises(ValueError):
        decode_command([2, "summon_dragon", 0, ""])
    recorded_game(tmp_path, commands=20)
    commands = [step.command for step in read_replay(only_replay(tmp_path)).steps]
    assert not any(isinstance(command, (Mark, Wizard)) for command in commands)
    assert "origin" not in read_save(the_save(tmp_path)).plain and inspect_save(the_save(tmp_path)).marked == ""


def test_every_wizard_change_does_what_it_says_and_the_game_verifies(tmp_path: Path) -> None:
    session = wizard_games(tmp_path).new("Merlin")
    game = session.game
    assert game.state.origin == "wizard"
    changes = [
        Wizard("mind", 77),
        Wizard("will", 9),
        Wizard("reveal"),
        Wizard("monster", kind="anxiety"),
        Wizard("dose", kind="strong_dose"),
        Wizard("find", kind="calm"),
        Wizard("still"),
    ]
    doses_before = [d.kind for d in near(game, Dose)]  # the start dose may lie next to the player
    for change in changes:
        session.apply(change)
    assert game.player_component(StateOfMind).value == 77 and game.player_component(Attributes).will == 9
    assert game.state.floor.explored.all()
    assert [m.kind for m in near(game, Monster)] == ["anxiety"] and sorted(d.kind for d in near(game, Dose)) == sorted(
        [*doses_before, "strong_dose"]
    )
    assert [f.kind for f in near(game, Find)] == ["calm"]
    spots = sorted((p.x, p.y) for _, (_, p) in esper.get_components(Monster, Position))
    for _ in range(5):
        session.apply(Wait())
    game.activate()
    assert sorted((p.x, p.y) for _, (_, p) in esper.get_components(Monster, Position)) == spots  # still
    session.apply(Wizard("descend"))
    assert game.state.depth == 2
    session.close()
    save = read_save(the_save(tmp_path))
    assert save.plain["origin"] == "wizard" and inspect_save(the_save(tmp_path)).marked == " (wizard mode)"
    assert verify(read_replay(only_replay(tmp_path))).outcome is Outcome.MATCHED


def test_hedonic_replays_marks_a_wizard_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = wizard_games(tmp_path).new("Merlin")
    session.apply(Wizard("mind", 50))
    session.close()
    assert main(["replays", "--data-dir", str(tmp_path)]) == 0
    assert "Merlin (wizard mode)  seed" in capsys.readouterr().out


def test_the_wizard_prompt_changes_the_game_through_the_session(tmp_path: Path) -> None:
    session = wizard_games(tmp_path).new("Merlin")
    app = App(InGameScreen(session))
    type_ampersand(app)
    assert isinstance(app.stack[-1], WizardScreen)
    assert any("Monsters still" in row for row in screen_rows(app.stack[-1]))
    for event in (text("m"), text("4"), text("2"), key(KeySym.RETURN)):
        app.handle(event)
    assert isinstance(app.stack[-1], InGameScreen) and session.game.player_component(StateOfMind).value == 42
    type_ampersand(app)
    app.handle(text("s"))
    app.handle(text("2"))  # the second kind in the list: depression, hunger, ...
    assert [m.kind for m in near(session.game, Monster)] == ["depression"]
    settle(session)
    assert read_replay(only_replay(tmp_path)).steps[-1].command == Wizard("monster", kind="depression")
    app.close_all()


def type_ampersand(app: App, sym: KeySym = KeySym.N7, mod: Modifier = Modifier.SHIFT) -> None:
    """``&`` as the window sends it: the key pressed (Shift+7 on a US layout), then the text."""
    app.handle(key(sym, mod))
    app.handle(text("&"))


@pytest.mark.parametrize(
    ("layout", "sym", "mod"),
    [
        ("German: Shift+6", KeySym.N6, Modifier.SHIFT),
        ("AZERTY: & unshifted", KeySym.AMPERSAND, Modifier.NONE),
    ],
)
def test_the_wizard_prompt_opens_from_the_typed_ampersand_on_any_layout(
    tmp_path: Path, layout: str, sym: KeySym, mod: Modifier
) -> None:
    session = wizard_games(tmp_path).new("Merlin")
    app = App(InGameScreen(session))
    type_ampersand(app, sym, mod)
    assert isinstance(app.stack[-1], WizardScreen), layout
    assert session.game.state.turn == 0  # the key pressed did not move the player
    app.close_all()


def test_an_ordinary_game_has_no_wizard_prompt(tmp_path: Path) -> None:
    session = Games(tmp_path, seed=SEED).new("Ann")
    app = App(InGameScreen(session))
    type_ampersand(app)
    assert isinstance(app.stack[-1], InGameScreen) and session.game.state.origin is None
    app.close_all()


def test_a_save_made_from_a_replay_is_marked_everywhere_and_never_ranked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = recorded_game(tmp_path / "mine", commands=10_000)  # played to its death
    final = read_replay(source).final_turn
    target = tmp_path / "dev"
    assert (
        main(["replay", str(source), "--to-turn", str(final - 3), "--save-as", "Ann", "--data-dir", str(target)]) == 0
    )
    save = the_save(target)
    assert read_save(save).plain["origin"] == "replay"
    capsys.readouterr()
    assert main(["saves", "--data-dir", str(target)]) == 0
    assert "(from replay)" in capsys.readouterr().out
    assert any(row.endswith("(from replay)") for row in screen_rows(LoadGameScreen(Games(target))))
    assert main(["replays", "--data-dir", str(target)]) == 0
    assert "Ann (from replay)  seed" in capsys.readouterr().out
    assert main(["replays", "--data-dir", str(tmp_path / "mine")]) == 0
    listed = capsys.readouterr().out
    assert "seed" in listed and "(from replay)" not in listed and "(wizard mode)" not in listed
    session = Games(target, seed=SEED).resume(save)
    bot_steps(session, 50)  # the same death again
    assert session.game.state.game_over
    session.close()
    history = Games(target).history()
    assert [record.origin for record in history.records] == ["replay"]
    own = Games(tmp_path / "mine").history().records[0]
    assert own.origin is None
    rows = screen_rows(StatsScreen(Games(target)))
    assert any(row.lstrip().startswith("rep  Ann") for row in rows) and any("never ranked" in row for row in rows)


def test_replay_to_turn_wizard_opens_the_game_there_in_wizard_mode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = recorded_game(tmp_path / "mine", commands=40)
    opened: list[App] = []

    def frontend(args: argparse.Namespace) -> Callable[[App], int]:
        def run(app: App) -> int:
            opened.append(app)
            return 0

        return run

    monkeypatch.setattr("roguelike.cli.play.choose_frontend", frontend)
    target = tmp_path / "dev"
    assert main(["replay", str(source), "--to-turn", "20", "--wizard", "--data-dir", str(target)]) == 0
    (app,) = opened
    screen = app.stack[-1]
    assert isinstance(screen, InGameScreen)
    assert screen.game.state.origin == "wizard" and screen.game.state.turn == 20
    type_ampersand(app)
    app.handle(text("r"))
    assert screen.game.state.floor.explored.all()
    app.close_all()
    replay = read_replay(only_replay(target))
    assert replay.steps[-1].command == Wizard("reveal") and verify(replay).outcome is Outcome.MATCHED


def test_the_wizard_prompt_refuses_a_number_beyond_what_a_command_holds(tmp_path: Path) -> None:
    session = wizard_games(tmp_path).new("Merlin")
    app = App(InGameScreen(session))
    type_ampersand(app)
    for event in (text("m"), *(text(digit) for digit in "9999²"), key(KeySym.RETURN)):
        app.handle(event)  # four nines used to crash the game: a Wizard command holds -1000..1000
    assert isinstance(app.stack[-1], InGameScreen)
    settle(session)
    assert read_replay(only_replay(tmp_path)).steps[-1].command == Wizard("mind", 999)
    app.close_all()


def test_the_title_warns_before_a_wizard_resume_marks_a_characters_own_game(tmp_path: Path) -> None:
    from roguelike.screens.title import WIZARD_WARNING, TitleScreen

    session = Games(tmp_path, seed=SEED).new("Ann")
    session.apply(Wait())
    session.close()
    ordinary, wizard = TitleScreen(Games(tmp_path, seed=SEED)), TitleScreen(wizard_games(tmp_path))
    assert WIZARD_WARNING not in "\n".join(screen_rows(ordinary))
    rows = screen_rows(wizard)
    assert any(row.strip() == WIZARD_WARNING for row in rows)
    assert any(row.strip().startswith("> 1. Resume Ann") for row in rows)  # offered, with the warning above it


def test_a_wizard_spawn_says_why_nothing_appeared(tmp_path: Path) -> None:
    from roguelike.core.floor import Tile
    from roguelike.core.game import Game

    game = Game.new(SEED, "Wiz")
    game.apply(Wizard("monster", kind="no-such-thing"))
    game.apply(Wizard("dose", kind="no-such-thing"))
    assert [m.text for m in game.state.messages[-2:]] == ["Wizard: no such monster.", "Wizard: no such dose."]
    pos = game.player_component(Position)
    tiles = game.state.floor.tiles
    tiles[pos.y - 1 : pos.y + 2, pos.x - 1 : pos.x + 2] = Tile.WALL  # walled in where the player stands
    before = len(game.monsters()), len(game.doses())
    game.apply(Wizard("monster", kind="hunger"))
    game.apply(Wizard("dose", kind="dose"))
    assert [m.text for m in game.state.messages[-2:]] == [
        "Wizard: no room for a Hunger here.",
        "Wizard: no room for a dose here.",
    ]
    assert (len(game.monsters()), len(game.doses())) == before
