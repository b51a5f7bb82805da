"""Replay files are shared between people: every bad one gets exit 2 and a one-line reason."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay_helpers import record_bot_game
from roguelike.cli.main import main
from roguelike.core.epoch import RULES_EPOCH
from roguelike.ground.replayframe import MAGIC, MASK32
from roguelike.replay.fileformat import (
    FORMAT_VERSION,
    MAX_RECORD_BYTES,
    ReplayError,
    frame,
    parse_replay,
    preamble,
)

GOOD_HEADER = {
    "id": "g1",
    "seed": 3,
    "name": "Bot",
    "version": "0.1.0",
    "date": "2026-01-01T00:00:00+00:00",
    "epoch": RULES_EPOCH,
}


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of a short real replay."""
    path, _ = record_bot_game(tmp_path_factory.mktemp("data"), seed=5, turns=20)
    return path.read_bytes()


def verify_bytes(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run ``hedonic replay --verify`` on a file holding ``data``."""
    path = tmp_path / "bad.replay"
    path.write_bytes(data)
    status = main(["replay", "--verify", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def assert_rejected(status: int, err: str, *words: str) -> None:
    """Exit 2 with exactly one line on stderr, naming the problem."""
    assert status == 2
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("hedonic replay: ") and "bad.replay: " in lines[0]
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0]


def test_the_good_file_verifies(tmp_path: Path, good: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = verify_bytes(tmp_path, good, capsys)
    assert status == 0 and "20 commands" in out


@pytest.mark.parametrize("cut", [0, 3, len(MAGIC), len(MAGIC) + 2, len(MAGIC) + 9])
def test_a_file_cut_inside_its_header_is_rejected(
    tmp_path: Path, good: bytes, cut: int, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = verify_bytes(tmp_path, good[:cut], capsys)
    assert_rejected(status, err)


def test_a_file_cut_inside_a_record_is_complete_up_to_its_last_full_turn(
    tmp_path: Path, good: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    replay = parse_replay(good)
    cut = replay.ends[12] + 5  # five bytes into the frame of step 13: a killed game
    status, out, _ = verify_bytes(tmp_path, good[:cut], capsys)
    assert status == 0
    assert "12 commands" in out and "cut off" in out


def test_every_single_bit_flip_is_caught_before_anything_runs(good: bytes) -> None:
    for bit in range(len(MAGIC) * 8, len(good) * 8):
        flipped = bytearray(good)
        flipped[bit // 8] ^= 1 << (bit % 8)
        with pytest.raises(ReplayError):
            parse_replay(bytes(flipped))


def test_a_bit_flip_gets_the_one_line_reason(tmp_path: Path, good: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x10
    status, _, err = verify_bytes(tmp_path, bytes(flipped), capsys)
    assert_rejected(status, err, "damaged")


@pytest.mark.parametrize(
    "data",
    [b"", b"PNG\r\n\x1a\n" + bytes(40), b"hello, I am a text file\n", b"\x89HHS\r\n\x1a\n" + bytes(30)],
    ids=["empty", "png", "text", "a save"],
)
def test_foreign_files_are_rejected(tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = verify_bytes(tmp_path, data, capsys)
    assert_rejected(status, err)


def test_a_newer_format_is_refused_with_its_version(
    tmp_path: Path, good: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    newer = MAGIC + struct.pack(">H", FORMAT_VERSION + 1) + good[len(MAGIC) + 2 :]
    status, _, err = verify_bytes(tmp_path, newer, capsys)
    assert_rejected(status, err, "newer", str(FORMAT_VERSION + 1))


def test_an_absurd_length_is_refused_without_reading_on(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    huge = 2**31 + 5
    data = preamble() + frame(GOOD_HEADER) + struct.pack(">III", huge, huge ^ MASK32, 0) + b"x" * 100
    status, _, err = verify_bytes(tmp_path, data, capsys)
    assert_rejected(status, err, "claims", str(MAX_RECORD_BYTES))


def step(
    index: int = 1, command: object = (0,), turn: object = 1, checksum: object = bytes(8), facts: object = None
) -> list[object]:
    """A step record, possibly with wrong-typed fields."""
    return [
        0,
        index,
        list(command) if isinstance(command, tuple) else command,
        turn,
        checksum,
        {} if facts is None else facts,
    ]


@pytest.mark.parametrize(
    ("header", "records", "words"),
    [
        ({**GOOD_HEADER, "seed": "three"}, [], "'seed' should be int, not text"),
        ({**GOOD_HEADER, "epoch": "one"}, [], "'epoch' should be int, not text"),
        ({**GOOD_HEADER, "epoch": 0}, [], "rules epoch 0 is not one any game has had"),
        ({k: v for k, v in GOOD_HEADER.items() if k != "epoch"}, [], "no 'epoch'"),
        ({**GOOD_HEADER, "name": 12}, [], "'name' should be str"),
        ({**GOOD_HEADER, "id": "../../etc/passwd"}, [], "game id"),
        ({**GOOD_HEADER, "name": "Eve\x1b]0;owned\x07"}, [], "name has characters"),
        ({k: v for k, v in GOOD_HEADER.items() if k != "seed"}, [], "no 'seed'"),
        ([1, 2, 3], [], "header should be a table"),
        (GOOD_HEADER, [step(turn="soon")], "turn"),
        (GOOD_HEADER, [step(checksum="abcdef")], "checksum"),
        (GOOD_HEADER, [step(command=[1, 5, 0])], "no command"),
        (GOOD_HEADER, [step(command="rm -rf /")], "no command"),
        (GOOD_HEADER, [step(facts=[1])], "small table"),
        (GOOD_HEADER, [step(index=2)], "out of order"),
        (GOOD_HEADER, [step(), step(index=1)], "out of order"),
        (GOOD_HEADER, [{"kind": "step"}], "neither a step nor a crash"),
        (GOOD_HEADER, [[1, 1, [0], "Boom"], step(index=2)], "crash record"),
    ],
)
def test_wrong_typed_fields_are_named(
    tmp_path: Path, header: object, records: list[object], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    data = preamble() + frame(header) + b"".join(frame(record) for record in records)
    status, _, err = verify_bytes(tmp_path, data, capsys)
    assert_rejected(status, err, words)


def test_msgpack_extension_types_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = msgpack.packb([0, 1, [0], 1, bytes(8), {"x": msgpack.ExtType(42, b"code")}])
    framed = struct.pack(">III", len(payload), len(payload) ^ MASK32, zlib.crc32(payload)) + payload
    data = preamble() + frame(GOOD_HEADER) + framed
    status, _, err = verify_bytes(tmp_path, data, capsys)
    assert_rejected(status, err, "msgpack")


def test_what_is_not_a_regular_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for path in (tmp_path, tmp_path / "missing.replay", Path("/dev/zero")):
        assert main(["replay", "--verify", str(path)]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and str(path) in err


def mutate(data: bytes, kind: int, at: int, size: int, noise: bytes) -> bytes:
    """One of several ways a shared file gets mangled."""
    at %= len(data) + 1
    if kind == 0:  # flip bits of one byte
        return data[:at] + bytes([data[at % len(data)] ^ (noise[0] or 1)]) + data[at + 1 :]
    if kind == 1:  # cut short
        return data[:at]
    if kind == 2:  # bytes inserted
        return data[:at] + noise + data[at:]
    if kind == 3:  # bytes lost
        return data[:at] + data[at + size :]
    if kind == 4:  # bytes overwritten
        return data[:at] + noise + data[at + len(noise) :]
    return data[:at] + data[at : at + size] + data[at:]  # a stretch repeated


@settings(
    max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.integers(0, 5),
    at=st.integers(0, 10**6),
    size=st.integers(1, 64),
    noise=st.binary(min_size=1, max_size=16),
)
def test_a_thousand_mangled_files_never_crash_the_verifier(
    tmp_path: Path, good: bytes, capsys: pytest.CaptureFixture[str], kind: int, at: int, size: int, noise: bytes
) -> None:
    data = mutate(good, kind, at, size, noise)
    status, out, err = verify_bytes(tmp_path, data, capsys)
    if status == 2:
        assert_rejected(status, err)
        return
    # A usable mangled file can only be the same game cut short (a tail that reads as torn).
    assert status == 0 and "Traceback" not in out + err, (status, out, err)
    original, kept = parse_replay(good), parse_replay(data)
    assert kept.header == original.header
    assert kept.steps == original.steps[: len(kept.steps)]
