"""Saves, the character history and the locks around them (see docs/saves.md).

The public API, for the menus, the CLI and the replay tools::

    write_save(path, snapshot, steps=0)   save_game(path, game, steps=0)
    read_save(path) -> SaveFile           load_save(path) -> Game
    list_saves(data_dir) -> [SaveInfo]    inspect_save(path) -> SaveInfo
    Games(data_dir, seed).new(name) / .resume(path) / .delete(info) / .history()
    settle(session)  (wait until the last step's autosave is on disk)
    FORMAT_VERSION

The one error any of them raises, ``SaveError``, and the paths of the data directory
(``DataDir``) are the ground's: :mod:`roguelike.storage`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from roguelike.saves.autosave import Autosave, settle
    from roguelike.saves.games import Games, ObserverFactory
    from roguelike.saves.history import CharacterRecord, History, read_history
    from roguelike.saves.listing import SaveInfo, inspect_save, list_saves
    from roguelike.saves.lock import SaveLock, is_locked
    from roguelike.saves.savefile import SaveFile, load_save, read_save, save_game, write_save
    from roguelike.saves.upgrade import FORMAT_VERSION

# Where each public name lives. They are imported on first use, so that a command which
# only needs part of this package (``hedonic saves``, a crash report) does not load the
# game and its libraries along with it.
HOMES = {
    "autosave": ("Autosave", "settle"),
    "games": ("Games", "ObserverFactory"),
    "history": ("CharacterRecord", "History", "read_history"),
    "listing": ("SaveInfo", "inspect_save", "list_saves"),
    "lock": ("SaveLock", "is_locked"),
    "savefile": ("SaveFile", "load_save", "read_save", "save_game", "write_save"),
    "upgrade": ("FORMAT_VERSION",),
}
MODULE_OF = {name: module for module, names in HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    module = MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)


__all__ = [
    "FORMAT_VERSION",
    "Autosave",
    "CharacterRecord",
    "Games",
    "History",
    "ObserverFactory",
    "SaveFile",
    "SaveInfo",
    "SaveLock",
    "inspect_save",
    "is_locked",
    "list_saves",
    "load_save",
    "read_history",
    "read_save",
    "save_game",
    "settle",
    "write_save",
]
