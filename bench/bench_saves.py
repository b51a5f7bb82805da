"""The cost of saving every turn, the size of a save and the time to load one.

The game has visited 10 floors (the bot walks a while on each, then goes down), so the
save holds ten floors, their remembered tiles and their sleeping monsters and doses.
Turns are timed as the game runs them, in wall time (waiting for the disk is the cost):

- headless (``hedonic simulate``): command after command, no drawing; a turn's save
  first waits for the previous turn's save to be on disk;
- playing: each command followed by the frame the player sees, which settles the save
  (the save is on disk before the next key is read).

A turn's save is written into the older of the file's two slots in place, with
``fdatasync`` (``roguelike/saves/slots.py``); the file is written whole only when the save
outgrows its slot, which the timed turns may hit once or twice (it is in the figures).

The save cost is the time a turn takes with the autosave minus the time it takes without
(snapshot encoding included, although the replay recorder shares it). The game is kept
alive (untimed, before each turn: the State of Mind held at 55, Depressions, the only
killers, taken off the floor), every timed turn asserts it is, and the end checks that
the save on disk holds the last step: a dead game saves nothing, so a bench that lets
the character die measures no saving. The game is recorded as ``hedonic play`` records it:
each variant is timed without the recorder (the autosave alone writes into a second
file) and the played one with it, the turn a player waits for. Run:
``python -m bench.bench_saves [folder]`` with a folder on the disk players use (default:
a temporary folder; ``--runs N``, default 5). The turns are timed ``--runs`` times over and
the headline figures are the medians of the runs' medians, printed with the machine's load
and the disk they were measured on (a shared disk's slow spells and a busy machine move the
autosave's cost several-fold: docs/performance.md, "Saves", keeps figures only with them).
Figures go in docs/performance.md ("Saves").
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import esper
import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from bench.common import figure, machine, report, timings
from components import Monster, StateOfMind
from roguelike.bots.bot import Bot
from roguelike.content import formulas
from roguelike.core.commands import Command, Move
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.notices import Notices
from roguelike.core.session import Observer, Session, Step
from roguelike.core.snapshot import snapshot_bytes
from roguelike.core.world import travel
from roguelike.render.draw import draw_game
from roguelike.render.look import DEFAULT_LOOK
from roguelike.replay.recorder import recording_observers
from roguelike.saves import Games, load_save, read_save, settle, write_save
from roguelike.saves.autosave import Autosave
from roguelike.saves.games import ObserverFactory
from roguelike.saves.savefile import sealed_save
from roguelike.saves.slots import SlotWriter, newest_slot
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.keymap import MOVE_KEYS
from roguelike.storage.atomic import write_atomic
from roguelike.storage.datadir import SAVE_SUFFIX

FLOORS = 10
WALK = 60  # bot commands on each floor before going down
TURNS = 1_500
BLOCK = 50  # turns of one variant in a row
PLAYER_PAUSE = 0.005  # seconds between a frame and the next key (a real player: 100 or more)
LOADS = 200


def recorded(root: Path) -> ObserverFactory:
    """The replay recorder as ``hedonic play`` gives it to every saved game."""

    def record(session: Session, save: Path, carried: bytes = b"") -> list[Observer]:
        return recording_observers(root, session.game, save.stem, session.steps, session.notices)

    return record


def ten_floor_game(root: Path) -> Session:
    """An autosaved and recorded game whose player has been on floors 1 to 10."""
    session = Games(root, seed=53, observers=[recorded(root)]).new("Bench")
    game, bot = session.game, Bot()
    for depth in range(1, FLOORS + 1):
        if depth > 1:
            game.activate()
            travel(game.state, depth)
            game.refresh_visible()
        for _ in range(WALK):
            keep_alive(game)
            session.apply(bot.choose(game))
    settle(session)
    wall_up_stairs(game)
    return session


def wall_up_stairs(game: Game) -> None:
    """Make the last floor's way down plain floor, so the save keeps its ten floors while timed."""
    tiles = game.state.floor.tiles
    tiles[tiles == Tile.STAIRS_DOWN] = Tile.FLOOR


def keep_alive(game: Game) -> None:
    """Hold the State of Mind in the middle and take the killers away, so the game lives on."""
    game.activate()
    assert not game.state.game_over, "the bench must time a living, saving game"
    esper.component_for_entity(game.state.player, StateOfMind).value = 55
    for entity, monster in esper.get_component(Monster):
        if monster.kind == "depression":
            esper.delete_entity(entity, immediate=True)


def assert_saved(session: Session, path: Path) -> None:
    """The save on disk holds the session's last step: every timed turn was saving."""
    settle(session)
    steps = read_save(path).header["steps"]
    assert steps == session.steps, f"the save holds step {steps}, the session is at {session.steps}"


Variant = Callable[[], None]


def interleave(variants: list[Variant], game: Game, pause: float = 0.0) -> list[list[float]]:
    """Time turns of each variant in blocks, taking turns, so all of them see the same machine
    and a saving turn follows a saving turn (it waits for the previous save, as in play)."""
    times: list[list[float]] = [[] for _ in variants]
    for block in range(TURNS // BLOCK * len(variants)):
        run, into = variants[block % len(variants)], times[block % len(variants)]
        for _ in range(BLOCK):
            keep_alive(game)
            start = time.perf_counter()
            run()
            into.append(time.perf_counter() - start)
            assert not game.state.game_over, "the character died while timed"
            time.sleep(pause)
    return times


class Encodes:
    """An observer that only has each step's snapshot bytes made, as the autosave has (a step
    makes them when first asked for), so "with the snapshot" times them."""

    def after_step(self, game: Game, step: Step) -> None:
        """Ask for the bytes."""
        assert step.snapshot

    def close(self, game: Game) -> None:
        """Nothing to release."""


def autosave_only(session: Session) -> Session:
    """The session's game autosaved into a second file, unrecorded (the autosave's cost alone)."""
    (autosave,) = [observer for observer in session.observers if isinstance(observer, Autosave)]
    other = autosave.path.with_name("autosave-only" + SAVE_SUFFIX)
    return Session(session.game, [Autosave(autosave.root, other, Notices(), None)], steps=session.steps)


def headless(session: Session) -> list[list[float]]:
    """Turns back to back: bare logic, Session.apply without observers, with the autosave, with both."""
    game, bot = session.game, Bot()
    unsaved, saved_only = Session(game, [Encodes()]), autosave_only(session)

    def bare() -> None:
        game.apply(bot.choose(game))

    def snapshot_only() -> None:
        unsaved.apply(bot.choose(game))

    def saved() -> None:
        saved_only.apply(bot.choose(game))

    def saved_and_recorded() -> None:
        session.apply(bot.choose(game))

    return interleave([bare, snapshot_only, saved, saved_and_recorded], game)


def playing(session: Session) -> list[list[float]]:
    """A key handled by the in-game screen and the frame after it, in the same three ways.

    A short pause follows every turn, as the player's next key always comes later.
    """
    game, bot = session.game, Bot()
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    unsaved = InGameScreen(Session(game, [Encodes()]))
    saved, recorded = InGameScreen(autosave_only(session)), InGameScreen(session)

    def bare() -> None:
        game.apply(bot.choose(game))
        draw_game(console, game, 0.0, DEFAULT_LOOK)

    def through(screen: InGameScreen) -> Variant:
        def run() -> None:
            screen.on_event(key_for(bot.choose(game)))
            screen.on_draw(console, 0.0)

        return run

    return interleave([bare, through(unsaved), through(saved), through(recorded)], game, pause=PLAYER_PAUSE)


def key_for(command: Command) -> tcod.event.KeyDown:
    """The key press that gives a command."""
    sym = next(
        (k for k, step in MOVE_KEYS.items() if isinstance(command, Move) and step == (command.dx, command.dy)),
        KeySym.PERIOD,
    )
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=Modifier.NONE)


def time_turns(session: Session, path: Path) -> dict[str, float]:
    """One run of the timed turns, headless then playing; each headline cost in ms (the run's medians)."""
    costs: dict[str, float] = {}
    for label, measure in (("headless", headless), ("playing (key + frame)", playing)):
        bare, snapshot_only, saved, saved_and_recorded = measure(session)
        assert_saved(session, path)
        print(report(f"{label}: turn logic", bare))
        print(report(f"{label}: with the snapshot, no autosave", snapshot_only))
        print(report(f"{label}: with the autosave", saved))
        print(report(f"{label}: with the autosave and the replay (as played)", saved_and_recorded))
        costs[f"{label}: save cost over the turn logic"] = difference(saved, bare) * 1e3
        costs[f"{label}: save and replay cost over the turn logic"] = difference(saved_and_recorded, bare) * 1e3
        costs[f"{label}: the autosave itself, snapshot excluded"] = difference(saved, snapshot_only) * 1e3
    return costs


def difference(slower: list[float], faster: list[float]) -> float:
    """Median extra seconds of one variant over another."""
    return statistics.median(slower) - statistics.median(faster)


def write_paths(path: Path, beside: Path, snapshot: bytes) -> tuple[list[float], list[float]]:
    """The write alone, both ways, in blocks taking turns (the disk's other users come and go):
    in place into the save's slots, and as main wrote every turn: the envelope alone, whole,
    through a temp file and a rename, into a file beside it."""
    slots, envelope = SlotWriter(path), sealed_save(snapshot, 0)
    ways = [lambda: write_save(path, snapshot, slots=slots), lambda: write_atomic(beside, envelope)]
    times: list[list[float]] = [[], []]
    for block in range(20):
        times[block % 2] += timings(ways[block % 2], BLOCK, clock=time.perf_counter)
    return times[0], times[1]


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description="The cost of the autosave, the size of a save, its load time.")
    parser.add_argument(
        "folder", nargs="?", type=Path, help="a folder on the disk players use (default: a temporary one)"
    )
    parser.add_argument("--runs", type=int, default=5, help="time the turns this many times over (default 5)")
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bench-saves-"))
    session = ten_floor_game(folder)
    path = next(folder.glob("saves/*.save"))
    print(f"floors in the save: {len(session.game.state.floors)}, folder: {folder}")
    costs: dict[str, list[float]] = {}
    for run in range(1, args.runs + 1):
        print(f"run {run} of {args.runs}; {machine(folder)}", flush=True)
        for label, cost in time_turns(session, path).items():
            costs.setdefault(label, []).append(cost)
    print(machine(folder))
    for label, runs in costs.items():
        figure(
            f"{label} (median)",
            statistics.median(runs),
            "ms",  # the label bench.versus pairs
            f"median of {len(runs)} runs: " + ", ".join(f"{cost:.2f}" for cost in runs),
        )
    snapshot = snapshot_bytes(session.game)
    print(
        report("snapshot (snapshot_bytes)", timings(lambda: snapshot_bytes(session.game), 500, clock=time.perf_counter))
    )
    beside = path.with_name("whole.bench")
    in_place, whole = write_paths(path, beside, snapshot)
    print(report("a turn's write: the older slot in place, fdatasync", in_place))
    print(report("main's write of every turn (one envelope): write, fsync, replace, fsync folder", whole))
    grown = timings(lambda: write_save(beside, snapshot), 100, clock=time.perf_counter)
    print(report("a whole two-slot file (new or outgrown): the same", grown))
    beside.unlink()
    figure(
        "main's write over the in-place write (medians, same minutes)",
        statistics.median(whole) / statistics.median(in_place),
        "x",
    )
    snapshot_size = len(newest_slot(path.read_bytes()).sealed.payload)
    print(
        f"save size: {snapshot_size:,} bytes of snapshot, a file of {path.stat().st_size:,} bytes (two slots with room to grow)"
    )
    loads = timings(lambda: load_save(path).close(), LOADS, clock=time.perf_counter)
    print(report("load (read, check, validate, rebuild)", loads))
    figure("load (median)", statistics.median(loads) * 1e3, "ms")
    session.close()


if __name__ == "__main__":
    main()
