"""``report.md``: the balance report's figures as tables a person reads, with the charts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from roguelike.bots.markdown import table
from roguelike.bots.report_skill_md import skill_sections, targets_section
from roguelike.bots.trials import describe
from roguelike.bots.watch import SAVED_AT, SAVED_FOR

TRIED_WARNING = (
    "**Formulas tried** (`--try`): these games were played with the formulas above changed, not by the"
    " game's own rules. Figures from a trial are for tuning only, never for `docs/balance.md`'s measures."
)
CHARTS_HINT = (
    "Charts need matplotlib: `pip install '.[balance]'` (or `pip install matplotlib`), "
    "then run `hedonic balance` again."
)


def spread_rows(bots: dict[str, Any], key: str) -> list[list[Any]]:
    """One row per bot of a spread (min, p10, median, p90, max, mean)."""
    return [
        [bot, *(figures[key][name] for name in ("min", "p10", "median", "p90", "max", "mean"))]
        for bot, figures in bots.items()
    ]


SPREAD_HEADER = ["bot", "min", "p10", "median", "p90", "max", "mean"]


def render(report: dict[str, Any], charts: list[Path]) -> str:
    """The report as Markdown; ``charts`` are image files beside it (none: say how to get them)."""
    bots: dict[str, Any] = report["bots"]
    lines = [f"# Balance report: seeds {report['seeds']}, bots {', '.join(bots)}", ""]
    lines += [
        f"Made by `hedonic balance --seeds {report['seeds']} "
        + " ".join(f"--bot {bot}" for bot in bots)
        + f" --turns {report['turn_limit']}"
        + (" --butterfly" if report.get("butterfly") else "")
        + "".join(f" {option}" for option in describe(tuple(report.get("tried", {}).items())))
        + "`.",
        "",
    ]
    if report.get("tried"):
        lines += [TRIED_WARNING, ""]
    lines += targets_section(report.get("targets", []))
    lines += ["## Charts", ""]
    lines += [f"![{chart.stem}]({chart.name})" for chart in charts] or [CHARTS_HINT]
    lines += [""]
    for title, key in (
        ("Turns survived", "turns"),
        ("Deepest floor", "deepest_floor"),
        ("Score", "score"),
        ("Doses taken", "doses"),
        ("Close calls", "close_calls"),
        ("Monsters slain", "kills"),
        ("Longest High streak (turns)", "best_streak"),
        ("Points from High streaks", "streak_points"),
        ("Finds taken", "finds"),
    ):
        lines += [f"## {title}", ""] + table(SPREAD_HEADER, spread_rows(bots, key))
    lines += ["## Floors", ""] + table(
        ["bot", "games ending on floor 1", "still alive at the turn limit", "games by deepest floor"],
        [
            [
                bot,
                f"{f['ended_on_floor_1']}%",
                f["alive_at_limit"],
                ", ".join(f"{floor}: {n}" for floor, n in f["floors"].items()),
            ]
            for bot, f in bots.items()
        ],
    )
    lines += causes_section(bots) + intervals_section(bots) + bands_section(bots)
    lines += butterfly_section(report.get("butterfly", {})) + attributes_section(bots) + takeovers_section(bots)
    lines += carried_section(bots) + skill_sections(report.get("skill", {}))
    return "\n".join(lines)


def carried_section(bots: dict[str, Any]) -> list[str]:
    """Carried doses: how often taken, and the games one saved."""
    rows = [
        [
            bot,
            f"{c['games_taking']}%",
            c["taken_per_game"],
            c["taken_low"],
            f"{c['saved_games']} ({c['saved_share']}%, {c['saved_interval'][0]}-{c['saved_interval'][1]}%)",
        ]
        for bot, c in ((bot, f["carried"]) for bot, f in bots.items())
    ]
    header = [
        "bot",
        "games taking a carried dose",
        "carried doses taken a game",
        f"taken at State of Mind <= {SAVED_AT}",
        f"games saved (lived {SAVED_FOR}+ turns after; 95% interval)",
    ]
    return ["## Carried doses", ""] + table(header, rows)


def intervals_section(bots: dict[str, Any]) -> list[str]:
    """The medians and the floor-1 share with their 95% intervals, and how far score follows turns."""

    def span(pair: list[float], unit: str = "") -> str:
        return f"{pair[0]:g}{unit}-{pair[1]:g}{unit}"

    rows = [
        [
            bot,
            f"{f['turns']['median']:g} ({span(f['intervals']['turns_median'])})",
            f"{f['score']['median']:g} ({span(f['intervals']['score_median'])})",
            f"{f['ended_on_floor_1']}% ({span(f['intervals']['ended_on_floor_1'], '%')})",
            f"{f['turns']['p90']:g} ({span(f['intervals']['turns_p90'])})" if "turns_p90" in f["intervals"] else "",
            f"{f['spearman_score_turns']}"
            + (
                f" ({span(f['intervals']['spearman_score_turns'])})"
                if f["intervals"].get("spearman_score_turns")
                else ""
            ),
        ]
        for bot, f in bots.items()
    ]
    header = [
        "bot",
        "median turns (95% interval)",
        "median score (95% interval)",
        "ended on floor 1 (95% interval)",
        "p90 turns (95% interval)",
        "Spearman of score with turns (95% interval)",
    ]
    return ["## Medians and shares with their 95% intervals", ""] + table(header, rows)


def bands_section(bots: dict[str, Any]) -> list[str]:
    """Deaths per 1,000 turns spent in each band of depths."""
    bands = list(next(iter(bots.values()))["depth_bands"])
    rows = [[bot, *(band_cell(f["depth_bands"][b]) for b in bands), deepest_cell(f)] for bot, f in bots.items()]
    names = [f"floor {b}" if b.isdigit() else f"floors {b}" for b in bands]
    title = "## Deaths per 1,000 turns, by floor depth (95% interval; deaths in turns spent there)"
    return [title, ""] + table(["bot", *names, "21+ as a multiple of 16-20"], rows)


def band_cell(band: dict[str, Any]) -> str:
    """``1.2 (0.8-1.7; 14 in 11,500 turns)``."""
    span = band.get("interval")
    inside = f"{span[0]}-{span[1]}; " if span else ""
    return f"{band['per_1000_turns']} ({inside}{band['deaths']} in {band['turns']:,} turns)"


def deepest_cell(figures: dict[str, Any]) -> str:
    """``3.8x (2.1-6.0)``, or a dash where floors 16-20 saw no death."""
    deepest = figures.get("deaths_21_vs_16_20")
    if not deepest or deepest["ratio"] is None:
        return "-"
    span = deepest["interval"]
    return f"{deepest['ratio']}x" + (f" ({span[0]}-{span[1]})" if span else "")


def butterfly_section(butterfly: dict[str, Any]) -> list[str]:
    """The share of games that one extra wait before the first move changes more than twofold."""
    if not butterfly:
        return []
    rows = [
        [bot, f["pairs"], f["changed"], f"{f['share']}% ({f['interval'][0]}%-{f['interval'][1]}%)"]
        for bot, f in butterfly.items()
    ]
    header = ["bot", "seeds", "turns survived changed more than 2x", "share (95% interval)"]
    return ["## Butterfly: one extra wait before the first move", ""] + table(header, rows)


def causes_section(bots: dict[str, Any]) -> list[str]:
    """Causes of death by bot, as games and shares of deaths."""
    causes = sorted({cause for f in bots.values() for cause in f["causes"]})
    rows = [[bot, *(cell(f["causes"].get(cause)) for cause in causes)] for bot, f in bots.items()]
    return ["## Causes of death (share of deaths, 95% interval)", ""] + table(["bot", *causes], rows)


def cell(entry: dict[str, Any] | None) -> str:
    """``12 (8.0%)`` or ``0``."""
    if not entry:
        return "0"
    low, high = entry.get("interval", [entry["share"], entry["share"]])
    return f"{entry['games']} ({entry['share']}%, {low}-{high}%)"


def attributes_section(bots: dict[str, Any]) -> list[str]:
    """How often each attribute rose and fell (share of games)."""
    names = ("confidence", "nerve", "will", "tolerance")
    rows = []
    for bot, f in bots.items():
        a = f["attributes"]
        rows.append(
            [
                bot,
                *(f"{a[n]['rose']}% / {a[n]['fell']}% / {a[n]['both']}%" for n in names),
                f"{a['will_reached_max']}%",
                f"{a['nerve_at_panic']}%",
            ]
        )
    header = ["bot", *(f"{n} rose / fell / both" for n in names), "Will reached 10", "Nerve at panic level"]
    return ["## Attributes (share of games)", ""] + table(header, rows)


def takeovers_section(bots: dict[str, Any]) -> list[str]:
    """How often each control takeover happened."""
    keys = list(next(iter(bots.values()))["takeovers"])
    rows = [
        [bot, *(f"{f['takeovers'][k]['games']}% ({f['takeovers'][k]['actions_per_game']})" for k in keys)]
        for bot, f in bots.items()
    ]
    return ["## Control taken over (share of games, and actions per game)", ""] + table(["bot", *keys], rows)
