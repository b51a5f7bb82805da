"""Text that reaches the terminal carries no escape sequences of its own, on every path."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import drawn_game
from roguelike.core.session import Session
from roguelike.core.state import Message
from roguelike.frontend.terminal import TerminalLoop
from roguelike.saves import crash
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from term_helpers import ScriptedTerminal, xterm_setup

ROOM = ["#########", "#.......#", "#..@....#", "#.....i.#", "#########"]
RETITLE = "\x1b]0;owned\x07"
CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4K\x07"


class RecordingTerminal(ScriptedTerminal):
    """A scripted terminal that keeps every byte written to it."""

    def __init__(self, script: list[bytes], size: tuple[int, int]) -> None:
        super().__init__(script, size)
        self.written = bytearray()

    def write(self, data: bytes) -> None:
        self.written += data
        super().write(data)


@pytest.mark.parametrize("rows", [25, 30])
def test_the_screen_reader_never_writes_a_messages_escape_sequences(rows: int) -> None:
    game = drawn_game(ROOM)
    game.state.messages.append(Message(game.state.turn, f"A dose{RETITLE} glints.{CLIPBOARD}"))
    terminal = RecordingTerminal([b"."], (80, rows))
    TerminalLoop(App(InGameScreen(Session(game))), terminal, xterm_setup(screen_reader=True)).run()
    assert b"\x1b]" not in terminal.written and b"\x07" not in terminal.written
    assert "A dose]0;owned glints.]52;c;cm0gLXJmIH4K" in " ".join(row.strip() for row in terminal.screen.display)


def test_a_crash_report_printed_for_want_of_a_folder_is_printed_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "not a folder").write_text("")
    try:
        raise RuntimeError(f"monster{RETITLE}")
    except RuntimeError as error:
        crash.report_crash(error, tmp_path / "not a folder")  # the report cannot be written: it is printed
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "monster?]0;owned?" in err
