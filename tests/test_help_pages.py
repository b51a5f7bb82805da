"""Help pages hold whatever the tables grow to: every word reaches the 80x25 screen, whole.

The content tables are swapped for ones many rows longer (throwaway monsters, doses,
finds, rules, keys) and every part of every page is turned to and read back from the
console it draws on.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterator
from typing import TypeVar

import pytest
import tcod.console
from tcod.event import KeySym, Modifier

from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS, MonsterKind
from roguelike.content.doses import DOSE_KINDS, DoseKind
from roguelike.content.finds import FIND_KINDS, FindKind
from roguelike.screens import help, helptext
from roguelike.screens.help import PAGES, HelpScreen, Known
from roguelike.screens.helplayout import HINTS, ROWS, TOP, WIDTH, Entry, Heading, fitted, line_text, parts_of
from save_helpers import key, screen_rows

FILLER = (
    "an unusually long-winded explanation of what this throwaway row would do to the player"
    " if it were ever real, told at length so that it wraps over several rows of the screen"
)
Kind = TypeVar("Kind", MonsterKind, DoseKind, FindKind)


def throwaway_kinds(table: dict[str, Kind], count: int, **texts: str) -> dict[str, Kind]:
    """The table and ``count`` more rows made from its first, named ``extra0``..., their texts long."""
    first = next(iter(table.values()))
    more = {}
    for number in range(count):
        name = f"extra{number}"
        more[name] = dataclasses.replace(
            first, key=name, name=name, **{field: f"{name} {text}" for field, text in texts.items()}
        )
    return {**table, **more}


@pytest.fixture
def long_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[Known]:
    """Every table the help reads, many rows longer; what the help knows of all the monsters."""
    monsters = throwaway_kinds(MONSTER_KINDS, 30, hit_summary=FILLER[:60], moves=FILLER)
    monkeypatch.setattr(help, "MONSTER_KINDS", monsters)
    monkeypatch.setattr(help, "DOSE_KINDS", throwaway_kinds(DOSE_KINDS, 20, description=FILLER))
    monkeypatch.setattr(help, "FIND_KINDS", throwaway_kinds(FIND_KINDS, 20, description=FILLER))
    monkeypatch.setattr(helptext, "RULES", helptext.RULES + tuple((f"Rule {n}", FILLER) for n in range(30)))
    monkeypatch.setattr(helptext, "CONTROLS", helptext.CONTROLS + tuple((f"Action {n}", FILLER) for n in range(30)))
    monkeypatch.setattr(helptext, "HIGHS", helptext.HIGHS + tuple((f"High {n}", FILLER) for n in range(10)))
    monkeypatch.setattr(helptext, "LEGEND", helptext.LEGEND + (("#", FILLER),) * 20)
    yield Known(met=frozenset(monsters), tolerance=4, depth=6, state_of_mind=30)


def shown_parts(screen: HelpScreen) -> Iterator[tuple[str, list[str]]]:
    """Each part of every page, turned to with the keys, as the 80x25 rows it draws (a heading
    repeated from an earlier part left out)."""
    first = screen.title
    while True:
        rows = screen_rows(screen)
        repeated = screen.pages[screen.index].repeated
        yield screen.title, [*rows[:TOP], *rows[TOP + repeated : HINTS]]
        screen.on_event(key(KeySym.RIGHT))
        if screen.title == first:
            return


def topic(title: str) -> str:
    """``Rules`` of ``Rules 2/3``."""
    return title.rsplit(" ", 1)[0] if title[-1].isdigit() else title


def words_shown(known: Known) -> dict[str, list[str]]:
    """Every word each page shows on screen, part after part, in order."""
    shown: dict[str, list[str]] = {}
    for title, rows in shown_parts(HelpScreen(known)):
        assert f" {title} " in rows[0] + " ", f"the tab of {title} is cut: {rows[0]!r}"
        shown.setdefault(topic(title), []).extend(" ".join(rows[TOP:HINTS]).split())
    return shown


def is_subsequence(words: list[str], within: list[str]) -> bool:
    """Whether ``words`` appear in ``within`` in this order."""
    remaining = iter(within)
    return all(word in remaining for word in words)


def every_word_reaches_the_screen(known: Known) -> dict[str, list[str]]:
    """Each page's words, as its builder makes them, are the words its parts show: none cut, none lost."""
    shown = words_shown(known)
    assert list(shown) == [title for title, _ in PAGES]
    for title, build in PAGES:
        built = " ".join(line_text(line) for entry in build(known) for line in entry).split()
        assert shown[title] == built, f"{title}: words cut or lost on screen"
    return shown


def test_the_help_as_shipped_shows_every_word_whole() -> None:
    every_word_reaches_the_screen(Known(met=frozenset(MONSTER_KINDS), tolerance=4, depth=6, state_of_mind=30))


def test_tables_many_rows_longer_page_through_every_word(long_tables: Known) -> None:
    shown = every_word_reaches_the_screen(long_tables)
    for name in (f"extra{n}" for n in range(20)):
        for page, field in (("Bestiary", FILLER), ("Doses", FILLER), ("Highs", FILLER)):
            assert is_subsequence(f"{name} {field}".split(), shown[page]), (page, name)
    assert is_subsequence(FILLER.split(), shown["Rules"]) and is_subsequence(FILLER.split(), shown["Legend"])
    titles = [title for title, _ in shown_parts(HelpScreen(long_tables))]
    assert {topic(title) for title in titles if "/" in title} == {title for title, _ in PAGES}  # each in parts


def test_the_parts_of_a_page_are_numbered_and_turned_both_ways(long_tables: Known) -> None:
    screen = HelpScreen(long_tables)
    titles = [title for title, _ in shown_parts(screen)]
    for name, group in itertools.groupby(titles, topic):
        numbered = list(group)
        if len(numbered) > 1:
            assert numbered == [f"{name} {n}/{len(numbered)}" for n in range(1, len(numbered) + 1)]
    screen.on_event(key(KeySym.TAB, Modifier.SHIFT))
    assert screen.title == titles[-1]
    screen.on_event(key(KeySym.N3))
    assert screen.title == next(title for title in titles if title.startswith("Bestiary"))
    screen.on_event(key(KeySym.LEFT))
    assert topic(screen.title) == "Rules" and screen.title.endswith(f"/{screen.title[-1]}")


def test_a_larger_console_shows_the_same_page() -> None:
    screen = HelpScreen(Known(met=frozenset(MONSTER_KINDS)), page="Bestiary")
    large = tcod.console.Console(120, 40, order="C")
    screen.on_draw(large, 0.0)
    rows = ["".join(chr(c) for c in row[: formulas.SCREEN_WIDTH]).rstrip() for row in large.rgb["ch"]]
    assert rows[: formulas.SCREEN_HEIGHT] == screen_rows(screen)


def test_a_line_too_wide_wraps_at_its_words_under_where_its_text_began() -> None:
    white = (255, 255, 255)
    rows = fitted([("  Q  ", white), ("Quibble     ", white), (FILLER, white), ("  floor 9+", white)])
    texts = [line_text(row) for row in rows]
    assert all(len(text) <= WIDTH for text in texts)
    assert " ".join(texts).split() == ["Q", "Quibble", *FILLER.split(), "floor", "9+"]
    assert all(text.startswith(" " * 17) and not text[17].isspace() for text in texts[1:-1])


def block(label: str, height: int) -> Entry:
    """An entry of ``height`` lines, its label on the first."""
    white = (255, 255, 255)
    return [[(label, white), (" text", white)], *([("          more", white)],) * (height - 1)]


def test_a_page_breaks_between_entries_where_it_can() -> None:
    parts = [laid.rows for laid in parts_of([block(f"E{n}", 5) for n in range(6)], size=12)]
    assert [len(part) for part in parts] == [10, 10, 10]


def test_a_page_in_parts_is_cut_evenly_rather_than_leaving_an_entry_alone() -> None:
    # Filled greedily the last entry would sit alone on a second part, as the Rules' "Taken over" did.
    entries = [block(f"E{n}", 2) for n in range(10)] + [block("Last", 4)]
    parts = [laid.rows for laid in parts_of(entries, size=22)]
    assert [len(part) for part in parts] == [12, 12]
    assert [line_text(row) for part in parts for row in part] == [line_text(r) for e in entries for r in e]


def test_an_entry_taller_than_a_part_is_the_only_one_cut() -> None:
    entries = [block("Short", 3), block("Tall", 30), block("After", 3)]
    parts = [laid.rows for laid in parts_of(entries, size=22)]
    assert [len(part) for part in parts] == [18, 18]  # two even parts, the tall entry poured across both
    assert [line_text(row) for part in parts for row in part] == [line_text(r) for e in entries for r in e]


def test_blank_entries_never_start_or_end_a_part() -> None:
    blank: Entry = [[]]
    parts = [laid.rows for laid in parts_of([block(f"E{n}", 3) if n % 2 else blank for n in range(30)], size=10)]
    assert len(parts) > 1
    assert all(line_text(part[0]).strip() and line_text(part[-1]).strip() for part in parts)


def test_a_heading_starts_every_part_after_its_own() -> None:
    heading = Heading([[("   name      what it does", (255, 255, 255))]])
    entries = [[[("Intro", (255, 255, 255))]], heading, *(block(f"E{n}", 3) for n in range(12))]
    parts = parts_of(entries, size=14)
    assert len(parts) == 3 and [laid.repeated for laid in parts] == [0, 1, 1]
    assert all(line_text(laid.rows[laid.repeated]).startswith("E") for laid in parts[1:])
    assert all(laid.rows[0] == heading[0] for laid in parts[1:]) and all(len(laid.rows) <= 14 for laid in parts)
    shown = [line_text(row) for laid in parts for row in laid.rows[laid.repeated :]]
    assert shown == [line_text(row) for entry in entries for row in entry]


def test_a_heading_is_not_repeated_where_an_entry_could_not_follow_it() -> None:
    heading = Heading([[("heading", (255, 255, 255))]] * 3)
    entries = [heading, block("Tall", 11), block("Tall", 11)]
    parts = parts_of(entries, size=12)
    assert [laid.repeated for laid in parts] == [0, 0, 0] and [len(laid.rows) for laid in parts] == [3, 11, 11]


def test_the_help_as_shipped_turns_in_even_parts() -> None:
    for part in help.pages(Known(met=frozenset(MONSTER_KINDS), tolerance=4, depth=6, state_of_mind=30)):
        assert part.count <= 2, f"{part.title}: the shipped help should need two parts at most"
    parts = help.pages(Known(met=frozenset(MONSTER_KINDS)))
    for topic, group in itertools.groupby(parts, lambda part: part.topic):
        heights = [len(part.rows) for part in group]
        assert min(heights) * 2 >= max(heights), f"{topic}: a part left nearly empty ({heights})"


@pytest.mark.parametrize("monsters, rules", [(12, 10), (30, 30)])
def test_parts_stay_even_however_many_rows_the_tables_grow_to(
    monkeypatch: pytest.MonkeyPatch, monsters: int, rules: int
) -> None:
    kinds = throwaway_kinds(MONSTER_KINDS, monsters, hit_summary=FILLER[:60], moves=FILLER[:120])
    monkeypatch.setattr(help, "MONSTER_KINDS", kinds)
    monkeypatch.setattr(helptext, "RULES", helptext.RULES + tuple((f"Rule {n}", FILLER) for n in range(rules)))
    known = Known(met=frozenset(kinds))
    every_word_reaches_the_screen(known)
    parts = help.pages(known)
    for topic in ("Rules", "Bestiary"):
        heights = [len(part.rows) for part in parts if part.topic == topic]
        assert len(heights) > 1 and all(height <= ROWS for height in heights)
        assert min(heights) * 2 >= max(heights), f"{topic}: a part left nearly empty ({heights})"


def test_a_part_that_continues_says_so_beside_the_hints(long_tables: Known) -> None:
    screen = HelpScreen(long_tables, page="Rules")
    count = screen.pages[screen.index].count
    assert screen_rows(screen)[HINTS].endswith(f"(1/{count}) more: Right")
    screen.on_event(key(KeySym.N3))
    screen.on_event(key(KeySym.LEFT))
    assert screen.title == f"Rules {count}/{count}" and screen_rows(screen)[HINTS].endswith(f"({count}/{count})")


def test_a_page_in_one_part_has_no_marker() -> None:
    assert screen_rows(HelpScreen(Known(), page="Bestiary"))[HINTS].endswith("Esc: back")


def test_the_number_keys_jump_to_a_page_s_first_part(long_tables: Known) -> None:
    screen = HelpScreen(long_tables, page="Legend")
    screen.on_event(key(KeySym.N2))
    assert screen.title == f"Rules 1/{screen.pages[screen.index].count}"


def test_a_screen_reader_hears_each_part_as_it_is_turned_to(long_tables: Known) -> None:
    screen = HelpScreen(long_tables)
    opening = screen.spoken()
    assert opening[0] == "Help: Controls, Rules, Bestiary, Doses, Highs, Legend."
    assert screen.spoken() == []  # nothing new until a part is turned to
    heard: list[list[str]] = [opening[1:]]
    for _ in range(len(screen.pages) - 1):
        screen.on_event(key(KeySym.RIGHT))
        heard.append(screen.spoken())
    for part, said in zip(screen.pages, heard):
        assert said[0] == f"{part.topic}, part {part.number} of {part.count}."
        body = [line for line in said[1:] if line != help.TURN_HINT]
        assert " ".join(body).split() == " ".join(line_text(row) for row in part.rows[part.repeated :]).split()
