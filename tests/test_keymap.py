"""The controls of the design document, as key presses become commands."""

from __future__ import annotations

import pytest
import tcod.event
from tcod.event import KeySym, Modifier, Scancode

from roguelike.core.commands import Move, Wait, decode_command, encode_command
from roguelike.screens.bindings import defaults
from roguelike.screens.keymap import is_fullscreen_toggle

command_for = defaults().command_for


def press(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    return tcod.event.KeyDown(scancode=Scancode.UNKNOWN, sym=sym, mod=mod)


@pytest.mark.parametrize(
    ("sym", "mod", "step"),
    [
        (KeySym.UP, Modifier.NONE, (0, -1)),
        (KeySym.DOWN, Modifier.NONE, (0, 1)),
        (KeySym.LEFT, Modifier.NONE, (-1, 0)),
        (KeySym.RIGHT, Modifier.NONE, (1, 0)),
        (KeySym.LEFT, Modifier.LSHIFT, (-1, -1)),
        (KeySym.RIGHT, Modifier.RSHIFT, (1, -1)),
        (KeySym.LEFT, Modifier.LCTRL, (-1, 1)),
        (KeySym.RIGHT, Modifier.RCTRL, (1, 1)),
        (KeySym.KP_7, Modifier.NONE, (-1, -1)),
        (KeySym.KP_9, Modifier.NONE, (1, -1)),
        (KeySym.KP_1, Modifier.NONE, (-1, 1)),
        (KeySym.KP_3, Modifier.NONE, (1, 1)),
        (KeySym.N7, Modifier.NONE, (-1, -1)),
        (KeySym.N2, Modifier.NONE, (0, 1)),
        (KeySym.HOME, Modifier.NONE, (-1, -1)),
        (KeySym.PAGEUP, Modifier.NONE, (1, -1)),
        (KeySym.END, Modifier.NONE, (-1, 1)),
        (KeySym.PAGEDOWN, Modifier.NONE, (1, 1)),
        (KeySym.H, Modifier.NONE, (-1, 0)),
        (KeySym.J, Modifier.NONE, (0, 1)),
        (KeySym.K, Modifier.NONE, (0, -1)),
        (KeySym.L, Modifier.NONE, (1, 0)),
        (KeySym.Y, Modifier.NONE, (-1, -1)),
        (KeySym.U, Modifier.NONE, (1, -1)),
        (KeySym.B, Modifier.NONE, (-1, 1)),
        (KeySym.N, Modifier.NONE, (1, 1)),
    ],
)
def test_movement_keys(sym: KeySym, mod: Modifier, step: tuple[int, int]) -> None:
    assert command_for(press(sym, mod)) == Move(*step)


@pytest.mark.parametrize("sym", [KeySym.PERIOD, KeySym.KP_5, KeySym.N5, KeySym.S])
def test_wait_keys(sym: KeySym) -> None:
    assert command_for(press(sym)) == Wait()


def test_other_keys_mean_nothing() -> None:
    assert command_for(press(KeySym.Q)) is None


def test_alt_enter_toggles_fullscreen_and_enter_alone_does_not() -> None:
    assert is_fullscreen_toggle(press(KeySym.RETURN, Modifier.LALT))
    assert not is_fullscreen_toggle(press(KeySym.RETURN))


def test_commands_survive_their_encoding_and_junk_is_refused() -> None:
    for command in (Wait(), Move(1, -1), Move(0, 1)):
        assert decode_command(encode_command(command)) == command
    for junk in ([1, 5, 0], [2], "wait", [1, True, 0], None):
        with pytest.raises(ValueError):
            decode_command(junk)
