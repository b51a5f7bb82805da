"""A sub-command of ``hedonic``: its name, its options and what it runs."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Subcommand:
    """One ``hedonic NAME ...`` command."""

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
