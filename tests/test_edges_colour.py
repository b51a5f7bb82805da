"""Real colour ability: the environment, then the terminal asked; else the player is told once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from tcod.event import KeySym, Modifier

from roguelike.frontend.colourprobe import PROBE_SECONDS, QUERY, ask_terminal
from roguelike.frontend.palette import ColourMode, detect_mode
from test_terminal_e2e import PtyGame, data

__all__ = ["data"]
RGB_REPLY = b"\x1bP1+r524742=382F382F38\x1b\\"
DA1_REPLY = b"\x1b[?62;22c"


class Clock:
    """Time that passes only when the fake terminal is waited on."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def terminal(replies: list[bytes], clock: Clock) -> tuple[list[bytes], Callable[[float | None], bytes | None]]:
    """A fake terminal's write log and read function, answering from ``replies``."""
    written: list[bytes] = []

    def read(timeout: float | None) -> bytes | None:
        if replies:
            return replies.pop(0)
        clock.now += timeout or 0.0
        return b""

    return written, read


@pytest.mark.parametrize("env", [{"VTE_VERSION": "6003"}, {"WT_SESSION": "x"}, {"TERM_PROGRAM": "iTerm.app"}])
def test_truecolour_terminals_that_send_plain_xterm_are_known_by_their_environment(env: dict[str, str]) -> None:
    assert detect_mode({"TERM": "xterm", **env}, 8) is ColourMode.TRUECOLOUR
    assert detect_mode({"TERM": "xterm"}, 8) is ColourMode.COLOURS_16


def test_a_terminal_asked_says_whether_it_shows_truecolour() -> None:
    clock = Clock()
    written, read = terminal([RGB_REPLY, DA1_REPLY], clock)
    assert ask_terminal(written.append, read, clock)
    assert written == [QUERY]
    kept = b"\x1bP1$r0;48:2::1:2:3m\x1b\\"  # DECRQSS gives the truecolour background back
    assert ask_terminal(written.append, terminal([kept + DA1_REPLY], clock)[1], clock)


def test_a_terminal_that_only_answers_attributes_is_not_waited_for() -> None:
    clock = Clock()
    written, read = terminal([DA1_REPLY], clock)
    assert not ask_terminal(written.append, read, clock)
    assert clock.now == 0.0
    written, read = terminal([], clock)
    assert not ask_terminal(written.append, read, clock)
    assert clock.now == pytest.approx(PROBE_SECONDS)


def test_the_game_asks_and_draws_in_truecolour_where_the_terminal_says_so(data: Path) -> None:
    game = PtyGame(data, TERM="xterm", COLORTERM="")
    try:
        game.wait_for(lambda: QUERY in game.output)
        game.send(RGB_REPLY + DA1_REPLY)
        game.wait_for("H E D O N I C")
        assert b"\x1b[38;2;" in game.output
        game.send(b"\x03")
        assert game.wait_exit() == 0
    finally:
        game.close()
    assert b"COLORTERM=truecolor" not in game.output


def test_a_16_colour_terminal_gets_the_full_colour_hint_once(data: Path) -> None:
    outputs = []
    for _ in range(2):
        game = PtyGame(data, TERM="xterm", COLORTERM="")
        try:
            game.wait_for("H E D O N I C")
            game.send(b"\x03")
            assert game.wait_exit() == 0
            outputs.append(bytes(game.output))
        finally:
            game.close()
    assert b"\x1b[38;2;" not in outputs[0]
    tail = outputs[0][outputs[0].rindex(b"\x1b[?1049l") :]
    assert b"COLORTERM=truecolor" in tail
    assert b"COLORTERM=truecolor" not in outputs[1]


def test_a_late_answer_to_the_colour_question_is_never_taken_for_keys() -> None:
    from test_terminal_keys import decode_all

    assert decode_all(RGB_REPLY + DA1_REPLY + b"k") == [(KeySym.K, Modifier.NONE), "k"]
