"""A review's chart, drawn with matplotlib when it is installed (the ``balance`` extra).

The share of the planner's runs alive at the horizon and their mean score gained, from
each point of the game, with the turn named marked. Without matplotlib the review is text
only (:func:`available` says so). The image carries no timestamp.
"""

from __future__ import annotations

from pathlib import Path

from roguelike.coach.review import Review


def available() -> bool:
    """Whether matplotlib can be imported."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def draw(review: Review, path: Path) -> Path:
    """Draw the review's chart as a PNG at ``path`` (matplotlib must be available)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    turns = [outlook.point.turn for outlook in review.outlooks]
    fig, alive = plt.subplots(figsize=(9, 4.5))
    alive.plot(
        turns,
        [100 * o.share for o in review.outlooks],
        marker=".",
        color="tab:blue",
        label=f"runs alive after {review.horizon} turns (%)",
    )
    alive.set(
        xlabel="turn",
        ylabel="runs alive (%)",
        ylim=(-5, 105),
        title=f"{review.name}'s game (seed {review.seed}): the {review.runs} planner runs from each point",
    )
    score = alive.twinx()
    score.plot(turns, [o.mean_score for o in review.outlooks], color="tab:orange", alpha=0.8, label="mean score gained")
    score.set(ylabel="mean score gained")
    named = review.named
    if named is not None:
        alive.axvline(named.turn, color="tab:red", linestyle="--")
        alive.annotate(
            f"turn {named.turn}", (named.turn, 100), textcoords="offset points", xytext=(4, -12), color="tab:red"
        )
    handles = alive.get_legend_handles_labels()[0] + score.get_legend_handles_labels()[0]
    alive.legend(handles=handles, loc="lower left")
    alive.grid(alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)
    return path
