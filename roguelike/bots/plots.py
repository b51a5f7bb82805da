"""The balance report's charts, drawn with matplotlib when it is installed (the ``balance`` extra).

Survival by turn, causes of death and floor reached, one line or bar group per bot. The
images carry no timestamp, so the same report draws the same files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def draw_all(report: dict[str, Any], out: Path) -> list[Path]:
    """Draw every chart into ``out``; the files written (none without matplotlib)."""
    if not available():
        return []
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "hedonic"
    bots: dict[str, Any] = report["bots"]
    return [survival(bots, out / "survival.png"), causes(bots, out / "causes.png"), floors(bots, out / "floors.png")]


def survival(bots: dict[str, Any], path: Path) -> Path:
    """The share of games still alive by turn, a line per bot."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    for bot, figures in bots.items():
        turns, alive = zip(*figures["survival"])
        ax.plot(turns, alive, label=bot)
    ax.set(xlabel="turn", ylabel="games still alive (%)", title="Survival by turn", ylim=(0, 100))
    ax.grid(alpha=0.3)
    ax.legend()
    return save(fig, path)


def causes(bots: dict[str, Any], path: Path) -> Path:
    """Causes of death by bot, as stacked shares of deaths."""
    import matplotlib.pyplot as plt

    names = sorted({cause for f in bots.values() for cause in f["causes"]})
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bottoms = [0.0] * len(bots)
    for cause in names:
        shares = [f["causes"].get(cause, {}).get("share", 0.0) for f in bots.values()]
        ax.bar(list(bots), shares, bottom=bottoms, label=cause)
        bottoms = [b + s for b, s in zip(bottoms, shares)]
    ax.set(ylabel="share of deaths (%)", title="Causes of death", ylim=(0, 100))
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    return save(fig, path)


def floors(bots: dict[str, Any], path: Path) -> Path:
    """How many games reached each deepest floor, a bar group per floor."""
    import matplotlib.pyplot as plt

    deepest = max(int(floor) for f in bots.values() for floor in f["floors"])
    width = 0.8 / len(bots)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for index, (bot, figures) in enumerate(bots.items()):
        counts = [
            100 * figures["floors"].get(floor, figures["floors"].get(str(floor), 0)) / figures["games"]
            for floor in range(1, deepest + 1)
        ]
        ax.bar([floor + index * width - 0.4 + width / 2 for floor in range(1, deepest + 1)], counts, width, label=bot)
    ax.set(xlabel="deepest floor reached", ylabel="games (%)", title="Floor reached")
    ax.legend()
    return save(fig, path)


def save(fig: Any, path: Path) -> Path:
    """Write a figure as PNG without metadata that changes between runs, and close it."""
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path
