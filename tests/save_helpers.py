"""Helpers for the save, history and menu tests: games with saves, files, events, screens."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import esper
import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from components import StateOfMind
from roguelike.bots.bot import Bot
from roguelike.core.session import Session, Step
from roguelike.saves import Games, settle
from roguelike.screens.base import Screen

SEED = 53  # a seed whose bot lives a few hundred turns


def played(root: Path, name: str = "Ann", turns: int = 30, seed: int = SEED) -> tuple[Session, Step]:
    """A new autosaved game the bot has played for ``turns`` commands (session left open)."""
    session = Games(root, seed=seed).new(name)
    bot = Bot()
    step = None
    for _ in range(turns):
        step = session.apply(bot.choose(session.game))
    assert step is not None
    settle(session)
    return session, step


def saved(root: Path, name: str = "Ann", turns: int = 30) -> Path:
    """The save file of a game played and quit."""
    session, _ = played(root, name, turns)
    session.close()
    (path,) = (root / "saves").glob("*.save")
    return path


def about_to_die(session: Session) -> None:
    """Leave the character one turn from dying of exhaustion."""
    session.game.activate()
    esper.component_for_entity(session.game.state.player, StateOfMind).value = 1


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A key press as a frontend delivers it."""
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


def text(typed: str) -> tcod.event.TextInput:
    """Typed text as a frontend delivers it."""
    return tcod.event.TextInput(text=typed)


def screen_rows(screen: Screen) -> list[str]:
    """What a screen draws, as 25 lines of text."""
    console = tcod.console.Console(80, 25, order="C")
    screen.on_draw(console, 0.0)
    return ["".join(chr(c) for c in row).rstrip() for row in console.rgb["ch"]]


def screen_text(screen: Screen) -> str:
    """What a screen draws, as one string."""
    return "\n".join(screen_rows(screen))


def envelope_middles(data: bytes) -> list[int]:
    """Where the middle byte of the envelope in each slot of a two-slot save is."""
    from roguelike.saves.slots import SLOT_HEADER_SIZE, slot_size_of, slot_start

    starts = [slot_start(index, slot_size_of(data)) for index in (0, 1)]
    return [start + SLOT_HEADER_SIZE + int.from_bytes(data[start + 8 : start + 12], "big") // 2 for start in starts]


def read_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every open for writing fail as on a read-only file system (until the monkeypatch is undone)."""
    real_open = os.open

    def refuse(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(file))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
