"""Score files that attack the reader: zip bombs with lying headers, devices, pipes (issue 47: R2, R19).

A zip says how large its file is; a bomb lies. The score server's web process and
``hedonic import`` must read no more than they can afford whatever the zip claims, and
``hedonic import`` reads only regular files. Memory is measured in a child process (its
peak resident size before and after), with a bound far above noise.
"""

from __future__ import annotations

import io
import os
import struct
import subprocess
import sys
import textwrap
import zipfile
import zlib
from pathlib import Path

import pytest

from roguelike.ground.unzip import read_member
from roguelike.scores.scorefile import ScoreFileError, import_file

MIB = 1 << 20
BOMB_MIB = 1000  # what the bomb unzips to: a gigabyte of zeros from about a megabyte of zip
MOST_GROWTH_MIB = 50  # the bound: a 1 MB upload never costs more than 50 MB
REPLAY_MEMBER = b"game.replay"


def deflated_zeros(mib: int) -> bytes:
    """Raw deflate of ``mib`` MiB of zeros, made in milliseconds: after a full flush every MiB compresses the same."""
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = squeeze.compress(bytes(MIB)) + squeeze.flush(zlib.Z_FULL_FLUSH)
    return block * mib + squeeze.flush()


def zip_of(member: bytes, deflated: bytes, declared: int, crc: int) -> bytes:
    """A zip holding one deflated file whose headers claim ``declared`` bytes and a CRC of ``crc``."""
    local = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 8, 0, 0, crc, len(deflated), declared, len(member), 0)
    central = struct.pack(
        "<IHHHHHHIIIHHHHHII",
        0x02014B50,
        20,
        20,
        0,
        8,
        0,
        0,
        crc,
        len(deflated),
        declared,
        len(member),
        0,
        0,
        0,
        0,
        0,
        0,
    )
    start = len(local) + len(member) + len(deflated)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 1, 1, len(central) + len(member), start, 0)
    return local + member + deflated + central + member + end


def zeros_crc(mib: int) -> int:
    """The CRC-32 of ``mib`` MiB of zeros."""
    crc, block = 0, bytes(MIB)
    for _ in range(mib):
        crc = zlib.crc32(block, crc)
    return crc


BOMBS = {
    "claims-100-bytes": lambda body: zip_of(REPLAY_MEMBER, body, 100, 0),
    "claims-its-true-size": lambda body: zip_of(REPLAY_MEMBER, body, BOMB_MIB * MIB, zeros_crc(BOMB_MIB)),
    "claims-7-MiB": lambda body: zip_of(REPLAY_MEMBER, body, 7 * MIB, 0),
}

READ_IN_A_CHILD = """
import resource, sys
from pathlib import Path
{setup}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    {call}
    outcome = "read"
except {refusal} as error:
    outcome = "refused: " + str(error)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) // 1024, outcome)
"""


def peak_growth_mib(setup: str, call: str, refusal: str) -> tuple[int, str]:
    """Run ``call`` in a fresh Python after ``setup``: how many MiB its peak resident size grew, and how it ended."""
    script = READ_IN_A_CHILD.format(setup=textwrap.dedent(setup), call=call, refusal=refusal)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    growth, outcome = done.stdout.split(" ", 1)
    return int(growth), outcome.strip()


@pytest.fixture(scope="module")
def bomb_body() -> bytes:
    """About a megabyte of deflate that unzips to a gigabyte."""
    body = deflated_zeros(BOMB_MIB)
    assert len(body) < 2 * MIB
    return body


@pytest.mark.parametrize("lie", sorted(BOMBS))
def test_the_score_servers_web_process_reads_a_zip_bomb_in_bounded_memory(
    tmp_path: Path, bomb_body: bytes, lie: str
) -> None:
    upload = tmp_path / "bomb.zip"
    upload.write_bytes(BOMBS[lie](bomb_body))
    growth, outcome = peak_growth_mib(
        f"from roguelike.server.envelope import Limits, Refused, open_upload\nbody = Path({str(upload)!r}).read_bytes()",
        "open_upload(body, Limits())",
        "Refused",
    )
    assert outcome.startswith("refused: ") and growth < MOST_GROWTH_MIB, (growth, outcome)


@pytest.mark.parametrize("lie", sorted(BOMBS))
def test_hedonic_import_reads_a_zip_bomb_in_bounded_memory(tmp_path: Path, bomb_body: bytes, lie: str) -> None:
    score_file = tmp_path / "bomb.zip"
    score_file.write_bytes(BOMBS[lie](bomb_body))
    growth, outcome = peak_growth_mib(
        "from roguelike.scores.scorefile import ScoreFileError, import_file",
        f"import_file(Path({str(tmp_path / 'data')!r}), Path({str(score_file)!r}))",
        "ScoreFileError",
    )
    assert outcome.startswith(f"refused: {score_file}: ") and growth < MOST_GROWTH_MIB, (growth, outcome)


def test_a_bundle_is_still_read_whole_when_it_tells_the_truth(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("game.replay", b"HHREPLAY" + bytes(range(256)) * 300)
    assert read_member(io.BytesIO(buffer.getvalue()), "game.replay", 1 << 20) == b"HHREPLAY" + bytes(range(256)) * 300


def test_hedonic_import_refuses_a_device_unread(tmp_path: Path) -> None:
    # in a child with its address space bounded: reading /dev/zero to the end could only end in running out
    limit = "import resource; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)); "
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            limit + "from roguelike.cli.main import main; "
            f"raise SystemExit(main(['import', '/dev/zero', '--data-dir', {str(tmp_path)!r}]))",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 2 and "hedonic import: /dev/zero: not a regular file" in done.stderr, done.stderr[-2000:]


def test_hedonic_import_refuses_a_pipe_without_waiting_for_a_writer(tmp_path: Path) -> None:
    pipe = tmp_path / "score.replay"
    os.mkfifo(pipe)
    with pytest.raises(ScoreFileError, match="score.replay: not a regular file"):
        import_file(tmp_path / "data", pipe)
