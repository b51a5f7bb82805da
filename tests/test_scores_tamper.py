"""Tampering: over 500 mutated score files, not one is called verified with a score it did not earn.

A seeded mutator makes five kinds of forgery from one recorded game: a flipped byte
anywhere (the frame checks catch it), a flipped command and a flipped checksum byte,
each re-sealed so every frame is valid again, a header claiming a score, and a file cut
short. A mutant may only verify if its commands are the game's own first N (a cut at a
record's end is a shorter, honest game), and then with exactly that prefix's score.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

from replay_helpers import record_bot_game
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Replay, frame, preamble, read_replay, replay_bytes
from roguelike.scores.proof import VERIFIED, prove_file

MUTANTS = 520
COMMANDS = 40


def honest_scores(replay: Replay) -> list[int]:
    """The score after each prefix of the game (index N: after N commands)."""
    game = Game.new(replay.header.seed, replay.header.name)
    session, scores = Session(game), [0]
    for step in replay.steps:
        session.apply(step.command)
        scores.append(game.score().total)
    game.close()
    return scores


def flip_byte(data: bytes, replay: Replay, rng: random.Random) -> bytes:
    """One bit of one byte flipped, nothing re-sealed."""
    at = rng.randrange(len(data))
    return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1 :]


def other_command(replay: Replay, rng: random.Random) -> bytes:
    """One command changed, every frame re-sealed."""
    steps = list(replay.steps)
    at = rng.randrange(len(steps))
    choices: list[Command] = [Wait(), *(Move(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy)]
    steps[at] = replace(steps[at], command=rng.choice([c for c in choices if c != steps[at].command]))
    return replay_bytes(replace(replay, steps=steps))


def other_checksum(replay: Replay, rng: random.Random) -> bytes:
    """One byte of one step's checksum changed, every frame re-sealed."""
    steps = list(replay.steps)
    at, digit = rng.randrange(len(steps)), rng.randrange(16)
    old = steps[at].checksum
    new = old[:digit] + format((int(old[digit], 16) + rng.randrange(1, 16)) % 16, "x") + old[digit + 1 :]
    steps[at] = replace(steps[at], checksum=new)
    return replay_bytes(replace(replay, steps=steps))


def claimed_score(data: bytes, replay: Replay, rng: random.Random) -> bytes:
    """The header re-sealed with a score of its own (a field no reader believes)."""
    header = {**replay.header.to_plain(replay.format), "score": rng.randrange(10**6)}
    return preamble(replay.format) + frame(header) + data[replay.ends[0] :]


def cut(data: bytes, rng: random.Random) -> bytes:
    """The file cut short anywhere."""
    return data[: rng.randrange(len(data))]


def test_no_mutated_score_file_is_falsely_verified(tmp_path: Path) -> None:
    path, _ = record_bot_game(tmp_path / "data", seed=11, turns=COMMANDS)
    replay, data = read_replay(path), path.read_bytes()
    scores, own = honest_scores(replay), [step.command for step in replay.steps]
    rng = random.Random(24)
    makers = [
        lambda: flip_byte(data, replay, rng),
        lambda: other_command(replay, rng),
        lambda: other_checksum(replay, rng),
        lambda: claimed_score(data, replay, rng),
        lambda: cut(data, rng),
    ]
    verified = false = 0
    for number in range(MUTANTS):
        mutant = tmp_path / f"mutant-{number}.replay"
        mutant.write_bytes(makers[number % len(makers)]())
        proof = prove_file(mutant)
        if proof.verdict != VERIFIED:
            assert proof.score is None
            continue
        verified += 1
        commands = [step.command for step in read_replay(mutant).steps]
        honest = commands == own[: len(commands)] and proof.seed == replay.header.seed
        false += not (honest and proof.score == scores[len(commands)])
    assert false == 0
    assert verified > 0  # the honest mutants (a claimed score, a cut at a record's end) do verify, with their own score
