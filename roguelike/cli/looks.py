"""Command-line overrides of the settings for one run: ``--palette``, ``--tiles``, ``--ascii``, ``--mute``.

They change how this run looks and are never written to the settings file. ``hedonic
play`` and ``hedonic replay`` apply them over the player's settings; ``hedonic
screenshot`` over the defaults, so the same command draws the same picture anywhere.
"""

from __future__ import annotations

import argparse
from typing import Any

from roguelike import settings
from roguelike.settings import TILE_SIZES, Glyphs, PaletteName, Preferences, TileSize, tile_size


def parse_tiles(text: str) -> TileSize:
    """``--tiles WxH``, one of the listed sizes."""
    try:
        return tile_size(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_look_options(parser: argparse.ArgumentParser) -> None:
    """The options that override the settings for one run."""
    parser.add_argument(
        "--palette",
        choices=[name.value for name in PaletteName],
        default=argparse.SUPPRESS,
        help="colours for this run: classic, colourblind (safe for protanopia, deuteranopia and tritanopia), "
        "greyscale or contrast (high contrast)",
    )
    parser.add_argument(
        "--tiles",
        type=parse_tiles,
        metavar="WxH",
        default=argparse.SUPPRESS,
        help=f"tile size of the window in pixels for this run: {', '.join(map(str, TILE_SIZES))}",
    )
    parser.add_argument(
        "--ascii", action="store_true", default=argparse.SUPPRESS, help="draw everything in plain ASCII for this run"
    )


def overrides(args: argparse.Namespace) -> dict[str, Any]:
    """The settings the command line overrides, by setting name."""
    chosen: dict[str, Any] = {}
    if hasattr(args, "palette"):
        chosen["palette"] = PaletteName(args.palette)
    if hasattr(args, "tiles"):
        chosen["tiles"] = args.tiles
    if getattr(args, "ascii", False):
        chosen["glyphs"] = Glyphs.ASCII
    if getattr(args, "mute", False):
        chosen["volume"] = 0
    return chosen


def use_player_settings(args: argparse.Namespace) -> Preferences:
    """Put the data directory's settings, with this run's overrides, in force."""
    from roguelike.storage.datadir import data_dir

    prefs = Preferences.load(data_dir(args.data_dir), overrides(args))
    settings.use(prefs)
    return prefs


def use_default_settings(args: argparse.Namespace) -> Preferences:
    """Put the default settings, with this run's overrides, in force (nothing is read or written)."""
    prefs = Preferences(None, overrides=overrides(args))
    settings.use(prefs)
    return prefs
