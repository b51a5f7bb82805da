"""A replay record nested a thousand deep (its CRC valid) is one more bad file, for every reader."""

from __future__ import annotations

import zlib
from pathlib import Path

import msgpack
import pytest

from roguelike.cli.main import main
from roguelike.core.commands import Wait
from roguelike.core.epoch import RULES_EPOCH
from roguelike.ground.replayframe import FRAME, MASK32
from roguelike.replay.fileformat import (
    MAX_NESTING,
    ReplayError,
    frame,
    parse_replay,
    preamble,
    read_replay,
    step_bytes,
)
from test_replay_saves import bot_steps, games, the_save

DEEP = 1000


def deep_list() -> bytes:
    """The msgpack bytes of a list holding a list ... DEEP levels down (msgpack's packer refuses it)."""
    return b"\x91" * DEEP + b"\x00"


def framed(payload: bytes) -> bytes:
    """One frame around raw msgpack bytes, with a valid CRC."""
    return FRAME.pack(len(payload), len(payload) ^ MASK32, zlib.crc32(payload)) + payload


def deep_record(index: int, where: str) -> bytes:
    """A step record numbered ``index`` whose command (or index) is nested DEEP levels."""
    pack = msgpack.packb
    number = deep_list() if where == "index" else pack(index)
    command = deep_list() if where == "command" else pack([0])
    return framed(b"\x96" + pack(0) + number + command + pack(1) + pack(b"\0" * 8, use_bin_type=True) + pack({}))


def nested_character(root: Path, where: str) -> Path:
    """A living character whose replay ends with a deep record; its replay's path."""
    session = games(root).new("Ann")
    bot_steps(session, 5)
    session.close()
    replay = root / "replays" / f"{the_save(root).stem}.replay"
    with replay.open("ab") as file:
        file.write(deep_record(len(read_replay(replay).steps) + 1, where))
    return replay


@pytest.mark.parametrize("where", ["command", "index"])
def test_reading_it_says_why_in_one_line(tmp_path: Path, where: str) -> None:
    replay = nested_character(tmp_path, where)
    with pytest.raises(ReplayError, match="nested deeper than"):
        read_replay(replay)


@pytest.mark.parametrize("where", ["command", "index"])
def test_every_replay_command_names_the_file_instead_of_crashing(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = nested_character(tmp_path, where)
    data = ["--data-dir", str(tmp_path)]
    assert main(["replay", "--verify", str(replay)]) == 2
    assert main(["replay", str(replay), "--inspect", "1"]) == 2
    assert main(["replay", "--diff", str(replay), str(replay)]) == 2
    assert main(["replays", *data]) == 0
    assert main(["replays", "--prune", "--keep", "0", *data]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "nested deeper than" in err
    assert f"{replay.name}" in out and replay.exists()


def test_the_character_resumes_unrecorded_with_a_notice(tmp_path: Path) -> None:
    replay = nested_character(tmp_path, "command")
    before = replay.read_bytes()
    session = games(tmp_path).resume(the_save(tmp_path))
    bot_steps(session, 3)
    notices = " ".join(session.notices.lines())
    session.close()
    assert replay.read_bytes() == before
    assert "not being recorded" in notices and "nested deeper than" in notices


def facts_nested(levels: int) -> dict[str, object]:
    """Facts whose one value nests lists ``levels`` levels below the facts' own table."""
    value: object = 0
    for _ in range(levels):
        value = [value]
    return {"@deep": value}


def test_the_depth_bound_is_exact_and_counts_only_containers() -> None:
    header = {
        "id": "g1",
        "seed": 3,
        "name": "Bot",
        "version": "0.1.0",
        "date": "2026-01-01T00:00:00+00:00",
        "epoch": RULES_EPOCH,
    }
    wide: dict[str, object] = {
        f"@fact{n}": [list(range(40)), "x" * 20, {"k": [1.5] * 20}] for n in range(40)
    }  # many scalars, shallow

    def replay_with(facts: dict[str, object]) -> bytes:
        return preamble() + frame(header) + step_bytes(1, Wait(), 1, "00" * 8, facts)

    assert parse_replay(replay_with(facts_nested(MAX_NESTING - 2))).steps[0].changes == facts_nested(MAX_NESTING - 2)
    assert len(parse_replay(replay_with(wide)).steps[0].changes) == 40
    with pytest.raises(ReplayError, match=f"record 1 is nested deeper than {MAX_NESTING} levels"):
        parse_replay(replay_with(facts_nested(MAX_NESTING - 1)))
