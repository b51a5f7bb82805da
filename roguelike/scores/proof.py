"""A replay's proof: its verdict and, when it verified, the score and feats of the re-simulated game.

The score is never read from a file: it is computed by :mod:`roguelike.core.score` from
the final state of the re-simulation, and exists only when every step's checksum matched.
A replay of another rules epoch is proved by that epoch's runtime in a child process
(``hedonic replay --verify --json``); a runtime too old to know ``--json`` gives the
verdict "unverifiable here", never a guess.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from roguelike.core.commands import RANKED_ORIGINS
from roguelike.core.epoch import RULES_EPOCH
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.replay.fileformat import Header, Replay, ReplayError, read_header, read_replay
from roguelike.replay.library import origin_of
from roguelike.replay.verify import Outcome, run_steps
from roguelike.runtimes.dispatch import Options
from roguelike.scores.daily import daily_date_of
from roguelike.scores.feats import Trace, earned

VERIFIED, DIVERGED, UNREADABLE, UNVERIFIABLE = "verified", "diverged", "unreadable", "unverifiable here"
PLAYED = "played"  # the origin of a game with no mark


@dataclass(frozen=True)
class Proof:
    """What verifying one replay file proved (one JSON object of ``--verify --json``)."""

    file: str
    verdict: str
    detail: str = ""
    rules_epoch: int | None = None
    seed: int | None = None
    name: str | None = None
    origin: str | None = None  # played, daily, practice, bot, wizard, replay
    daily: str | None = None  # the date of a daily (or practice) game, proved by its seed
    turns: int = 0
    commands: int = 0
    cause: str | None = None
    score: int | None = None  # only for a verified replay
    breakdown: list[dict[str, Any]] = field(default_factory=list)
    feats: list[str] = field(default_factory=list)
    recorded: str = ""  # when the game started, as its header says (not proved: it orders daily attempts)

    @property
    def ranked(self) -> bool:
        """Whether the game counts: verified, played or daily (with a proved date), and over."""
        origin = None if self.origin == PLAYED else self.origin
        proved_daily = origin != "daily" or self.daily is not None
        return self.verdict == VERIFIED and origin in RANKED_ORIGINS and proved_daily and self.cause is not None

    def to_json(self) -> str:
        """One line of JSON."""
        return json.dumps({**asdict(self), "ranked": self.ranked}, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Proof:
        """A proof from :meth:`to_json` (ValueError if it is not one)."""
        plain = json.loads(text)
        if not isinstance(plain, dict):
            raise ValueError("not a JSON object")
        plain.pop("ranked", None)
        known = {key: value for key, value in plain.items() if key in cls.__dataclass_fields__}
        wrong = [key for key, value in known.items() if not of_kind(value, FIELD_KINDS[key])]
        if wrong:  # a damaged cache row: its numbers would be compared and summed
            raise ValueError(f"a proof whose {', '.join(sorted(wrong))} are not of their kind")
        return cls(**known)


FIELD_KINDS: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("file", "verdict", "detail", "recorded"), (str,)),
    **dict.fromkeys(("rules_epoch", "seed", "score"), (int, type(None))),
    **dict.fromkeys(("name", "origin", "daily", "cause"), (str, type(None))),
    **dict.fromkeys(("turns", "commands"), (int,)),
    "breakdown": (list, dict),
    "feats": (list, str),
}


def of_kind(value: object, kinds: tuple[type, ...]) -> bool:
    """Whether a proof's field read from JSON is of its kind (a list's items the second kind)."""
    if kinds[0] is list:
        return isinstance(value, list) and all(isinstance(item, kinds[1]) for item in value)
    return isinstance(value, kinds) and not isinstance(value, bool)


def prove_file(path: Path, options: Options | None = None) -> Proof:
    """Verify one replay file and work out what it proves (another epoch's through its runtime)."""
    try:
        replay_format, header = read_header(path)
        if header.epoch != RULES_EPOCH:
            return prove_elsewhere(path, header, replay_format, options or Options())
        return prove(read_replay(path), str(path))
    except ReplayError as error:
        return Proof(str(path), UNREADABLE, str(error))


def prove(replay: Replay, file: str) -> Proof:
    """Re-simulate a replay of this epoch, watching it for feats; the proof."""
    header, trace = replay.header, Trace()
    game = Game.new(header.seed, header.name)
    try:
        verdict = run_steps(Session(game, [trace]), replay, None)
        if verdict.outcome is not Outcome.MATCHED:
            return claimed(file, header, replay, DIVERGED, verdict.details[0], verdict.steps)
        return proved(file, replay, game, trace, verdict.steps)
    finally:
        game.close()


def claimed(file: str, header: Header, replay: Replay, verdict: str, detail: str, steps: int) -> Proof:
    """A proof of nothing: what the file says about itself, with no score."""
    return Proof(
        file,
        verdict,
        detail,
        header.epoch,
        header.seed,
        header.name,
        origin_of(replay) or PLAYED,
        None,
        replay.final_turn,
        steps,
        recorded=header.date,
    )


def proved(file: str, replay: Replay, game: Game, trace: Trace, steps: int) -> Proof:
    """The proof of a verified replay: the score and feats of the re-simulated game."""
    header, state = replay.header, game.state
    parts = game.score()
    origin = state.origin or header.origin or PLAYED
    day = daily_date_of(header.seed, header.epoch, header.date) if origin in ("daily", "practice") else None
    rows = [{"part": label, "counted": how, "points": points} for label, how, points in parts.rows()]
    return Proof(
        file,
        VERIFIED,
        f"{state.turn} turns verified ({steps} commands)",
        header.epoch,
        header.seed,
        header.name,
        origin,
        day.isoformat() if day else None,
        state.turn,
        steps,
        state.cause_of_death,
        parts.total,
        rows,
        earned(trace),
        header.date,
    )


def prove_elsewhere(path: Path, header: Header, replay_format: int, options: Options) -> Proof:
    """The proof of a replay of another epoch, made by that epoch's runtime."""
    from roguelike.runtimes.dispatch import in_runtime_child, run_in_runtime, runtime_for
    from roguelike.runtimes.store import RuntimeTrouble

    unknown = Proof(str(path), UNVERIFIABLE, "", header.epoch, header.seed, header.name, recorded=header.date)
    notes: list[str] = []
    try:
        if in_runtime_child():
            raise RuntimeTrouble("this is already a runtime of another epoch")
        runtime = runtime_for(header.epoch, replay_format, notes.append)
        done = run_in_runtime(
            runtime, ["replay", "--verify", "--json", "--jobs", "1", str(path)], options, notes.append, capture=True
        )
    except RuntimeTrouble as trouble:
        return replace_detail(unknown, f"rules epoch {header.epoch}: {trouble}")
    if "--json" in done.stderr:
        return replace_detail(unknown, f"the runtime of {runtime.name} is too old to report a score (--json)")
    try:
        return Proof.from_json(done.stdout.splitlines()[0])
    except (ValueError, IndexError, TypeError):
        last = (done.stderr.strip().splitlines() or ["no verdict"])[-1]
        return replace_detail(unknown, f"the runtime of {runtime.name} gave no verdict: {last}")


def replace_detail(proof: Proof, detail: str) -> Proof:
    """The proof with another detail."""
    return replace(proof, detail=detail)
