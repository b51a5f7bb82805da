"""A crash in the window is shown in the window, before it closes (SDL's dummy video driver)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod.console
import tcod.context
import tcod.event
from tcod.event import KeySym

from roguelike.cli.main import main
from roguelike.frontend import window
from roguelike.saves.crash import EXIT_CRASHED, player_message
from test_crash_reports import explode_at_turn
from test_window import key


def test_a_crash_in_the_window_shows_what_happened_and_where_the_files_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    explode_at_turn(monkeypatch, turn=1)
    script = [key(KeySym.RETURN), key(KeySym.RETURN), key(KeySym.N5), key(KeySym.N5)]
    waits_after_crash: list[int] = []
    shown: list[str] = []

    def wait(timeout: float | None = None) -> Iterator[tcod.event.Event]:
        if shown:
            waits_after_crash.append(1)
        yield script.pop(0) if script else tcod.event.Quit()

    original = window.show_crash

    def remember(context: tcod.context.Context, console: tcod.console.Console, message: str) -> None:
        shown.append(message)
        original(context, console, message)
        shown.append("\n".join("".join(chr(c) for c in row).rstrip() for row in console.rgb["ch"]))

    monkeypatch.setattr(tcod.event, "wait", wait)
    monkeypatch.setattr(window, "show_crash", remember)
    assert main(["play", "--window", "--data-dir", str(tmp_path)]) == EXIT_CRASHED
    message, screen = shown
    (report,) = (tmp_path / "crashes").glob("crash-*.txt")  # written once, though shown twice
    flat = "".join(screen.split())
    assert "stoppedbecauseofabug" in flat and "".join(str(report).split()) in flat
    assert "".join(str(report.with_suffix(".replay")).split()) in flat
    assert "Yourlastsaveisuntouched" in flat and "Pressanykeytoclosethegame." in flat
    assert waits_after_crash  # the window waited for the player before closing
    assert message in capsys.readouterr().err


def test_the_crash_screen_keeps_what_matters_whatever_the_data_folder_length(tmp_path: Path) -> None:
    root = tmp_path / ("d" * 150)
    files = {"replay": root / "crashes" / "crash-1.replay", "save": root / "saves" / "1.save"}
    message = player_message(root / "crashes" / "crash-1.txt", files, RuntimeError("boom"))
    lines = window.crash_lines(message, 78, 23)
    flat = "".join("".join(lines).split())
    assert len(lines) <= 23 and lines[0].startswith("Sorry: Hedonic Hypothesis stopped because of a bug")
    assert "Yourlastsaveisuntouched" in flat and "".join(str(files["save"]).split()) in flat
    assert lines[-1] == "Press any key to close the game."
