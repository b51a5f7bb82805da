"""Shared pytest setup: the repository importable, SDL off any screen and speaker, files in a temp folder."""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIO_DRIVER", "dummy")  # a test that opens the speaker never plays aloud
# Games the tests start (and the replays they record) never land in the user's data folder.
os.environ["HEDONIC_DATA_DIR"] = tempfile.mkdtemp(prefix="hedonic-tests-")
atexit.register(shutil.rmtree, os.environ["HEDONIC_DATA_DIR"], ignore_errors=True)
# ...nor do the runtimes they keep land in the user's cache folder.
os.environ["HEDONIC_CACHE_DIR"] = tempfile.mkdtemp(prefix="hedonic-tests-cache-")
atexit.register(shutil.rmtree, os.environ["HEDONIC_CACHE_DIR"], ignore_errors=True)
# A machine that asks Python to write no bytecode (PYTHONDONTWRITEBYTECODE) would have each of the hundreds of
# game and server processes the tests start compile the game's modules afresh (about 0.2 s of CPU each): they
# keep their compiled modules in one temporary folder instead, never in the checkout, removed at the end.
# The folder starts with the installation's compiled modules and the game's (tests/bytecode_folder.py).
if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) and "PYTHONPYCACHEPREFIX" not in os.environ:
    os.environ["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="hedonic-tests-bytecode-")
    atexit.register(shutil.rmtree, os.environ["PYTHONPYCACHEPREFIX"], ignore_errors=True)
    import bytecode_folder

    bytecode_folder.seed(
        Path(os.environ["PYTHONPYCACHEPREFIX"]), [ROOT / name for name in ("roguelike", "components", "systems")]
    )


@pytest.hookimpl(optionalhook=True)  # optional: a run with ``-p no:xdist`` has no such hook
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: two workers more than the cores, since the longest tests mostly wait (on servers they
    start, kill and time out) while a core is free; PYTEST_XDIST_AUTO_NUM_WORKERS still decides when set."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` go first, dealt out so that each xdist worker starts its share of them at
    once (longest first, to the worker with the fewest seconds so far): the suite then never ends waiting
    on minutes-long tests run one after another on one worker. The tests marked ``together`` with one name
    join the lightest share, so they run in one worker and share what they make there. The other tests
    keep their order."""
    marked = sorted((item for item in items if expected_seconds(item)), key=expected_seconds, reverse=True)
    if not marked:
        return
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    groups = together(items)
    grouped = {id(item) for group in groups for item in group}
    others = [item for item in items if not expected_seconds(item) and id(item) not in grouped]
    # pytest-xdist's load scheduling first hands each worker, in turn, this many consecutive tests
    first = max(len(items) // workers // 4, 2)
    shares = dealt(marked, workers)
    for group in groups:
        min(shares, key=lambda share: sum(map(expected_seconds, share))).extend(group)
    ordered: list[pytest.Item] = []
    for share in shares:
        filling = max(first - len(share), 0)
        ordered += share + others[:filling]
        others = others[filling:]
    items[:] = ordered + others


def together(items: list[pytest.Item]) -> list[list[pytest.Item]]:
    """The tests marked ``together(name)``, a list for each name, in their order."""
    groups: dict[str, list[pytest.Item]] = {}
    for item in items:
        mark = item.get_closest_marker("together")
        if mark is not None and not expected_seconds(item):
            groups.setdefault(str(mark.args[0]), []).append(item)
    return list(groups.values())


def dealt(marked: list[pytest.Item], workers: int) -> list[list[pytest.Item]]:
    """The long tests, longest first, each to the worker whose share is shortest so far."""
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for item in marked:
        min(shares, key=lambda share: sum(map(expected_seconds, share))).append(item)
    return shares


def expected_seconds(item: pytest.Item) -> float:
    """What a test's ``long`` mark says it takes (0 for the others)."""
    mark = item.get_closest_marker("long")
    return float(mark.args[0]) if mark is not None else 0.0


@pytest.fixture(autouse=True)
def default_settings() -> Iterator[None]:
    """Every test starts with the default settings and a silent sound in force (both are process-wide)."""
    from roguelike import settings, sound

    settings.use(settings.Preferences(None))
    sound.use(sound.Audio())
    yield
    settings.use(settings.Preferences(None))
    sound.use(sound.Audio())
