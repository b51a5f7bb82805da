"""Looking around (x or ;): a cursor over the map, and what is under it described.

The cursor starts on the player and moves with every move key; Tab jumps to the next
monster or dose in view (Shift+Tab back); Enter travels there (auto-travel, stopped by
whatever disturbs the player). For a monster the panel says what its hit
does and whether it has noticed you; for a dose, what it could give at your Tolerance
now and whether it could overdose you. Looking never changes the game.
"""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier

from components import Attributes, Dose, Find, Monster, Position, Shortcut, StateOfMind, Tolerance, Vision
from roguelike.assist.readout import shown_odds
from roguelike.content import formulas
from roguelike.content.bestiary import MONSTER_KINDS
from roguelike.content.doses import CARDINAL_LINES, DIAGONAL_LINES, DOSE_KINDS, SHORTCUT_TEXT
from roguelike.content.finds import FIND_KINDS
from roguelike.content.terrain import TERRAIN
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.render.colours import Slot
from roguelike.render.draw import draw_game
from roguelike.render.panel import MESSAGE_WIDTH, MESSAGES_X, PANEL_TOP
from roguelike.render.text import wrap
from roguelike.screens import ambient, helptext
from roguelike.screens.base import Pop, Room, Screen, Transition
from roguelike.screens.help import colour_of_kind
from roguelike.screens.style import HEADING, HINT, TEXT

CURSOR_BG = (200, 200, 80)
WARNING = (255, 110, 90)
TRAVEL_KEYS = frozenset({KeySym.RETURN, KeySym.KP_ENTER})
LEAVE_KEYS = frozenset({KeySym.ESCAPE, KeySym.X, KeySym.SEMICOLON, KeySym.RETURN, KeySym.KP_ENTER, KeySym.Q})
BLAST_WORDS = {CARDINAL_LINES: "Blasts monsters N, E, S, W.", DIAGONAL_LINES: "Blasts monsters diagonally."}
UNSEEN = "You have not seen this place."
LOOK_KEYS = "Move keys move the cursor, Tab jumps to the next thing, Enter travels, Esc goes back."


class LookScreen(Screen):
    """The look cursor over the game; Esc goes back."""

    def __init__(self, game: Game, travel: Callable[[int, int], None] | None = None) -> None:
        self.game = game
        self.travel = travel  # Enter travels to the cell under the cursor, when given
        pos = game.player_component(Position)
        self.cursor = (pos.x, pos.y)
        self.told: tuple[int, int] | None = None  # the cell a screen reader last heard about

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Move the cursor, jump to the next thing with Tab, or leave."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if event.sym in TRAVEL_KEYS and self.travel is not None:
            self.travel(*self.cursor)
            return Pop()
        if event.sym in LEAVE_KEYS:
            return Pop()
        if event.sym == KeySym.TAB:
            self.jump(-1 if event.mod & Modifier.SHIFT else 1)
        else:
            command = ambient.keys().command_for(event)
            step = (getattr(command, "dx", 0), getattr(command, "dy", 0))
            x = formulas.clamp(self.cursor[0] + step[0], 0, formulas.MAP_WIDTH - 1)
            self.cursor = (x, formulas.clamp(self.cursor[1] + step[1], 0, formulas.MAP_HEIGHT - 1))
        return None

    def spoken(self) -> list[str] | None:
        """What the cursor is on, whenever it moves (Tab included), for a screen reader."""
        if self.cursor == self.told:
            return []
        first, self.told = self.told is None, self.cursor
        words = " ".join(text for text, _ in describe(self.game, self.cursor))
        return [words, LOOK_KEYS] if first else [words]

    def reader_cursor(self) -> tuple[int, int] | None:
        """A screen reader's cursor follows the look cursor."""
        return self.cursor

    def room(self) -> Room:
        """The game looked at (its in-view list beside it, with room)."""
        return Room(self.game)

    def jump(self, direction: int) -> None:
        """Put the cursor on the next (or previous) monster or dose in view, nearest first."""
        spots = things_in_view(self.game)
        if not spots:
            return
        index = spots.index(self.cursor) + direction if self.cursor in spots else (0 if direction > 0 else -1)
        self.cursor = spots[index % len(spots)]

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """The game, the cursor, and the description over the message area, wrapped whole."""
        draw_game(console, self.game, now, ambient.look())
        x, y = self.cursor
        console.rgb["bg"][y, x] = CURSOR_BG
        console.rgb["fg"][y, x] = (0, 0, 0)
        keys = (
            "Move: cursor  Tab: next thing  Enter: travel  Esc: back"
            if self.travel
            else "Move: cursor  Tab: next thing  Esc: back"
        )
        lines = [
            (part, colour)
            for text, colour in [*describe(self.game, self.cursor), (keys, HINT)]
            for part in wrap(text, MESSAGE_WIDTH)
        ]
        top = box_top(len(lines), self.cursor)
        console.draw_rect(
            MESSAGES_X, top, MESSAGE_WIDTH, len(lines), ch=ord(" "), bg=ambient.look().scheme[Slot.PANEL_BG]
        )
        for row, (text, colour) in enumerate(lines):
            console.print(MESSAGES_X, top + row, text, fg=colour)


def box_top(rows: int, cursor: tuple[int, int]) -> int:
    """The first row of the description's box: the message area, grown up over the map when it
    needs more rows, or the top of the screen when growing would hide the cursor."""
    top = min(PANEL_TOP, formulas.SCREEN_HEIGHT - rows)
    covered = cursor[0] >= MESSAGES_X and cursor[1] >= top
    return 0 if covered else top


def things_in_view(game: Game) -> list[tuple[int, int]]:
    """Spots of the monsters in sight and the doses on the map, nearest to the player first."""
    state = game.state
    player = game.player_component(Position)
    spots = {(p.x, p.y) for _, _, p in game.monsters() if game.view.visible[p.y, p.x]}
    dose_known = state.floor.dose_known()
    spots |= {(p.x, p.y) for _, p, _ in game.doses() if dose_known[p.y, p.x]}
    spots |= {(p.x, p.y) for _, p, _ in game.finds() if game.view.visible[p.y, p.x]}
    return sorted(spots, key=lambda s: (max(abs(s[0] - player.x), abs(s[1] - player.y)), s[1], s[0]))


def describe(game: Game, at: tuple[int, int]) -> list[tuple[str, tuple[int, int, int]]]:
    """What the player knows of a spot, in up to three lines."""
    state = game.state
    x, y = at
    doses = [(entity, dose) for entity, pos, dose in game.doses() if (pos.x, pos.y) == at]
    if not state.floor.explored[y, x]:  # unseen, but a dose a Perfect High showed there is known
        return describe_dose(game, *doses[0]) if doses and state.floor.revealed[y, x] else [(UNSEEN, HINT)]
    if game.player_component(Position) == Position(x, y):
        return describe_self(game)
    monsters = [monster for _, monster, pos in game.monsters() if (pos.x, pos.y) == at]
    if monsters and game.view.visible[y, x]:
        return describe_monster(game, monsters[0])
    if doses:
        return describe_dose(game, *doses[0])
    finds = [find for _, pos, find in game.finds() if (pos.x, pos.y) == at]
    if finds and game.view.visible[y, x]:
        return describe_find(finds[0])
    if game.view.visible[y, x] and shortcut_seen(game, at):
        return [(SHORTCUT_TEXT, TEXT)]
    remembered = "" if game.view.visible[y, x] else " (remembered)"
    return [(TERRAIN[Tile(state.floor.tiles[y, x])].words + remembered, TEXT)]


def describe_self(game: Game) -> list[tuple[str, tuple[int, int, int]]]:
    """The player: name, State of Mind and its band."""
    som = game.player_component(StateOfMind).value
    return [
        (f"You, {game.state.name}.", HEADING),
        (f"State of Mind {som}: {formulas.mood_word(som, game.player_component(Attributes).will)}.", TEXT),
    ]


def describe_monster(game: Game, monster: Monster) -> list[tuple[str, tuple[int, int, int]]]:
    """A monster: its name, what its hit does, whether it hunts the player."""
    kind = MONSTER_KINDS[monster.kind]
    noticed = (
        "It has noticed you and hunts you."
        if monster.target == game.state.player
        else f"It has not noticed you (notices within {monster.notice} steps)."
    )
    return [
        (f"{kind.name} ({kind.glyph}): {kind.hit_summary}.", colour_of_kind(kind.key, kind.colour)),
        (f"{kind.moves[0].upper()}{kind.moves[1:]}.", TEXT),
        (noticed, WARNING if monster.target == game.state.player else TEXT),
    ]


def describe_dose(game: Game, entity: int, dose: Dose) -> list[tuple[str, tuple[int, int, int]]]:
    """A dose: its kind (and whether it is a vision), what it could give here at the player's Tolerance
    (a purer batch too), the risk."""
    kind = DOSE_KINDS[dose.kind]
    odds = shown_odds(game, dose.kind, dose.floor)
    som = game.player_component(StateOfMind).value
    tolerance = game.player_component(Tolerance).value
    effects = (
        BLAST_WORDS[kind.blast]
        if kind.blast
        else (
            f"Con {helptext.signed_span(kind.confidence)}"
            f"  Nrv {helptext.signed_span(kind.nerve)}"
            f"  Wil {helptext.signed_span(kind.will)}"
        )
    )
    vision = ", a vision" if game.world.has(entity, Vision) else ""  # gone, with the High
    return [
        (
            f"{kind.name.capitalize()} ({kind.glyph}){vision}: +{odds.low}..+{odds.high} State of Mind",
            colour_of_kind(kind.key, kind.colour),
        ),
        (f"{effects}{odds.if_purer(f'  purer +{odds.purest}')}", TEXT),
        (f"At {som}, Tolerance {tolerance}: {odds.risk.value}.", WARNING if odds.could_kill else TEXT),
    ]


def describe_find(find: Find) -> list[tuple[str, tuple[int, int, int]]]:
    """A find (only ever described while High): its name, what it does, how to take it."""
    kind = FIND_KINDS[find.kind]
    return [
        (f"{kind.name} ({kind.glyph}): {kind.effect()}.", colour_of_kind(kind.key, kind.colour)),
        (kind.description, TEXT),
        ("Seen only while High: walk onto it to take it.", TEXT),
    ]


def shortcut_seen(game: Game, at: tuple[int, int]) -> bool:
    """Whether a way down only the High can see lies at ``at`` and the player sees visions now."""
    high = formulas.is_high(game.player_component(StateOfMind).value)
    return high and any((pos.x, pos.y) == at for _, (pos, _) in game.world.query(Position, Shortcut))
