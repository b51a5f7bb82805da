"""Two replays of one seed side by side: the first step where they part, and what differs there.

The recorded checksums find the step; the commands, the recorded facts and then both
games re-simulated to that step (compared as :func:`roguelike.replay.inspect.readable`
states) say what differs.
"""

from __future__ import annotations

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
    for a, b in zip(left.steps, right.steps):
        if a.checksum != b.checksum or a.command != b.command:
            return a.index
    return None


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
