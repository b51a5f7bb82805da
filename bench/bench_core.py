"""``hedonic simulate`` in-process: the bot, the rules, the snapshot and checksum, the recorder.

Run: ``python -m bench.bench_core``. Figures go in docs/performance.md ("Core").

The headline is the path a ``hedonic simulate`` user waits for: the bot chooses, the
session applies the command (rules, snapshot, checksum) and the replay recorder writes
its record, over whole games of several seeds (each game to its end or to TURNS).
Left out: the start-up of the command (``bench_startup``) and printing the summary.
Then the same steps are taken apart (each part timed on its own), and the rules alone
are timed on a floor crowded to 40 entities, as before; and the drawing of a frame.
"""

from __future__ import annotations

import dataclasses
import inspect
import itertools
import tempfile
import time
from pathlib import Path

import tcod.console

from bench.common import crowd_floor, figure, rate, report, timings
from components import StateOfMind
from roguelike.bots.bot import Bot
from roguelike.bots.headless import play_bot
from roguelike.content import formulas
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.core.session import Observer, Session, Step
from roguelike.core.snapshot import digest, snapshot_bytes
from roguelike.render import look
from roguelike.render.draw import draw_game
from roguelike.replay.recorder import recording_observers

# The look a frame is drawn in (older checkouts had none to give: ``bench.versus`` runs them too).
DEFAULT_LOOK = getattr(look, "DEFAULT_LOOK", None)
SEEDS = range(1, 13)
TURNS = 2_000  # a game stops here if it is still alive
ENTITIES = 40
RULE_TURNS = 10_000
FRAMES = 1_000
# A patrol that bumps walls, opens doors and walks about without leaving the room much.
PATROL: list[Command] = [Move(1, 0), Move(1, 0), Move(0, 1), Wait(), Move(-1, 0), Move(-1, 0), Move(0, -1), Wait()]


def unsaved_recording(folder: Path, game: Game) -> list[Observer]:
    """The recorder ``hedonic simulate`` gives its unsaved Bot game (synced when it closes, where
    the game under test knows that; older code synced every record)."""
    if "saved" in inspect.signature(recording_observers).parameters:
        return recording_observers(folder, game, saved=False)
    return recording_observers(folder, game)


def simulate_games(folder: Path) -> tuple[int, float]:
    """Turns played and CPU seconds taken by ``hedonic simulate``'s loop over every seed."""
    turns, seconds = 0, 0.0
    for seed in SEEDS:
        game = Game.new(seed, "Bot")
        session = Session(game, unsaved_recording(folder, game))
        start = time.process_time()
        play_bot(session, TURNS)
        seconds += time.process_time() - start
        turns += game.state.turn
        session.close()
        game.close()
    return turns, seconds


def parts(folder: Path) -> dict[str, float]:
    """CPU seconds of each part of a simulate step, summed over the same games."""
    totals = dict.fromkeys(("bot", "rules", "snapshot + checksum", "recorder"), 0.0)
    for seed in SEEDS:
        game, bot = Game.new(seed, "Bot"), Bot()
        (recorder,) = unsaved_recording(folder, game)
        index = 0
        while not game.state.game_over and game.state.turn < TURNS:
            marks = [time.process_time()]
            command = bot.choose(game)
            marks.append(time.process_time())
            game.apply(command)
            marks.append(time.process_time())
            index += 1
            step = made_step(index, game, command)
            marks.append(time.process_time())
            recorder.after_step(game, step)
            marks.append(time.process_time())
            for name, before, after in zip(totals, marks, marks[1:]):
                totals[name] += after - before
        recorder.close(game)
        game.close()
    return totals


def made_step(index: int, game: Game, command: Command) -> Step:
    """The session's step after a command, its checksum worked out (as older code did at once)."""
    if "state" not in {field.name for field in dataclasses.fields(Step)}:  # before the checksum in pieces
        snapshot = snapshot_bytes(game)
        return Step(index, game.state.turn, command, snapshot, digest(snapshot))  # type: ignore[call-arg, arg-type]
    from roguelike.core.snapshot import encoded_state

    step = Step(index, game.state.turn, command, encoded_state(game))
    assert step.checksum
    return step


def rules_only() -> list[float]:
    """Seconds per applied command on a floor kept at 40 entities, the player alive."""
    game = Game.new(2024, "Bench")
    crowd_floor(game, ENTITIES)
    commands = itertools.cycle(PATROL)
    som = game.player_component(StateOfMind)

    def keep_alive() -> None:
        assert not game.state.game_over, "the bench must time a living game"
        som.value = 55
        if game.state.turn % 500 == 0:
            crowd_floor(game, ENTITIES)

    return timings(lambda: game.apply(next(commands)), RULE_TURNS, keep_alive)


def frame_drawing() -> list[float]:
    """Seconds to draw the in-game screen, while High (the costliest palette)."""
    game = Game.new(2024, "Bench")
    crowd_floor(game, ENTITIES)
    game.player_component(StateOfMind).value = 90
    game.apply(Wait())
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    clock = itertools.count()
    looks = (DEFAULT_LOOK,) if DEFAULT_LOOK is not None else ()
    return timings(lambda: draw_game(console, game, next(clock) / 30, *looks), FRAMES)


def main() -> None:
    """Print the figures."""
    with tempfile.TemporaryDirectory(prefix="bench-core-") as folder:
        turns, seconds = simulate_games(Path(folder))
        figure(
            "simulate (bot, rules, snapshot, checksum, recorder)",
            rate(turns, seconds),
            "turns/s",
            f"{turns} turns over {len(SEEDS)} games, CPU time",
        )
        split = parts(Path(folder))
    whole = sum(split.values())
    for name, part in split.items():
        print(f"  {name}: {part / turns * 1e6:.0f} us a turn, {part / whole:.0%}")
    rules = rules_only()
    figure(f"rules only, {ENTITIES} entities", rate(len(rules), sum(rules)), "turns/s")
    print(report("  rules only", rules))
    frames = frame_drawing()
    figure("drawing a frame (High)", rate(len(frames), sum(frames)), "frames/s")
    print(report("  drawing a frame", frames))


if __name__ == "__main__":
    main()
