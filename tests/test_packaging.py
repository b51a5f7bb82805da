"""The declared dependencies: floors that can be installed together, and the CI job that installs them."""

from __future__ import annotations

import configparser
import importlib.metadata

from packaging.requirements import Requirement
from packaging.version import Version

from conftest import ROOT


def declared() -> dict[str, Requirement]:
    """setup.cfg's install_requires by package name."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    lines = [line for line in config["options"]["install_requires"].splitlines() if line.strip()]
    return {Requirement(line).name.lower(): Requirement(line) for line in lines}


def floor(requirement: Requirement) -> Version:
    """The lowest version a requirement allows (its ``>=``)."""
    (lowest,) = [Version(spec.version) for spec in requirement.specifier if spec.operator == ">="]
    return lowest


def test_every_floor_is_allowed_by_what_the_other_floors_need() -> None:
    ours = declared()
    for name in ours:
        for needed in map(Requirement, importlib.metadata.requires(name) or []):
            if needed.name.lower() in ours and needed.marker is None:
                assert needed.specifier.contains(floor(ours[needed.name.lower()])), (name, str(needed))


def test_ci_installs_the_lowest_versions_and_plays_the_same_games_on_them() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert "--resolution lowest-direct" in ci
    assert "tests/test_determinism.py" in ci and "tests/test_replay_corpus.py" in ci


def test_the_changelog_tells_of_this_version_first() -> None:
    from roguelike import __version__

    headings = [
        line[3:].split()[0] for line in (ROOT / "CHANGELOG.md").read_text().splitlines() if line.startswith("## ")
    ]
    assert headings[0] == __version__ and __version__ != "0.1.0"
    assert len(set(headings)) == len(headings)
