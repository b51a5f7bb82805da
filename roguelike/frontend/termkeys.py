"""Turning the bytes a terminal sends into the ``tcod.event`` events the window sends.

Terminals encode keys as text: printable characters, control characters and escape
sequences (CSI ``ESC [``, SS3 ``ESC O``), with modifiers folded into parameters
(``ESC [1;5D`` is Ctrl+Left). blessed knows what each sequence means for the terminal
in ``TERM`` and parses the xterm modifier forms; this module adds what a game needs
around it: whole unknown sequences are dropped rather than typed as letters, a lone
Esc is told from the start of a sequence by how the bytes arrived (see
:meth:`KeyDecoder.feed`), and every key becomes a ``KeyDown`` with the same ``KeySym``,
``Scancode`` and ``Modifier`` the window produces on a US layout, plus a ``TextInput``
for printable characters (name entry).
"""

from __future__ import annotations

import codecs
import re

import blessed.keyboard
import tcod.event
from blessed import Terminal
from blessed.keyboard import get_keyboard_codes, get_keyboard_sequences, get_leading_prefixes, resolve_sequence
from tcod.event import KeySym, Modifier

from roguelike.frontend.keytables import CONTROL_KEYS, EXTRA_SEQUENCES, NAMED_KEYS, char_key

ESC = "\x1b"
# A complete CSI sequence: parameters, intermediates, one final byte (ECMA-48).
CSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
CSI_OPEN = re.compile(r"\x1b\[[0-?]*[ -/]*\Z")
# SS3: an optional (old xterm) modifier digit, then one final character.
SS3 = re.compile(r"\x1bO[0-9]*[ -~]")
SS3_OPEN = re.compile(r"\x1bO[0-9]*\Z")
# A device control string (a late answer to the colour question): dropped whole.
DCS = re.compile(r"\x1bP[^\x1b]*\x1b\\")
DCS_OPEN = re.compile(r"\x1bP[^\x1b]*\Z")
# An SGR mouse report: button code, column, row (1-based), M for press or motion, m for release.
MOUSE_REPORT = re.compile(r"\x1b\[<(\d+);(\d+);(\d+)([Mm])")
MOUSE_BUTTONS = {0: tcod.event.MouseButton.LEFT, 1: tcod.event.MouseButton.MIDDLE, 2: tcod.event.MouseButton.RIGHT}
MOTION_FLAG, WHEEL_FLAG = 32, 64
# xterm encodes modifiers as 1 + a bit field; super, hyper and meta count as Alt.
MODIFIER_BITS = (
    (1, Modifier.SHIFT),
    (2, Modifier.ALT),
    (4, Modifier.CTRL),
    (8, Modifier.ALT),
    (16, Modifier.ALT),
    (32, Modifier.ALT),
)

Events = list[tcod.event.Event]


def key_down(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A key press event as the window would deliver it."""
    scancode = tcod.event.Scancode.__members__.get(sym.name, tcod.event.Scancode.UNKNOWN)
    return tcod.event.KeyDown(scancode=scancode, sym=sym, mod=mod, pressed=True)


def modifiers_of(xterm_value: int) -> Modifier:
    """``Modifier`` flags from an xterm modifier parameter (1 means none)."""
    mod = Modifier.NONE
    for bit, flag in MODIFIER_BITS:
        if (xterm_value - 1) & bit:
            mod |= flag
    return mod


class KeyDecoder:
    """Decodes terminal input into events, keeping incomplete sequences for later."""

    def __init__(self, terminal: Terminal, encoding: str = "utf-8") -> None:
        self.sequences = get_keyboard_sequences(terminal)
        self.codes = get_keyboard_codes()
        self.prefixes = get_leading_prefixes(self.sequences)
        self.described = described_sequences(terminal)
        self.decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        self.buffer = ""

    @property
    def pending(self) -> bool:
        """Whether input is held back, waiting to see if a sequence continues."""
        return bool(self.buffer)

    def feed(self, data: bytes) -> Events:
        """Events for the keys complete in ``data`` (one read from the terminal).

        Terminals write a whole sequence at once, so an Esc that ended an earlier read
        and is not continued by ``[`` or ``O`` at the start of this one was the Esc key.
        """
        text = self.decoder.decode(data)
        events: Events = []
        if self.buffer == ESC and text and text[0] not in "[O":
            events.append(key_down(KeySym.ESCAPE))
            self.buffer = ""
        self.buffer += text
        events.extend(self.decode(final=False))
        return events

    def flush(self) -> Events:
        """Events for whatever is held back, once no more input came (a lone Esc)."""
        return self.decode(final=True)

    def decode(self, final: bool) -> Events:
        """Take keys from the front of the buffer while they are complete."""
        events: Events = []
        while self.buffer and (final or not self.incomplete(self.buffer)):
            used, found = self.take(self.buffer, final)
            self.buffer = self.buffer[used:]
            events.extend(found)
        return events

    def incomplete(self, text: str) -> bool:
        """Whether ``text`` may be the start of a longer escape sequence."""
        if not text.startswith(ESC):
            return False
        return (
            text == ESC
            or text in self.prefixes
            or text == "\x1b[["
            or bool(CSI_OPEN.match(text) or SS3_OPEN.match(text) or DCS_OPEN.match(text))
        )

    def take(self, text: str, final: bool) -> tuple[int, Events]:
        """Decode the first key of ``text``: how many characters it used and its events."""
        if not text.startswith(ESC):
            return 1, char_events(text[0], Modifier.NONE)
        if len(text) == 1 or text[1] == ESC:
            return 1, [key_down(KeySym.ESCAPE)]
        if (answer := DCS.match(text)) is not None:
            return answer.end(), []
        mouse = MOUSE_REPORT.match(text)
        if mouse is not None:
            return mouse.end(), mouse_events(mouse)
        match = CSI.match(text) or SS3.match(text)
        if match is not None and match.group() in self.described:  # the terminal's word beats our guesses
            return match.end(), self.sequence_events(match.group())
        for sequence, (sym, mod) in EXTRA_SEQUENCES.items():
            if text.startswith(sequence):
                return len(sequence), [key_down(sym, mod)]
        match = CSI.match(text) or SS3.match(text)
        if match is not None:
            return match.end(), self.sequence_events(match.group())
        if final and (CSI_OPEN.match(text) or SS3_OPEN.match(text)) and len(text) > 2:
            return len(text), []  # a sequence cut short: drop it rather than type it
        return 2, char_events(text[1], Modifier.ALT)

    def sequence_events(self, sequence: str) -> Events:
        """The key of one complete escape sequence, or nothing if it means no known key."""
        keystroke = resolve_sequence(sequence, self.sequences, self.codes, self.prefixes, final=True)
        if len(keystroke) != len(sequence) or keystroke.code is None:
            return []
        named = NAMED_KEYS.get(self.codes.get(keystroke.code, ""))
        if named is None:
            return []
        sym, mod = named
        return [key_down(sym, mod | modifiers_of(keystroke.modifiers))]


def described_sequences(terminal: Terminal) -> frozenset[str]:
    """The key sequences the terminal's own terminfo entry defines (none when it is not styled)."""
    database = getattr(terminal, "_jinxed_term", None)  # blessed's handle on the terminfo entry
    if database is None or not terminal.does_styling:
        return frozenset()
    # kent is the keypad's Enter, which blessed names plain Enter; our table keeps it KP_ENTER.
    capabilities = getattr(blessed.keyboard, "capability_names")  # noqa: B009 (blessed does not export it for mypy)
    found = (database.tigetstr(capability) for capability in capabilities.values() if capability != "kent")
    return frozenset(sequence.decode("latin1") for sequence in found if sequence)


def mouse_events(report: re.Match[str]) -> Events:
    """A motion or a button press for an SGR mouse report, positioned on the terminal's cells
    counted from 0 (releases and the wheel are dropped)."""
    code, column, row = int(report[1]), int(report[2]) - 1, int(report[3]) - 1
    if report[4] == "m" or code & WHEEL_FLAG:
        return []
    position, tile = tcod.event.Point(float(column), float(row)), tcod.event.Point(column, row)
    if code & MOTION_FLAG:
        return [tcod.event.MouseMotion(position=position, tile=tile)]
    button = MOUSE_BUTTONS.get(code & 3)
    if button is None:
        return []
    return [tcod.event.MouseButtonDown(position=position, tile=tile, button=button)]


def char_events(char: str, mod: Modifier) -> Events:
    """Events for one character typed, possibly with Alt (sent as an Esc prefix)."""
    if char in CONTROL_KEYS:
        sym, control_mod = CONTROL_KEYS[char]
        return [key_down(sym, control_mod | mod)]
    if not char.isprintable():
        return []
    key = char_key(char)
    events: Events = [] if key is None else [key_down(key[0], key[1] | mod)]
    if not mod & Modifier.ALT:
        events.append(tcod.event.TextInput(text=char))
    return events
