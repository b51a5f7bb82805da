"""Two replays of one seed side by side: the first step where they part, and what differs there.

The recorded checksums find the step (or, for two replays of different formats, whose
checksums are made differently, both games re-simulated side by side); the commands, the recorded facts and then both
games re-simulated to that step (compared as :func:`roguelike.replay.inspect.readable`
states) say what differs.
"""

from __future__ import annotations

from roguelike.core.snapshot import snapshot_bytes
from roguelike.replay.fileformat import Replay
from roguelike.replay.inspect import differences, readable
from roguelike.replay.playback import Playback
from roguelike.replay.witness import differences as fact_differences
from roguelike.replay.witness import recorded_facts


class NotComparable(Exception):
    """The two replays are not of the same seed; says so."""


def first_difference(left: Replay, right: Replay) -> int | None:
    """The first step (1-based) whose checksum or command differs; None if one is a prefix of the other."""
    if left.header.seed != right.header.seed:
        raise NotComparable(f"they are of different seeds ({left.header.seed} and {right.header.seed})")
    comparable = left.format == right.format  # formats 1 and 2 make their checksums differently
    for a, b in zip(left.steps, right.steps):
        if (comparable and a.checksum != b.checksum) or a.command != b.command:
            return a.index
    if not comparable:
        return first_state_difference(left, right)
    return None


def first_state_difference(left: Replay, right: Replay) -> int | None:
    """The first step after which the two games, re-simulated side by side, are not the same state."""
    games = [Playback(left), Playback(right)]
    try:
        for index in range(1, min(len(left.steps), len(right.steps)) + 1):
            for playback in games:
                playback.seek_step(index)
            if snapshot_bytes(games[0].game) != snapshot_bytes(games[1].game):
                return index
        return None
    finally:
        for playback in games:
            playback.close()


def header_difference(left: Replay, right: Replay) -> list[str]:
    """When the characters' names differ the games differ from the start: says so (else nothing)."""
    if left.header.name == right.header.name:
        return []
    return [
        "the games differ from the start: their headers differ",
        f"  name: A {left.header.name!r}, B {right.header.name!r} (the name is part of every step's state)",
    ]


def describe_difference(left: Replay, right: Replay, step: int) -> list[str]:
    """What differs at ``step``: the commands, the recorded facts, the re-simulated states."""
    a, b = left.steps[step - 1], right.steps[step - 1]
    lines = [f"first difference at step {step} (turn {a.turn} in A, {b.turn} in B)"]
    if a.command != b.command:
        lines.append(f"  commands: A {a.command}, B {b.command}")
    facts = fact_differences(recorded_facts(left.steps, step), recorded_facts(right.steps, step))
    lines += [f"  recorded {line.replace('recorded ', 'A ').replace(', now ', ', B ')}" for line in facts]
    lines += [f"  state: {line}" for line in state_differences(left, right, step)]
    return lines


def state_differences(left: Replay, right: Replay, step: int) -> list[str]:
    """Both games re-simulated to ``step`` and compared whole (A's value first)."""
    states = []
    for replay in (left, right):
        playback = Playback(replay)
        playback.seek_step(step)
        states.append(readable(playback.game))
        playback.close()
    return differences(states[0], states[1]) or ["the re-simulated states agree (a replay's checksum was changed?)"]


def length_note(left: Replay, right: Replay) -> str:
    """When neither differs where both have steps: how their lengths compare."""
    if len(left.steps) == len(right.steps):
        return f"the same game: {len(left.steps)} identical steps"
    shorter, longer = ("A", "B") if len(left.steps) < len(right.steps) else ("B", "A")
    steps = min(len(left.steps), len(right.steps))
    return f"no difference in their first {steps} steps; {shorter} stops there and {longer} goes on"
