"""A runtime's lock: the exact versions of the libraries its code ran with.

The lock is the installed distributions the game needs, followed through their own
requirements, read from the installation's metadata (``importlib.metadata``).
"""

from __future__ import annotations

import re

# What setup.cfg's install_requires names; the lock follows their requirements from here.
REQUIRED = ("tcod", "esper", "numpy", "msgpack", "blessed", "platformdirs", "wcwidth")
NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def canonical(name: str) -> str:
    """A distribution name as package indexes compare them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def current_lock() -> dict[str, str]:
    """Every installed distribution the game needs, directly or not, with its version."""
    from importlib import metadata  # 20 ms (email's parsers): only a new runtime needs it, not each start

    lock: dict[str, str] = {}
    waiting = [canonical(name) for name in REQUIRED]
    while waiting:
        name = waiting.pop()
        if name in lock:
            continue
        try:
            distribution = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # a requirement of some other platform or Python, not installed here
        lock[name] = distribution.version
        waiting += [found for found in map(requirement_name, distribution.requires or []) if found]
    return dict(sorted(lock.items()))


def requirement_name(requirement: str) -> str | None:
    """The distribution a requirement names, or None for one that only an extra asks for."""
    if "extra" in requirement.partition(";")[2]:
        return None
    match = NAME.match(requirement)
    return canonical(match.group(1)) if match else None


def differences(lock: dict[str, str], installed: dict[str, str] | None = None) -> list[str]:
    """How this installation differs from a lock: ``numpy 1.24.0 (here 2.4.6)``; empty if it matches."""
    here = current_lock() if installed is None else installed
    return [
        f"{name} {version} (here {here.get(name, 'missing')})"
        for name, version in sorted(lock.items())
        if here.get(name) != version
    ]


def requirements_text(lock: dict[str, str]) -> str:
    """The lock as a requirements file (``name==version`` a line)."""
    return "".join(f"{name}=={version}\n" for name, version in sorted(lock.items()))
