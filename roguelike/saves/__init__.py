"""Saves, the character history and the locks around them (see docs/saves.md).

The public API, for the menus, the CLI and the replay tools::

    write_save(path, snapshot, steps=0)   save_game(path, game, steps=0)
    read_save(path) -> SaveFile           load_save(path) -> Game
    list_saves(data_dir) -> [SaveInfo]    inspect_save(path) -> SaveInfo
    Games(data_dir, seed).new(name) / .resume(path) / .delete(info) / .history()
    settle(session)  (wait until the last step's autosave is on disk)
    SaveError (the only error any of them raises), FORMAT_VERSION, save_path, new_save_id
"""

from __future__ import annotations

from roguelike.saves.autosave import Autosave, settle
from roguelike.saves.errors import SaveError
from roguelike.saves.games import Games, ObserverFactory
from roguelike.saves.history import CharacterRecord, History, read_history
from roguelike.saves.layout import history_dir, new_save_id, record_path, save_path, saves_dir
from roguelike.saves.listing import SaveInfo, inspect_save, list_saves
from roguelike.saves.lock import SaveLock, is_locked
from roguelike.saves.savefile import SaveFile, load_save, read_save, save_game, write_save
from roguelike.saves.upgrade import FORMAT_VERSION

__all__ = [
    "FORMAT_VERSION",
    "Autosave",
    "CharacterRecord",
    "Games",
    "History",
    "ObserverFactory",
    "SaveError",
    "SaveFile",
    "SaveInfo",
    "SaveLock",
    "history_dir",
    "inspect_save",
    "is_locked",
    "list_saves",
    "load_save",
    "new_save_id",
    "read_history",
    "read_save",
    "record_path",
    "save_game",
    "save_path",
    "saves_dir",
    "settle",
    "write_save",
]
