"""The entry of a hosted game's process: its limits, death with its parent, then the game.

The web process names :func:`run_game` as the target of a process forked from the fork server
(which has :mod:`roguelike.server.hosted.playing`, and so the game, loaded already, and has played a
short game with it: :mod:`roguelike.server.hosted.rehearsal`); it never runs it and never imports
the game: the game is imported here only inside the function, in the forked process.
"""

from __future__ import annotations

import os
import socket
from typing import Any

from roguelike.server.child import ChildLimits, die_with_parent, limit_self
from roguelike.server.leftovers import game_prefix, scratch_folder

PLAYING = "roguelike.server.hosted.rehearsal"  # the fork server preloads it: the game, and its code played once


def run_game(sock: socket.socket, limits: dict[str, Any]) -> None:
    """Play one hosted game over ``sock`` under ``limits`` (CPU seconds, address space), in a scratch folder
    held while it plays (``roguelike.server.leftovers``: swept if the process is killed)."""
    limit_self(ChildLimits.from_plain(limits))
    die_with_parent()
    with scratch_folder(game_prefix(os.getpid())) as scratch:
        # A crash report or a morgue line never lands in the server's folder.
        os.environ["HEDONIC_DATA_DIR"] = str(scratch)
        try:
            from roguelike.server.hosted.playing import play

            play(sock, scratch)
        except (EOFError, OSError):
            pass  # the web process went away or closed the game: nothing is lost, the log holds every accepted command
        finally:
            sock.close()
