"""Runtimes against strangers (issue 46): a replay naming an epoch, a hostile wheel or folder, the network.

A stranger's replay chooses only a number, its rules epoch: the code that runs is a runtime
the player kept of that epoch, or none. A wheel or folder given to ``--add`` is unpacked and
read as plain files inside it, within a bound. Offline, no installer is let near an index.
The runtimes here are the small stand-in games of tests/test_runtimes_guard.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.runtimes import environments
from roguelike.runtimes.sources import add_source
from roguelike.runtimes.store import RuntimeTrouble, kept_runtimes
from roguelike.scores.proof import UNVERIFIABLE, prove_file
from server_helpers import CORPUS
from test_runtimes_guard import EPOCH, offline_cache, stand_in  # noqa: F401

MARKING_MAIN = """\
def main(argv):
    import os
    with open(os.environ["HEDONIC_TEST_MARKER"], "a") as marker:
        marker.write(" ".join(argv) + "\\n")
    return 0
"""


def stranger(folder: Path, epoch: int, replay_format: int | None = None) -> Path:
    """A corpus replay as a stranger's file naming another rules epoch (and replay format)."""
    replay = read_replay(next(path for path in CORPUS if path.name == "death-exhaustion.replay"))
    changed = replace(replay, header=replace(replay.header, epoch=epoch), format=replay_format or replay.format)
    path = folder / f"epoch-{epoch}-{replay_format}.replay"
    path.write_bytes(replay_bytes(changed))
    return path


def test_a_strangers_replay_runs_only_the_runtime_kept_for_its_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, offline_cache: Path
) -> None:
    marker = tmp_path / "ran.txt"
    monkeypatch.setenv("HEDONIC_TEST_MARKER", str(marker))
    kept = add_source(str(stand_in(tmp_path / "kept", MARKING_MAIN)))
    planted = stand_in(offline_cache / f"epoch-{EPOCH + 1}" / "0.0.1-planted" / "code", MARKING_MAIN)
    (planted.parent / "runtime.json").write_text((kept.path / "runtime.json").read_text().replace(str(EPOCH), "x"))
    (offline_cache / f"epoch-{EPOCH + 2}").mkdir()
    stand_in(offline_cache / f"epoch-{EPOCH + 2}" / "code", MARKING_MAIN)  # code with no description at all
    for epoch, replay_format in ((EPOCH + 1, None), (EPOCH + 2, None), (EPOCH + 3, None), (EPOCH, 99)):
        proof = prove_file(stranger(tmp_path, epoch, replay_format))
        assert proof.verdict in (UNVERIFIABLE, "unreadable") and proof.score is None
        assert not marker.exists(), f"epoch {epoch}: {marker.read_text()}"
    assert [runtime.path for runtime in kept_runtimes()[0]] == [kept.path]
    proof = prove_file(stranger(tmp_path, EPOCH))  # the epoch the player kept: its runtime, and only it, ran
    assert proof.verdict == UNVERIFIABLE and marker.read_text().startswith("replay --verify --json")


def wheel(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    """A wheel holding the stand-in game, and more."""
    source = stand_in(path.parent / "wheel-source")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(source.rglob("*")):
            if file.is_file():
                archive.write(file, file.relative_to(source).as_posix())
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.create_system = 3
            info.external_attr = (0o120777) << 16  # a symbolic link, for unzip
            archive.writestr(info, target)
    return path


def test_a_wheels_members_naming_paths_outside_or_links_never_leave_the_cache(
    tmp_path: Path, offline_cache: Path
) -> None:
    outside = tmp_path / "outside"
    members = {
        "roguelike/../../../outside/escaped.py": b"x = 1\n",
        "../outside/escaped2.py": b"x = 1\n",
        str(outside / "absolute.py"): b"x = 1\n",
    }
    runtime = add_source(
        str(wheel(tmp_path / "hostile.whl", members, {"roguelike/etc": "/etc", "roguelike/p": "/etc/passwd"}))
    )
    assert not outside.exists()
    assert not [path for path in runtime.path.rglob("*") if path.is_symlink()]
    assert (runtime.code / "roguelike/p").read_bytes() == b"/etc/passwd"  # a link's text, kept as a file's bytes


def test_a_wheel_whose_member_unzips_past_the_bound_is_refused_unwritten(tmp_path: Path, offline_cache: Path) -> None:
    bomb = wheel(tmp_path / "bomb.whl", {"roguelike/big.py": b"\0" * (300 * 1024 * 1024)})
    assert bomb.stat().st_size < 1024 * 1024
    with pytest.raises(RuntimeTrouble, match="bomb.whl"):
        add_source(str(bomb))
    assert kept_runtimes()[0] == []


def test_a_folder_whose_files_lead_out_of_it_is_refused(tmp_path: Path, offline_cache: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("the user's private key")
    game = stand_in(tmp_path / "game")
    (game / "roguelike/key.py").symlink_to(secret)
    with pytest.raises(RuntimeTrouble, match="key.py"):
        add_source(str(game))
    assert kept_runtimes()[0] == [] and not [p for p in offline_cache.rglob("*") if p.is_file()]


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_folder_whose_epoch_file_is_no_file_is_refused_unread(tmp_path: Path, kind: str) -> None:
    game = stand_in(tmp_path / "game")
    epoch_file = game / "roguelike/core/epoch.py"
    epoch_file.unlink()
    if kind == "fifo":
        os.mkfifo(epoch_file)  # no writer: reading it would wait for ever
    else:
        epoch_file.symlink_to("/dev/zero")  # reading it would never end
    done = subprocess.run(
        [sys.executable, "-c", f"from roguelike.runtimes.sources import add_source; add_source({str(game)!r})"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "HEDONIC_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert done.returncode == 1 and "RuntimeTrouble" in done.stderr and "epoch.py" in done.stderr


def test_offline_no_installer_is_let_near_an_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in (("PIP_INDEX_URL", "http://index.invalid"), ("UV_OFFLINE", "0"), ("PIP_NO_INDEX", "0")):
        monkeypatch.setenv(name, value)  # the user's environment asks for an index
    ran: list[tuple[list[str], dict[str, str]]] = []

    def installer(step: list[str], env: dict[str, str], **_: object) -> subprocess.CompletedProcess[str]:
        ran.append((step, env))
        for made in {str(tmp_path / "uv"), str(tmp_path / "pip")} & set(step):  # what a venv step makes
            Path(made).mkdir()
        return subprocess.CompletedProcess(step, 0, "", "")

    monkeypatch.setattr(subprocess, "run", installer)
    monkeypatch.setattr(environments, "find_uv", lambda: "/usr/bin/uv")
    for chosen in ("uv", "pip"):
        environments.make_environment(tmp_path / chosen, {"msgpack": "1.0.8"}, tmp_path / "wheels", False, chosen)
    assert {Path(step[0]).name for step, _ in ran} >= {"uv", "python"}
    for step, env in ran:
        assert env["PIP_NO_INDEX"] == "1" and env["UV_OFFLINE"] == "1"
        assert "--offline" in step if Path(step[0]).name == "uv" else True
        if "install" in step:
            assert "--no-index" in step and not [arg for arg in step if "://" in arg]
