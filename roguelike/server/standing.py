"""Where a decided run stands on its epoch's board, decided when its verdict is written (not per request).

A run's standing is one of:

- ``ranked``: verified, ranked by its verifier, the best placed file of its game and, of a
  daily date, the character's first attempt;
- ``copy``: another file of a game whose best placed file ranks (issue 47, R3);
- ``later``: a later attempt of a character at a daily date;
- ``unranked``: verified but not ranked (a bot, practice, a living game, ...);
- ``unverified``: not verified here (another epoch with no runtime, a killed verifier);
- ``off``: on no board (diverged, unreadable).

The rules are the board's: one run per game (a witnessed file of it before any upload), then the daily's first attempt, with the order
and the first attempt of :mod:`roguelike.ground.ranking` (shared with the local hall). A
run's ``copy``/``later``/``ranked`` standing depends on the other runs of its game and of its
character's daily date, so the database re-decides that group whenever one of its runs gets a
verdict (``roguelike.server.store``); this module is the pure part, on placings alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from roguelike.ground.ranking import Placing, first_attempts

RANKED = "ranked"
COPY = "copy"
LATER = "later"
UNRANKED = "unranked"
UNVERIFIED = "unverified"
OFF = "off"
CONTENDING = (RANKED, COPY, LATER)  # the standings of runs that contend: one group decides among them
APART = (UNRANKED, COPY, LATER)  # the "verified, not ranked" list, in the board's order of its parts
OFF_BOARD = ("diverged", "unreadable")
STARTED_MAX = 100  # characters of the recorded start kept to sort by: an ISO date is 20-32


@dataclass(frozen=True)
class Contender:
    """A verified, ranked run as its group's decision reads it."""

    game: str | None  # None: a run from before runs had a game key, its own game
    placing: Placing
    witnessed: bool = False  # of the witnessed tier: the file of its game that ranks, whatever the others' placings

    @property
    def preference(self) -> tuple[bool, tuple[int, int, str, str]]:
        """Which file of a game ranks: the witnessed before the uploaded, then the best placed."""
        return not self.witnessed, self.placing.order


def contends(status: str, verdict: dict[str, Any]) -> bool:
    """Whether a run contends for a rank: verified, said ``ranked``, with a whole-number score."""
    return status == "verified" and verdict.get("ranked") is True and isinstance(verdict.get("score"), int)


def first_standing(status: str, verdict: dict[str, Any]) -> str:
    """A decided run's standing from its own verdict (a contender ranks until its group says otherwise)."""
    if status in OFF_BOARD:
        return OFF
    if status != "verified":
        return UNVERIFIED
    return RANKED if contends(status, verdict) else UNRANKED


def placing_columns(verdict: dict[str, Any]) -> dict[str, Any]:
    """The placing's fields the ranking reads that the runs table keeps beside the score and the daily date."""
    turns = verdict.get("turns")
    return {
        "turns": turns if isinstance(turns, int) else 0,
        "started": storable(str(verdict.get("recorded") or ""))[:STARTED_MAX],
        "player": storable(str(verdict.get("name") or "")),
    }


def storable(value: str) -> str:
    """A text PostgreSQL can keep (it refuses NUL characters, which no game's name or date holds)."""
    return value.replace("\x00", "")


def standings(contenders: dict[str, Contender]) -> dict[str, str]:
    """The standing of each contender (by hash) of groups taken whole: every file of each game, every attempt
    of each character at each daily date."""
    best: dict[str, Contender] = {}
    for contender in contenders.values():
        game = contender.game
        if game is not None and (game not in best or contender.preference < best[game].preference):
            best[game] = contender
    decided = {
        digest: COPY
        for digest, contender in contenders.items()
        if contender.game is not None and best[contender.game].placing.digest != digest
    }
    kept = [contender.placing for digest, contender in contenders.items() if digest not in decided]
    first, later = first_attempts(kept, lambda place: place)
    return {**decided, **{place.digest: RANKED for place in first}, **{place.digest: LATER for place in later}}


def group_keys(contenders: Iterable[Contender]) -> tuple[set[str], set[tuple[str, str]]]:
    """The games and the (daily date, character) groups the contenders belong to."""
    listed = list(contenders)
    games = {contender.game for contender in listed if contender.game is not None}
    dailies = {
        (contender.placing.daily, contender.placing.name) for contender in listed if contender.placing.daily is not None
    }
    return games, dailies
