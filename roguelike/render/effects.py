"""Cosmetic animations: hit flashes, fading monsters, trails of forced moves, blasts, death.

The engine is fed the game's cues (:mod:`roguelike.core.cues`) after every action and
draws over the map by wall time. It keeps its own random stream (:data:`random.Random`,
never the game's) and reads nothing but the cues, so turning it off or on cannot change
a game: a replay verifies the same either way. Screens own one :class:`Effects` each
(the in-game screen and the replay viewer alike); the death sequence calls
:meth:`Effects.play_death`.

Flashing over large areas is limited in one place, :class:`FlashLimit`. ``motion`` is
where the motion setting plugs in (given as a value, or as a function the screen hands
over to ask for the setting in force each time): "reduced" (the default) allows at most
``MAX_FLASHES_PER_SECOND`` large flashes (the photosensitivity guideline), "full" lifts
the limit, "none" plays no animation at all.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import tcod.console

from roguelike.content import formulas
from roguelike.content.bestiary import HIT_EFFECTS, MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.core import cues
from roguelike.core.cues import Cue

RGB = tuple[int, int, int]
Spot = tuple[int, int]

# How long each animation lasts (seconds); a hit flashes its effect's colour (the bestiary's).
HIT_SECONDS = 0.3
FADE_SECONDS = 0.6
TRAIL_SECONDS = 1.2
BLAST_STEP_SECONDS = 0.045  # the blast front moves a tile this often
BLAST_TILE_SECONDS = 0.3
DEATH_SECONDS = 1.5
PERFECT_HIGH_SECONDS = 0.5
MAX_ANIMATIONS = 96  # at replay speeds the oldest go first
SLAIN_COLOUR: RGB = (255, 255, 255)
TRAIL_COLOUR: RGB = (255, 120, 80)
DEATH_COLOUR: RGB = (200, 0, 30)
PERFECT_HIGH_COLOUR: RGB = (255, 255, 255)
MOTIONS = ("full", "reduced", "none")
FLOOR_GLYPH = ord(".")


@dataclass
class Animation:
    """One animation: what it is, where, when it started and how long it lasts."""

    kind: str
    spots: tuple[Spot, ...]
    colour: RGB
    start: float
    seconds: float
    glyph: str = ""
    jitter: list[float] = field(default_factory=list)  # per-spot flicker from the cosmetic stream

    def progress(self, now: float) -> float:
        """0 at the start, 1 at the end (may be below 0 for a delayed start)."""
        return (now - self.start) / self.seconds


class FlashLimit:
    """Large-area flashes allowed at most ``per_second`` times in any second (None: no limit)."""

    def __init__(self, per_second: int | None = formulas.MAX_FLASHES_PER_SECOND) -> None:
        self.per_second = per_second
        self.recent: list[float] = []

    def allow(self, now: float) -> bool:
        """Whether a large flash may start now; if so it is counted."""
        self.recent = [t for t in self.recent if now - t < 1.0]
        if self.per_second is not None and len(self.recent) >= self.per_second:
            return False
        self.recent.append(now)
        return True


class Effects:
    """The animations of one game on screen."""

    def __init__(self, motion: str | Callable[[], str] = "reduced", seed: int | None = None) -> None:
        self.chosen = motion  # a function: whatever it says at the time (the screens' setting in force)
        self.random = random.Random(seed)  # cosmetic only: never the game's RNG
        self.flashes = FlashLimit()
        self.pending: list[Cue] = []
        self.playing: list[Animation] = []

    @property
    def motion(self) -> str:
        """ "reduced", "full" or "none": as chosen, or as the function given says now."""
        motion = self.chosen() if callable(self.chosen) else self.chosen
        return motion if motion in MOTIONS else "reduced"

    def feed(self, new: Iterable[Cue]) -> None:
        """Cues of the action just applied; they start at the next frame."""
        if self.motion != "none":
            self.pending.extend(new)

    @property
    def active(self) -> bool:
        """Whether anything is fed or still animating (frontends then keep redrawing)."""
        return bool(self.pending or self.playing)

    def play_death(self, spot: Spot, now: float) -> None:
        """The player's death, for the death sequence to call."""
        if self.motion != "none":
            self.playing.append(Animation(cues.DEATH, (spot,), DEATH_COLOUR, now, DEATH_SECONDS))

    def draw(self, console: tcod.console.Console, now: float) -> None:
        """Start what was fed, drop what has ended, draw the rest over the map."""
        for cue in self.pending:
            self.playing.extend(self.animations_for(cue, now))
        self.pending.clear()
        self.playing = [a for a in self.playing if a.progress(now) < 1][-MAX_ANIMATIONS:]
        for animation in self.playing:
            DRAWERS[animation.kind](console, animation, now)

    def animations_for(self, cue: Cue, now: float) -> list[Animation]:
        """The animations a cue starts."""
        if cue.kind == cues.HIT:
            return [Animation(cue.kind, cue.spots, hit_colour(cue.key), now, HIT_SECONDS)]
        if cue.kind == cues.SLAIN:
            kind = MONSTER_KINDS[cue.key]
            return [Animation(cue.kind, cue.spots, kind.colour, now, FADE_SECONDS, glyph=kind.glyph)]
        if cue.kind == cues.FORCED:
            return [Animation(cue.kind, cue.spots[:1], TRAIL_COLOUR, now, TRAIL_SECONDS)]
        if cue.kind == cues.BLAST:
            return [self.blast(cue, now)]
        if cue.kind == cues.DEATH:
            return [Animation(cue.kind, cue.spots, DEATH_COLOUR, now, DEATH_SECONDS)]
        if cue.kind == cues.PERFECT_HIGH and self.flash_allowed(now):
            return [Animation(cue.kind, cue.spots, PERFECT_HIGH_COLOUR, now, PERFECT_HIGH_SECONDS)]
        return []

    def flash_allowed(self, now: float) -> bool:
        """Whether a large-area flash may start now (always at full motion, else limited)."""
        self.flashes.per_second = None if self.motion == "full" else formulas.MAX_FLASHES_PER_SECOND
        return self.flashes.allow(now)

    def blast(self, cue: Cue, now: float) -> Animation:
        """A dose's blast: the front runs out along its lines, each tile flickering."""
        colour = DOSE_KINDS[cue.key].colour
        seconds = BLAST_STEP_SECONDS * (formulas.BLAST_REACH + 1) + BLAST_TILE_SECONDS
        jitter = [self.random.uniform(0.6, 1.0) for _ in cue.spots]
        return Animation(cue.kind, cue.spots, colour, now, seconds, jitter=jitter)


def hit_colour(key: str) -> RGB:
    """The flash of a hit: its effect's colour, white for a monster slain."""
    hit = HIT_EFFECTS.get(key)
    return hit.flash if hit is not None else SLAIN_COLOUR


def tint(console: tcod.console.Console, spot: Spot, colour: RGB, strength: float, layer: str = "bg") -> None:
    """Blend a colour into one cell's background (or foreground) by ``strength`` (0..1)."""
    x, y = spot
    if not (0 <= x < console.width and 0 <= y < formulas.MAP_HEIGHT) or strength <= 0:
        return
    cell = console.rgb[y, x]
    old = cell[layer].astype(np.float32)
    cell[layer] = np.clip(old + (np.array(colour, dtype=np.float32) - old) * min(1.0, strength), 0, 255)


def draw_hit(console: tcod.console.Console, animation: Animation, now: float) -> None:
    """A flash on the struck tile, fading."""
    for spot in animation.spots:
        tint(console, spot, animation.colour, 1 - animation.progress(now))


def draw_fade(console: tcod.console.Console, animation: Animation, now: float) -> None:
    """A slain monster's glyph fading into the floor."""
    x, y = animation.spots[0]
    if not (0 <= x < console.width and 0 <= y < formulas.MAP_HEIGHT):
        return
    left = 1 - animation.progress(now)
    bg = console.rgb[y, x]["bg"].astype(np.float32)
    fg = bg + (np.array(animation.colour, dtype=np.float32) - bg) * left
    console.rgb[y, x]["ch"] = ord(animation.glyph)
    console.rgb[y, x]["fg"] = np.clip(fg, 0, 255)


def draw_trail(console: tcod.console.Console, animation: Animation, now: float) -> None:
    """A tile the player was dragged across, glowing and fading."""
    tint(console, animation.spots[0], animation.colour, 0.6 * (1 - animation.progress(now)))


def draw_blast(console: tcod.console.Console, animation: Animation, now: float) -> None:
    """The blast front moving outwards from the dose's tile."""
    origin, tiles = animation.spots[0], animation.spots[1:]
    age = now - animation.start
    for spot, jitter in zip(tiles, animation.jitter[1:]):
        reach = max(abs(spot[0] - origin[0]), abs(spot[1] - origin[1]))
        lit = (age - reach * BLAST_STEP_SECONDS) / BLAST_TILE_SECONDS
        if 0 <= lit < 1:
            tint(console, spot, animation.colour, (1 - lit) * jitter)
            cell = console.rgb[spot[1], spot[0]]
            if cell["ch"] == FLOOR_GLYPH:  # sparks on bare floor; the player and the rest show through
                cell["ch"], cell["fg"] = ord("*"), animation.colour


def draw_death(console: tcod.console.Console, animation: Animation, now: float) -> None:
    """The player's death: a red ring spreads out and the world drains to dark red."""
    (px, py), t = animation.spots[0], animation.progress(now)
    height = formulas.MAP_HEIGHT
    ys, xs = np.ogrid[0:height, 0 : console.width]
    distance = np.sqrt((xs - px) ** 2 + ((ys - py) * 2) ** 2)
    ring = np.clip(1 - np.abs(distance - t * 40) / 3, 0, 1)
    drain = np.full(distance.shape, min(1.0, t * 1.5) * 0.7)
    strength = np.maximum(ring, drain)[..., None]
    region = console.rgb[0:height]
    for layer in ("fg", "bg"):
        old = region[layer].astype(np.float32)
        region[layer] = np.clip(old + (np.array(animation.colour, dtype=np.float32) - old) * strength, 0, 255)
    if 0 <= px < console.width and 0 <= py < height:
        console.rgb[py, px]["ch"] = ord("%" if t > 0.5 else "@")


def draw_perfect_high(console: tcod.console.Console, animation: Animation, now: float) -> None:
    """One white flash over the map as the Perfect High begins (counted by the flash limit)."""
    strength = 0.55 * (1 - animation.progress(now))
    region = console.rgb[0 : formulas.MAP_HEIGHT]
    old = region["bg"].astype(np.float32)
    region["bg"] = np.clip(old + (np.array(animation.colour, dtype=np.float32) - old) * strength, 0, 255)


DRAWERS = {
    cues.HIT: draw_hit,
    cues.SLAIN: draw_fade,
    cues.FORCED: draw_trail,
    cues.BLAST: draw_blast,
    cues.DEATH: draw_death,
    cues.PERFECT_HIGH: draw_perfect_high,
}
