"""The rules epoch in files and in the corpus: today's corpus records today's epoch, every
earlier epoch keeps its corpus in replays/epochs/<n>/, and those replays verify through
runtimes made from this repository's own history."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from roguelike.core.epoch import FIRST_EPOCH, RULES_EPOCH
from roguelike.replay import corpus, recorder
from roguelike.replay.fileformat import FORMAT_VERSION, read_header, read_replay
from roguelike.saves import read_save
from roguelike.runtimes.sources import past_epochs

from conftest import ROOT

CORPUS = ROOT / "replays"
EPOCHS = CORPUS / corpus.EPOCHS


def test_every_corpus_replay_records_the_rules_epoch_of_today() -> None:
    for path in sorted(CORPUS.glob("*.replay")):
        assert read_header(path)[1].epoch == RULES_EPOCH, f"{path.name}: re-record (hedonic replay --rerecord replays/)"


def test_each_earlier_epoch_keeps_its_corpus_and_only_its_own_replays() -> None:
    folders = sorted(p.name for p in EPOCHS.iterdir()) if EPOCHS.is_dir() else []
    assert folders == sorted(str(epoch) for epoch in range(FIRST_EPOCH, RULES_EPOCH)), "bumping the epoch keeps its corpus"
    for folder in folders:
        files = sorted((EPOCHS / folder).glob("*.replay"))
        assert files, f"replays/epochs/{folder} holds no replay"
        assert {read_header(path)[1].epoch for path in files} == {int(folder)}


def test_earlier_epochs_replays_verify_through_runtimes_made_from_history(tmp_path: Path) -> None:
    environment = {"HEDONIC_CACHE_DIR": str(tmp_path / "cache"), "PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}
    epochs = past_epochs(ROOT)
    assert sorted(epochs) == list(range(FIRST_EPOCH, RULES_EPOCH)), "each earlier epoch has a last commit"
    for epoch in epochs:
        added = hedonic(["runtimes", "--add-history"], environment) if epoch == FIRST_EPOCH else None
        assert added is None or added.returncode == 0, added.stderr
        done = hedonic(["replay", "--verify", str(EPOCHS / str(epoch))], environment)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"played by the runtime of epoch {epoch}" in done.stdout


def hedonic(args: list[str], environment: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the game's command line from the repository."""
    import os

    return subprocess.run([sys.executable, "-m", "roguelike", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **environment}, timeout=600)


def test_a_new_replay_and_a_new_save_record_the_rules_epoch(tmp_path: Path) -> None:
    done = hedonic(["simulate", "--seed", "3", "--turns", "20", "--name", "Epoch", "--data-dir", str(tmp_path)], {})
    assert done.returncode == 0, done.stderr
    replay_format, header = read_header(next((tmp_path / "replays").glob("*.replay")))
    assert (replay_format, header.epoch) == (FORMAT_VERSION, RULES_EPOCH)
    assert read_save(next((tmp_path / "saves").glob("*.save"))).epoch == RULES_EPOCH


def test_saves_and_replays_older_than_epochs_are_the_first_epoch() -> None:
    assert {read_save(path).epoch for path in (ROOT / "saves").glob("v[1-7].save")} == {FIRST_EPOCH}
    first = CORPUS / "epochs" / str(FIRST_EPOCH) / "floors.replay"  # recorded before epochs were (kept at the first bump)
    assert read_header(first)[0] < 3 and read_header(first)[1].epoch == FIRST_EPOCH


def test_rerecording_after_a_bump_keeps_the_old_file_in_its_epochs_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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
