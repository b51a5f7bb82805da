"""Animations are cosmetic: fed by cues, limited in flashing, and unable to change a game."""

from __future__ import annotations

import esper
import pytest
import tcod.console

from bestiary_helpers import add_monster, arena, set_player
from components import Panicked
from replay_helpers import record_bot_game
from roguelike.content import formulas
from roguelike.core import cues
from roguelike.core.commands import Move, Wait
from roguelike.core.cues import Cue
from roguelike.core.snapshot import checksum
from roguelike.render.draw import draw_game
from roguelike.render.effects import BLAST_STEP_SECONDS, Effects
from roguelike.render.look import DEFAULT_LOOK
from roguelike.replay.fileformat import Replay, read_replay
from roguelike.replay.playback import Playback
from roguelike.screens.replay import ReplayScreen


def console() -> tcod.console.Console:
    """A blank 80x25 console."""
    return tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Replay:
    """A recorded bot game with fights in it."""
    path, _ = record_bot_game(tmp_path_factory.mktemp("data"), seed=3, turns=400)
    return read_replay(path)


@pytest.mark.parametrize("motion", ["reduced", "none"])
def test_a_replay_verifies_with_animations_on_and_off(replay: Replay, motion: str) -> None:
    screen = ReplayScreen(Playback(replay))
    screen.effects = Effects(motion, seed=11)
    screen.paused = True
    canvas, animated_frames, now = console(), 0, 0.0
    while screen.step():  # every step is checked against the recorded checksum
        now += 0.05
        screen.on_draw(canvas, now)
        animated_frames += bool(screen.effects.playing)
    assert screen.playback.diverged_at is None and screen.playback.at_end
    assert checksum(screen.playback.game) == replay.steps[-1].checksum
    assert (animated_frames > 0) == (motion != "none")


def test_drawing_animations_leaves_the_game_as_it_was() -> None:
    game = arena()
    add_monster(game, "hunger", 9, 4, hunting=True)
    game.apply(Wait())
    game.apply(Move(1, 0))
    effects = Effects(seed=1)
    effects.feed(game.action.cues)
    before = checksum(game)
    for frame in range(30):
        draw_game(console(), game, frame * 0.05, DEFAULT_LOOK, effects)
    assert checksum(game) == before


def test_hits_slayings_and_forced_moves_are_cued() -> None:
    game = arena()
    add_monster(game, "hunger", 9, 4, hunting=True)
    game.apply(Wait())
    assert Cue(cues.HIT, ((8, 4),), "drained") in game.action.cues
    game.apply(Move(1, 0))
    assert Cue(cues.SLAIN, ((9, 4),), "hunger") in game.action.cues
    set_player(game, state_of_mind=60)
    esper.add_component(game.state.player, Panicked(3))
    game.apply(Wait())
    assert [cue.kind for cue in game.action.cues] == [cues.FORCED]


def test_large_flashes_are_limited_to_three_a_second_by_default() -> None:
    effects, canvas = Effects(seed=1), console()
    effects.feed([Cue(cues.PERFECT_HIGH, ((5, 5),))] * 10)
    effects.draw(canvas, 10.0)
    assert len(effects.playing) == formulas.MAX_FLASHES_PER_SECOND
    effects.feed([Cue(cues.PERFECT_HIGH, ((5, 5),))])
    effects.draw(canvas, 10.4)
    assert sum(a.kind == cues.PERFECT_HIGH for a in effects.playing) == formulas.MAX_FLASHES_PER_SECOND
    effects.feed([Cue(cues.PERFECT_HIGH, ((5, 5),))])
    effects.draw(canvas, 11.1)
    assert len(effects.playing) == 1
    unlimited, still = Effects("full", seed=1), Effects("none", seed=1)
    for effects in (unlimited, still):
        effects.feed([Cue(cues.PERFECT_HIGH, ((5, 5),))] * 10)
        effects.draw(canvas, 0.0)
    assert len(unlimited.playing) == 10 and not still.playing


def test_a_blast_moves_outwards_then_ends() -> None:
    effects, origin = Effects(seed=1), (20, 10)
    tiles = tuple((20 + d, 10) for d in range(1, formulas.BLAST_REACH + 1))
    effects.feed([Cue(cues.BLAST, (origin, *tiles), "cardinal_dose")])
    effects.draw(console(), 1.0)  # fed cues start at the next frame
    lit = []
    for moment in (BLAST_STEP_SECONDS * 1.5, BLAST_STEP_SECONDS * 5.5):
        canvas = console()
        canvas.rgb["ch"] = ord(".")  # bare floor, where the sparks show
        effects.draw(canvas, 1.0 + moment)
        lit.append(max(x for x in range(80) if canvas.rgb[10, x]["ch"] == ord("*")))
    assert lit[0] < lit[1]
    effects.draw(console(), 5.0)
    assert not effects.active


def test_the_death_animation_can_be_played_by_the_death_sequence() -> None:
    effects, canvas = Effects(seed=1), console()
    effects.play_death((10, 10), 0.0)
    effects.draw(canvas, 1.0)
    assert canvas.rgb[10, 10]["ch"] == ord("%") and effects.active
