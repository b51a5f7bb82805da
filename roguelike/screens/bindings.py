"""Which key does what during play: named actions, the player's keymap file, conflicts.

Every in-game action has a name (``move_north``, ``explore``, ``rest``...) and a list of
keys. A key is written by the key pressed, not the character it types: ``Shift+PERIOD``,
``KP_8``, ``O``, so a binding works on any keyboard layout (write the key you press).
The data directory's ``keys.toml`` may rebind any action; actions it leaves out keep
their defaults. A damaged file is never rewritten: the game says what is wrong with it,
naming it, and plays with the defaults. A key given to two actions is a conflict: the
first action in the table keeps it, and the game says so.

One :class:`Bindings` is in force per process (:func:`use`, :func:`active`), as with the
settings: the command line installs the player's before the first screen opens, and the
screens read and replace it through ``roguelike.screens.ambient``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import tcod.event
from tcod.event import KeySym, Modifier

from roguelike.core.commands import Command, Move, Wait
from roguelike.screens.keymap import MODIFIED_MOVES, MOVE_KEYS, WAIT_KEYS
from roguelike.storage.atomic import write_atomic
from roguelike.storage.datadir import KEYS_FILE, DataDir
from roguelike.storage.playerfile import Unreadable, read_player_file

MAX_BYTES = 64 * 1024  # a keymap is about 2 KB
Chord = tuple[KeySym, Modifier]
MODIFIER_NAMES = (("Shift", Modifier.SHIFT), ("Ctrl", Modifier.CTRL), ("Alt", Modifier.ALT))

STEPS: dict[str, tuple[int, int]] = {
    "move_north": (0, -1),
    "move_south": (0, 1),
    "move_west": (-1, 0),
    "move_east": (1, 0),
    "move_north_west": (-1, -1),
    "move_north_east": (1, -1),
    "move_south_west": (-1, 1),
    "move_south_east": (1, 1),
}
ACTION_OF_STEP = {step: action for action, step in STEPS.items()}

# Every action with what it does, in the order conflicts are settled and files are written.
ACTIONS: dict[str, str] = {
    **{action: f"step (or bump) {action.removeprefix('move_').replace('_', '-')}" for action in STEPS},
    "wait": "let a turn pass",
    "pick_up": "pick up a dose beside you to carry (then a direction, if several)",
    "take_carried": "take a dose you carry (then its number, if several)",
    "explore": "auto-explore until something happens",
    "travel_down": "travel to the known stairs down",
    "travel_up": "travel to the known stairs up",
    "safe_dose": "travel to the nearest safe dose and take it",
    "rest": "rest until something happens",
    "rest_until": "rest until the State of Mind is down to a number",
    "surroundings": "read out the nearest dose, monsters and stairs",
    "condition": "read out State of Mind, attributes and control",
    "in_view": "read out every monster and dose in view (the in-view list)",
    "look": "look around with a cursor (Enter there travels)",
    "message_log": "the message log",
    "help": "the key reference",
    "menu": "the in-game menu",
}


def default_keys() -> dict[str, list[Chord]]:
    """The documented controls (the keymap module's tables) by action."""
    keys: dict[str, list[Chord]] = {action: [] for action in ACTIONS}
    for (mod, sym), step in MODIFIED_MOVES.items():
        keys[ACTION_OF_STEP[step]].append((sym, mod))
    for sym, step in MOVE_KEYS.items():
        keys[ACTION_OF_STEP[step]].append((sym, Modifier.NONE))
    keys["wait"] = [(sym, Modifier.NONE) for sym in sorted(WAIT_KEYS)]
    keys.update(
        {
            "pick_up": [(KeySym.G, Modifier.NONE)],
            "take_carried": [(KeySym.Q, Modifier.NONE)],
            "explore": [(KeySym.O, Modifier.NONE)],
            "travel_down": [(KeySym.PERIOD, Modifier.SHIFT), (KeySym.GREATER, Modifier.NONE)],
            "travel_up": [(KeySym.COMMA, Modifier.SHIFT), (KeySym.LESS, Modifier.NONE)],
            "safe_dose": [(KeySym.T, Modifier.NONE)],
            "rest": [(KeySym.Z, Modifier.SHIFT)],
            "rest_until": [(KeySym.R, Modifier.SHIFT)],
            "surroundings": [(KeySym.V, Modifier.NONE)],
            "condition": [(KeySym.C, Modifier.NONE)],
            "in_view": [(KeySym.V, Modifier.SHIFT)],
            "look": [(KeySym.X, Modifier.NONE), (KeySym.SEMICOLON, Modifier.NONE)],
            "message_log": [(KeySym.M, Modifier.NONE)],
            "help": [(KeySym.SLASH, Modifier.NONE), (KeySym.SLASH, Modifier.SHIFT), (KeySym.QUESTION, Modifier.NONE)],
            "menu": [(KeySym.ESCAPE, Modifier.NONE)],
        }
    )
    return keys


def chord_of(event: tcod.event.KeyDown) -> Chord:
    """A key with only the modifiers that change its meaning (either Shift counts as Shift)."""
    mod = Modifier.NONE
    for _, modifier in MODIFIER_NAMES:
        if event.mod & modifier:
            mod |= modifier
    return event.sym, mod


def chord_name(chord: Chord) -> str:
    """``Shift+PERIOD``, ``KP_8``, ``1``: how a key is written in the keymap file."""
    sym, mod = chord
    name = sym.name[1:] if sym.name.startswith("N") and sym.name[1:].isdigit() else sym.name
    return "".join(f"{label}+" for label, flag in MODIFIER_NAMES if mod & flag) + name


def parse_chord(text: str) -> Chord:
    """The key a name in the keymap file means (case does not matter); ValueError if none."""
    *modifiers, key = text.strip().split("+")
    mod = Modifier.NONE
    for word in modifiers:
        flags = {label.lower(): flag for label, flag in MODIFIER_NAMES}
        if word.strip().lower() not in flags:
            raise ValueError(f"{word!r} is not Shift, Ctrl or Alt")
        mod |= flags[word.strip().lower()]
    name = key.strip().upper()
    name = f"N{name}" if name.isdigit() and len(name) == 1 else name
    if name not in KeySym.__members__:
        raise ValueError(f"{key.strip()!r} is not a key name")
    return KeySym[name], mod


@dataclass
class Bindings:
    """Keys to actions, with what went wrong reading the player's file (if anything)."""

    keys: dict[str, list[Chord]]
    path: Path | None = None
    problem: str | None = None
    conflicts: list[str] = field(default_factory=list)
    table: dict[Chord, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for action in ACTIONS:
            for chord in self.keys.get(action, []):
                owner = self.table.setdefault(chord, action)
                if owner != action:
                    self.conflicts.append(f"{chord_name(chord)} is bound to {owner} and {action}: {owner} keeps it")

    def action_for(self, event: tcod.event.KeyDown) -> str | None:
        """The action of a key press: the key with its modifiers, else the bare key."""
        sym, mod = chord_of(event)
        return self.table.get((sym, mod)) or self.table.get((sym, Modifier.NONE))

    def command_for(self, event: tcod.event.KeyDown) -> Command | None:
        """The game command of a key press, if it is a move or a wait."""
        return command_of(self.action_for(event))

    def keys_for(self, action: str) -> str:
        """The keys of an action as the file writes them: ``O``, ``Shift+PERIOD, GREATER``."""
        return ", ".join(chord_name(chord) for chord in self.keys.get(action, []))

    def notice(self) -> str | None:
        """What the player should be told: a damaged file, or conflicts."""
        if self.problem is not None:
            return self.problem
        if self.conflicts:
            return f"{KEYS_FILE}: " + "; ".join(self.conflicts) + f" (in {self.path})"
        return None


def defaults() -> Bindings:
    """The documented controls."""
    return Bindings(default_keys())


def load(folder: Path) -> Bindings:
    """The player's keymap from ``folder/keys.toml`` (written with the defaults if missing)."""
    path = DataDir(folder).keys
    if not path.exists():
        write_defaults(path)
        return Bindings(default_keys(), path)
    try:
        keys = parse_file(path)
    except Unreadable as error:
        # The meaning first, the path last: a long data folder must not push it off the title's rows.
        problem = (
            f"{KEYS_FILE} is damaged: {error.reason}. Playing with the default keys; the file is left as it is: {path}"
        )
        return Bindings(default_keys(), path, problem)
    except FileNotFoundError:
        return Bindings(default_keys(), path)
    return Bindings({**default_keys(), **keys}, path)


def parse_file(path: Path) -> dict[str, list[Chord]]:
    """The actions a keymap file binds; Unreadable naming what is wrong."""
    try:
        return keys_of(tomllib.loads(read_player_file(path, MAX_BYTES).decode("utf-8")))
    except UnicodeDecodeError as error:
        raise Unreadable(f"byte {error.start} is not UTF-8 text") from None
    except RecursionError:
        raise Unreadable("it is nested too deeply to be a keymap") from None
    except ValueError as error:  # TOMLDecodeError, our own checks, and Python's limit on a number's digits
        raise Unreadable(str(error)) from None


def keys_of(document: dict[str, object]) -> dict[str, list[Chord]]:
    """The actions a parsed keymap binds; ValueError naming what is wrong."""
    table = document.get("keys")
    if not isinstance(table, dict) or set(document) != {"keys"}:
        raise ValueError("it needs one [keys] table and nothing else")
    keys: dict[str, list[Chord]] = {}
    for action, names in table.items():
        if action not in ACTIONS:
            raise ValueError(f"{action!r} is not an action (they are: {', '.join(ACTIONS)})")
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ValueError(f'{action} needs a list of key names, like ["O", "Shift+PERIOD"]')
        try:
            keys[action] = [parse_chord(name) for name in names]
        except ValueError as error:
            raise ValueError(f"{action}: {error}") from None
    return keys


HEADER = """\
# Hedonic Hypothesis: which key does what during play.
#
# Each action takes a list of keys. Write a key by the key you press, not the
# character it types, so any keyboard layout works: a letter or digit key (O, 5),
# a key name (UP, KP_8 for the numpad, PERIOD, COMMA, SLASH, ESCAPE, PAGEUP...),
# with Shift+, Ctrl+ or Alt+ in front where it takes them (Shift+PERIOD is the key
# that types ">" on a US keyboard). A key with modifiers not bound here does what
# the bare key does. Leave an action out to keep its default keys; delete this file
# to get every default back. A key given to two actions stays with the first.

[keys]
"""


def file_text(keys: dict[str, list[Chord]]) -> str:
    """A keymap file binding ``keys``, every action with its description."""
    lines = [HEADER]
    for action, description in ACTIONS.items():
        names = ", ".join(f'"{chord_name(chord)}"' for chord in keys.get(action, []))
        lines.append(f"{action} = [{names}]  # {description}\n")
    return "".join(lines)


def save(keys: Bindings) -> None:
    """Write the keys in force to their keymap file (OSError if it cannot be written)."""
    if keys.path is not None:
        write_atomic(keys.path, file_text(keys.keys).encode("utf-8"))


def write_defaults(path: Path) -> None:
    """Write the default keymap for the player to edit (a folder we cannot write is no matter)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, file_text(default_keys()).encode("utf-8"))
    except OSError:
        pass


_active = defaults()


def use(bindings: Bindings) -> None:
    """Make these the keys in force for this process."""
    global _active
    _active = bindings


def active() -> Bindings:
    """The keys in force."""
    return _active


def command_of(action: str | None) -> Command | None:
    """The game command of an action already looked up, if it is a move or a wait."""
    if action in STEPS:
        return Move(*STEPS[action])
    return Wait() if action == "wait" else None
