"""The panel under the map: State of Mind word and bar, attributes, floor, turn, messages."""

from __future__ import annotations

import tcod.console

from components import Attributes, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.core.game import Game
from roguelike.core.names import fit

PANEL_TOP = formulas.MAP_HEIGHT
BAR_WIDTH = 20
MESSAGES_X = 32
MESSAGE_WIDTH = formulas.SCREEN_WIDTH - MESSAGES_X
PANEL_BG = (12, 10, 22)
TEXT = (200, 200, 210)
MOOD_COLOURS = {
    "Desperate": (220, 40, 40),
    "Withdrawal": (110, 120, 150),
    "Sober": (90, 200, 120),
    "High": (255, 80, 230),
}
BAR_EMPTY = (40, 38, 50)
TAKEOVER_COLOUR = (255, 120, 80)


def draw_panel(console: tcod.console.Console, game: Game) -> None:
    """Draw the four rows under the map."""
    console.draw_rect(0, PANEL_TOP, formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT - PANEL_TOP, ch=ord(" "), bg=PANEL_BG)
    som = game.player_component(StateOfMind).value
    attrs = game.player_component(Attributes)
    tolerance = game.player_component(Tolerance).value
    draw_mood(console, som, attrs.will)
    line = f"Con {attrs.confidence:>2}  Nrv {attrs.nerve:>2}  Wil {attrs.will:>2}  Tol {tolerance:>2}"
    console.print(0, PANEL_TOP + 2, line, fg=TEXT)
    console.print(0, PANEL_TOP + 3, f"Floor {game.state.depth:<3} Turn {game.state.turn}", fg=TEXT)
    draw_messages(console, game)


def draw_mood(console: tcod.console.Console, som: int, will: int) -> None:
    """The State of Mind as a word, a number and a draining bar."""
    word = formulas.mood_word(som, will)
    colour = MOOD_COLOURS[word]
    console.print(0, PANEL_TOP, f"{word:<10} {som:>3}/{formulas.STATE_OF_MIND_MAX}", fg=colour)
    filled = round(BAR_WIDTH * formulas.clamp(som, 0, formulas.STATE_OF_MIND_MAX) / formulas.STATE_OF_MIND_MAX)
    console.draw_rect(0, PANEL_TOP + 1, BAR_WIDTH, 1, ch=ord(" "), bg=BAR_EMPTY)
    if filled:
        console.draw_rect(0, PANEL_TOP + 1, filled, 1, ch=ord(" "), bg=colour)
    for mark in (formulas.WITHDRAWAL_BELOW, formulas.HIGH_ABOVE):
        x = BAR_WIDTH * mark // formulas.STATE_OF_MIND_MAX
        console.print(x, PANEL_TOP + 1, "|", fg=(230, 230, 230))


def draw_messages(console: tcod.console.Console, game: Game) -> None:
    """The newest messages, oldest fading; why the player is not in control comes last."""
    lines = [(m.text, TEXT) for m in game.state.messages[-4:]]
    reason = game.control_reason()
    if reason is not None and not game.state.game_over:
        lines = lines[-3:] + [(reason, TAKEOVER_COLOUR)]
    rows = formulas.SCREEN_HEIGHT - PANEL_TOP
    for row, (text, colour) in enumerate(lines[-rows:]):
        fade = 0.55 + 0.45 * (row + 1) / len(lines[-rows:])
        faded = (int(colour[0] * fade), int(colour[1] * fade), int(colour[2] * fade))
        console.print(MESSAGES_X, PANEL_TOP + row, fit(text, MESSAGE_WIDTH), fg=faded)
