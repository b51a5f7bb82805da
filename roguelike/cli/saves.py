"""``hedonic saves``: list the saves of a data directory; and the Games every sub-command plays.

One line per save: name, turn, floor, then ``ok`` or ``damaged: <reason>``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from roguelike.cli.subcommand import Subcommand

if TYPE_CHECKING:
    from roguelike.core.session import Observer, Session
    from roguelike.saves import Games, SaveInfo


def games_for(args: argparse.Namespace) -> Games:
    """The player's games in the chosen data directory; every session autosaves and is recorded."""
    from roguelike.render.screenshot import game_console
    from roguelike.replay.catchup import catch_up
    from roguelike.replay.recorder import recording_observers
    from roguelike.saves import Games
    from roguelike.screens import ambient
    from roguelike.storage.datadir import data_dir

    root = data_dir(args.data_dir)

    def record(session: Session, save: Path, carried: bytes) -> list[Observer]:
        return recording_observers(root, session.game, save.stem, session.steps, session.notices, carried=carried)

    return Games(
        root,
        getattr(args, "seed", None),
        [record],
        wizard=getattr(args, "wizard", False),
        draw=lambda game: game_console(game, ambient.look()),
        catch_up=catch_up,
    )


def list_command(args: argparse.Namespace) -> int:
    """Print one line per save."""
    from roguelike.core.names import shown
    from roguelike.saves import list_saves
    from roguelike.storage.datadir import data_dir

    root = data_dir(args.data_dir)
    saves = list_saves(root)
    if not saves:
        print(shown(f"no saves in {root}"))
    for info in saves:
        print(save_line(info))
    return 0


def save_line(info: SaveInfo) -> str:
    """``Ann  turn 50  floor 1  ok``, or the file and ``damaged: <reason>``."""
    from roguelike.core.names import fit, on_one_line, shown

    if not info.ok:
        return shown(f"{info.path.name}  turn ?  floor ?  {info.status()}")
    notes = "".join(
        note for note, on in ((" (dead)", info.dead), (" (open in another game)", info.open_elsewhere)) if on
    )
    return f"{on_one_line(fit(info.name, 40))}  turn {info.turn}  floor {info.depth}  ok{notes}{info.marked}"


SAVES = Subcommand("saves", "list the saved games, one line each", lambda parser: None, list_command)
