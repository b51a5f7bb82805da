"""Auto-explore in the window and the terminal: a step per tick, stopped by what appears,
by any key, and recorded as the ordinary commands it became."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import esper
import pytest
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from bestiary_helpers import add_monster, set_player
from components import Position, Record
from helpers import drawn_game, player_xy, settle
from roguelike.assist.autoexplore import known_doses, step_to
from roguelike.content import formulas
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.core.session import Session, Step
from roguelike.frontend import loop, window
from roguelike.frontend.terminal import TerminalLoop
from roguelike.replay.fileformat import read_replay
from roguelike.replay.recorder import recording_observers
from roguelike.replay.verify import Outcome, verify
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.pilot import STOPPED
from term_helpers import ScriptedTerminal, xterm_setup

CORRIDOR = [
    "########################################",
    "#@.....................................#",
    "########################################",
]


def key(sym: KeySym, mod: Modifier = Modifier.NONE, repeat: bool = False) -> tcod.event.KeyDown:
    """A key press as the window delivers it."""
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod, repeat=repeat)


def corridor_with_monster() -> tuple[Game, int]:
    """The long corridor, a Hunger out of sight at its far end; the player High enough to
    stay in one band for the whole walk."""
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=formulas.STATE_OF_MIND_MAX - formulas.CLOSE_CALL_MARGIN - 1)
    return game, add_monster(game, "hunger", 34, 1, notice=1)


class Watched(Session):
    """A session that notes, after each command, whether the monster is in sight."""

    def __init__(self, game: Game, monster: int) -> None:
        super().__init__(game)
        self.monster = monster
        self.seen: list[bool] = []
        self.commands: list[Command] = []

    def apply(self, command: Command) -> Step:
        step = super().apply(command)
        pos = esper.component_for_entity(self.monster, Position)
        self.seen.append(bool(self.game.view.visible[pos.y, pos.x]))
        self.commands.append(command)
        return step


def idle_then_quit(first: list[tcod.event.Event], idle: int) -> object:
    """A stand-in for ``tcod.event.wait``: the given events, then ``idle`` empty waits, then Quit."""
    script: list[list[tcod.event.Event]] = [[event] for event in first] + [[] for _ in range(idle)]

    def wait(timeout: float | None = None) -> Iterator[tcod.event.Event]:
        batch = script.pop(0) if script else [tcod.event.Quit()]
        yield from batch

    return wait


def test_window_auto_explore_stops_on_the_turn_a_monster_appears(monkeypatch: pytest.MonkeyPatch) -> None:
    game, monster = corridor_with_monster()
    session = Watched(game, monster)
    screen = InGameScreen(session)
    monkeypatch.setattr(tcod.event, "wait", idle_then_quit([key(KeySym.O)], idle=80))
    window.run_window(App(screen))
    assert session.seen[-1] and not any(session.seen[:-1])
    assert len(session.seen) > 10
    assert screen.pilot.shown is not None and screen.pilot.shown.startswith("You see a Hunger (h) for the first time.")
    assert all(command == Move(1, 0) for command in session.commands)


def test_window_waits_a_step_between_automated_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    game, monster = corridor_with_monster()
    app = App(InGameScreen(Watched(game, monster)))
    app.handle(key(KeySym.O))
    assert loop.wait_timeout(app) == formulas.AUTOMATION_STEP_SECONDS
    app.handle(key(KeySym.SPACE))  # any key stops it
    assert loop.wait_timeout(app) == (1 / loop.ANIMATION_FPS if app.animated else None)


def test_terminal_auto_explore_stops_on_the_turn_a_monster_appears() -> None:
    game, monster = corridor_with_monster()
    session = Watched(game, monster)
    terminal = ScriptedTerminal([b"o"] + [b""] * 80)
    TerminalLoop(App(InGameScreen(session)), terminal, xterm_setup(), lambda: 100.0).run()  # time stands still
    assert session.seen[-1] and not any(session.seen[:-1])
    assert len(session.seen) > 10
    assert terminal.timeouts[2] == pytest.approx(formulas.AUTOMATION_STEP_SECONDS)  # the first step went at once
    shown = terminal.text()
    assert "You see a Hunger (h) for the first time." in shown


def test_terminal_a_key_stops_auto_explore_and_is_not_a_move() -> None:
    game, monster = corridor_with_monster()
    session = Watched(game, monster)
    terminal = ScriptedTerminal([b"o", b"", b"", b"", b"l"] + [b""] * 5)
    TerminalLoop(App(InGameScreen(session)), terminal, xterm_setup()).run()
    assert len(session.commands) == 4  # one step at once, then one each time the wait ran out
    assert player_xy(game) == (5, 1)
    assert STOPPED in terminal.text()


def test_a_held_key_stops_when_a_monster_appears_and_a_fresh_press_moves_again() -> None:
    game, monster = corridor_with_monster()
    session = Watched(game, monster)
    app = App(InGameScreen(session))
    app.handle(key(KeySym.L))
    for _ in range(40):
        app.handle(key(KeySym.L, repeat=True))
    stop = session.seen.index(True)
    assert len(session.commands) == stop + 1  # the repeats after the monster appeared were ignored
    app.handle(key(KeySym.L))
    assert len(session.commands) == stop + 2


class SteppingClock:
    """A clock that moves on by ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 100.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize(("interval", "held"), [(0.01, True), (1.0, False)])
def test_terminal_a_held_key_stops_like_the_window(interval: float, held: bool) -> None:
    game, monster = corridor_with_monster()
    session = Watched(game, monster)
    terminal = ScriptedTerminal([b"l"] * 30)
    TerminalLoop(App(InGameScreen(session)), terminal, xterm_setup(), SteppingClock(interval)).run()
    stop = session.seen.index(True)
    # Fast repeats are the key held down: they stop; slow presses are pressed afresh: they go on.
    assert stop < 29
    assert len(session.commands) == (stop + 1 if held else 30)


def test_terminal_mouse_motion_does_not_hold_up_auto_explore() -> None:
    game, monster = corridor_with_monster()
    session = Watched(game, monster)
    motion = b"\x1b[<35;40;24M"  # the pointer moving over the panel, report after report
    terminal = ScriptedTerminal([b"o"] + [motion] * 20)
    TerminalLoop(App(InGameScreen(session)), terminal, xterm_setup(), SteppingClock(0.01)).run()
    assert len(session.commands) >= 10  # the steps went on while the reports kept coming


def test_the_end_of_a_takeover_holds_back_a_held_key() -> None:
    game = drawn_game(["##########", "#@i......#", "##########"])
    set_player(game, state_of_mind=formulas.desperation_threshold(5), will=5)
    game.refresh_visible()  # who steers is decided again after a hand-made change
    session = Session(game)
    screen = InGameScreen(session)
    app = App(screen)
    assert game.control_reason() is not None  # Desperate: the key is a wait, the craving steers
    app.handle(key(KeySym.L))  # the craving takes the dose, and hands the controls back
    assert game.control_reason() is None
    assert screen.pilot.shown == "You are in control again."
    app.handle(key(KeySym.L, repeat=True))
    assert session.steps == 1
    assert screen.pilot.shown is not None and screen.pilot.shown.startswith("You are in control again.")
    app.handle(key(KeySym.L))
    assert session.steps == 2


def test_while_the_game_steers_an_automation_key_passes_a_turn_like_any_key() -> None:
    game = drawn_game(CORRIDOR)
    set_player(game, state_of_mind=formulas.desperation_threshold(5), will=5)
    game.refresh_visible()  # who steers is decided again after a hand-made change
    session = Session(game)
    app = App(InGameScreen(session))
    app.handle(key(KeySym.O))
    assert session.steps == 1 and not app.busy


def test_automated_steps_are_recorded_as_ordinary_commands_and_verify(tmp_path: Path) -> None:
    game = Game.new(11, "Walker")
    session = Session(game, recording_observers(tmp_path, game))
    app = App(InGameScreen(session))
    app.handle(key(KeySym.O))
    assert not app.busy  # five turns from Desperation, a dose in sight: it will not start
    while game.player_component(Record).doses_used == 0:  # walk to the first dose and take it
        step = step_to(game, known_doses(game))
        assert step is not None
        session.apply(step)
    for _ in range(3):
        app.handle(key(KeySym.O))
        settle(app)
    app.handle(key(KeySym.Z, Modifier.LSHIFT))
    settle(app)
    steps = session.steps
    session.close()
    (path,) = (tmp_path / "replays").glob("*.replay")
    replay = read_replay(path)
    assert steps > 3 and len(replay.steps) == steps
    assert {type(record.command) for record in replay.steps} <= {Move, Wait}
    assert verify(replay).outcome is Outcome.MATCHED
