"""Runtimes: each epoch's code kept with its hashes and lock, found, rebuilt when damaged,
pruned, made from git, and run in a child process to verify and show old replays.

Every test here runs offline (PIP_NO_INDEX, UV_OFFLINE) with its own cache folder."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.wheelhouse import wheelhouse
from conftest import ROOT
from roguelike import __version__
from roguelike.cli.epochs import forwarded
from roguelike.core.epoch import RULES_EPOCH
from roguelike.replay.fileformat import Header, read_replay, replay_bytes
from roguelike.runtimes import keep, store
from roguelike.runtimes.dispatch import runtime_for
from roguelike.runtimes.pins import current_lock, differences
from roguelike.runtimes.prune import removable
from roguelike.runtimes.sources import add_source, past_epochs
from roguelike.runtimes.store import Runtime, RuntimeTrouble, damage, kept_runtimes

PACKAGES = ("roguelike", "components", "systems")


@pytest.fixture(autouse=True)
def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own, and no package index reachable."""
    monkeypatch.setenv("HEDONIC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("UV_OFFLINE", "1")
    return tmp_path / "cache"


def hedonic(args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """The game's command line run from a folder (its own code when it holds the game)."""
    return subprocess.run(
        [sys.executable, "-m", "roguelike", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=600,
    )


def game_copy(folder: Path, epoch: int, start: int | None = None) -> Path:
    """A copy of this game's code under another rules epoch, its start State of Mind changed if asked."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("__pycache__"))
    epoch_file = folder / "roguelike/core/epoch.py"
    epoch_file.write_text(
        epoch_file.read_text().replace(f"RULES_EPOCH: Final = {RULES_EPOCH}", f"RULES_EPOCH: Final = {epoch}")
    )
    if start is not None:
        formulas = folder / "roguelike/content/formulas.py"
        formulas.write_text(
            formulas.read_text().replace("STATE_OF_MIND_START: Final = 20", f"STATE_OF_MIND_START: Final = {start}")
        )
    return folder


def committed(folder: Path) -> str:
    """Make a folder a git repository of one commit; its id."""
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "code"], check=True)
    return subprocess.run([*git[:3], "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def test_the_first_run_keeps_the_games_own_code_once(offline_cache: Path, tmp_path: Path) -> None:
    for _ in range(2):
        assert hedonic(["saves", "--data-dir", str(tmp_path / "data")]).returncode == 0
    kept, unreadable = kept_runtimes()
    assert unreadable == [] and len(kept) == 1
    runtime = kept[0]
    assert (runtime.epoch, runtime.version, runtime.source) == (RULES_EPOCH, __version__, f"installed {__version__}")
    assert "roguelike/core/epoch.py" in runtime.files and damage(runtime) == []
    assert runtime.lock == current_lock() and runtime.path.is_relative_to(offline_cache)


def test_a_damaged_runtime_is_named_and_rebuilt_never_used() -> None:
    runtime = keep.keep_own_runtime()
    assert runtime is not None
    (runtime.code / "roguelike/core/rng.py").write_text("raise SystemExit('a damaged runtime ran')\n")
    listed = hedonic(["runtimes"])
    assert listed.returncode == 1 and "DAMAGED (roguelike/core/rng.py: changed" in listed.stdout
    told: list[str] = []
    found = runtime_for(RULES_EPOCH, 3, told.append)
    assert damage(found) == [] and "damaged" in told[0] and "rebuilt" in told[-1]


def test_a_damaged_runtime_that_cannot_be_rebuilt_is_refused(tmp_path: Path) -> None:
    runtime = add_source(str(game_copy(tmp_path / "other", RULES_EPOCH + 5)))
    shutil.rmtree(tmp_path / "other")
    (runtime.code / "roguelike/__init__.py").unlink()
    told: list[str] = []
    with pytest.raises(RuntimeTrouble, match=f"no runtime of rules epoch {RULES_EPOCH + 5}"):
        runtime_for(RULES_EPOCH + 5, 3, told.append)
    assert "roguelike/__init__.py: missing" in told[0] and "cannot be rebuilt" in told[1]


def test_a_git_revision_becomes_a_runtime_of_its_epoch(tmp_path: Path) -> None:
    commit = committed(game_copy(tmp_path / "repo", RULES_EPOCH + 1))
    runtime = add_source(commit[:10], tmp_path / "repo")
    assert kept_runtimes()[0] == [runtime]
    assert runtime.epoch == RULES_EPOCH + 1 and runtime.source == f"git {commit}@{tmp_path / 'repo'}"
    assert set(runtime.files) == {
        p.relative_to(tmp_path / "repo").as_posix()
        for p in (tmp_path / "repo").rglob("*")
        if p.is_file() and ".git" not in p.parts
    }


def test_the_last_commit_of_each_earlier_epoch_is_found_in_history(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "roguelike/core").mkdir(parents=True)
    commits: list[str] = []
    for epoch, note in [(1, "a"), (1, "b"), (2, "c"), (2, "d"), (3, "e")]:
        (repo / "roguelike/core/epoch.py").write_text(f"RULES_EPOCH: Final = {epoch}\n# {note}\n")
        shutil.rmtree(repo / ".git", ignore_errors=True) if not commits else None
        commits.append(committed(repo) if not commits else commit_all(repo, note))
    assert past_epochs(repo) == {1: commits[1], 2: commits[3]}


def commit_all(repo: Path, message: str) -> str:
    """Commit every change of a repository; the new commit's id."""
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "commit", "-qam", message], check=True)
    return subprocess.run([*git[:3], "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def test_prune_keeps_the_newest_runtime_each_replay_epoch_needs_and_the_games_own() -> None:
    def runtime(epoch: int, version: str, replay_format: int = 3) -> Runtime:
        return Runtime(Path(f"/r/{epoch}/{version}"), epoch, version, replay_format, "folder x", {}, {})

    own = runtime(RULES_EPOCH, __version__)
    old, older, reads_less = runtime(50, "0.10.0"), runtime(50, "0.9.0"), runtime(51, "0.9.0", replay_format=2)
    unneeded = runtime(52, "0.9.0")
    assert removable([own, old, older, reads_less, unneeded], {50: 3, 51: 3}) == [older, reads_less, unneeded]


def test_prune_from_the_command_line_removes_what_no_replay_needs(tmp_path: Path) -> None:
    keep.keep_own_runtime()
    add_source(str(game_copy(tmp_path / "old", RULES_EPOCH + 3)))
    recorded = hedonic(["simulate", "--seed", "2", "--turns", "5", "--data-dir", str(tmp_path / "data")])
    assert recorded.returncode == 0, recorded.stderr
    done = hedonic(["runtimes", "--prune", "--data-dir", str(tmp_path / "data")])
    assert done.returncode == 0 and "1 removed, 1 kept" in done.stdout, done.stdout + done.stderr
    assert [r.epoch for r in kept_runtimes()[0]] == [RULES_EPOCH]


def test_only_this_games_options_are_kept_from_an_older_runtimes_command_line() -> None:
    argv = ["replay", "F.replay", "--wheels", "W", "--online", "--installer=uv", "--isolated", "--terminal"]
    assert forwarded(argv) == ["replay", "F.replay", "--terminal"]


def test_the_lock_names_every_library_that_differs() -> None:
    lock = current_lock()
    assert {"tcod", "numpy", "esper", "msgpack"} <= set(lock) and differences(lock) == []
    assert differences({**lock, "numpy": "0.0.1"}) == [f"numpy 0.0.1 (here {lock['numpy']})"]


def other_epoch_replay(folder: Path, epoch: int) -> Path:
    """A corpus replay given another epoch in its header (so no runtime can play it)."""
    replay = read_replay(ROOT / "replays/death-overdose.replay")
    header = Header(**{**replay.header.__dict__, "epoch": epoch})
    path = folder / "other.replay"
    path.write_bytes(replay_bytes(replay.__class__(header, replay.steps, replay.crash, replay.ends, None, 3)))
    return path


@pytest.mark.parametrize(
    "command", [["--verify"], ["--inspect", "3"], ["--terminal"], ["--to-turn", "3", "--save-as", "X"]]
)
def test_a_replay_of_an_epoch_without_runtime_gets_one_line_and_exit_2(tmp_path: Path, command: list[str]) -> None:
    path = other_epoch_replay(tmp_path, RULES_EPOCH + 9)
    done = hedonic(["replay", str(path), *command, "--data-dir", str(tmp_path)])
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert f"rules epoch {RULES_EPOCH + 9}, a newer game's (this game plays epoch {RULES_EPOCH})" in done.stderr
    assert "hedonic runtimes --add" in done.stderr


def test_two_epochs_side_by_side_verify_from_the_new_code(tmp_path: Path) -> None:
    commit = committed(game_copy(tmp_path / "old", RULES_EPOCH))
    new = game_copy(tmp_path / "new", RULES_EPOCH + 1, start=21)
    assert hedonic(["runtimes", "--add", commit], cwd=tmp_path / "old").returncode == 0
    shutil.rmtree(store.epoch_folder(RULES_EPOCH + 1), ignore_errors=True)
    for code, data in ((tmp_path / "old", "old-data"), (new, "new-data")):
        assert (
            hedonic(
                ["simulate", "--seed", "5", "--turns", "150", "--data-dir", str(tmp_path / data)], cwd=code
            ).returncode
            == 0
        )
    old_replay, new_replay = (next((tmp_path / d / "replays").glob("*.replay")) for d in ("old-data", "new-data"))
    done = hedonic(["replay", "--verify", str(old_replay), str(new_replay)], cwd=new)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].endswith(f"verified ({lines[0].split('(')[1].split(')')[0]}) under rules epoch {RULES_EPOCH}")
    assert lines[1] == (
        f"  recorded under rules epoch {RULES_EPOCH} (this game plays epoch {RULES_EPOCH + 1}): "
        f"played by the runtime of epoch {RULES_EPOCH}, version {__version__}"
    )
    assert lines[2].endswith(f"under rules epoch {RULES_EPOCH + 1}")
    inspected = hedonic(["replay", str(old_replay), "--inspect", "1"], cwd=new)
    assert inspected.returncode == 0 and '"turn": 1' in inspected.stdout, inspected.stderr
    assert f"played by the runtime of epoch {RULES_EPOCH}" in inspected.stderr


@pytest.mark.slow
def test_a_runtime_runs_in_an_isolated_environment_made_offline_by_uv_and_by_pip(tmp_path: Path) -> None:
    wheels = wheelhouse(current_lock(), tmp_path / "wheels")
    commit = committed(game_copy(tmp_path / "old", RULES_EPOCH))
    new = game_copy(tmp_path / "new", RULES_EPOCH + 1)
    assert hedonic(["runtimes", "--add", commit], cwd=tmp_path / "old").returncode == 0
    assert (
        hedonic(
            ["simulate", "--seed", "4", "--turns", "60", "--data-dir", str(tmp_path / "d")], cwd=tmp_path / "old"
        ).returncode
        == 0
    )
    replay = next((tmp_path / "d" / "replays").glob("*.replay"))
    missing = hedonic(["replay", "--verify", "--isolated", str(replay)], cwd=new)
    assert missing.returncode == 2 and "give --wheels FOLDER" in missing.stderr
    for installer in ("uv", "pip"):
        shutil.rmtree(Path(os.environ["HEDONIC_CACHE_DIR"]) / "runtimes" / "environments", ignore_errors=True)
        done = hedonic(
            ["replay", "--verify", "--isolated", "--installer", installer, "--wheels", str(wheels), str(replay)],
            cwd=new,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "making an environment" in done.stderr and "played by the runtime" in done.stdout
