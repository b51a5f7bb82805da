"""The frame stream: a keyframe and any sequence of diffs rebuild the console exactly."""

from __future__ import annotations

import zlib
from typing import Literal

import numpy as np
import pytest
import tcod.console
from hypothesis import given, settings
from hypothesis import strategies as st

from roguelike.frontend import frames

Edit = tuple[int, int, int, tuple[int, int, int], tuple[int, int, int]]
Block = tuple[int, int, int, int, Edit]
Change = tuple[Literal["cells"], list[Edit]] | tuple[Literal["block"], Block]
colours = st.tuples(*[st.integers(0, 255)] * 3)
edits = st.tuples(st.integers(0, 79), st.integers(0, 24), st.integers(0, 0x10FFFF), colours, colours)
# A frame: cells changed one by one, or a block filled (a screen opening, a flash).
frame_changes = st.one_of(
    st.lists(edits, max_size=40).map(lambda found: ("cells", found)),
    st.tuples(st.integers(0, 79), st.integers(0, 24), st.integers(1, 80), st.integers(1, 25), edits).map(
        lambda block: ("block", block)
    ),
)


def change(console: tcod.console.Console, how: Change) -> None:
    """Apply one generated frame's changes to the console."""
    rgb = console.rgb
    if how[0] == "cells":
        for x, y, code, fg, bg in how[1]:
            rgb[y, x] = (code, fg, bg)
    else:
        x, y, width, height, (_, _, code, fg, bg) = how[1]
        rgb[y : y + height, x : x + width] = (code, fg, bg)


@settings(max_examples=100, deadline=None)
@given(st.lists(frame_changes, max_size=25), st.integers(0, 24))
def test_a_keyframe_then_the_diffs_rebuild_the_console_exactly(changes: list[Change], joins: int) -> None:
    console = tcod.console.Console(80, 25, order="C")
    screenful = frames.Screenful(80, 25)
    client: frames.Cells | None = None
    late: frames.Cells | None = None
    for index, how in enumerate([("cells", []), *changes]):
        change(console, how)
        message = screenful.update(console)
        if message is not None:
            client = frames.apply(client, message)
            late = None if late is None else frames.apply(late, message)
        if index == joins:
            late = frames.apply(None, screenful.keyframe())  # a spectator joining now
        assert client is not None and (client == frames.cells_of(console)).all()
        assert late is None or (late == frames.cells_of(console)).all()
    assert client is not None
    assert frames.text_rows(client) == [
        "".join(chr(code) if code else " " for code in row) for row in console.rgb["ch"].tolist()
    ]


def test_a_frame_that_changes_nothing_sends_nothing_and_a_small_change_is_small() -> None:
    console = tcod.console.Console(80, 25, order="C")
    screenful = frames.Screenful(80, 25)
    assert len(screenful.update(console) or b"") == 5 + 80 * 25 * 10
    assert screenful.update(console) is None
    console.print(10, 3, "@")
    message = screenful.update(console)
    assert message is not None and message[0] == frames.DIFF and len(message) == 3 + 4 + 10


def test_a_diff_larger_than_the_whole_screen_is_sent_as_a_keyframe() -> None:
    console = tcod.console.Console(80, 25, order="C")
    screenful = frames.Screenful(80, 25)
    screenful.update(console)
    console.rgb["ch"][:] = ord("#")  # a new screen: one run of every cell, 2 bytes more than a keyframe
    message = screenful.update(console)
    assert message is not None and message[0] == frames.KEYFRAME


@pytest.mark.parametrize(
    "message",
    [
        b"",
        b"\x03",
        b"\x02\x01\x00",
        b"\x01\x50\x00\x19\x00" + b"\x00" * 9,
        b"\x02\x01\x00\xcf\x07\x02\x00" + b"\x00" * 20,
        b"\x02\x00\x00junk",
    ],
)
def test_a_broken_message_is_a_frame_error(message: bytes) -> None:
    with pytest.raises(frames.FrameError):
        frames.apply(frames.blank(80, 25), message)


def test_a_diff_needs_a_keyframe_first() -> None:
    with pytest.raises(frames.FrameError):
        frames.apply(None, b"\x02\x00\x00")
    assert (frames.apply(frames.blank(80, 25), b"\x02\x00\x00") == frames.blank(80, 25)).all()
    assert np.array_equal(frames.blank(2, 1)["ch"], [[0, 0]])


def test_a_deflated_message_inflates_to_itself_and_is_smaller() -> None:
    console = tcod.console.Console(80, 25, order="C")
    console.print(0, 0, "H E D O N I C   H Y P O T H E S I S")
    key = frames.keyframe(frames.cells_of(console))
    packed = frames.deflated(key)
    assert packed[0] == frames.DEFLATED and len(packed) < len(key) // 10
    assert frames.inflated(packed) == key
    assert (frames.apply(None, packed) == frames.apply(None, key)).all()
    tiny = bytes([frames.DIFF, 0, 0])
    assert frames.deflated(tiny) == tiny  # nothing to gain: sent as it is


def raw_deflate(data: bytes) -> bytes:
    """Data compressed as a deflated frame's body is (raw deflate, no header)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


@pytest.mark.parametrize(
    "bad",
    [
        bytes([frames.DEFLATED]) + b"not deflate at all",
        bytes([frames.DEFLATED]),
        bytes([frames.DEFLATED]) + raw_deflate(frames.deflated(bytes([frames.DIFF, 0, 0]) * 64)),  # nested
        bytes([frames.DEFLATED]) + raw_deflate(b"\x01" * (frames.MAX_INFLATED + 10)),  # a bomb
        frames.deflated(bytes([frames.DIFF, 0, 0]) * 64)[:-3],  # cut short
    ],
)
def test_a_bad_deflated_message_is_a_frame_error(bad: bytes) -> None:
    with pytest.raises(frames.FrameError):
        frames.apply(None, bad)
