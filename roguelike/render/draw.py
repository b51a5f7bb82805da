"""Draw a game onto a tcod console: the map, what stands on it, and the panel.

Read-only over the game state. The map is computed with numpy over ``console.rgb``;
colours come from the player's palette (:class:`~roguelike.render.look.Look`), shifted by
the State of Mind on one continuous ramp (grey and dark at 0, past natural and swirling
when High); remembered tiles keep the mood, dimmer; the walls close in (a vignette)
during Withdrawal. Doses always stay bright; visions show only while High (finds among them, steady in their own colours); monsters blur
when High and stand out plainly when low; at the Perfect High every dose and monster of
the floor shows, and the doses it showed stay on the map afterwards (the floor remembers
them: :meth:`~roguelike.core.floor.Floor.dose_known`). Animations (:mod:`roguelike.render.effects`) are drawn last, over
everything but the panel.
"""

from __future__ import annotations

import numpy as np
import tcod.console
from numpy.typing import NDArray

from components import Dose, Find, Monster, Palette, Position, Renderable, Sight, StateOfMind, Vision
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.core.game import Game
from roguelike.render import colours
from roguelike.render.effects import Effects
from roguelike.render.look import Look
from roguelike.render.panel import draw_panel
from roguelike.render.pullzone import draw_pull_zone

# The floor swirls a little slower than the glyphs on it, so the two drift apart.
BACKGROUND_SWIRL = 0.7
MONSTER_BLUR = 0.65  # how much of a monster's colour melts into the floor at 100
VISION_SHIMMER = 1.5  # radians a second a vision's hue turns
VIGNETTE_BANDS = 4
# Which content kind a glyph belongs to, for palettes that recolour kinds.
KIND_OF_GLYPH: dict[str, str] = {
    "@": "player",
    **{kind.glyph: key for key, kind in DOSE_KINDS.items()},
    **{kind.glyph: key for key, kind in MONSTER_KINDS.items()},
    **{kind.glyph: key for key, kind in FIND_KINDS.items()},
}


def kind_of_glyph(glyph: str) -> str | None:
    """The content key of the kind drawn with a glyph, if any."""
    return KIND_OF_GLYPH.get(glyph)


def draw_game(
    console: tcod.console.Console, game: Game, now: float, look: Look, effects: Effects | None = None
) -> None:
    """Draw the whole in-game screen in a look, animations too if given."""
    mind = Mind.of(game)
    draw_map(console, game, mind, now, look)
    draw_pull_zone(console, game, look)
    draw_entities(console, game, mind, now, look)
    if effects is not None:
        effects.draw(console, now)
    draw_panel(console, game, look.scheme)


class Mind:
    """What drawing needs of the player: State of Mind, palette, where they are, how far they see."""

    def __init__(self, som: int, palette: Palette, at: tuple[int, int], radius: int) -> None:
        self.som, self.palette, self.at, self.radius = som, palette, at, radius
        self.high = formulas.is_high(som)
        self.perfect = formulas.is_perfect_high(som)

    @classmethod
    def of(cls, game: Game) -> Mind:
        """The mind of a game's player."""
        pos = game.player_component(Position)
        return cls(
            game.player_component(StateOfMind).value,
            game.palette(),
            (pos.x, pos.y),
            game.player_component(Sight).radius,
        )


def draw_map(console: tcod.console.Console, game: Game, mind: Mind, now: float, look: Look) -> None:
    """Tiles: seen ones in the mood's colours, remembered ones the same but dim, unknown ones black."""
    floor, visible = game.state.floor, game.view.visible
    h, w = floor.tiles.shape
    palette = mind.palette
    tile_fg, tile_bg = look.scheme.tile_colours()
    brightness = max(palette.brightness, look.scheme.least_brightness)
    fg = colours.shade(tile_fg[floor.tiles], palette.saturation, brightness)
    bg = colours.shade(tile_bg[floor.tiles], palette.saturation, brightness)
    swing = formulas.hue_swing(mind.som)
    if swing:  # still when the motion setting is none: High then shows in its colours alone
        turned = now * look.motion.swirl_speed * swing / formulas.HIGH_HUE_SWING
        fg, bg = colours.swirl(fg, turned, swing), colours.swirl(bg, turned * BACKGROUND_SWIRL, swing)
    light = np.where(visible, 1.0, formulas.REMEMBERED_BRIGHTNESS) * closing_in(mind, h, w, look)
    fg, bg = fg * light[..., None], bg * light[..., None]
    region = console.rgb[0:h, 0:w]
    region["ch"] = np.where(floor.explored, look.tile_glyphs[floor.tiles], ord(" "))
    region["fg"] = np.where(floor.explored[..., None], colours.to_bytes(fg), 0)
    region["bg"] = np.where(floor.explored[..., None], colours.to_bytes(bg), 0)


def closing_in(mind: Mind, height: int, width: int, look: Look) -> NDArray[np.float32]:
    """The vignette of Withdrawal: light falls off toward the edge of sight, tighter the lower."""
    strength = formulas.vignette(mind.som) * (1 - look.scheme.least_brightness)
    if not strength:
        return np.ones((height, width), dtype=np.float32)
    ys, xs = np.ogrid[0:height, 0:width]
    distance = np.sqrt((xs - mind.at[0]) ** 2 + (ys - mind.at[1]) ** 2)
    inner = mind.radius * (1 - strength * 0.8)
    fall = np.clip((distance - inner) / max(1.0, mind.radius + 2 - inner), 0, 1)
    # In bands, not smoothly: a step then changes only the cells at the bands' edges, which
    # keeps the terminal's frame after a step small (docs/performance.md).
    fall = np.ceil(fall * VIGNETTE_BANDS) / VIGNETTE_BANDS
    result: NDArray[np.float32] = (1 - strength * fall).astype(np.float32)
    return result


def draw_entities(console: tcod.console.Console, game: Game, mind: Mind, now: float, look: Look) -> None:
    """Entities in sight, lowest layer first; doses also where remembered (explored, or shown by
    a Perfect High of this floor); all at the Perfect High."""
    visible, dose_known = game.view.visible, game.state.floor.dose_known()
    world = game.world
    drawn = sorted(world.query(Position, Renderable), key=lambda p: (p[1][1].layer, p[0]))
    for entity, (pos, thing) in drawn:
        vision = world.has(entity, Vision)
        if vision and not mind.high:
            continue
        dose, monster = world.has(entity, Dose), world.has(entity, Monster)
        shown = visible[pos.y, pos.x] or (dose and dose_known[pos.y, pos.x])
        if shown or (mind.perfect and (dose or monster)):
            cell = console.rgb[pos.y, pos.x]
            cell["ch"] = ord(thing.glyph)
            rgb = look.scheme.kind_colour(kind_of_glyph(thing.glyph), thing.colour)
            if vision and world.has(entity, Find):
                cell["fg"] = colours.to_bytes(np.array(rgb, dtype=np.float32))  # steady: its own colour tells its kind
            elif vision:
                cell["fg"] = shimmer(rgb, now * look.motion.swirl_speed / 2)
            elif monster:
                cell["fg"] = monster_colour(rgb, mind, cell["bg"])
            else:
                cell["fg"] = entity_colour(rgb, thing.always_bright, mind.palette)


def entity_colour(rgb: colours.RGB, always_bright: bool, palette: Palette) -> NDArray[np.uint8]:
    """A thing's colour: doses (and the player) always bright, the rest shifted with the mood."""
    base = np.array(rgb, dtype=np.float32)
    if always_bright:
        return colours.to_bytes(base)
    brightness = max(palette.brightness, 0.75)
    return colours.to_bytes(colours.shade(base, max(palette.saturation, 0.3), brightness))


def monster_colour(rgb: colours.RGB, mind: Mind, background: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """Monsters melt into the floor when High and stand out plainly when low."""
    base = np.array(rgb, dtype=np.float32)
    if not mind.high or mind.perfect:
        return colours.to_bytes(base)  # plain to see when low, and to the Perfect High
    blur = MONSTER_BLUR * (mind.som - formulas.HIGH_ABOVE) / (formulas.STATE_OF_MIND_MAX - formulas.HIGH_ABOVE)
    bg = background.astype(np.float32)
    return colours.to_bytes(base + (bg - base) * min(MONSTER_BLUR, blur))


def shimmer(rgb: colours.RGB, turned: float) -> NDArray[np.uint8]:
    """A vision's colour, its hue slowly turning (``turned`` radians on)."""
    base = np.array([[rgb]], dtype=np.float32)
    angle = np.array([[turned + VISION_SHIMMER]], dtype=np.float32)
    return colours.to_bytes(colours.rotate_hue(base, angle)[0, 0])
