"""The tests' folder of compiled modules: a process started with it compiles nothing the installation or the
seeding compiled already, and a changed source is compiled afresh beside the link, never through it."""

from __future__ import annotations

import importlib.util
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


LIBRARIES = ("json", "asyncio", "numpy", "msgpack")
GAME = [ROOT / "roguelike", ROOT / "components", ROOT / "systems"]


def installed_compiled(module: str, prefix: Path) -> Path | None:
    """Where a process with ``prefix`` finds ``module`` compiled, if the installation compiled it (uv, or pip with
    --no-compile, installs none)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None or spec.cached is None or not Path(spec.cached).exists():
        return None
    return prefix / str(Path(spec.origin).parent).lstrip(os.sep) / Path(spec.cached).name


def test_a_process_in_a_seeded_folder_compiles_neither_libraries_nor_the_game(tmp_path: Path) -> None:
    prefix = tmp_path / "compiled"
    seed(prefix, GAME)
    before = compiled_files(prefix)
    run_with(prefix, f"import {', '.join(LIBRARIES)}, roguelike.core.game", ROOT)
    compiled_now = compiled_files(prefix) - before
    libraries = [found for name in LIBRARIES if (found := installed_compiled(name, prefix)) is not None]
    assert libraries  # the standard library at least comes compiled
    assert not compiled_now & set(libraries)
    game = [prefix / str(folder).lstrip(os.sep) for folder in GAME]
    assert not [path for path in compiled_now if any(path.is_relative_to(folder) for folder in game)]
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
