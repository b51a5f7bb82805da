"""The morgue file: a character's life as text to share, with a JSON twin.

Built from the game as it ended (or stands, from the in-game menu) and its replay, whose
step records tell the story turn by turn (:mod:`roguelike.replay.chronicle`): the
character, the cause and turn of death, the record, attributes over time, a State of
Mind chart drawn in text, the score and its parts, every dose, takeover, first sight and floor change with its
turn, the last messages, and the map of the floor as the player saw it last. The
replay's file name is in it, so a reader can watch the game. A daily game's file has its
seed's par (:mod:`roguelike.coach.par`) when it is known: at once if it was kept already,
else added once the death screen has worked it out (:mod:`roguelike.records.coaching`).
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from components import FindsTaken, HighStreak, Record
from roguelike import __version__
from roguelike.coach.par import Par
from roguelike.content import formulas
from roguelike.content.finds import finds_words
from roguelike.core.game import Game
from roguelike.core.score import Breakdown
from roguelike.render.screenshot import game_console
from roguelike.replay import chronicle
from roguelike.replay.fileformat import Replay

CHART_WIDTH = 60
CHART_ROWS = 10
LAST_MESSAGES = 20
CAUSES = {"exhaustion": "died of exhaustion", "overdose": "died of an overdose"}


def morgue_data(game: Game, replay: Replay, replay_path: Path, par: Par | None = None) -> dict[str, Any]:
    """Everything the morgue file says, as plain JSON-ready values (the replay by its file name,
    and by its absolute path for a command that works from any folder; par, for a daily game, if known)."""
    state = game.state
    record, streak = game.player_component(Record), game.player_component(HighStreak)
    steps = list(chronicle.moments(replay))
    return {
        "version": __version__,
        "character": {"name": state.name, "seed": state.seed, "game": replay.header.game_id},
        "replay": replay_path.name,
        "replay_path": str(replay_path.resolve()),
        "end": {
            "cause": state.cause_of_death,
            "how": ending(state.cause_of_death),
            "turn": state.turn,
            "floor": state.depth,
        },
        "record": {
            "turns": state.turn,
            "doses_used": record.doses_used,
            "close_calls": record.close_calls,
            "monsters_slain": record.kills,
            "deepest_floor": record.deepest_floor,
            "best_high_streak": streak.best,
            "high_streak_now": streak.turns,
            "finds_taken": dict(sorted(game.player_component(FindsTaken).kinds.items())),
        },
        "score": score_data(game.score()),
        "attributes": [
            {"turn": turn, "confidence": c, "nerve": n, "will": w, "tolerance": t}
            for turn, (c, n, w, t) in chronicle.attribute_changes(steps)
        ],
        "state_of_mind": [[turn, value] for turn, value in chronicle.state_of_mind_by_turn(steps)],
        "events": [{"turn": e.turn, "kind": e.kind, "text": e.text} for e in chronicle.events(steps)],
        "messages": [{"turn": m.turn, "text": m.text} for m in state.messages[-LAST_MESSAGES:]],
        "map": floor_map(game),
        "par": None if par is None else par.to_plain() | {"line": par.line(game.score().total)},
    }


def score_data(parts: Breakdown) -> dict[str, Any]:
    """The score and its parts as the death screen counts them (:meth:`Breakdown.rows`)."""
    return {
        "total": parts.total,
        "before_exploring": parts.raw,
        "unexplored": parts.unexplored,
        "kept_percent": parts.kept_percent,
        "parts": [{"part": label, "counted": how, "points": points} for label, how, points in parts.rows()[:-1]],
    }


def score_lines(score: dict[str, Any]) -> list[str]:
    """The score section of the text: each part, how it was counted, its points, the total."""
    rows = [(part["part"], part["counted"], part["points"]) for part in score["parts"]]
    return [f"  {label:<16}{how:>12}{points:>8}" for label, how, points in [*rows, ("Score", "", score["total"])]]


def ending(cause: str | None) -> str:
    """How the life ended, in words."""
    if cause is None:
        return "is still alive"
    from roguelike.content.bestiary import MONSTER_KINDS

    kind = MONSTER_KINDS.get(cause)
    return CAUSES.get(cause) or (f"was killed by {kind.name}" if kind else f"died ({cause})")


def floor_map(game: Game) -> list[str]:
    """The floor as the player last saw it (the in-game screen's map rows, blank edges cut)."""
    console = game_console(game)
    rows = ["".join(chr(code) for code in row).rstrip() for row in console.rgb["ch"][: formulas.MAP_HEIGHT].tolist()]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    margin = min((len(row) - len(row.lstrip()) for row in rows if row), default=0)
    return [row[margin:] for row in rows]


def chart(series: list[list[int]]) -> list[str]:
    """The State of Mind over the turns as a text chart: each column spans the range it
    took in its stretch of turns, in rows of ten points."""
    if not series:
        return ["(no turns played)"]
    columns = min(CHART_WIDTH, len(series))
    buckets: list[list[int]] = [[] for _ in range(columns)]
    for index, (_, value) in enumerate(series):
        buckets[index * columns // len(series)].append(value)
    spans = [(row_of(min(bucket)), row_of(max(bucket))) for bucket in buckets]
    lines = []
    for row in range(CHART_ROWS, -1, -1):
        value = row * formulas.STATE_OF_MIND_MAX // CHART_ROWS
        marks = "".join("*" if low <= row <= high else band_mark(value) for low, high in spans)
        lines.append(f"{value:>4} |{marks}")
    first, last = f"turn {series[0][0]}", f"turn {series[-1][0]}"
    lines.append("     +" + "-" * columns)
    lines.append(f"      {first}{' ' * max(1, columns - len(first) - len(last))}{last}")
    return lines


def row_of(value: int) -> int:
    """The chart row of a State of Mind (ten points a row, an overdose on the top row)."""
    return formulas.clamp(value, 0, formulas.STATE_OF_MIND_MAX) * CHART_ROWS // formulas.STATE_OF_MIND_MAX


def band_mark(value: int) -> str:
    """The background of a chart row: the Withdrawal and High lines dotted, else blank."""
    return "." if value in (formulas.WITHDRAWAL_BELOW, formulas.HIGH_ABOVE) else " "


def watch_command(data: dict[str, Any]) -> str:
    """The command that plays the game's replay, from any folder (its absolute path, quoted for a shell)."""
    return f"hedonic replay {shlex.quote(data['replay_path'])}"


def morgue_text(data: dict[str, Any]) -> str:
    """The morgue file a player shares."""
    character, end, record = data["character"], data["end"], data["record"]
    lines = [
        f"Hedonic Hypothesis {data['version']} -- morgue file",
        "",
        f"{character['name']} {end['how']} on floor {end['floor']}, turn {end['turn']}.",
        f"Seed {character['seed']}; watch it again: {watch_command(data)}",
        "",
        "Record",
        *(
            f"  {label:<16}{record[key]:>6}"
            for label, key in (
                ("Turns", "turns"),
                ("Doses used", "doses_used"),
                ("Close calls", "close_calls"),
                ("Monsters slain", "monsters_slain"),
                ("Deepest floor", "deepest_floor"),
                ("Best High streak", "best_high_streak"),
                ("High streak now", "high_streak_now"),
            )
        ),
        f"  Finds taken     {finds_words(record['finds_taken'])}",
        "",
        "Score (each floor's points kept by the share of it explored)",
        *score_lines(data["score"]),
        *(["", *par_section(data["par"])] if data.get("par") else []),
        "",
        "State of Mind over the turns (dotted: the Withdrawal line at 50 and the High line at 60)",
        *chart(data["state_of_mind"]),
        "",
        "Attributes (Confidence, Nerve, Will, Tolerance) when they changed",
        *(
            f"  turn {a['turn']:>5}: Con {a['confidence']:>2}  Nrv {a['nerve']:>2}  Wil {a['will']:>2}  Tol {a['tolerance']:>2}"
            for a in data["attributes"]
        ),
        "",
        "What happened",
        *(f"  turn {e['turn']:>5}: {e['text']}" for e in data["events"]),
        "",
        "Last messages",
        *(f"  turn {m['turn']:>5}: {m['text']}" for m in data["messages"]),
        "",
        f"Floor {end['floor']} as last seen",
        *(f"  {row}" for row in data["map"]),
    ]
    return "\n".join(lines) + "\n"


def par_section(par: dict[str, Any]) -> list[str]:
    """The par section of the text: the seed's par and how this game compares (``par`` as :func:`morgue_data` has it)."""
    return [
        "Par",
        (
            f"  {par['line']} (the {par['bot']} bot's {par['runs']} games of this daily seed, "
            f"rules epoch {par['epoch']})"
        ),
    ]
