"""``report.md``'s skill sections (issue 41): the targets met or not, the variance of
log(turns) split by policy, seed and chaos, and each bot's medians against careful's."""

from __future__ import annotations

from typing import Any

from roguelike.bots.markdown import table

PART_NAMES = {"policy": "policy", "seed": "seed", "seed_x_policy": "seed x policy", "chaos": "chaos (twins)"}


def with_interval(value: Any, span: list[float] | None, unit: str = "") -> str:
    """``12.5% (6.5-22.8%)``, ``1.31x (1.05-1.55x)`` or ``0.82``."""
    if isinstance(value, list):
        return " < ".join(f"{v:g}" for v in value)
    text = f"{value:,g}{unit}"
    return text + (f" ({span[0]:,g}-{span[1]:,g}{unit})" if span else "")


def verdict(row: dict[str, Any]) -> str:
    """``met``, ``not met``, with a word when the interval crosses the line; or why it was not measured."""
    if row["met"] is None:
        return f"not measured: {row.get('missing', 'no figure')}"
    word = "**met**" if row["met"] else "not met"
    return word + (" (the interval crosses the line)" if row["sure"] is False else "")


def targets_section(targets: list[dict[str, Any]]) -> list[str]:
    """Issue 41's skill targets: the measured value with its 95% interval, met or not."""
    if not targets:
        return []
    rows = [
        [
            row["target"],
            "-" if row["value"] is None else with_interval(row["value"], row["interval"], row["unit"]),
            verdict(row),
        ]
        for row in targets
    ]
    return ["## Skill targets (issue 41; 95% intervals)", ""] + table(
        ["target", "measured (95% interval)", "met?"], rows
    )


def skill_sections(skill: dict[str, Any]) -> list[str]:
    """The variance split and the medians against careful's (nothing when neither was measured)."""
    return variance_section(skill.get("variance", [])) + versus_section(skill.get("versus_careful", {}))


def variance_section(splits: list[dict[str, Any]]) -> list[str]:
    """Shares of the variance of log(turns), twins as chaos, with their bootstrap intervals."""
    if not splits:
        return []
    rows = [
        [
            ", ".join(split["bots"]),
            split["seeds"],
            *(with_interval(s["share"], s["interval"], "%") for s in split["shares"].values()),
        ]
        for split in splits
    ]
    header = ["bots", "seeds", *(PART_NAMES[part] for part in splits[0]["shares"])]
    title = "## Variance of log(turns survived): policy, seed, their interaction, chaos (95% interval)"
    return [title, ""] + table(header, rows)


def versus_section(versus: dict[str, Any]) -> list[str]:
    """Each bot's median score and turns as multiples of careful's, paired by seed."""
    if not versus:
        return []
    rows = [[bot, f["seeds"], ratio_cell(f["score"]), ratio_cell(f["turns"])] for bot, f in versus.items()]
    header = ["bot", "seeds", "median score / careful's (95% interval)", "median turns / careful's (95% interval)"]
    return ["## Against careful, seed by seed", ""] + table(header, rows)


def ratio_cell(entry: dict[str, Any]) -> str:
    """``2.31x (1.8-2.9x)``, or a dash where careful's median is 0."""
    return "-" if entry["ratio"] is None else with_interval(entry["ratio"], entry["interval"], "x")
