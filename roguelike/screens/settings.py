"""The Settings screen: palette, motion, glyphs, tile size, fullscreen and scaling, and the
pages of the keys, of what stops automation and of sound.

Up and Down choose an option; Enter, Right or the option's first letter (or number)
takes its next value, Left the one before; Esc or Back leaves. Every change takes
effect at once and is saved to the settings file; a sample of the palette shows
how the game will look.
"""

from __future__ import annotations

from typing import Any

import tcod.console

from roguelike import settings
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.names import fit
from roguelike.render.colours import MOOD_SLOTS, Slot
from roguelike.render.text import fit_path, wrap
from roguelike.screens import ambient
from roguelike.screens.base import Pop, Push, Screen, Transition
from roguelike.screens.interrupts import InterruptsScreen
from roguelike.screens.optionlist import OptionList, print_wrapped
from roguelike.screens.rebind import RebindScreen
from roguelike.screens.soundpage import SoundScreen
from roguelike.screens.style import HINT, TEXT
from roguelike.settings import CHOICES, Glyphs, Motion, PaletteName, Scaling, TileSize, next_choice
from roguelike.settings.options import tiles_in_use
from roguelike.settings.store import PROBLEM_ENDING

TITLE = "S E T T I N G S"
WARNING = (255, 170, 60)
MENU_X, MENU_TOP = 6, 3
SAMPLE_TOP = 14
ABOUT_TOP = 17
FILE_TOP = 19
PROBLEM_ROWS = 4  # from under the file's name down to the keys line
KEYS = "Up/Down option   Enter, Right or its letter: next value   Left: previous   Esc"
BACK = "Back"
# Pages of their own, after the options: the keys, and what stops automation.
PAGES: dict[str, type[Screen]] = {
    "Keys": RebindScreen,
    "Automation stops when...": InterruptsScreen,
    "Sound": SoundScreen,
}

OPTION_TITLES: dict[str, str] = {
    "palette": "Palette",
    "motion": "Motion and flashing",
    "glyphs": "Glyphs",
    "tiles": "Tile size",
    "fullscreen": "Fullscreen",
    "scaling": "Scaling",
    "confirm_lethal": "Confirm risky doses",
}
WINDOW_ONLY = frozenset({"tiles", "fullscreen", "scaling"})
ABOUT: dict[Any, str] = {
    PaletteName.CLASSIC: "The game's own colours.",
    PaletteName.COLOURBLIND: "Colours kept apart for protanopia, deuteranopia and tritanopia (after Paul Tol's schemes).",
    PaletteName.GREYSCALE: "Shades of grey only; the mood bands differ in lightness.",
    PaletteName.CONTRAST: "High contrast: black grounds, bright glyphs.",
    Motion.FULL: "Every effect at full speed; the High swirl turns fast.",
    Motion.REDUCED: f"At most {settings.MAX_FLASHES_PER_SECOND:g} flashes a second over large areas; "
    "the High swirl turns slowly.",
    Motion.NONE: "Nothing moves or flashes by itself; High shows in its colours alone.",
    Glyphs.UNICODE: "Box lines and symbols where the game has them (ASCII where a terminal cannot show them).",
    Glyphs.ASCII: "Plain ASCII everywhere: frames of - | +, and the stand-in of every symbol.",
    Scaling.INTEGER: "In fullscreen or a larger window, whole multiples of the tile size: crisp, with borders.",
    Scaling.FIT: "In fullscreen or a larger window, as large as fits while keeping the shape: softer, fewer borders.",
    True: "The window fills the screen (Alt+Enter switches too).",
    False: "The game plays in a window; its size and place are remembered.",
}


def value_text(value: Any) -> str:
    """How an option's value reads on the screen."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is Glyphs.UNICODE:
        return "Unicode"
    if value is Glyphs.ASCII:
        return "ASCII"
    return str(value.value) if hasattr(value, "value") else str(value)


# What an on/off option does, by option (the other options' values say it themselves).
ABOUT_SWITCH: dict[tuple[str, bool], str] = {
    ("confirm_lethal", True): "Walking into a dose that could overdose you asks first (y takes it).",
    ("confirm_lethal", False): "Walking into a dose takes it, whatever it could do: no question asked.",
}


def about(name: str, value: Any) -> str:
    """What the current value of an option does."""
    if (name, value) in ABOUT_SWITCH:
        return ABOUT_SWITCH[name, value]
    if isinstance(value, TileSize):
        width, height = value.window(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT)
        screen = ambient.preferences().screen
        used = tiles_in_use(value, screen)
        if used != value and screen is not None:
            return (
                f"Cells of {value} pixels make a {width}x{height} window, larger than this screen "
                f"({screen[0]}x{screen[1]}): the window uses {used}, the largest that fits."
            )
        return f"Cells of {value} pixels: the 80x25 window is {width}x{height}."
    return ABOUT.get(value, "")


class SettingsScreen(OptionList):
    """Change the settings; each change applies at once and is saved."""

    title, keys, menu_at = TITLE, KEYS, (MENU_X, MENU_TOP)

    def __init__(self) -> None:
        self.names = list(CHOICES)
        super().__init__()

    def labels(self) -> list[str]:
        """One line per option with its value, then the pages, then Back."""
        chosen = ambient.chosen()
        lines = []
        for name in self.names:
            note = "  (window)" if name in WINDOW_ONLY else ""
            lines.append(f"{OPTION_TITLES[name]:<20} {value_text(getattr(chosen, name)):<12}{note}")
        return lines + list(PAGES) + [BACK]

    def steps(self, index: int) -> bool:
        """The options step with Left and Right; the pages and Back do not."""
        return index < len(self.names)

    def change(self, index: int, step: int) -> Transition | None:
        """Give an option its next (or previous) value, use it and save it; or open a page, or leave."""
        pages = list(PAGES.values())
        if index >= len(self.names) + len(pages):
            return Pop()
        if index >= len(self.names):
            return Push(pages[index - len(self.names)]())
        name = self.names[index]
        prefs = ambient.preferences()
        prefs.change(name, next_choice(prefs.current, name, step))
        return None

    def draw_more(self, console: tcod.console.Console) -> None:
        """A sample of the palette, what the chosen value does, and the file."""
        draw_sample(console, MENU_X + 2, SAMPLE_TOP)
        if self.menu.cursor < len(self.names):
            name = self.names[self.menu.cursor]
            about_it = about(name, getattr(ambient.chosen(), name))
            print_wrapped(console, ABOUT_TOP, about_it, TEXT, rows=2, hyphens=False)
        self.draw_file(console)

    def draw_file(self, console: tcod.console.Console) -> None:
        """Where the settings are kept, and anything wrong with the file."""
        prefs = ambient.preferences()
        where = f"Settings file: {prefs.path}" if prefs.path is not None else "Settings are not saved in this run."
        console.print(2, FILE_TOP, fit_path(where, console.width - 4), fg=HINT)  # the file's name always whole
        trouble = trouble_lines(prefs, console.width - 4, PROBLEM_ROWS)
        if trouble:
            for row, line in enumerate(trouble):
                console.print(2, FILE_TOP + 1 + row, line, fg=WARNING)
        elif prefs.kept_damaged is not None:
            console.print(
                2, FILE_TOP + 1, fit(f"The damaged file was kept as {prefs.kept_damaged}", console.width - 4), fg=HINT
            )


def trouble_lines(prefs: settings.Preferences, width: int, rows: int) -> list[str]:
    """What is wrong with the settings file, in ``rows`` lines of ``width``: as many reasons as fit
    (the rest counted), and always the ending saying the file is kept as it is."""
    if prefs.save_error:
        return wrap(prefs.save_error, width, hyphens=False)[:rows]
    for listed in range(len(prefs.problems), -1, -1):
        lines = wrap(prefs.problem_text(listed, whole_path=False) or "", width, hyphens=False)
        if len(lines) <= rows:
            return lines
    ending = wrap(PROBLEM_ENDING, width, hyphens=False)
    head = wrap((prefs.problem_text(0, whole_path=False) or "").removesuffix(PROBLEM_ENDING), width, hyphens=False)[
        : rows - len(ending)
    ]
    return head + ending


def draw_sample(console: tcod.console.Console, x: int, y: int) -> None:
    """The mood bands and every kind of thing in the palette in force, each with its name."""
    scheme = ambient.look().scheme
    for slot in MOOD_SLOTS:
        console.print(x, y, f" {slot.value} ", fg=scheme[Slot.PANEL_BG], bg=scheme[slot])
        x += len(slot.value) + 3
    kinds = [(dose.glyph, key, dose.colour) for key, dose in DOSE_KINDS.items()]
    kinds += [(monster.glyph, key, monster.colour) for key, monster in MONSTER_KINDS.items()]
    x = MENU_X + 2
    for glyph, key, colour in kinds:
        console.print(x, y + 1, glyph, fg=scheme.kind_colour(key, colour), bg=scheme[Slot.FLOOR_BG])
        x += 2
