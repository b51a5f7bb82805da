"""The rules epoch in files and in the corpus: today's corpus records today's epoch, every
earlier epoch keeps its corpus in replays/epochs/<n>/, and those replays verify through
runtimes made from this repository's own history."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from roguelike.core.epoch import FIRST_EPOCH, RULES_EPOCH
from roguelike.replay import corpus, recorder
from roguelike.replay.fileformat import FORMAT_VERSION, read_header, read_replay
from roguelike.runtimes.dispatch import Options, run_in_runtime, runtime_for
from roguelike.runtimes.forker import shared_imports
from roguelike.runtimes.sources import past_epochs
from roguelike.runtimes.store import kept_runtimes
from roguelike.saves import read_save

CORPUS = ROOT / "replays"
EPOCHS = CORPUS / corpus.EPOCHS


def test_every_corpus_replay_records_the_rules_epoch_of_today() -> None:
    for path in sorted(CORPUS.glob("*.replay")):
        assert read_header(path)[1].epoch == RULES_EPOCH, f"{path.name}: re-record (hedonic replay --rerecord replays/)"


def test_each_earlier_epoch_keeps_its_corpus_and_only_its_own_replays() -> None:
    folders = sorted(p.name for p in EPOCHS.iterdir()) if EPOCHS.is_dir() else []
    expected = sorted(str(epoch) for epoch in range(FIRST_EPOCH, RULES_EPOCH))
    assert folders == expected, "bumping the epoch keeps its corpus"
    for folder in folders:
        files = sorted((EPOCHS / folder).glob("*.replay"))
        assert files, f"replays/epochs/{folder} holds no replay"
        assert {read_header(path)[1].epoch for path in files} == {int(folder)}


OFFLINE = {"PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}


@pytest.fixture(scope="session")
def history_runtimes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding the runtime of every earlier epoch, made once a session from this
    repository's history by ``hedonic runtimes --add-history``. Tests only read those: none damages
    or prunes one (those that do make their own, in tests/test_runtimes*.py); the command line
    keeps this game's own runtime beside them, which no test here counts on or against."""
    cache = tmp_path_factory.mktemp("history-runtimes")
    added = hedonic(["runtimes", "--add-history"], {"HEDONIC_CACHE_DIR": str(cache), **OFFLINE})
    assert added.returncode == 0, added.stderr
    return cache


def test_each_earlier_epoch_has_a_runtime_made_from_its_last_commit(
    history_runtimes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEDONIC_CACHE_DIR", str(history_runtimes))
    epochs = past_epochs(ROOT)
    assert sorted(epochs) == list(range(FIRST_EPOCH, RULES_EPOCH)), "each earlier epoch has a last commit"
    kept, _ = kept_runtimes()
    made = {runtime.epoch: runtime.source for runtime in kept if runtime.source.startswith("git ")}
    assert made == {epoch: f"git {commit}@{ROOT.resolve()}" for epoch, commit in epochs.items()}


@pytest.mark.long(22)
def test_each_earlier_epochs_replays_verify_in_the_runtime_of_their_epoch(
    history_runtimes: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One child a runtime verifies all its epoch's files (``hedonic replay --verify`` starts
    # one a file, and is run whole below for one epoch): the same runtime, command and
    # checks, without paying a Python start and a compile of the old code for each file.
    # Each child is forked, as the command line's are, from one import of the libraries.
    for name, value in {"HEDONIC_CACHE_DIR": str(history_runtimes), **OFFLINE}.items():
        monkeypatch.setenv(name, value)
    with shared_imports():
        for epoch in range(FIRST_EPOCH + 1, RULES_EPOCH):
            files = sorted((EPOCHS / str(epoch)).glob("*.replay"))
            notes: list[str] = []
            runtime = runtime_for(epoch, max(read_header(path)[0] for path in files), notes.append)
            assert runtime.epoch == epoch and not notes, notes
            done = run_in_runtime(
                runtime, ["replay", "--verify", "--jobs", "1", *map(str, files)], Options(), notes.append, capture=True
            )
            assert done.returncode == 0 and not notes, done.stdout + done.stderr
            for path in files:
                assert re.search(verified(path, epoch) + "$", done.stdout, re.MULTILINE), done.stdout


def test_the_command_line_verifies_an_earlier_epochs_replays_through_its_runtime(history_runtimes: Path) -> None:
    folder = EPOCHS / str(FIRST_EPOCH)  # the oldest code, the furthest from today's command line
    done = hedonic(["replay", "--verify", str(folder)], {"HEDONIC_CACHE_DIR": str(history_runtimes), **OFFLINE})
    assert done.returncode == 0, done.stdout + done.stderr
    for path in sorted(folder.glob("*.replay")):
        played = rf"\n  .*: played by the runtime of epoch {FIRST_EPOCH}, "
        assert re.search(verified(path, FIRST_EPOCH) + played, done.stdout, re.MULTILINE), done.stdout


def verified(path: Path, epoch: int) -> str:
    """The pattern of the line saying that every turn of a replay matched under its epoch."""
    return rf"^{re.escape(str(path))}: \d[\d,]* turns? verified .* under rules epoch {epoch}"


def hedonic(args: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the game's command line from the repository."""
    return subprocess.run(
        [sys.executable, "-m", "roguelike", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
        timeout=600,
    )


def test_a_new_replay_and_a_new_save_record_the_rules_epoch(tmp_path: Path) -> None:
    done = hedonic(["simulate", "--seed", "3", "--turns", "20", "--name", "Epoch", "--data-dir", str(tmp_path)], {})
    assert done.returncode == 0, done.stderr
    replay_format, header = read_header(next((tmp_path / "replays").glob("*.replay")))
    assert (replay_format, header.epoch) == (FORMAT_VERSION, RULES_EPOCH)
    assert read_save(next((tmp_path / "saves").glob("*.save"))).epoch == RULES_EPOCH


def test_saves_and_replays_older_than_epochs_are_the_first_epoch() -> None:
    assert {read_save(path).epoch for path in (ROOT / "saves").glob("v[1-7].save")} == {FIRST_EPOCH}
    # recorded before epochs were (kept at the first bump)
    first = CORPUS / "epochs" / str(FIRST_EPOCH) / "floors.replay"
    assert read_header(first)[0] < 3 and read_header(first)[1].epoch == FIRST_EPOCH


def test_rerecording_after_a_bump_keeps_the_old_file_in_its_epochs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = CORPUS / "death-overdose.replay"
    copy = tmp_path / "replays" / original.name
    copy.parent.mkdir()
    shutil.copy(original, copy)
    monkeypatch.setattr(corpus, "RULES_EPOCH", RULES_EPOCH + 1)
    monkeypatch.setattr(recorder, "RULES_EPOCH", RULES_EPOCH + 1)
    out = io.StringIO()
    assert corpus.rerecord_paths([copy], out, io.StringIO()) == 0
    kept = tmp_path / "replays" / "epochs" / str(read_header(original)[1].epoch) / original.name
    assert kept.read_bytes() == original.read_bytes(), out.getvalue()
    assert read_header(copy)[1].epoch == RULES_EPOCH + 1
    assert [s.command for s in read_replay(copy).steps] == [s.command for s in read_replay(original).steps]
