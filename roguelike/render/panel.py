"""The panel under the map: mood, bar, name, effects, attributes, floor, turn, the doses carried and messages."""

from __future__ import annotations

from itertools import groupby

import tcod.console

from components import Attributes, HighStreak, StateOfMind, Tolerance
from roguelike.assist.carried import carried_figures
from roguelike.assist.craving import craving
from roguelike.assist.readout import next_action
from roguelike.content import formulas
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.game import Game
from roguelike.core.names import fit
from roguelike.core.steering import STATUSES
from roguelike.render.colours import CLASSIC, RGB, Scheme, Slot
from roguelike.render.sombar import draw_som_bar
from roguelike.render.text import wrap

PANEL_TOP = formulas.MAP_HEIGHT
BAR_WIDTH = 17
LEFT_WIDTH = 31
MESSAGES_X = 32
MESSAGE_WIDTH = formulas.SCREEN_WIDTH - MESSAGES_X
PERFECT_HIGH = "Perfect High"  # the band's label while every dose and monster of the floor shows
ACTION_MARK = "Act {}/{}"  # at Will 10: which of the turn's two actions is next
CARRY_LABEL = "Carry"
RISK_MARK = "!"  # after a carried dose's range: it could overdose you now (a purer batch included)


def draw_panel(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC) -> None:
    """Draw the four rows under the map in a palette's colours."""
    text = scheme[Slot.TEXT]
    console.draw_rect(
        0, PANEL_TOP, formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT - PANEL_TOP, ch=ord(" "), bg=scheme[Slot.PANEL_BG]
    )
    som = game.player_component(StateOfMind).value
    attrs = game.player_component(Attributes)
    tolerance = game.player_component(Tolerance).value
    draw_mood(console, som, attrs.will, game.state.name, scheme)
    if not status_overflows(game):  # else on the message area's first row (draw_above_messages)
        draw_parts(console, BAR_WIDTH + 1, PANEL_TOP + 1, status_parts(game, scheme))
    draw_action_mark(console, game, scheme)
    line = f"Con {attrs.confidence:>2}  Nrv {attrs.nerve:>2}  Wil {attrs.will:>2}  Tol {tolerance:>2}"
    console.print(0, PANEL_TOP + 2, line, fg=text)
    score = game.score().total
    console.print(0, PANEL_TOP + 3, f"Floor {game.state.depth:<3}Turn {game.state.turn:<6}Score {score}", fg=text)
    draw_messages(console, game, scheme)


def streak_text(streak: HighStreak) -> str:
    """The High streak running and what the longest paid: ``Streak 34 +180`` (empty before the first High)."""
    return f"Streak {streak.turns} +{streak.bonus}" if streak.turns or streak.bonus else ""


def status_parts(game: Game, scheme: Scheme = CLASSIC) -> list[tuple[str, RGB]]:
    """The effects running and the High streak, each whole, in their colours (the streak in the
    High colour while it grows), a space between."""
    effects, streak = effects_text(game), streak_text(game.player_component(HighStreak))
    growing = formulas.streak_goes_on(game.player_component(StateOfMind).value)
    parts = [(effects, scheme[Slot.TAKEOVER]), (streak, scheme[Slot.HIGH] if growing else scheme[Slot.TEXT])]
    shown = [(text, colour) for text, colour in parts if text]
    return [(f"{text} " if index < len(shown) - 1 else text, colour) for index, (text, colour) in enumerate(shown)]


def status_fits(game: Game, room: int) -> bool:
    """Whether the effects and the streak fit whole in ``room`` columns beside the bar."""
    return sum(len(text) for text, _ in status_parts(game)) <= room


def status_overflows(game: Game) -> bool:
    """Whether the effects and the streak go on the message area's first row (no room beside the bar)."""
    marked = next_action(game) is not None and not game.state.game_over
    room = LEFT_WIDTH - BAR_WIDTH - 1 - (len(ACTION_MARK) + 1 if marked else 0)
    return bool(status_parts(game)) and not status_fits(game, room)


def draw_parts(console: tcod.console.Console, x: int, y: int, parts: list[tuple[str, RGB]]) -> int:
    """Print coloured parts one after another from ``x``, cut at the message area's end; where they ended."""
    end = MESSAGES_X + MESSAGE_WIDTH
    for text, colour in parts:
        console.print(x, y, text[: max(0, end - x)], fg=colour)
        x += len(text)
    return x


def draw_action_mark(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC) -> None:
    """At Will 10, which of the turn's two actions is next, at the right of the bar's row: ``Act 1/2``
    (the monsters wait after it) or ``Act 2/2`` (they act after it), the second in the warning colour."""
    mark = next_action(game)
    if mark is None or game.state.game_over:
        return
    colour = scheme[Slot.TAKEOVER] if mark[0] == mark[1] else scheme[Slot.TEXT]
    text = ACTION_MARK.format(*mark)
    console.print(LEFT_WIDTH - len(text), PANEL_TOP + 1, text, fg=colour)


def draw_mood(console: tcod.console.Console, som: int, will: int, name: str, scheme: Scheme = CLASSIC) -> None:
    """The State of Mind as a word, a number and a bar; the character's name beside it."""
    word = formulas.mood_word(som, will)
    label = PERFECT_HIGH if formulas.is_perfect_high(som) else word
    mood = f"{label:<10} {som:>3}/{formulas.STATE_OF_MIND_MAX}"
    console.print(0, PANEL_TOP, mood, fg=scheme[Slot(word)])
    console.print(len(mood) + 1, PANEL_TOP, fit(name, LEFT_WIDTH - len(mood) - 1), fg=scheme[Slot.TEXT])
    draw_som_bar(console, 0, PANEL_TOP + 1, BAR_WIDTH, som, will, scheme)


def effects_text(game: Game) -> str:
    """Timed statuses with their turns left: ``Stunned 2``, or ``Stun 2 Pan 3`` for several."""
    active = [(game.player_component_or_none(status), timed) for _, timed, status in STATUSES]
    found = [(effect.turns, timed.name, timed.short) for effect, timed in active if effect is not None]
    return " ".join(f"{full if len(found) == 1 else short} {turns}" for turns, full, short in found)


def message_lines(game: Game, rows: int, scheme: Scheme) -> list[tuple[str, RGB]]:
    """The newest whole messages wrapped to the message area (the newest one's end if it alone
    is too long); why the player is not in control comes last."""
    reason = game.control_reason() if not game.state.game_over else None
    warning = craving_warning(game)
    reason = warning if reason is None else reason if warning is None else f"{reason} {warning}"
    room = rows - (len(wrap(reason, MESSAGE_WIDTH)) if reason is not None else 0)
    lines: list[tuple[str, RGB]] = []
    for text in reversed(folded([message.text for message in game.state.messages])[-rows:]):
        wrapped = [(line, scheme[Slot.TEXT]) for line in wrap(text, MESSAGE_WIDTH) or [""]]
        if lines and len(lines) + len(wrapped) > room:
            break
        lines = wrapped + lines
    shown = lines[-room:] if room > 0 else []
    alert = [(line, scheme[Slot.TAKEOVER]) for line in wrap(reason, MESSAGE_WIDTH)] if reason else []
    return shown + alert


def craving_warning(game: Game) -> str | None:
    """The warning that Desperation would take a dose that could kill (None when it would not)."""
    found = craving(game)
    return found.warning() if found is not None else None


def folded(texts: list[str]) -> list[str]:
    """A line said again right after itself (two hits in a turn) shown once, with a count: ``... (x2)``.

    Only the drawing folds: the message log itself keeps every line, as the game said it."""
    runs = [(text, len(list(run))) for text, run in groupby(texts)]
    return [text if count == 1 else f"{text} (x{count})" for text, count in runs]


def draw_messages(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC) -> None:
    """The doses carried on the first row (while there are any), then the newest message lines,
    older ones fading."""
    top = PANEL_TOP + draw_above_messages(console, game, scheme)
    lines = message_lines(game, formulas.SCREEN_HEIGHT - top, scheme)
    for row, (text, colour) in enumerate(lines):
        fade = 0.55 + 0.45 * (row + 1) / len(lines)
        faded = (int(colour[0] * fade), int(colour[1] * fade), int(colour[2] * fade))
        console.print(MESSAGES_X, top + row, fit(text, MESSAGE_WIDTH), fg=faded)


def carried_parts(game: Game, scheme: Scheme = CLASSIC) -> list[tuple[str, RGB]]:
    """``Carry 1:i +12..+28 2:! +30..+46!``: each carried dose's number, glyph and true range
    now, in the warning colour with a mark when it could overdose; nothing when none is carried."""
    figures = carried_figures(game)
    if not figures or game.state.game_over:
        return []
    parts: list[tuple[str, RGB]] = [(CARRY_LABEL, scheme[Slot.TEXT])]
    for number, (dose, odds) in enumerate(figures, start=1):
        kind = DOSE_KINDS[dose.kind]
        parts += [(f" {number}:", scheme[Slot.TEXT]), (kind.glyph, scheme.kind_colour(kind.key, kind.colour))]
        risky = odds.could_kill
        parts.append(
            (
                f" +{odds.low}..+{odds.high}{RISK_MARK if risky else ''}",
                scheme[Slot.TAKEOVER] if risky else scheme[Slot.TEXT],
            )
        )
    return parts


def draw_above_messages(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC) -> int:
    """The rows over the messages: the effects and the streak when the bar's row has no room for
    them whole, then the doses carried; how many rows they took (0 to 2)."""
    rows = 0
    if status_overflows(game):
        draw_parts(console, MESSAGES_X, PANEL_TOP, status_parts(game, scheme))
        rows = 1
    return rows + draw_carried(console, game, scheme, PANEL_TOP + rows)


def draw_carried(console: tcod.console.Console, game: Game, scheme: Scheme = CLASSIC, row: int = PANEL_TOP) -> int:
    """The carried doses on a row of the message area (its first by default); how many rows that took (0 or 1)."""
    parts = carried_parts(game, scheme)
    draw_parts(console, MESSAGES_X, row, parts)
    return 1 if parts else 0
