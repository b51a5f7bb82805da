"""File names reach the terminal clean: a file named with escape sequences cannot drive it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from replay_helpers import record_bot_game
from roguelike.cli.main import main

HOSTILE = "\x1b]0;owned\x07\x1b[2J\x9b31m\u202e"  # retitle (OSC ... BEL), clear the screen, C1 CSI, bidi override
ACTING = set("\x1b\x07\x9b\u202e")


def assert_clean(text: str) -> None:
    """Nothing in printed text a terminal would act on."""
    assert not set(text) & ACTING, repr(text)


def hostile_files(root: Path) -> tuple[Path, Path]:
    """A save and a replay whose names hold escape sequences, in a data directory."""
    (root / "saves").mkdir(parents=True)
    save = root / "saves" / f"{HOSTILE}.save"
    save.write_bytes(b"not a save")
    replay, _ = record_bot_game(root / "bot", seed=5, turns=5)
    (root / "replays").mkdir()
    named = root / "replays" / f"{HOSTILE}.replay"
    shutil.copyfile(replay, named)
    return save, named


def test_shown_keeps_the_length_and_the_rest_of_the_name() -> None:
    from roguelike.core.names import shown

    assert shown(f"a{HOSTILE}b.save") == "a?]0;owned??[2J?31m?b.save"
    assert shown("Ann 🙂 é.save") == "Ann 🙂 é.save"
    assert shown(os.fsdecode(b"\xff.save")) == "?.save"  # undecodable bytes: a lone surrogate


def test_saves_and_replays_listings_print_clean_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hostile_files(tmp_path)
    assert main(["saves", "--data-dir", str(tmp_path)]) == 0
    assert main(["replays", "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert_clean(out + err)
    assert "?[2J?31m?.save  turn ?  floor ?  damaged" in out and "?[2J?31m?.replay  " in out


def test_verify_and_prune_print_clean_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, replay = hostile_files(tmp_path)
    broken = replay.with_name(f"{HOSTILE}x.replay")
    broken.write_bytes(b"HHREPLAY")
    assert main(["replay", "--verify", "--jobs", "1", str(tmp_path / "replays")]) == 2
    assert main(["replay", str(broken), "--inspect", "1"]) == 2
    assert main(["replays", "--prune", "--keep", "0", "--data-dir", str(tmp_path)]) == 0
    out, err = capsys.readouterr()
    assert_clean(out + err)
    assert "?31m?.replay: 5 turns verified (5 commands)" in out and "?31m?x.replay: the file ends inside" in err
    assert "removed ?]0;owned??[2J?31m?x.replay" in out and not broken.exists()


def test_an_undecodable_file_name_is_listed_not_a_crash(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "saves").mkdir()
    with open(os.path.join(os.fsencode(tmp_path / "saves"), b"\xff\xfe.save"), "wb") as file:
        file.write(b"junk")
    assert main(["saves", "--data-dir", str(tmp_path)]) == 0
    assert "??.save  turn ?  floor ?  damaged" in capsys.readouterr().out
