"""Palettes checked, not assumed: colour differences under colour-vision deficiency, every
terminal colour mode, nothing told by colour alone, and flashing within the limit."""

from __future__ import annotations

import collections
import dataclasses
import itertools
import math

import numpy as np
import pytest
import tcod.console

import palette_checks
from palette_checks import VISIONS, dose_colours, find_colours, free_colours, kind_colours, too_close
from roguelike import settings
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS, MonsterKind
from roguelike.content.doses import DOSE_KINDS
from roguelike.content.finds import FIND_KINDS
from roguelike.core.game import Game
from roguelike.frontend.palette import ColourMode, colour_keys
from roguelike.render import colours
from roguelike.render.colours import GREYSCALE_MONSTER_GREYS, LUMA, MOOD_SLOTS, SCHEMES, Scheme, Slot
from roguelike.render.draw import draw_game
from roguelike.render.greys import monster_greys
from roguelike.render.look import Look, finish_frame
from roguelike.settings import Glyphs, Motion, PaletteName, Preferences

CHECKED_FOR_CVD = [scheme for scheme in SCHEMES.values() if scheme.name is not PaletteName.CLASSIC]


@pytest.mark.parametrize("scheme", CHECKED_FOR_CVD, ids=lambda scheme: scheme.name.value)
def test_every_pair_that_matters_stays_apart_under_protanopia_deuteranopia_and_tritanopia(scheme: Scheme) -> None:
    assert too_close(scheme, VISIONS) == []


def test_the_classic_palette_keeps_every_pair_apart_for_normal_vision() -> None:
    # The game's own colours predate the palettes; colour-blind players choose "colourblind".
    assert too_close(SCHEMES[PaletteName.CLASSIC], ("normal",)) == []


@pytest.mark.parametrize("scheme", SCHEMES.values(), ids=lambda scheme: scheme.name.value)
def test_every_mood_word_and_every_kind_has_its_colour(scheme: Scheme) -> None:
    words = {formulas.mood_word(som, will) for som in range(0, 102) for will in range(1, 11)}
    assert words <= {slot.value for slot in MOOD_SLOTS}
    if scheme.name is not PaletteName.CLASSIC:
        missing = {"player", *DOSE_KINDS, *MONSTER_KINDS, *FIND_KINDS} - set(scheme.kinds)
        assert not missing, f"the {scheme.name.value} palette has no colour for {sorted(missing)} (render/colours.py)"
        assert set(scheme.kinds) == {"player", *DOSE_KINDS, *MONSTER_KINDS, *FIND_KINDS}


UNUSED_LETTERS = "bcefgjkmnopqtuwyzABCEFGHJKLMNOPQRTUVWXYZ"


def every_glyph() -> list[str]:
    """The letter of every kind of monster, dose and find."""
    return [
        *(kind.glyph for kind in MONSTER_KINDS.values()),
        *(kind.glyph for kind in DOSE_KINDS.values()),
        *(kind.glyph for kind in FIND_KINDS.values()),
    ]


def bestiary_of(count: int) -> dict[str, MonsterKind]:
    """The bestiary cut to ``count`` kinds, or grown to it with throwaway rows of colours and letters of their own."""
    first = next(iter(MONSTER_KINDS.values()))
    taken = set(every_glyph())
    letters = [letter for letter in UNUSED_LETTERS if letter not in taken]
    extra = (
        dataclasses.replace(
            first, key=f"extra{n}", name=f"Extra{n}", glyph=letters[n], colour=(40 * n % 256, 200, 90 * n % 256)
        )
        for n in range(max(0, count - len(MONSTER_KINDS)))
    )
    return {kind.key: kind for kind in itertools.islice(itertools.chain(MONSTER_KINDS.values(), extra), count)}


def test_six_monster_kinds_keep_the_greys_they_had_before_the_bestiary_could_outgrow_them() -> None:
    before = {"depression": 78, "shadows": 107, "voices": 134, "hunger": 166, "regret": 206, "anxiety": 254}
    greys = monster_greys([MONSTER_KINDS[key] for key in before], colours.GREYSCALE_FLOOR)
    assert {key: rgb[0] for key, rgb in greys.items()} == before


@pytest.mark.parametrize("count", [1, 4, GREYSCALE_MONSTER_GREYS, GREYSCALE_MONSTER_GREYS + 1, 9, 12, 25])
def test_greyscale_greys_grow_with_the_bestiary_and_are_shared_past_those_it_tells_apart(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    kinds = bestiary_of(count)
    monkeypatch.setattr(palette_checks, "MONSTER_KINDS", kinds)
    greyscale = SCHEMES[PaletteName.GREYSCALE]
    scheme = dataclasses.replace(
        greyscale, kinds={**greyscale.kinds, **monster_greys(kinds.values(), colours.GREYSCALE_FLOOR)}
    )
    greys = kind_colours(scheme)
    assert len(greys) == count and all(r == g == b for r, g, b in greys.values())
    assert len(set(greys.values())) == min(count, GREYSCALE_MONSTER_GREYS)  # each its own grey while greys allow
    shared = collections.Counter(greys.values())
    assert max(shared.values()) == math.ceil(count / GREYSCALE_MONSTER_GREYS)  # then as few to a grey as can be
    assert too_close(scheme) == []  # greys shown stay apart, and readable on the floor
    assert len({(kinds[key].glyph, grey) for key, grey in greys.items()}) == len(
        {kind.glyph for kind in kinds.values()}
    )
    distinct = list(set(greys.values()))
    assert len(set(keys_of(ColourMode.COLOURS_256, distinct, scheme[Slot.FLOOR_BG]))) == len(distinct)


def grown(scheme: Scheme, kinds: dict[str, MonsterKind]) -> tuple[Scheme, dict[str, MonsterKind]]:
    """A palette and a bestiary grown to ``kinds``, each new kind in a colour ``free_colours`` proposes
    (its content colour in the classic palette, its entry in the colour-blind and high-contrast ones)."""
    new = [key for key in kinds if key not in MONSTER_KINDS]
    if scheme.name is PaletteName.GREYSCALE:
        greys = monster_greys(kinds.values(), colours.GREYSCALE_FLOOR)
        return dataclasses.replace(scheme, kinds={**scheme.kinds, **greys}), kinds
    proposed = dict(zip(new, free_colours(scheme, len(new), visions_checked(scheme))))
    assert len(proposed) == len(new), f"the {scheme.name.value} palette has no room for {len(new)} more monster kinds"
    if scheme.name is PaletteName.CLASSIC:
        return scheme, {
            key: dataclasses.replace(kind, colour=proposed.get(key, kind.colour)) for key, kind in kinds.items()
        }
    return dataclasses.replace(scheme, kinds={**scheme.kinds, **proposed}), kinds


def visions_checked(scheme: Scheme) -> tuple[str, ...]:
    """The visions a palette keeps its pairs apart for: the classic one only for normal vision."""
    return ("normal",) if scheme.name is PaletteName.CLASSIC else VISIONS


@pytest.mark.parametrize("scheme", SCHEMES.values(), ids=lambda scheme: scheme.name.value)
def test_every_palette_gives_each_of_twelve_monster_kinds_a_look_of_its_own(
    monkeypatch: pytest.MonkeyPatch, scheme: Scheme
) -> None:
    palette, kinds = grown(scheme, bestiary_of(12))
    monkeypatch.setattr(palette_checks, "MONSTER_KINDS", kinds)
    assert too_close(palette, visions_checked(palette)) == []
    looks = {(kind.glyph, palette.kind_colour(key, kind.colour)) for key, kind in kinds.items()}
    assert len(looks) == len({kind.glyph for kind in kinds.values()}) == 12
    shown = list(set(kind_colours(palette).values()))
    assert len(set(keys_of(ColourMode.COLOURS_256, shown, palette[Slot.FLOOR_BG]))) == len(shown)


def keys_of(mode: ColourMode, fg: list[tuple[int, int, int]], bg: tuple[int, int, int]) -> list[int]:
    """The terminal colour keys of glyph colours over one background."""
    fg_array = np.array([fg], dtype=np.uint8)
    bg_array = np.array([[bg] * len(fg)], dtype=np.uint8)
    keys, _ = colour_keys(mode, fg_array, bg_array, np.ones((1, len(fg)), dtype=bool))
    return [int(key) for key in keys[0]]


# How many monster kinds the colour-blind and high-contrast palettes keep apart in a 16-colour
# terminal (the nine of the bestiary fill the colour-blind one): docs/architecture.md's monster recipe says so.
SIXTEEN_COLOUR_MONSTERS = 9


@pytest.mark.parametrize("mode", list(ColourMode), ids=lambda mode: mode.value)
@pytest.mark.parametrize("scheme", SCHEMES.values(), ids=lambda scheme: scheme.name.value)
def test_palettes_hold_in_every_terminal_colour_mode(scheme: Scheme, mode: ColourMode) -> None:
    floor = scheme[Slot.FLOOR_BG]
    floor_key = keys_of(mode, [floor], floor)[0]
    assert floor_key not in keys_of(mode, list(dose_colours(scheme).values()), floor), "a dose vanished into the floor"
    assert floor_key not in keys_of(mode, list(find_colours(scheme).values()), floor), "a find vanished into the floor"
    moods = keys_of(mode, [scheme[slot] for slot in MOOD_SLOTS], scheme[Slot.PANEL_BG])
    monsters = keys_of(mode, list(set(kind_colours(scheme).values())), floor)  # a grey shared by design counts once
    # 16 colours hold only four greys, and the classic colours were not chosen for them:
    # there the mood's word and the monster's letter carry the meaning.
    if mode is not ColourMode.COLOURS_16 or scheme.name in (PaletteName.COLOURBLIND, PaletteName.CONTRAST):
        assert len(set(moods)) == len(moods)
    if mode is not ColourMode.COLOURS_16:
        assert len(set(monsters)) == len(monsters)
    elif scheme.name in (PaletteName.COLOURBLIND, PaletteName.CONTRAST):
        # Sixteen colours keep SIXTEEN_COLOUR_MONSTERS kinds apart; past them kinds share, told apart by letter.
        assert len(set(monsters)) >= min(len(monsters), SIXTEEN_COLOUR_MONSTERS)
        assert floor_key not in monsters, "a monster vanished into the floor"


def test_each_palette_changes_what_the_terminal_is_sent() -> None:
    game = Game.new(5, "Colours")
    frames = set()
    for scheme in SCHEMES.values():
        console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
        look = Look(scheme, Motion.REDUCED, Glyphs.UNICODE)
        draw_game(console, game, 0.0, look)
        finish_frame(console, look)
        frames.add(console.rgb.tobytes())
    assert len(frames) == len(SCHEMES)


def test_the_greyscale_palette_turns_the_whole_screen_grey() -> None:
    console = tcod.console.Console(10, 1, order="C")
    console.print(0, 0, "Hedonic", fg=(255, 90, 220), bg=(20, 18, 36))
    finish_frame(console, Look(SCHEMES[PaletteName.GREYSCALE], Motion.REDUCED, Glyphs.UNICODE))
    for layer in (console.rgb["fg"], console.rgb["bg"]):
        assert (layer[..., 0] == layer[..., 1]).all() and (layer[..., 1] == layer[..., 2]).all()


def test_the_mood_is_a_word_and_monsters_differ_by_letter() -> None:
    glyphs = every_glyph()
    assert len(set(glyphs)) == len(glyphs) and "@" not in glyphs
    game = Game.new(5, "Words")
    console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
    draw_game(console, game, 0.0, Look(SCHEMES[PaletteName.GREYSCALE], Motion.NONE, Glyphs.ASCII))
    panel = "".join(chr(c) for c in console.rgb["ch"][formulas.MAP_HEIGHT])
    assert formulas.mood_word(20, 5) in panel


def flashes_per_second(motion: Motion, seconds: float = 3.0, fps: int = 60) -> float:
    """The most flashes a second any cell of a High map shows (WCAG: a pair of opposing
    changes of at least 10% relative luminance, the darker below 0.8)."""
    base = np.broadcast_to(SCHEMES[PaletteName.CLASSIC].tile_colours()[1][1], (21, 80, 3)).astype(np.float32)
    base = base + np.array([120, 60, 160], dtype=np.float32)  # a bright, saturated High floor
    swing = formulas.HIGH_HUE_SWING  # the widest swirl, at 100
    frames = [colours.swirl(base, t / fps * motion.swirl_speed, swing) for t in range(int(seconds * fps))]
    luminance = np.stack([np.clip(frame, 0, 255) @ LUMA / 255 for frame in frames])
    worst = 0
    for cell in luminance.reshape(len(frames), -1).T[::37]:
        worst = max(worst, count_flashes(cell))
    return worst / 2 / seconds  # a flash is a pair of opposing changes


def count_flashes(luminance: np.ndarray) -> int:
    """Opposing changes of at least 0.1 between successive extremes, the darker below 0.8."""
    extremes, direction = [float(luminance[0])], 0.0
    for value in luminance[1:].tolist():
        sign = float(np.sign(value - extremes[-1]))
        if sign == 0:
            continue
        if sign == direction:
            extremes[-1] = value
        else:
            extremes.append(value)
            direction = sign
    return sum(1 for a, b in zip(extremes, extremes[1:]) if abs(a - b) >= 0.1 and min(a, b) < 0.8)


def test_reduced_motion_keeps_the_high_swirl_under_three_flashes_a_second() -> None:
    assert Motion.REDUCED.max_flashes_per_second == settings.MAX_FLASHES_PER_SECOND == 3.0
    assert flashes_per_second(Motion.REDUCED) <= settings.MAX_FLASHES_PER_SECOND
    assert flashes_per_second(Motion.NONE) == 0
    # The swirl sways hues within a bounded swing: even full motion stays under the limit,
    # it only moves faster.
    assert flashes_per_second(Motion.FULL) <= settings.MAX_FLASHES_PER_SECOND
    assert swirl_change(Motion.FULL) > swirl_change(Motion.REDUCED) > swirl_change(Motion.NONE) == 0


def swirl_change(motion: Motion, fps: int = 60) -> float:
    """How much a High floor's colours change from one frame to the next, on average."""
    base = np.full((21, 80, 3), (140, 80, 180), dtype=np.float32)
    frames = [colours.swirl(base, t / fps * motion.swirl_speed, formulas.HIGH_HUE_SWING) for t in range(fps)]
    return float(np.mean([np.abs(b - a).mean() for a, b in zip(frames, frames[1:])]))


def test_no_motion_makes_the_high_game_still() -> None:
    from roguelike.core.session import Session
    from roguelike.screens.ingame import InGameScreen

    session = Session(Game.new(3, "Still"))
    session.game.palette().psychedelic = True
    screen = InGameScreen(session)
    moving = screen.animated
    settings.use(Preferences(None, overrides={"motion": Motion.NONE}))
    assert moving and not screen.animated
    session.close()


def test_high_contrast_keeps_the_map_bright_in_withdrawal() -> None:
    game = Game.new(5, "Dim")  # starts in Withdrawal, where the world greys and darkens
    assert game.palette().brightness < 0.8
    walls = {}
    for name in (PaletteName.CLASSIC, PaletteName.CONTRAST):
        console = tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C")
        draw_game(console, game, 0.0, Look(SCHEMES[name], Motion.REDUCED, Glyphs.UNICODE))
        seen = game.view.visible & (game.state.floor.tiles == 0)
        walls[name] = console.rgb["fg"][: seen.shape[0], : seen.shape[1]][seen].max()
    assert walls[PaletteName.CONTRAST] >= 0.8 * max(SCHEMES[PaletteName.CONTRAST][Slot.WALL_FG]) - 1
    assert walls[PaletteName.CLASSIC] < 0.8 * max(SCHEMES[PaletteName.CLASSIC][Slot.WALL_FG])
