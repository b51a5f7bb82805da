"""The option list the Settings screen, the Sound page and the automation page are built on."""

from __future__ import annotations

import tcod.console
from tcod.event import KeySym

from roguelike.screens.base import Pop, Push, Screen, Transition
from roguelike.screens.interrupts import InterruptsScreen
from roguelike.screens.optionlist import OptionList
from roguelike.screens.settings import SettingsScreen
from roguelike.screens.soundpage import SoundScreen
from save_helpers import key, screen_rows


class Counters(OptionList):
    """Two numbers to step (Left and Right too) and an entry that opens a page."""

    title, keys, menu_at = "C O U N T E R S", "Left/Right: step   Esc", (6, 3)

    def __init__(self) -> None:
        self.values = [0, 10]
        self.opened: list[Screen] = []
        super().__init__()

    def labels(self) -> list[str]:
        return [f"Apples {self.values[0]}", f"Bananas {self.values[1]}", "Cherries page"]

    def steps(self, index: int) -> bool:
        return index < 2

    def change(self, index: int, step: int) -> Transition | None:
        if index == 2:
            return Push(InterruptsScreen())
        self.values[index] += step
        return None

    def draw_more(self, console: tcod.console.Console) -> None:
        console.print(2, 10, f"total {sum(self.values)}")


def test_choosing_an_entry_changes_it_and_its_label_reads_the_new_value() -> None:
    page = Counters()
    assert page.on_event(key(KeySym.RETURN)) is None
    assert page.values == [1, 10] and page.menu.labels[0] == "Apples 1"
    page.on_event(key(KeySym.B))  # its first letter chooses it and changes it
    assert page.menu.cursor == 1 and page.values == [1, 11] and page.menu.labels[1] == "Bananas 11"
    page.on_event(key(KeySym.N1))  # and its number
    assert page.menu.cursor == 0 and page.values == [2, 11]


def test_left_and_right_step_only_where_the_page_says_and_esc_leaves() -> None:
    page = Counters()
    page.on_event(key(KeySym.LEFT))
    page.on_event(key(KeySym.LEFT))
    page.on_event(key(KeySym.DOWN))
    page.on_event(key(KeySym.RIGHT))
    assert page.values == [-2, 11]
    page.on_event(key(KeySym.DOWN))
    assert page.on_event(key(KeySym.RIGHT)) is None and page.menu.cursor == 2  # the page entry does not step
    assert isinstance(page.on_event(key(KeySym.RETURN)), Push)
    assert isinstance(page.on_event(key(KeySym.ESCAPE)), Pop)


def test_the_page_draws_its_title_options_extra_and_keys_in_their_places() -> None:
    page = Counters()
    page.values[0] = 5  # changed behind its back: the labels are read again when drawn
    rows = screen_rows(page)
    assert rows[1].strip() == "C O U N T E R S"
    assert rows[3].startswith("      > 1. Apples 5") and rows[4].startswith("        2. Bananas 10")
    assert rows[10] == "  total 15"
    assert rows[24].strip() == "Left/Right: step   Esc"


def test_the_three_option_pages_are_option_lists() -> None:
    for page in (SettingsScreen(), SoundScreen(), InterruptsScreen()):
        assert isinstance(page, OptionList)
        assert page.menu.labels == page.labels()
