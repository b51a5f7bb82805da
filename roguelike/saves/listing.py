"""What the menus and ``hedonic saves`` show about each save, damaged ones included.

Everything here is read from the file (header, envelope, the snapshot's shape and
meaning) without rebuilding the game, so listing loads neither numpy nor tcod. Whether a
save's first turn can be played is tried by :class:`~roguelike.saves.games.Games`
where Resume is offered.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from components import Attributes, Record, StateOfMind
from components.registry import NAME_OF
from roguelike.content import formulas
from roguelike.core.plain import Plain
from roguelike.saves.lock import is_locked
from roguelike.saves.savefile import SaveFile, read_save
from roguelike.storage.datadir import DataDir
from roguelike.storage.errors import SaveError

MARKS = {
    "replay": " (from replay)",
    "wizard": " (wizard mode)",
    "bot": " (bot)",
    "daily": " (daily)",
    "practice": " (daily practice)",
}  # how a game's origin is shown (a played game has none)


@dataclass(frozen=True)
class SaveInfo:
    """One save as listed: who, how far, and whether its file is sound (or its first turn fails)."""

    path: Path
    name: str = ""
    turn: int = 0
    depth: int = 0
    mood: str = ""
    doses: int = 0
    saved_at: int = 0
    dead: bool = False
    open_elsewhere: bool = False
    problem: str | None = None
    origin: str | None = None  # "replay" or "wizard": not the character's own game
    save: SaveFile | None = field(default=None, compare=False, repr=False)  # as read for the listing

    @property
    def marked(self) -> str:
        """`` (from replay)`` or `` (wizard mode)`` for a game that is not the character's own."""
        return MARKS.get(self.origin or "", "")

    @property
    def ok(self) -> bool:
        """Whether the save can be loaded."""
        return self.problem is None

    @property
    def save_id(self) -> str:
        """The id the game gave this character's files."""
        return self.path.stem

    def status(self) -> str:
        """``ok`` or ``damaged: <reason>``, as ``hedonic saves`` prints it."""
        return "ok" if self.problem is None else f"damaged: {self.problem}"


def inspect_save(path: Path) -> SaveInfo:
    """A save's listing entry; a damaged save gets its reason instead of an exception."""
    try:
        save = read_save(path)
    except SaveError as error:
        return SaveInfo(path, problem=error.reason, open_elsewhere=is_locked(path))
    plain = save.plain
    som = player_field(plain, StateOfMind, "value")
    will = player_field(plain, Attributes, "will")
    return SaveInfo(
        path,
        name=plain["name"],
        turn=plain["turn"],
        depth=plain["depth"],
        mood=formulas.mood_word(som, will),
        doses=player_field(plain, Record, "doses_used"),
        saved_at=save.header["saved_at"],
        dead=plain["cause"] is not None,
        open_elsewhere=is_locked(path),
        origin=plain.get("origin"),
        save=save,
    )


def player_field(plain: Plain, kind: type, field: str) -> Any:
    """A field of one of the player's components, read from a validated snapshot."""
    names = [f.name for f in dataclasses.fields(kind)]
    packed = next(p for e, p in plain["entities"] if e == plain["player"])
    fields = next(values for name, values in packed if name == NAME_OF[kind])
    return fields[names.index(field)]


def list_saves(root: Path) -> list[SaveInfo]:
    """Every save in a data directory, most recently played first, damaged ones last."""
    infos = [inspect_save(path) for path in DataDir(root).save_files()]
    return sorted(infos, key=lambda i: (not i.ok, -i.saved_at, i.name, i.save_id))
