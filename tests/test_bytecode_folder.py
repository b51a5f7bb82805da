"""The tests' folder of compiled modules: a process started with it compiles nothing the installation or the
seeding compiled already, and a changed source is compiled afresh beside the link, never through it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bytecode_folder import link_compiled, seed
from conftest import ROOT


def compiled_files(prefix: Path) -> set[Path]:
    """The compiled modules written into the folder (links left out)."""
    return {path for path in prefix.rglob("*.pyc") if not path.is_symlink()}


def run_with(prefix: Path, code: str, *path: Path) -> None:
    """Run ``code`` in a process that keeps its compiled modules in ``prefix``."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(prefix)
    env["PYTHONPATH"] = os.pathsep.join(str(folder) for folder in path)
    subprocess.run([sys.executable, "-c", code], env=env, check=True, cwd=prefix)


def test_a_process_in_a_seeded_folder_compiles_neither_libraries_nor_the_game(tmp_path: Path) -> None:
    prefix = tmp_path / "compiled"
    seed(prefix, [ROOT / "roguelike", ROOT / "components", ROOT / "systems"])
    before = compiled_files(prefix)
    run_with(prefix, "import json, asyncio, numpy, msgpack, roguelike.core.game", ROOT)
    assert compiled_files(prefix) == before
    assert any(path.name.startswith("game.") for path in before)  # the game's own, compiled by the seeding


def test_a_changed_source_is_compiled_beside_its_link_and_the_linked_file_is_untouched(tmp_path: Path) -> None:
    library = tmp_path / "library"
    library.mkdir()
    source = library / "mood.py"
    source.write_text("WORD = 'Sober'\n")
    installing = {key: value for key, value in os.environ.items() if key != "PYTHONPYCACHEPREFIX"}
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(library)], check=True, env=installing)
    installed = next((library / "__pycache__").iterdir())
    kept = installed.read_bytes()
    prefix = tmp_path / "compiled"
    link_compiled(str(library), prefix)
    linked = prefix / str(library).lstrip(os.sep) / installed.name
    assert linked.is_symlink()
    source.write_text("WORD = 'High, and a longer line'\n")
    run_with(prefix, "import mood; assert mood.WORD.startswith('High')", library)
    assert not linked.is_symlink() and linked.read_bytes() != kept
    assert installed.read_bytes() == kept
