"""Headless play with the built-in bot, for `hedonic simulate`, screenshots and benches."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from components import Bestiary, Record
from roguelike.bots.names import DEFAULT_BOT
from roguelike.bots.registry import Player, make_bot
from roguelike.bots.watch import Watch
from roguelike.content.bestiary import HIT_EFFECTS, MONSTER_KINDS
from roguelike.content.climates import CLIMATES
from roguelike.content.doses import DOSE_KINDS
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import checksum

# A bot bumping into something that takes no time could loop; this bounds the actions.
ACTIONS_PER_TURN_LIMIT = 8

# Counts by monster kind or hit effect, in the bestiary table's order.
Tally = tuple[tuple[str, int], ...]
# (attribute, lowest, highest) of each attribute over a game.
Ranges = tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class Summary:
    """What a headless game ended with."""

    seed: int
    turns: int
    floor: int
    cause: str
    doses: int
    checksum: str
    score: int = 0
    attributes: Ranges = ()
    met: Tally = ()
    killed: Tally = ()
    effects: Tally = ()
    floor_kinds: Tally = ()
    dose_kinds: Tally = ()
    perfect_highs: int = 0

    def lines(self) -> list[str]:
        """The summary as ``key: value`` lines (the bestiary's last, after the checksum)."""
        return [
            f"seed: {self.seed}",
            f"turns: {self.turns}",
            f"floor: {self.floor}",
            f"cause: {self.cause}",
            f"doses: {self.doses}",
            f"score: {self.score}",
            f"checksum: {self.checksum}",
            f"met: {tally_text(self.met)}",
            f"killed: {tally_text(self.killed)}",
            f"effects: {tally_text(self.effects)}",
            f"floor kinds: {tally_text(self.floor_kinds)}",
            f"dose kinds: {tally_text(self.dose_kinds)}",
            f"perfect highs: {self.perfect_highs}",
            f"attributes: {ranges_text(self.attributes)}",
        ]


def tally_text(tally: Tally) -> str:
    """``anxiety 2, hunger 3``, or ``none``."""
    return ", ".join(f"{key} {number}" for key, number in tally) or "none"


def ranges_text(ranges: Ranges) -> str:
    """``confidence 3-8, nerve 2-5``, or ``unknown`` when the game was not watched."""
    return ", ".join(f"{name} {low}-{high}" for name, low, high in ranges) or "unknown"


def ordered_tally(counts: dict[str, int], keys: Iterable[str]) -> Tally:
    """The non-zero counts in the order of ``keys`` (the bestiary table's order)."""
    return tuple((key, counts[key]) for key in keys if counts.get(key))


def play_bot(session: Session, turns: int, bot: Player | None = None, watch: Watch | None = None) -> None:
    """Let a bot (the default one unless given) play until the game ends or reaches ``turns``."""
    bot, game = bot or make_bot(DEFAULT_BOT), session.game
    budget = turns * ACTIONS_PER_TURN_LIMIT
    while not game.state.game_over and game.state.turn < turns and budget > 0:
        if watch is not None:
            watch.before(game)
        session.apply(bot.choose(game))
        if watch is not None:
            watch.after(game)
        budget -= 1


def summarise(game: Game, watch: Watch | None = None) -> Summary:
    """The summary of a game as it stands (with the attributes' ranges if it was watched)."""
    record = game.player_component(Record)
    # Read only: the bestiary appears on the player the first time there is something to record.
    bestiary = game.world.try_component(game.state.player, Bestiary) or Bestiary()
    return Summary(
        seed=game.state.seed,
        turns=game.state.turn,
        floor=game.state.depth,
        cause=game.state.cause_of_death or "alive",
        doses=record.doses_used,
        checksum=checksum(game),
        score=game.score().total,
        attributes=watch.ranges() if watch is not None else (),
        met=ordered_tally(bestiary.met, MONSTER_KINDS),
        killed=ordered_tally(bestiary.slain, MONSTER_KINDS),
        effects=ordered_tally(bestiary.suffered, HIT_EFFECTS),
        floor_kinds=ordered_tally(floors_by_kind(game), CLIMATES),
        dose_kinds=ordered_tally(record.dose_kinds, DOSE_KINDS),
        perfect_highs=record.perfect_highs,
    )


def floors_by_kind(game: Game) -> dict[str, int]:
    """How many of the floors visited were of each kind."""
    counts: dict[str, int] = {}
    for floor in game.state.floors.values():
        counts[floor.kind] = counts.get(floor.kind, 0) + 1
    return counts
