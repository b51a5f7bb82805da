"""The panel under the map: State of Mind word and bar, attributes, floor, turn, messages."""

from __future__ import annotations

import tcod.console

from components import Attributes, StateOfMind, Tolerance
from roguelike.content import formulas
from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.render.colours import CLASSIC, RGB, Scheme, Slot

PANEL_TOP = formulas.MAP_HEIGHT
BAR_WIDTH = 20
MESSAGES_X = 32
MESSAGE_WIDTH = formulas.SCREEN_WIDTH - MESSAGES_X


def draw_panel(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC) -> None:
    """Draw the four rows under the map in a palette's colours."""
    text = scheme[Slot.TEXT]
    console.draw_rect(0, PANEL_TOP, formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT - PANEL_TOP, ch=ord(" "),
                      bg=scheme[Slot.PANEL_BG])
    som = game.player_component(StateOfMind).value
    attrs = game.player_component(Attributes)
    tolerance = game.player_component(Tolerance).value
    draw_mood(console, som, attrs.will, scheme)
    line = f"Con {attrs.confidence:>2}  Nrv {attrs.nerve:>2}  Wil {attrs.will:>2}  Tol {tolerance:>2}"
    console.print(0, PANEL_TOP + 2, line, fg=text)
    console.print(0, PANEL_TOP + 3, f"Floor {game.state.depth:<3} Turn {game.state.turn}", fg=text)
    draw_messages(console, game, scheme)


def draw_mood(console: tcod.console.Console, som: int, will: int, scheme: Scheme = CLASSIC) -> None:
    """The State of Mind as a word, a number and a draining bar."""
    word = formulas.mood_word(som, will)
    colour = scheme[Slot(word)]
    console.print(0, PANEL_TOP, f"{word:<10} {som:>3}/{formulas.STATE_OF_MIND_MAX}", fg=colour)
    filled = round(BAR_WIDTH * formulas.clamp(som, 0, formulas.STATE_OF_MIND_MAX) / formulas.STATE_OF_MIND_MAX)
    console.draw_rect(0, PANEL_TOP + 1, BAR_WIDTH, 1, ch=ord(" "), bg=scheme[Slot.BAR_EMPTY])
    if filled:
        console.draw_rect(0, PANEL_TOP + 1, filled, 1, ch=ord(" "), bg=colour)
    for mark in (formulas.WITHDRAWAL_BELOW, formulas.HIGH_ABOVE):
        x = BAR_WIDTH * mark // formulas.STATE_OF_MIND_MAX
        console.print(x, PANEL_TOP + 1, "|", fg=scheme[Slot.BAR_MARK])


def draw_messages(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC) -> None:
    """The newest messages, oldest fading; why the player is not in control comes last."""
    lines: list[tuple[str, RGB]] = [(m.text, scheme[Slot.TEXT]) for m in game.state.messages[-4:]]
    reason = game.control_reason()
    if reason is not None and not game.state.game_over:
        lines = lines[-3:] + [(reason, scheme[Slot.TAKEOVER])]
    rows = formulas.SCREEN_HEIGHT - PANEL_TOP
    for row, (text, colour) in enumerate(lines[-rows:]):
        fade = 0.55 + 0.45 * (row + 1) / len(lines[-rows:])
        faded = (int(colour[0] * fade), int(colour[1] * fade), int(colour[2] * fade))
        console.print(MESSAGES_X, PANEL_TOP + row, fit(text, MESSAGE_WIDTH), fg=faded)
