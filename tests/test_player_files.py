"""settings.json and keys.toml can never stop the game from starting: each bad one is named."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from roguelike.screens import bindings
from roguelike.settings.store import Preferences

LONG_NUMBER = "9" * 5000  # over Python's 4,300 digits: ValueError, not a decoding error
DEEP_TOML = "[keys]\nwait = " + "[" * 1000 + "]" * 1000 + "\n"


def settings_problem(root: Path) -> str:
    """What the start says about the settings file (one reason is expected)."""
    (problem,) = Preferences.load(root).problems
    return problem


def keys_problem(root: Path) -> str:
    """What the start says about the keymap; the defaults must be in force."""
    keys = bindings.load(root)
    assert keys.keys == bindings.default_keys() and keys.problem is not None
    return keys.problem


def test_a_number_too_long_for_python_is_a_named_problem(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(f'{{"version": 1, "glyphs": {LONG_NUMBER}}}')
    assert settings_problem(tmp_path) == "it holds a number too long to be a setting"
    (tmp_path / "keys.toml").write_text(f"[keys]\nwait = {LONG_NUMBER}\n")
    assert "keys.toml is damaged: " in keys_problem(tmp_path)


def test_a_keymap_nested_a_thousand_deep_is_a_named_problem(tmp_path: Path) -> None:
    (tmp_path / "keys.toml").write_text(DEEP_TOML)
    assert "it is nested too deeply to be a keymap" in keys_problem(tmp_path)


def within(seconds: float, read: Callable[[], str]) -> str:
    """What ``read`` returns, failing if it has not returned after ``seconds``."""
    result: list[str] = []
    worker = threading.Thread(target=lambda: result.append(read()), daemon=True)
    worker.start()
    worker.join(seconds)
    return result[0] if result else "still reading"


@pytest.mark.parametrize("name", ["settings.json", "keys.toml"])
def test_a_fifo_is_refused_at_once(tmp_path: Path, name: str) -> None:
    os.mkfifo(tmp_path / name)
    read = settings_problem if name == "settings.json" else keys_problem
    problem = within(5, lambda: read(tmp_path))
    if problem == "still reading":  # release the open() waiting for a writer, so no thread is left blocked
        os.close(os.open(tmp_path / name, os.O_WRONLY | os.O_NONBLOCK))
    assert "it is not a regular file (a pipe or a device)" in problem


@pytest.mark.parametrize("name", ["settings.json", "keys.toml"])
def test_a_device_is_refused_before_any_of_it_is_read(tmp_path: Path, name: str) -> None:
    (tmp_path / name).symlink_to("/dev/null")  # /dev/zero would be read until memory runs out
    read = settings_problem if name == "settings.json" else keys_problem
    assert "it is not a regular file (a pipe or a device)" in read(tmp_path)


def test_a_huge_keymap_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    (tmp_path / "keys.toml").write_text("# padding\n" * 20_000 + "[keys]\n")
    assert "too large to be read" in keys_problem(tmp_path)


def test_a_good_keymap_still_binds(tmp_path: Path) -> None:
    (tmp_path / "keys.toml").write_text('[keys]\nwait = ["PERIOD", "Shift+N5"]\n')
    keys = bindings.load(tmp_path)
    assert keys.problem is None and len(keys.keys["wait"]) == 2
