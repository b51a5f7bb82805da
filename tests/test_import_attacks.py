"""Score files from strangers, imported into the hall (issue 46): hostile zips and names, bad msgpack, a forged score.

A score file's zip is never unpacked: only its ``game.replay`` is read, so a member named
``../../x`` or a symbolic link writes nothing anywhere. Where a game is filed is made from
the proved name, cut to what a folder may be called; what a file claims is never shown.
"""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest

from replay_helpers import play
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import frame, parse_replay, preamble
from roguelike.replay.recorder import recording_observers
from roguelike.scores.proof import VERIFIED, prove_file
from roguelike.scores.scorefile import ScoreFileError, import_file
from test_scores_hall import hedonic

ESCAPING = "../../../escaped"


def game_of(root: Path, name: str, seed: int = 11) -> Path:
    """A game played to its death by ``name``; its replay."""
    game = Game.new(seed, name)
    session = Session(game, recording_observers(root, game, "game"))
    play(session, 3000)
    session.close()
    return root / "replays" / "game.replay"


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A finished game's replay."""
    return game_of(tmp_path_factory.mktemp("honest"), "Ann").read_bytes()


def files_under(folder: Path) -> set[str]:
    """Every path under a folder, relative to it."""
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")}


def symlink_member(bundle: zipfile.ZipFile, name: str, target: str) -> None:
    """A zip member that unzip would make a symbolic link to ``target``."""
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # Unix, whose mode bits say what the member is
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    bundle.writestr(info, target)


def test_members_named_out_of_the_folder_are_never_written(tmp_path: Path, honest: bytes) -> None:
    bundle = tmp_path / "sent" / "score.zip"
    bundle.parent.mkdir()
    with zipfile.ZipFile(bundle, "w") as score_file:
        for name in (f"{ESCAPING}.replay", "/tmp/absolute.replay", "..\\..\\windows.replay", "morgue.txt"):
            score_file.writestr(name, honest)
        symlink_member(score_file, "link", "/etc/passwd")
        score_file.writestr("game.replay", honest)
    proof, filed, new = import_file(tmp_path / "data", bundle)
    assert proof.verdict == VERIFIED and new and filed.read_bytes() == honest
    assert files_under(tmp_path) == {
        "data",
        "sent",
        "sent/score.zip",
        *(f"data/{part}" for part in files_under(tmp_path / "data")),
    }
    assert {path for path in files_under(tmp_path / "data") if path.endswith(".replay")} == {
        filed.relative_to(tmp_path / "data").as_posix()
    }
    assert not Path("/tmp/absolute.replay").exists()


@pytest.mark.parametrize("target", ["/etc/passwd", "../../elsewhere/game.replay"])
def test_a_replay_member_that_is_a_symbolic_link_is_read_as_the_bytes_it_holds(tmp_path: Path, target: str) -> None:
    bundle = tmp_path / "score.zip"
    with zipfile.ZipFile(bundle, "w") as score_file:
        symlink_member(score_file, "game.replay", target)
    proof, filed, new = import_file(tmp_path / "data", bundle)
    assert proof.verdict != VERIFIED and not new and filed == bundle  # the link's text is no replay
    assert not (tmp_path / "data" / "imported").exists()


def test_a_name_naming_a_path_is_filed_inside_the_imported_folder(tmp_path: Path) -> None:
    replay = game_of(tmp_path / "theirs", f"{ESCAPING}/..")
    proof, filed, new = import_file(tmp_path / "data", replay)
    assert proof.verdict == VERIFIED and proof.name == f"{ESCAPING}/.." and new
    assert filed.resolve().parent.parent == (tmp_path / "data" / "imported").resolve()
    assert ".." not in filed.relative_to(tmp_path / "data").parts
    assert files_under(tmp_path / "data" / "imported") == {filed.parent.name, f"{filed.parent.name}/{filed.name}"}


@pytest.mark.parametrize(
    "record",
    [
        b"\xc1",  # a byte msgpack never uses
        b"\x92\x00",  # a list of two that ends after one
        b"\xdd\xff\xff\xff\xff",  # a list claiming 4 billion items
        b"\x91" * 2000 + b"\x90",  # lists nested 2,000 deep
        b"\xc7\x05\x01hello",  # an extension type
    ],
)
def test_bad_msgpack_in_valid_framing_is_refused_with_the_file_named(
    tmp_path: Path, honest: bytes, record: bytes
) -> None:
    import zlib

    from roguelike.ground.replayframe import FRAME, MASK32

    replay = parse_replay(honest)
    path = tmp_path / "bad.replay"
    path.write_bytes(
        honest[: replay.ends[3]] + FRAME.pack(len(record), len(record) ^ MASK32, zlib.crc32(record)) + record
    )
    proof, filed, new = import_file(tmp_path / "data", path)
    assert proof.verdict == "unreadable" and not new and filed == path and path.read_bytes().endswith(record)
    assert not (tmp_path / "data" / "imported").exists()


def test_a_forged_score_in_the_header_and_the_morgue_is_never_shown(tmp_path: Path, honest: bytes) -> None:
    replay = parse_replay(honest)
    forged = preamble(replay.format) + frame({**replay.header.to_plain(replay.format), "score": 987654321})
    bundle = tmp_path / "score.zip"
    with zipfile.ZipFile(bundle, "w") as score_file:
        score_file.writestr("game.replay", forged + honest[replay.ends[0] :])
        score_file.writestr("morgue.txt", "Ann died with 987654321 points")
    done = hedonic("import", str(bundle), "--data-dir", str(tmp_path / "data"))
    truth = prove_file(write(tmp_path / "honest.replay", honest))
    assert done.returncode == 0 and f"{truth.score} points" in done.stdout and "987654321" not in done.stdout
    listed = hedonic("hall", "--data-dir", str(tmp_path / "data"))
    assert str(truth.score) in listed.stdout and "987654321" not in listed.stdout


def write(path: Path, data: bytes) -> Path:
    """Write a file; its path."""
    path.write_bytes(data)
    return path


def test_a_file_name_with_terminal_escapes_is_said_without_them(tmp_path: Path, honest: bytes) -> None:
    named = tmp_path / "score\x1b]0;owned\x07\x1b[2J.replay"
    named.write_bytes(b"not a replay at all")
    damaged = hedonic("import", str(named), "--data-dir", str(tmp_path / "data"))
    zipped = tmp_path / "score\x1b[31m.zip"
    with zipfile.ZipFile(zipped, "w") as score_file:
        score_file.writestr("morgue.txt", "no replay here")
    refused = hedonic("import", str(zipped), "--data-dir", str(tmp_path / "data"))
    for done in (damaged, refused):
        assert done.returncode == 2 and "\x1b" not in done.stdout + done.stderr
        assert "score?]0;owned??[2J.replay" in done.stderr or "score?[31m.zip" in done.stderr


def test_a_cut_zip_is_refused_with_its_name_and_kept(tmp_path: Path, honest: bytes) -> None:
    bundle = io.BytesIO()
    with zipfile.ZipFile(bundle, "w") as score_file:
        score_file.writestr("game.replay", honest)
    path = write(tmp_path / "score.zip", bundle.getvalue()[:-30])
    proof, filed, new = import_file(tmp_path / "data", path)
    assert proof.verdict == "unreadable" and filed == path and not new
    assert path.read_bytes() == bundle.getvalue()[:-30] and not (tmp_path / "data" / "imported").exists()
    stored = write(tmp_path / "stored.zip", bundle.getvalue().replace(b"game.replay", b"game.replaz"))
    with pytest.raises(ScoreFileError, match="stored.zip"):
        import_file(tmp_path / "data", stored)
