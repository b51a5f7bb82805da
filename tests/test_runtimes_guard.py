"""A runtime is checked before it runs and runs guarded (issue 47, R13-R16): a file added to or
changed in a kept runtime is found and the runtime is never used as it is, a damaged runtime
is moved aside (never deleted) and rebuilt from where it came from, a version or epoch that
would make a path outside the cache is refused, and a runtime's child dies with its whole
process group at the time limit.

The runtimes here are small stand-in games (the files a runtime needs, and a ``main`` that
says what it saw), so these tests start no real game."""

from __future__ import annotations

import json
import os
import py_compile
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from roguelike.core.epoch import RULES_EPOCH
from roguelike.runtimes.dispatch import Options, child_command, child_environment, run_in_runtime, runtime_for
from roguelike.runtimes.prune import remove
from roguelike.runtimes.sources import add_source
from roguelike.runtimes.store import CODE, DESCRIPTION, Runtime, RuntimeTrouble, cache_root, damage, kept_runtimes

EPOCH = RULES_EPOCH + 7
HONEST_MAIN = """\
def main(argv):
    import sys
    try:
        import planted  # on PYTHONPATH or in the user's site folder: never for a runtime
    except ImportError:
        print("nothing planted")
    else:
        print("planted ran")
    print("flags", sys.flags.isolated, sys.flags.no_user_site, sys.flags.dont_write_bytecode)
    return 0
"""


@pytest.fixture(autouse=True)
def offline_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of the test's own, and no package index reachable."""
    monkeypatch.setenv("HEDONIC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("UV_OFFLINE", "1")
    return tmp_path / "cache"


def stand_in(folder: Path, main: str = HONEST_MAIN, version: str = "0.0.1", epoch: str = str(EPOCH)) -> Path:
    """A folder holding what a runtime needs: a version, an epoch, a replay format and a ``main``."""
    files = {
        "roguelike/__init__.py": f'__version__ = "{version}"\n',
        "roguelike/core/__init__.py": "",
        "roguelike/core/epoch.py": f"RULES_EPOCH: Final = {epoch}\n",
        "roguelike/replay/__init__.py": "",
        "roguelike/replay/fileformat.py": "FORMAT_VERSION = 3\n",
        "roguelike/cli/__init__.py": "",
        "roguelike/cli/main.py": main,
    }
    for relative, text in files.items():
        (folder / relative).parent.mkdir(parents=True, exist_ok=True)
        (folder / relative).write_text(text)
    return folder


def committed(folder: Path) -> str:
    """Make a folder a git repository of one commit; its id."""
    git = ["git", "-C", str(folder), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "code"], check=True)
    return subprocess.run([*git[:3], "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


def outside_copy(runtime: Runtime, relative: str, tmp_path: Path) -> Path:
    """A copy of one of the runtime's files outside the cache (the same bytes)."""
    copy = tmp_path / "elsewhere" / Path(relative).name
    copy.parent.mkdir(exist_ok=True)
    copy.write_bytes((runtime.code / relative).read_bytes())
    return copy


def relink(path: Path, target: Path) -> None:
    """Replace a file by a symbolic link to another."""
    path.unlink()
    path.symlink_to(target)


Tampering = Callable[[Runtime, Path], object]
TAMPERINGS: dict[str, Tampering] = {
    "a module shadowing msgpack": lambda r, t: (r.code / "msgpack.py").write_text("print('shadow')\n"),
    "a changed file": lambda r, t: (r.code / "roguelike/cli/main.py").write_text("def main(argv):\n    return 9\n"),
    "a planted .pyc in __pycache__": lambda r, t: plant_pyc(r.code / "roguelike/cli", "main.py"),
    "a sourceless .pyc": lambda r, t: plant_pyc(r.code, "msgpack.py", sourceless=True),
    "a .pth file": lambda r, t: (r.code / "planted.pth").write_text("import os\n"),
    "a sitecustomize.py": lambda r, t: (r.code / "sitecustomize.py").write_text("print('planted')\n"),
    "a file beside the description": lambda r, t: (r.path / "usercustomize.py").write_text("print('planted')\n"),
    "an empty folder (a namespace package)": lambda r, t: (r.code / "msgpack").mkdir(),
    "a symlink pointing out of the folder": lambda r, t: (r.code / "roguelike/out").symlink_to(t, True),
    "a listed file made a symlink to the same bytes": lambda r, t: relink(
        r.code / "roguelike/cli/main.py", outside_copy(r, "roguelike/cli/main.py", t)
    ),
}


def plant_pyc(folder: Path, source_name: str, sourceless: bool = False) -> None:
    """Bytecode that would say it was planted, where the import system looks for it."""
    evil = folder.parent / "evil-source.py"
    evil.write_text("def main(argv):\n    print('planted bytecode ran')\n    return 0\n")
    stem = source_name.removesuffix(".py")
    target = (
        folder / f"{stem}.pyc" if sourceless else folder / "__pycache__" / f"{stem}.{sys.implementation.cache_tag}.pyc"
    )
    py_compile.compile(str(evil), cfile=str(target), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    evil.unlink()


@pytest.mark.parametrize("how", list(TAMPERINGS))
def test_anything_added_to_or_changed_in_a_runtime_is_found(tmp_path: Path, how: str) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    assert damage(runtime) == []
    TAMPERINGS[how](runtime, tmp_path)
    assert damage(runtime), f"{how}: not found"


@pytest.mark.parametrize("how", list(TAMPERINGS))
def test_a_tampered_runtime_is_never_run_and_its_folder_is_named(tmp_path: Path, how: str) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    TAMPERINGS[how](runtime, tmp_path)
    shutil.rmtree(tmp_path / "game")  # only its own files, checked against their hashes, can make it again
    told: list[str] = []
    try:
        used = runtime_for(EPOCH, 3, told.append)
    except RuntimeTrouble:
        used = None
    assert str(runtime.path) in told[0] and "damaged" in told[0]
    if used is None:  # a file of its own was changed: nothing at hand can make it again
        assert how == "a changed file" and "cannot be rebuilt" in told[-1], told
    else:  # made again from its own files that match their hashes, the tampered copy kept aside
        assert damage(used) == [] and "moved" in "".join(told)
        done = run_in_runtime(used, ["replay"], Options(), told.append, capture=True)
        assert done.stdout.splitlines()[0] == "nothing planted", done.stdout + done.stderr


def test_a_tampered_runtime_is_refused_by_the_run_itself(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    (runtime.code / "msgpack.py").write_text("print('shadow')\n")
    with pytest.raises(RuntimeTrouble, match=str(runtime.path)):
        run_in_runtime(runtime, ["replay"], Options(), print, capture=True)


def test_the_child_ignores_pythonpath_user_site_and_bytecode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "path").mkdir()
    (tmp_path / "path/planted.py").write_text("print('planted on PYTHONPATH')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "path"))
    runtime = add_source(str(stand_in(tmp_path / "game")))
    done = run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
    assert done.stdout.splitlines() == ["nothing planted", "flags 1 1 1"], done.stdout + done.stderr
    assert damage(runtime) == [], "running a runtime wrote into it"


@pytest.mark.parametrize("sourceless", [False, True])
def test_bytecode_planted_after_the_check_never_loads(tmp_path: Path, sourceless: bool) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    if sourceless:
        (runtime.code / "roguelike/cli/main.py").unlink()  # a module that is only bytecode
    plant_pyc(runtime.code / "roguelike/cli", "main.py", sourceless)
    command = child_command(runtime, Path(sys.executable), ["replay"])
    done = subprocess.run(command, env=child_environment(), capture_output=True, text=True, timeout=300)
    assert "planted bytecode ran" not in done.stdout, done.stdout
    assert done.returncode != 0 if sourceless else done.stdout.startswith("nothing planted"), done.stdout + done.stderr


def test_a_damaged_runtime_from_git_is_moved_aside_and_rebuilt_from_git(tmp_path: Path) -> None:
    commit = committed(stand_in(tmp_path / "repo"))
    runtime = add_source(commit, tmp_path / "repo")
    (runtime.code / "roguelike/cli/main.py").write_text("def main(argv):\n    return 9\n")
    told: list[str] = []
    found = runtime_for(EPOCH, 3, told.append)
    assert damage(found) == [] and found.source == runtime.source and found.path == runtime.path
    aside = [line for line in told if "moved the damaged copy to" in line]
    assert aside and "rebuilt" in told[-1], told
    kept_aside = Path(aside[0].split("moved the damaged copy to ")[1].split(";")[0].strip())
    assert (kept_aside / CODE / "roguelike/cli/main.py").read_text() == "def main(argv):\n    return 9\n"
    assert kept_aside.is_relative_to(cache_root()) and kept_runtimes()[0] == [found]
    listed = subprocess.run(
        [sys.executable, "-m", "roguelike", "runtimes"],
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ),
    )
    assert (
        f"1 damaged copy moved aside (never used; yours to look into or delete): {kept_aside.parent.parent}"
        in listed.stdout
    ), listed.stdout + listed.stderr


def test_a_damaged_runtime_that_cannot_be_rebuilt_stays_where_it_is(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    (tmp_path / "game/roguelike/__init__.py").unlink()  # its source is no longer a game
    (runtime.code / "roguelike/cli/main.py").write_text("def main(argv):\n    return 9\n")
    told: list[str] = []
    with pytest.raises(RuntimeTrouble, match=f"no runtime of rules epoch {EPOCH}"):
        runtime_for(EPOCH, 3, told.append)
    assert (runtime.path / DESCRIPTION).is_file() and damage(runtime) == ["roguelike/cli/main.py: changed"], told


@pytest.mark.parametrize("version", ["../../x", "ABSOLUTE", "a/b", "..", ".hidden", "1.0\\..\\..\\x", ""])
def test_a_version_that_is_not_a_plain_version_is_refused(tmp_path: Path, version: str) -> None:
    version = str(tmp_path / "abs") if version == "ABSOLUTE" else version
    game = stand_in(tmp_path / "game", version=version)
    with pytest.raises(RuntimeTrouble, match="version"):
        add_source(str(game))
    assert list(tmp_path.rglob(DESCRIPTION)) == [], "a runtime was written somewhere"


def test_an_epoch_too_long_to_be_one_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RuntimeTrouble, match="epoch"):
        add_source(str(stand_in(tmp_path / "game", epoch="9" * 5000)))


@pytest.mark.parametrize("field, value", [("version", "../../x"), ("version", "/tmp/x"), ("epoch", -3), ("epoch", 0)])
def test_a_description_naming_a_path_is_not_a_runtime(tmp_path: Path, field: str, value: object) -> None:
    import json

    runtime = add_source(str(stand_in(tmp_path / "game")))
    described = json.loads((runtime.path / DESCRIPTION).read_text())
    (runtime.path / DESCRIPTION).write_text(json.dumps({**described, field: value}))
    kept, unreadable = kept_runtimes()
    assert kept == [] and len(unreadable) == 1 and field in unreadable[0] and str(runtime.path) in unreadable[0]


SLEEPER_MAIN = """\
def main(argv):
    import subprocess, sys, time
    from pathlib import Path
    here = Path(__file__).resolve()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(10 ** 6)", str(here)])
    (here.parents[3].parent / "started").write_text(f"{child.pid}\\n")
    time.sleep(10 ** 6)
"""
WORK_HORSE = """\
import signal, sys
from pathlib import Path
from roguelike.runtimes.dispatch import Options, run_in_runtime
from roguelike.runtimes.store import read_runtime
runtime = read_runtime(Path(sys.argv[1]))
signal.setitimer(signal.ITIMER_REAL, float(sys.argv[2]))  # a score server's work-horse: SIGALRM kills it
run_in_runtime(runtime, ["replay"], Options(), print, capture=True)
print("the runtime came back")
"""


def processes_naming(text: str, part: str = "cmdline") -> list[int]:
    """The live (not zombie) processes other than this one whose command line (or another ``/proc/PID`` file,
    such as ``environ``) holds some text."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            held = (entry / part).read_bytes().decode(errors="replace")
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if entry.name.isdigit() and text in held and state != "Z" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_a_runtime_child_and_all_it_started_die_at_the_time_limit(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game", main=SLEEPER_MAIN)))
    marker = str(runtime.code)
    try:
        horse = subprocess.run(
            [sys.executable, "-c", WORK_HORSE, str(runtime.path), "8"],
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(os.environ),
        )
        assert (runtime.path.parent / "started").is_file(), "the runtime's child never started: " + horse.stderr
        assert "the runtime came back" not in horse.stdout
        left = processes_naming(marker)
        for _ in range(100):  # a killed grandchild is reaped by init, not by us
            left = processes_naming(marker)
            if not left:
                break
            time.sleep(0.1)
        assert left == [], "processes of the runtime outlived the time limit"
    finally:
        for pid in processes_naming(marker):
            os.kill(pid, 9)


FORKED_VERIFIER = """\
import dataclasses, json, multiprocessing, sys
from pathlib import Path
from roguelike.replay.fileformat import read_replay, replay_bytes
from roguelike.server.child import ChildLimits
from roguelike.server.forked import outcome
from roguelike.server.job import verify_and_send
replay = read_replay(Path(sys.argv[1]))
data = replay_bytes(dataclasses.replace(replay, header=dataclasses.replace(replay.header, epoch=int(sys.argv[2]))))
limits = ChildLimits(seconds=float(sys.argv[3]))
context = multiprocessing.get_context("fork")  # as the score server's fork server makes its processes
reader, writer = context.Pipe(duplex=False)
process = context.Process(target=verify_and_send, args=(data, limits.to_plain(), writer), daemon=True)
process.start()
writer.close()
print(json.dumps(outcome(process, reader, limits)))
"""


def test_a_runtime_started_by_a_forked_verification_dies_with_all_it_started_at_the_time_limit(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game", main=SLEEPER_MAIN)))
    replay = Path(__file__).parent.parent / "replays" / "death-exhaustion.replay"
    try:
        server = subprocess.run(
            [sys.executable, "-c", FORKED_VERIFIER, str(replay), str(EPOCH), "4"],
            capture_output=True,
            text=True,
            timeout=300,
            env=dict(os.environ),
        )
        verdict = json.loads(server.stdout.splitlines()[-1]) if server.stdout else {"stderr": server.stderr}
        # Its alarm ends the runtime's group; the process then dies of it, or (when that last millisecond
        # lets it) sends the runtime's own verdict first: either way the run is not verified, saying why.
        assert verdict["verdict"] in ("killed", "unverifiable here"), verdict
        assert "over its time limit" in verdict["detail"], verdict
        left = processes_naming(str(runtime.code))
        for _ in range(100):  # a killed grandchild is reaped by init, not by us
            if not left:
                break
            time.sleep(0.1)
            left = processes_naming(str(runtime.code))
        assert left == [], "processes of the runtime outlived the forked verification's time limit"
    finally:
        for pid in processes_naming(str(runtime.code)):
            os.kill(pid, 9)


def test_a_runtime_folder_that_is_a_symbolic_link_is_damage(tmp_path: Path) -> None:
    runtime = add_source(str(stand_in(tmp_path / "game")))
    moved = tmp_path / "moved"
    runtime.path.rename(moved)
    runtime.path.symlink_to(moved, target_is_directory=True)
    assert damage(runtime) == [f"{runtime.path}: a symbolic link"]


def test_a_runtime_kept_later_shares_only_the_files_that_still_match_their_hashes(tmp_path: Path) -> None:
    first = add_source(str(stand_in(tmp_path / "one")))
    (first.code / "roguelike/cli/main.py").write_text("def main(argv):\n    return 9\n")  # changed once kept
    second = add_source(str(stand_in(tmp_path / "two", version="0.0.2")))
    alike = "roguelike/core/epoch.py"
    assert (second.code / alike).stat().st_ino == (first.code / alike).stat().st_ino, "files alike are shared"
    assert (second.code / "roguelike/cli/main.py").read_text() == HONEST_MAIN, "a changed file is never shared"
    remove(first)
    assert damage(second) == []


@pytest.mark.parametrize("refusal", [OSError(18, "Invalid cross-device link"), NotImplementedError()])
def test_a_runtime_whose_files_cannot_be_linked_keeps_copies_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, refusal: BaseException
) -> None:
    first = add_source(str(stand_in(tmp_path / "one")))

    def refuse(*args: object, **kwargs: object) -> None:
        raise refusal

    monkeypatch.setattr(os, "link", refuse)
    second = add_source(str(stand_in(tmp_path / "two", version="0.0.2")))
    alike = "roguelike/core/epoch.py"
    assert (second.code / alike).read_bytes() == (first.code / alike).read_bytes()
    assert (second.code / alike).stat().st_ino != (first.code / alike).stat().st_ino, "written, not linked"
    remove(first)
    assert damage(second) == []
