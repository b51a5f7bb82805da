"""The fork server's rehearsal: one short hosted game played in it before it forks any, then forgotten.

A game's process is forked from the fork server and shares the fork server's pages until it writes to
one. Python writes to what it runs the first times it runs it (3.11 specialises each function's
bytecode in place) and the game fills its caches on first use (the packers generated for each set
of components, the sight discs, the chase layouts): done in every game's process, that costs each
game its own copy of those pages; done once here, before any fork, the games share them. The fork
server preloads this module (``gameproc.PLAYING`` names it) for what importing it does; nothing else
imports it. The rehearsal is only a saving: if it fails, the fork server says so and games are
played all the same.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import tcod.event

from roguelike.frontend.keygate import KeyGate
from roguelike.frontend.loop import RunLoop
from roguelike.frontend.web.keycodes import KEY_DOWN, KEY_UP
from roguelike.server.hosted.playing import Line, Played
from roguelike.server.hosted.wire import ACCEPTED, COMMAND, split_seq, with_seq
from roguelike.server.leftovers import scratch_folder
from roguelike.storage.datadir import ENV_VAR

SEED = 43
KEYS = (b"Period", b"ArrowLeft", b"ArrowUp", b"ArrowRight", b"ArrowDown", b"Period", b"KeyN") * 6


class StandIn(Line):
    """The web process's part in a rehearsal: every command accepted at once, everything else dropped."""

    def __init__(self) -> None:  # no channel: nothing the rehearsal sends goes anywhere
        self.answers: list[tuple[bytes, bytes]] = []

    def send(self, kind: bytes, payload: bytes = b"") -> None:
        """Accept a command the game is about to apply; drop frames, titles and saves."""
        if kind == COMMAND:
            self.answers.append((ACCEPTED, with_seq(split_seq(payload)[0])))

    def receive(self, timeout: float | None) -> tuple[bytes, bytes] | None:
        """The next answer, if any (never waits)."""
        return self.answers.pop(0) if self.answers else None


def plan() -> dict[str, object]:
    """A new game's plan, as the web process sends it."""
    return {
        "id": "rehearsal",
        "name": "Rehearsal",
        "seed": SEED,
        "mode": "normal",
        "commands": [],
        "snapshot": None,
        "snapshot_seq": 0,
        "snapshot_every": 500,
        "columns": 80,
        "rows": 25,
        "notice": None,
    }


def play_keys(scratch: Path) -> None:
    """Play :data:`KEYS` through the hosted game's own loop, then close the game."""
    played = Played(StandIn(), plan(), scratch)
    keys = list(KEYS)

    def wait(timeout: float | None) -> list[tcod.event.Event]:
        if not keys:
            return [tcod.event.Quit()]
        key = keys.pop(0)
        played.pending += [bytes([KEY_DOWN, 0]) + key, bytes([KEY_UP, 0]) + key]
        return played.queued_events()

    RunLoop(played.app, played, KeyGate(poll=played.queued_events)).run(wait)
    played.session.game.close()


def rehearse() -> None:
    """Play a short game here, in a scratch data folder, and forget it; say so if it failed."""
    before = os.environ.get(ENV_VAR)
    with scratch_folder(f"rehearsal-{os.getpid()}-") as scratch:  # held, and swept if the fork server is killed
        os.environ[ENV_VAR] = str(scratch)  # as in a game's process: nothing lands in the server's folder
        try:
            play_keys(scratch)
        except Exception as error:  # a saving only: the games are played without it
            print(f"hedonic serve: the fork server's rehearsal of a game failed: {error!r}", file=sys.stderr)
        finally:
            if before is None:
                os.environ.pop(ENV_VAR, None)
            else:
                os.environ[ENV_VAR] = before


rehearse()
