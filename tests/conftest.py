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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked ``long`` first, longest first: pytest-xdist hands the first tests out one to
    each worker in turn, so the minutes-long ones start at once on different workers and the suite
    does not end waiting on one of them alone (the rest keep their order)."""
    items.sort(key=lambda item: -expected_seconds(item))


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
