"""Issue 41's skill targets as data, judged against a balance report's figures.

Each target names a measure (a figure of the report, read from its plain data, so a saved
``report.json`` can be judged again), the bot or group it is about, and the line it must
meet. A target is met by its measured value (the butterfly's upper bound is a target of its
own); ``sure`` says whether the whole 95% interval lies on the same side of the line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from roguelike.bots.stats import wilson

CLIMATES_BOT: str | None = "climber"  # the bot that plays the climates (issue 41's second lever), once it exists
SKILL_GROUP = "careful, planner, diver, explorer"  # the bots whose variance split the policy target reads
RISING_BANDS = ("2-3", "4-6", "7-10", "11-15", "16-20")


@dataclass(frozen=True)
class Target:
    """One line the issue sets: ``measure`` of ``bot`` compared by ``test`` with ``line``."""

    text: str
    measure: str
    bot: str | None
    test: str  # ">=", "<=", "within" (a ratio within ``line`` of 1), "rising" (band by band)
    line: float = 0.0
    unit: str = ""
    on: str = "value"  # "value", or "high": the interval's upper bound must meet the line


TARGETS = (
    Target("careful: median at least 1,000 turns", "median_turns", "careful", ">=", 1000),
    Target("careful: p90 at least 2,500 turns", "p90_turns", "careful", ">=", 2500),
    Target("careful: at most 10% of games end on floor 1", "floor_1", "careful", "<=", 10, "%"),
    Target("careful: Depression at least 10% of deaths", "cause:depression", "careful", ">=", 10, "%"),
    Target("careful: exhaustion at least 10% of deaths", "cause:exhaustion", "careful", ">=", 10, "%"),
    Target("careful: overdose at least 10% of deaths", "cause:overdose", "careful", ">=", 10, "%"),
    Target("reader: median turns within 10% of careful's", "turns_vs_careful", "reader", "within", 0.1, "x"),
    Target("a bot playing the climates: median score 1.2x careful's", "score_vs_careful", CLIMATES_BOT, ">=", 1.2, "x"),
    Target("a bot playing the climates: no carried doses", "carrying", CLIMATES_BOT, "<=", 0, "%"),
    Target(
        "planner without its pocket: median score 1.15x careful's",
        "score_vs_careful",
        "planner-nopocket",
        ">=",
        1.15,
        "x",
    ),
    Target("planner without its pocket: no carried doses", "carrying", "planner-nopocket", "<=", 0, "%"),
    Target(
        "policy at least 25% of the variance of log(turns), twins as chaos", "policy_share", SKILL_GROUP, ">=", 25, "%"
    ),
    Target("careful: butterfly at most 8%", "butterfly", "careful", "<=", 8, "%"),
    Target("careful: butterfly's interval at most 12% at the top", "butterfly", "careful", "<=", 12, "%", "high"),
    Target("careful: Spearman of score with turns at most 0.75", "spearman", "careful", "<=", 0.75),
    Target("careful: deaths per 1,000 turns rise band by band (2-3 to 16-20)", "bands_rising", "careful", "rising"),
    Target(
        "careful: deaths per 1,000 turns on floors 21+ at most 2x 16-20", "deaths_21_vs_16_20", "careful", "<=", 2, "x"
    ),
)

Measured = tuple[Any, list[float] | None]  # the value, and its 95% interval
Measure = Callable[[dict[str, Any], str], Measured | None]


def bot_figure(key: str, interval_key: str) -> Measure:
    """A figure of one bot's table and its interval from the bot's ``intervals``."""

    def read(report: dict[str, Any], bot: str) -> Measured | None:
        figures = report["bots"].get(bot)
        if figures is None:
            return None
        value: Any = figures
        for part in key.split("."):
            value = value[part]
        return value, figures["intervals"].get(interval_key)

    return read


def cause_share(cause: str) -> Measure:
    """The share of a bot's deaths by one cause."""

    def read(report: dict[str, Any], bot: str) -> Measured | None:
        figures = report["bots"].get(bot)
        if figures is None:
            return None
        entry = figures["causes"].get(cause)
        deaths = sum(e["games"] for e in figures["causes"].values())
        return (entry["share"], entry["interval"]) if entry else (0.0, list(wilson(0, deaths)))

    return read


def versus_careful(kind: str) -> Measure:
    """A bot's median (score or turns) as a multiple of careful's."""

    def read(report: dict[str, Any], bot: str) -> Measured | None:
        entry = report["skill"]["versus_careful"].get(bot)
        return (entry[kind]["ratio"], entry[kind]["interval"]) if entry and entry[kind]["ratio"] is not None else None

    return read


def policy_share(report: dict[str, Any], group: str) -> Measured | None:
    """Policy's share of the variance of log(turns) among a group of bots played with twins."""
    for split in report["skill"]["variance"]:
        if ", ".join(split["bots"]) == group:
            return split["shares"]["policy"]["share"], split["shares"]["policy"]["interval"]
    return None


def butterfly(report: dict[str, Any], bot: str) -> Measured | None:
    """The share of a bot's twin games that lived more than twice or half as long."""
    entry = report["butterfly"].get(bot)
    return (entry["share"], entry["interval"]) if entry else None


def carrying(report: dict[str, Any], bot: str) -> Measured | None:
    """The share of a bot's games in which it took a carried dose."""
    figures = report["bots"].get(bot)
    return (figures["carried"]["games_taking"], None) if figures else None


def bands_rising(report: dict[str, Any], bot: str) -> Measured | None:
    """Deaths per 1,000 turns in the bands that must rise, shallowest first."""
    figures = report["bots"].get(bot)
    if figures is None:
        return None
    return [figures["depth_bands"][band]["per_1000_turns"] for band in RISING_BANDS], None


def deepest_ratio(report: dict[str, Any], bot: str) -> Measured | None:
    """Deaths per 1,000 turns on floors 21+ as a multiple of floors 16-20."""
    figures = report["bots"].get(bot)
    if figures is None or figures["deaths_21_vs_16_20"]["ratio"] is None:
        return None
    return figures["deaths_21_vs_16_20"]["ratio"], figures["deaths_21_vs_16_20"]["interval"]


MEASURES: dict[str, Measure] = {
    "median_turns": bot_figure("turns.median", "turns_median"),
    "p90_turns": bot_figure("turns.p90", "turns_p90"),
    "floor_1": bot_figure("ended_on_floor_1", "ended_on_floor_1"),
    "spearman": bot_figure("spearman_score_turns", "spearman_score_turns"),
    "cause:depression": cause_share("depression"),
    "cause:exhaustion": cause_share("exhaustion"),
    "cause:overdose": cause_share("overdose"),
    "score_vs_careful": versus_careful("score"),
    "turns_vs_careful": versus_careful("turns"),
    "policy_share": policy_share,
    "butterfly": butterfly,
    "carrying": carrying,
    "bands_rising": bands_rising,
    "deaths_21_vs_16_20": deepest_ratio,
}


def meets(target: Target, value: float) -> bool:
    """Whether one number meets the target's line."""
    if target.test == ">=":
        return value >= target.line
    if target.test == "<=":
        return value <= target.line
    return abs(value - 1) <= target.line + 1e-9  # "within"


def judge(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every target with its measured value, interval, and whether it is met (None: not measured)."""
    return [judged(target, report) for target in TARGETS]


def unmeasured(target: Target, report: dict[str, Any]) -> str:
    """Why a target has no figure: what to play to measure it."""
    if target.bot is None:
        return "no such bot yet"
    missing = [bot for bot in target.bot.split(", ") if bot not in report["bots"]]
    if missing:
        return "play " + " ".join(f"--bot {bot}" for bot in missing)
    if target.measure in ("policy_share", "butterfly") and not report["butterfly"]:
        return "play with --butterfly"
    return "no figure: too few games or deaths there"


def judged(target: Target, report: dict[str, Any]) -> dict[str, Any]:
    """One target against the report."""
    row: dict[str, Any] = {"target": target.text, "bot": target.bot, "unit": target.unit, "on": target.on}
    found = MEASURES[target.measure](report, target.bot) if target.bot else None
    if found is None:
        return {
            **row,
            "value": None,
            "interval": None,
            "met": None,
            "sure": None,
            "missing": unmeasured(target, report),
        }
    value, span = found
    if target.test == "rising":
        met = all(a < b for a, b in zip(value, value[1:]))
        return {**row, "value": value, "interval": None, "met": met, "sure": None}
    judged_value = span[1] if target.on == "high" and span else value
    met = meets(target, judged_value)
    sure = None if span is None or target.on == "high" else all(meets(target, end) == met for end in span)
    return {**row, "value": value, "interval": span, "met": met, "sure": sure}
