"""The settings file: read, written atomically, and never lost when it is damaged."""

from __future__ import annotations

import errno
import json
import os
import pwd
import shutil
import tempfile
from pathlib import Path

import pytest

from roguelike.settings import Glyphs, Motion, PaletteName, Preferences, Scaling, Settings, TileSize, WindowPlace
from roguelike.settings.document import from_bytes, to_text
from roguelike.storage.datadir import DataDir

PLACE = WindowPlace(10, 20, 1120, 600)
CHOSEN = Settings(
    PaletteName.COLOURBLIND,
    Motion.NONE,
    Glyphs.ASCII,
    TileSize(14, 24),
    True,
    Scaling.FIT,
    PLACE,
)


def write(root: Path, text: str | bytes) -> Path:
    """A settings file with this content."""
    path = DataDir(root).settings
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def test_settings_survive_a_round_trip_through_the_file(tmp_path: Path) -> None:
    prefs = Preferences.load(tmp_path)
    for name in ("palette", "motion", "glyphs", "tiles", "fullscreen", "scaling"):
        prefs.change(name, getattr(CHOSEN, name))
    prefs.remember_window(PLACE)
    again = Preferences.load(tmp_path)
    assert again.current == CHOSEN and again.current.window == PLACE
    assert not again.problems


def test_the_file_is_human_readable_json_with_named_values(tmp_path: Path) -> None:
    Preferences.load(tmp_path).change("palette", PaletteName.GREYSCALE)
    text = DataDir(tmp_path).settings.read_text()
    document = json.loads(text)
    assert document["palette"] == "greyscale" and document["motion"] == "reduced"
    assert "tiles" not in document  # the window picks one for its screen until the player does
    assert text.count("\n") > len(document)  # one key a line


def test_no_file_means_defaults_and_nothing_is_written_until_a_change(tmp_path: Path) -> None:
    prefs = Preferences.load(tmp_path)
    assert prefs.current == Settings() and not prefs.problems
    prefs.remember_window(WindowPlace(1, 2, 880, 500))
    assert DataDir(tmp_path).settings.exists()  # a window place is worth keeping in a healthy (absent) file
    assert not list(tmp_path.glob("*.tmp"))


def test_unknown_keys_from_a_newer_version_are_kept(tmp_path: Path) -> None:
    write(tmp_path, json.dumps({"version": 2, "palette": "contrast", "interrupts": ["monster", "dose"], "zoom": 3}))
    prefs = Preferences.load(tmp_path)
    assert not prefs.problems and prefs.current.palette is PaletteName.CONTRAST
    prefs.change("motion", Motion.FULL)
    document = json.loads(DataDir(tmp_path).settings.read_text())
    assert document["interrupts"] == ["monster", "dose"] and document["zoom"] == 3 and document["version"] == 2
    assert document["palette"] == "contrast" and document["motion"] == "full"


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("palette", "purple", "not one of classic"),
        ("palette", 3, "not one of"),
        ("motion", None, "not one of full, reduced, none"),
        ("glyphs", ["ascii"], "not one of"),
        ("tiles", "13x13", "not a tile size"),
        ("tiles", 20, "not a tile size"),
        ("fullscreen", "yes", "not true or false"),
        ("fullscreen", 1, "not true or false"),
        ("scaling", {"fit": True}, "not one of integer, fit"),
        ("window", {"x": 1, "y": 2}, "expected an object"),
        ("window", {"x": 1, "y": 2, "width": 0, "height": 5}, "positive"),
        ("window", {"x": 1.5, "y": 2, "width": 800, "height": 600}, "whole numbers"),
        ("window", {"x": True, "y": 2, "width": 800, "height": 600}, "whole numbers"),
        ("version", "one", "not a whole number"),
    ],
)
def test_a_wrong_value_is_named_and_takes_its_default_while_the_rest_is_kept(
    tmp_path: Path, key: str, value: object, words: str
) -> None:
    document = {"palette": "greyscale", "motion": "none", key: value}
    path = write(tmp_path, json.dumps(document))
    before = path.read_bytes()
    prefs = Preferences.load(tmp_path)
    assert len(prefs.problems) == 1 and prefs.problems[0].startswith(f"{key}: ") and words in prefs.problems[0]
    if key != "palette":
        assert prefs.current.palette is PaletteName.GREYSCALE
    text = prefs.problem_text()
    assert text is not None and str(path) in text and words in text
    prefs.remember_window(WindowPlace(5, 5, 900, 520))
    assert path.read_bytes() == before  # the damaged file is never overwritten quietly


def test_a_change_keeps_the_damaged_file_beside_the_new_one(tmp_path: Path) -> None:
    path = write(tmp_path, '{"palette": "classic",, }')
    damaged = path.read_bytes()
    prefs = Preferences.load(tmp_path)
    assert prefs.problems and "not valid JSON at line 1" in prefs.problems[0]
    prefs.change("palette", PaletteName.CONTRAST)
    assert (tmp_path / "settings.damaged.json").read_bytes() == damaged
    assert json.loads(path.read_text())["palette"] == "contrast"
    assert not prefs.problems and prefs.kept_damaged == tmp_path / "settings.damaged.json"
    write(tmp_path, b"\xff\xfe")
    Preferences.load(tmp_path).change("motion", Motion.NONE)
    assert (tmp_path / "settings.damaged-2.json").read_bytes() == b"\xff\xfe"
    assert (tmp_path / "settings.damaged.json").read_bytes() == damaged


def test_every_truncation_of_a_file_is_read_without_error(tmp_path: Path) -> None:
    data = to_text(CHOSEN, (("later", {"a": [1, 2]}),)).encode()
    for length in range(len(data.rstrip())):
        reading = from_bytes(data[:length])
        assert isinstance(reading.settings, Settings)
        assert reading.problems, f"a file cut at byte {length} of {len(data)} must be reported"
    assert not from_bytes(data).problems


def test_every_single_bit_flip_is_read_without_error_and_broken_json_is_reported() -> None:
    data = to_text(CHOSEN).encode()
    for index in range(len(data)):
        for bit in range(8):
            flipped = bytearray(data)
            flipped[index] ^= 1 << bit
            reading = from_bytes(bytes(flipped))
            assert isinstance(reading.settings.tiles, TileSize) and isinstance(reading.settings.fullscreen, bool)
            try:
                parsed = json.loads(bytes(flipped).decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                assert reading.problems
                continue
            if isinstance(parsed, dict) and parsed.get("palette") != "colourblind" and "palette" in parsed:
                assert any(problem.startswith("palette") for problem in reading.problems)


def test_a_folder_in_place_of_the_file_is_reported_and_moved_aside_on_a_change(tmp_path: Path) -> None:
    folder = DataDir(tmp_path).settings
    folder.mkdir()
    (folder / "inside.txt").write_text("keep me")
    prefs = Preferences.load(tmp_path)
    assert prefs.problems == ("it is a folder, not a file",)
    prefs.remember_window(WindowPlace(1, 1, 880, 500))
    assert folder.is_dir()
    prefs.change("glyphs", Glyphs.ASCII)
    assert (tmp_path / "settings.damaged.json" / "inside.txt").read_text() == "keep me"
    assert json.loads(folder.read_text())["glyphs"] == "ascii"


def test_a_huge_file_is_not_read_whole(tmp_path: Path) -> None:
    write(tmp_path, "{" + " " * (1 << 20) + "}")
    assert "too large" in Preferences.load(tmp_path).problems[0]


def test_a_read_only_folder_keeps_the_change_for_this_run_and_says_why_it_is_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, json.dumps({"palette": "classic"}))
    prefs = Preferences.load(tmp_path)

    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(errno.EACCES, "Permission denied")

    # As root (CI) a chmod does not stop writes, so the refusal comes from the system call.
    monkeypatch.setattr("roguelike.storage.atomic.os.open", refuse)
    prefs.change("palette", PaletteName.GREYSCALE)
    assert prefs.current.palette is PaletteName.GREYSCALE
    refused = prefs.save_error
    assert refused == f"Could not save settings to {path}: permission denied."
    assert json.loads(path.read_text()) == {"palette": "classic"}
    monkeypatch.undo()
    prefs.change("motion", Motion.FULL)
    assert prefs.save_error is None and json.loads(path.read_text())["palette"] == "greyscale"


@pytest.mark.skipif(os.name != "posix", reason="folder permissions as POSIX has them")
def test_a_really_read_only_folder_is_reported() -> None:
    # Root ignores folder permissions (and CI runs as root), so the player is played by a
    # forked child that gives up root for "nobody" first: the folder really refuses it.
    folder = Path(tempfile.mkdtemp(prefix="hedonic-read-only-"))
    try:
        pid = os.fork()
        if pid == 0:
            os._exit(read_only_child(folder))
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, "the read-only folder was not reported"
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


def read_only_child(folder: Path) -> int:
    """In a forked child: as an ordinary user, change a setting in a read-only folder; 0 if reported."""
    try:
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(folder, nobody.pw_uid, nobody.pw_gid)
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
        prefs = Preferences.load(folder)
        folder.chmod(0o555)
        prefs.change("palette", PaletteName.CONTRAST)
        reported = prefs.save_error is not None and "permission denied" in prefs.save_error
        return 0 if reported and not DataDir(folder).settings.exists() else 1
    except BaseException:  # noqa: BLE001 - anything in the child is a failure, never a second pytest
        return 2


def test_overrides_last_one_run_and_are_never_written(tmp_path: Path) -> None:
    prefs = Preferences.load(tmp_path, {"palette": PaletteName.CONTRAST, "tiles": TileSize(10, 18)})
    assert (prefs.current.palette, prefs.current.tiles) == (PaletteName.CONTRAST, TileSize(10, 18))
    prefs.change("motion", Motion.NONE)
    document = json.loads(DataDir(tmp_path).settings.read_text())
    assert document["palette"] == "classic" and "tiles" not in document
    prefs.change("palette", PaletteName.GREYSCALE)  # choosing on the screen wins over the override
    assert prefs.current.palette is PaletteName.GREYSCALE


def test_changing_another_option_leaves_the_tile_size_to_the_screen_until_it_is_chosen(tmp_path: Path) -> None:
    Preferences.load(tmp_path).change("palette", PaletteName.GREYSCALE)  # say, in the terminal
    prefs = Preferences.load(tmp_path)
    prefs.suggest("tiles", TileSize(22, 40))  # the window on a large screen
    assert prefs.current.tiles == TileSize(22, 40) and prefs.current.palette is PaletteName.GREYSCALE
    prefs.change("tiles", TileSize(14, 24))
    again = Preferences.load(tmp_path)
    again.suggest("tiles", TileSize(22, 40))
    assert again.current.tiles == TileSize(14, 24)  # once chosen, the player's size stays
