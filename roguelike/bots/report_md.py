"""``report.md``: the balance report's figures as tables a person reads, with the charts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

CHARTS_HINT = (
    "Charts need matplotlib: `pip install '.[balance]'` (or `pip install matplotlib`), "
    "then run `hedonic balance` again."
)


def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def spread_rows(bots: dict[str, Any], key: str) -> list[list[Any]]:
    """One row per bot of a spread (min, p10, median, p90, max, mean)."""
    return [[bot, *(figures[key][name] for name in ("min", "p10", "median", "p90", "max", "mean"))]
            for bot, figures in bots.items()]


SPREAD_HEADER = ["bot", "min", "p10", "median", "p90", "max", "mean"]


def render(report: dict[str, Any], charts: list[Path]) -> str:
    """The report as Markdown; ``charts`` are image files beside it (none: say how to get them)."""
    bots: dict[str, Any] = report["bots"]
    lines = [f"# Balance report: seeds {report['seeds']}, bots {', '.join(bots)}", ""]
    lines += [f"Made by `hedonic balance --seeds {report['seeds']} "
              + " ".join(f"--bot {bot}" for bot in bots) + f" --turns {report['turn_limit']}`.", ""]
    lines += ["## Charts", ""]
    lines += [f"![{chart.stem}]({chart.name})" for chart in charts] or [CHARTS_HINT]
    lines += [""]
    for title, key in (("Turns survived", "turns"), ("Deepest floor", "deepest_floor"), ("Score", "score"),
                       ("Doses taken", "doses"), ("Close calls", "close_calls"), ("Monsters slain", "kills")):
        lines += [f"## {title}", ""] + table(SPREAD_HEADER, spread_rows(bots, key))
    lines += ["## Floors", ""] + table(
        ["bot", "games ending on floor 1", "still alive at the turn limit", "games by deepest floor"],
        [[bot, f"{f['ended_on_floor_1']}%", f["alive_at_limit"],
          ", ".join(f"{floor}: {n}" for floor, n in f["floors"].items())] for bot, f in bots.items()],
    )
    lines += causes_section(bots) + attributes_section(bots) + takeovers_section(bots)
    return "\n".join(lines)


def causes_section(bots: dict[str, Any]) -> list[str]:
    """Causes of death by bot, as games and shares of deaths."""
    causes = sorted({cause for f in bots.values() for cause in f["causes"]})
    rows = [[bot, *(cell(f["causes"].get(cause)) for cause in causes)] for bot, f in bots.items()]
    return ["## Causes of death (share of deaths)", ""] + table(["bot", *causes], rows)


def cell(entry: dict[str, Any] | None) -> str:
    """``12 (8.0%)`` or ``0``."""
    return f"{entry['games']} ({entry['share']}%)" if entry else "0"


def attributes_section(bots: dict[str, Any]) -> list[str]:
    """How often each attribute rose and fell (share of games)."""
    names = ("confidence", "nerve", "will", "tolerance")
    rows = []
    for bot, f in bots.items():
        a = f["attributes"]
        rows.append([bot, *(f"{a[n]['rose']}% / {a[n]['fell']}% / {a[n]['both']}%" for n in names),
                     f"{a['will_reached_max']}%", f"{a['nerve_at_panic']}%"])
    header = ["bot", *(f"{n} rose / fell / both" for n in names), "Will reached 10", "Nerve at panic level"]
    return ["## Attributes (share of games)", ""] + table(header, rows)


def takeovers_section(bots: dict[str, Any]) -> list[str]:
    """How often each control takeover happened."""
    keys = list(next(iter(bots.values()))["takeovers"])
    rows = [[bot, *(f"{f['takeovers'][k]['games']}% ({f['takeovers'][k]['actions_per_game']})" for k in keys)]
            for bot, f in bots.items()]
    return ["## Control taken over (share of games, and actions per game)", ""] + table(["bot", *keys], rows)
