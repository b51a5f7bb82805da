"""The rebinding page: every action with its keys; press a key to add it, clear, reset.

Up and Down choose an action; Enter waits for the next key and adds it to the action
(Esc while waiting gives up); Backspace or Delete clears the action's keys; ``r`` puts
the action's default keys back. Each change is written to the keymap file at once and
takes effect at once; keys given to two actions are listed as conflicts. A keymap file
the game could not read is never replaced without asking: the page says what is wrong
with it, and the first change asks before writing over it.
"""

from __future__ import annotations

from dataclasses import replace

import tcod.console
import tcod.event
from tcod.event import KeySym

from roguelike.core.names import fit
from roguelike.screens import ambient, bindings
from roguelike.screens.base import Pop, Screen, Transition
from roguelike.screens.bindings import ACTIONS, Bindings
from roguelike.screens.keymap import MENU_DOWN, MENU_UP
from roguelike.screens.style import HEADING, HINT, NORMAL, SELECTED, TEXT

TITLE = "K E Y S"
TOP = 1
KEYS_X = 22
SHOWN = 19  # action rows on screen; the list scrolls with the cursor (two status rows and the hints below)
WARNING = (255, 170, 60)
HINTS = "Up/Down  Enter: add a key  Backspace: clear  r: its defaults  R: all defaults  Esc"
KEEP_A_KEY = frozenset({"menu"})  # the way to the menu, and so to quitting, is never lost
CLEAR = frozenset({KeySym.BACKSPACE, KeySym.DELETE})
# Keys that only change what is pressed with them; waiting for a key ignores them.
MODIFIERS = frozenset(
    {KeySym.LSHIFT, KeySym.RSHIFT, KeySym.LCTRL, KeySym.RCTRL, KeySym.LALT, KeySym.RALT, KeySym.LGUI, KeySym.RGUI}
)


class RebindScreen(Screen):
    """Shows and changes the keys in force, writing them to the keymap file."""

    def __init__(self) -> None:
        self.cursor = 0
        self.waiting = False  # the next key press is the new key
        self.confirmed = ambient.keys().problem is None  # a damaged file is replaced only when asked
        self.status = ambient.keys().problem or ""

    @property
    def action(self) -> str:
        """The action under the cursor."""
        return list(ACTIONS)[self.cursor]

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Choose, add, clear, reset, leave."""
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if self.waiting:
            self.take_key(event)
        elif event.sym == KeySym.ESCAPE:
            return Pop()
        elif event.sym in MENU_UP or event.sym in MENU_DOWN:
            self.cursor = (self.cursor + (1 if event.sym in MENU_DOWN else -1)) % len(ACTIONS)
        elif event.sym in (KeySym.RETURN, KeySym.KP_ENTER):
            self.waiting = True
        elif event.sym in CLEAR:
            self.change([])
        elif event.sym == KeySym.R and event.mod & tcod.event.Modifier.SHIFT:
            self.restore_all()
        elif event.sym == KeySym.R:
            self.change(bindings.default_keys()[self.action])
        return None

    def restore_all(self) -> None:
        """Every action back to its default keys, in force and in the file."""
        active = ambient.keys()
        updated = Bindings(bindings.default_keys(), active.path)
        ambient.use_keys(updated)
        self.status = "Every action has its default keys again. " + self.save(updated)

    def take_key(self, event: tcod.event.KeyDown) -> None:
        """The key pressed while waiting joins the action (Esc gives up)."""
        if event.sym in MODIFIERS:
            return
        self.waiting = False
        if event.sym != KeySym.ESCAPE:
            chord = bindings.chord_of(event)
            current = ambient.keys().keys.get(self.action, [])
            self.change(current if chord in current else [*current, chord], taken_from=self.owners(chord))

    def owners(self, chord: bindings.Chord) -> list[str]:
        """The other actions a key is bound to now."""
        return [action for action, keys in ambient.keys().keys.items() if chord in keys and action != self.action]

    def change(self, keys: list[bindings.Chord], taken_from: list[str] | None = None) -> None:
        """Bind ``keys`` to the action under the cursor, in force and in the file; a key that
        belonged to other actions moves here (never the last key of one that must keep one)."""
        active, taken_from = ambient.keys(), taken_from or []
        moved = keys[-1:] if taken_from else []
        stripped = {action: [k for k in active.keys[action] if k not in moved] for action in taken_from}
        keep = [action for action, left in stripped.items() if not left and action in KEEP_A_KEY]
        if (not keys and self.action in KEEP_A_KEY) or keep:
            self.status = f"{(keep or [self.action])[0]} keeps at least one key (or there would be no way to it)."
            return
        if not self.confirmed:
            self.status = f"{active.path} could not be read: press the change again to replace it."
            self.confirmed = True
            return
        updated = Bindings({**active.keys, **stripped, self.action: keys}, active.path)
        ambient.use_keys(updated)
        note = "".join(
            f"{bindings.chord_name(moved[0])} was {action}'s; now it is {self.action}'s. " for action in taken_from
        )
        self.status = note + self.save(updated)

    def save(self, updated: Bindings) -> str:
        """Write the keymap file; what to tell the player."""
        if updated.path is None:
            return "These keys last until the game closes (there is no keymap file)."
        try:
            bindings.save(updated)
        except OSError as error:
            ambient.use_keys(replace(updated, problem=f"{updated.path}: {error}"))
            return f"Could not write {updated.path}: {error}. The keys last until the game closes."
        return "; ".join(updated.conflicts) or f"Saved in {updated.path}."

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Every action with its keys, the cursor's highlighted; conflicts and news below."""
        console.print(console.width // 2 - len(TITLE) // 2, 0, TITLE, fg=HEADING)
        active = ambient.keys()
        actions = list(ACTIONS)
        first = max(0, min(self.cursor - SHOWN // 2, len(actions) - SHOWN))
        for row, action in enumerate(actions[first : first + SHOWN]):
            chosen = first + row == self.cursor
            colour = SELECTED if chosen else NORMAL
            console.print(2, TOP + row, f"{'>' if chosen else ' '} {action}", fg=colour)
            keys = "press a key..." if chosen and self.waiting else active.keys_for(action) or "(none)"
            console.print(KEYS_X, TOP + row, fit(keys, console.width - KEYS_X - 1), fg=TEXT if not chosen else colour)
        if first > 0:
            console.print(0, TOP, "^", fg=HINT)
        if first + SHOWN < len(actions):
            console.print(0, TOP + SHOWN - 1, "v", fg=HINT)
        status_row = TOP + min(SHOWN, len(actions)) + 1
        console.print(
            2,
            status_row,
            fit(self.status, 2 * (console.width - 4)),
            width=console.width - 4,
            height=2,
            fg=WARNING if active.problem or active.conflicts else HINT,
        )
        console.print(2, console.height - 1, HINTS, fg=HINT)
