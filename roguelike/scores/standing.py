"""Where a game that just ended stands: its replay proved in a worker process, then its place.

The death screen asks as it opens; the proof is made in a spawned process (a window's
process must not fork, and the proof must not switch the game's world under the screen
drawing it), cached like the hall's, and the place is counted among the proofs already
cached. The feats go into the morgue file too, once proved.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from roguelike.scores.feats import titles
from roguelike.scores.hall import PENDING, VERIFIED_MARK, Entry, ProofCache, daily_board, file_digest, hall
from roguelike.scores.proof import VERIFIED, Proof
from roguelike.scores.scorefile import morgue_of
from roguelike.scores.workers import prove_all
from roguelike.storage.atomic import write_atomic

WAITING = "Verifying this game's replay..."
NOT_YET = "Not verified yet: Best games on the title screen verifies it."


class Told(Protocol):
    """What the record screen shows of a game's proof: a line, the feats, and whether it is still coming."""

    @property
    def waiting(self) -> bool:
        """Whether the proof is still being made."""

    def line(self) -> str:
        """The verdict and place."""

    def feats_line(self) -> str:
        """The feats earned."""


@dataclass(frozen=True)
class Known:
    """A past game's standing, as the hall's cache knows it (Character stats)."""

    text: str
    feats: str
    waiting: bool = False

    def line(self) -> str:
        """The verdict and place."""
        return self.text

    def feats_line(self) -> str:
        """The feats earned."""
        return self.feats


def known_standing(root: Path, name: str, seed: int, turns: int) -> Known:
    """A dead character's standing from the cached proofs (found by name, seed and turns); verifies nothing."""
    entries = hall(root, None)
    mine = next(
        (
            entry
            for entry in entries
            if entry.proof is not None
            and entry.mark != PENDING
            and (entry.proof.name, entry.proof.seed, entry.proof.turns) == (name, seed, turns)
        ),
        None,
    )
    if mine is None or mine.proof is None:
        return Known(NOT_YET, "")
    return Known(place_words(entries, mine.path, mine.proof), feats_words(mine.proof))


def feats_words(proof: Proof) -> str:
    """``Feats: Clean floor, ...`` for a verified proof, else nothing."""
    if proof.verdict != VERIFIED:
        return ""
    return "Feats: " + (", ".join(titles(proof.feats)) or "none this time")


class Standing:
    """The proof and place of a finished game, worked out on a thread of its own."""

    def __init__(self, root: Path, replay: Path) -> None:
        self.root, self.replay = root, replay
        self.proof: Proof | None = None
        self.place = ""
        self.problem = "This game's replay could not be verified."
        self.thread = threading.Thread(target=self.work, daemon=True)
        self.thread.start()

    @property
    def waiting(self) -> bool:
        """Whether the proof is still being made."""
        return self.thread.is_alive()

    def work(self) -> None:
        """Prove the replay and place it; a failure only leaves the death screen without its place."""
        try:
            self.prove()
        except Exception as error:  # noqa: BLE001 - a keepsake: nothing here may crash the death screen
            self.problem = f"This game's replay could not be verified here: {error}"

    def prove(self) -> None:
        """Prove the replay, cache the proof, count the place, note the feats in the morgue file."""
        (proof,) = prove_all([self.replay], method="spawn", apart=True)
        cache = ProofCache(self.root)
        try:
            cache.keep({file_digest(self.replay): proof})
        finally:
            cache.close()
        self.place = place_words(hall(self.root, None), self.replay, proof)
        add_to_morgue(self.root, self.replay, proof)
        self.proof = proof

    def line(self) -> str:
        """One line for the death screen."""
        if self.proof is None:
            return WAITING if self.waiting else self.problem
        return self.place

    def feats_line(self) -> str:
        """The feats this game earned, in one line."""
        return "" if self.proof is None else feats_words(self.proof)


def place_words(entries: list[Entry], replay: Path, proof: Proof) -> str:
    """``Verified: 123 points, #2 of 5 in the hall; #1 of 3 on the 2026-11-26 daily board``."""
    if proof.verdict != VERIFIED:
        return f"The replay did not verify ({proof.verdict}): this game does not rank."
    mine = next((entry for entry in entries if entry.path.resolve() == replay.resolve()), None)
    if mine is None or mine.mark != VERIFIED_MARK:
        return f"Verified: {proof.score} points, unranked ({proof.origin})."
    words = f"Verified: {proof.score} points, {rank_in(entries, mine)} in the hall"
    if proof.daily is not None:
        words += f"; {rank_in(daily_board(entries, proof.daily), mine)} on the {proof.daily} daily board"
    return words + "."


def rank_in(entries: list[Entry], mine: Entry) -> str:
    """``#2 of 5`` among the ranked entries."""
    ranked = [entry for entry in entries if entry.mark == VERIFIED_MARK]
    return f"#{ranked.index(mine) + 1} of {len(ranked)}"


def add_to_morgue(root: Path, replay: Path, proof: Proof) -> None:
    """Add the verdict and the feats to the game's morgue file (if it has one; never in the way)."""
    morgue = morgue_of(root, replay)
    if morgue is None or proof.verdict != VERIFIED:
        return
    lines = [
        "",
        "Verified",
        f"  the replay re-simulated: {proof.score} points, every turn's checksum matched",
        f"  feats: {', '.join(titles(proof.feats)) or 'none'}",
        "",
    ]
    try:
        text = morgue.read_text(encoding="utf-8")
        if "\nVerified\n" not in text:
            write_atomic(morgue, (text.rstrip("\n") + "\n" + "\n".join(lines)).encode("utf-8"))
    except OSError:
        pass  # the morgue file is a keepsake: a disk that refuses costs only these lines
