"""Every sound effect as a recipe of voices, built once when the game starts.

No asset files: each effect is a few :class:`~roguelike.sound.synth.Voice` rows, made
into samples by :func:`build` in a few milliseconds. A dose is heard by its size (the
State of Mind it gave): :data:`DOSE_SIZES` picks one of four doses, larger ones lower,
longer and louder.
"""

from __future__ import annotations

from dataclasses import dataclass

from roguelike.sound.synth import Samples, Voice, mix_voices


@dataclass(frozen=True)
class Effect:
    """One effect: its voices and how loud its loudest sample is (1.0 full scale)."""

    voices: tuple[Voice, ...]
    peak: float


EFFECTS: dict[str, Effect] = {
    "dose_small": Effect(
        (Voice("triangle", 220, 440, 0.18), Voice("square", 440, 660, 0.12, delay=0.05, gain=0.3, duty=0.25)), 0.40
    ),
    "dose_normal": Effect(
        (Voice("triangle", 196, 523, 0.30), Voice("square", 392, 784, 0.22, delay=0.08, gain=0.35, duty=0.25)), 0.50
    ),
    "dose_large": Effect(
        (Voice("saw", 147, 587, 0.45, gain=0.7), Voice("triangle", 294, 880, 0.35, delay=0.1, gain=0.6)), 0.60
    ),
    "dose_huge": Effect(
        (
            Voice("saw", 110, 880, 0.70, gain=0.8),
            Voice("triangle", 220, 1320, 0.55, delay=0.15),
            Voice("square", 55, 110, 0.70, gain=0.3),
        ),
        0.70,
    ),
    "close_call": Effect(
        (
            Voice("square", 988, 988, 0.50, gain=0.6, tremolo_hz=12, decay=0.5),
            Voice("square", 740, 740, 0.46, delay=0.04, gain=0.4, tremolo_hz=12, decay=0.5),
        ),
        0.55,
    ),
    "sighted": Effect(
        (
            Voice("saw", 330, 110, 0.35, gain=0.8, decay=2),
            Voice("noise", 1, 1, 0.08, gain=0.4),
            Voice("square", 660, 220, 0.20, delay=0.02, gain=0.3, duty=0.125),
        ),
        0.50,
    ),
    "hit": Effect((Voice("noise", 1, 1, 0.14, decay=3), Voice("square", 130, 55, 0.16, gain=0.7, decay=2)), 0.60),
    "slain": Effect(
        (
            Voice("square", 660, 165, 0.22, gain=0.7, decay=1.5, duty=0.25),
            Voice("noise", 1, 1, 0.10, gain=0.4, decay=3),
        ),
        0.50,
    ),
    "floor": Effect(
        (Voice("triangle", 523, 131, 0.60, gain=0.8), Voice("triangle", 392, 98, 0.60, delay=0.08, gain=0.5)), 0.50
    ),
    "desperate": Effect(
        (
            Voice("saw", 65, 82, 0.80, gain=0.8, tremolo_hz=6, decay=0.7),
            Voice("square", 98, 92, 0.80, gain=0.3, duty=0.3),
        ),
        0.55,
    ),
    "perfect_high": Effect(
        (
            Voice("triangle", 523, 523, 0.25),
            Voice("triangle", 659, 659, 0.25, delay=0.10),
            Voice("triangle", 784, 784, 0.25, delay=0.20),
            Voice("triangle", 1046, 1046, 0.50, delay=0.30),
            Voice("sine", 2093, 2093, 0.50, delay=0.30, gain=0.2),
        ),
        0.60,
    ),
    "death": Effect(
        (
            Voice("saw", 330, 41, 1.40, gain=0.8, decay=0.8),
            Voice("noise", 1, 1, 1.00, delay=0.1, gain=0.25, decay=2),
            Voice("square", 165, 20, 1.20, gain=0.3),
        ),
        0.70,
    ),
    "blast": Effect((Voice("noise", 1, 1, 0.50, decay=2.5), Voice("sine", 80, 30, 0.50, gain=0.9, decay=1.5)), 0.70),
}

# The dose heard for the State of Mind a dose gave: the largest size whose threshold it reaches.
DOSE_SIZES: tuple[tuple[int, str], ...] = (
    (0, "dose_small"),
    (30, "dose_normal"),
    (50, "dose_large"),
    (70, "dose_huge"),
)

Bank = dict[str, Samples]


def build() -> Bank:
    """Every effect's samples (the same on every run: noise is seeded by the effect's place)."""
    return {name: mix_voices(effect.voices, effect.peak, seed) for seed, (name, effect) in enumerate(EFFECTS.items())}


def dose_sound(gain: int) -> str:
    """The effect of a dose that gave ``gain`` State of Mind."""
    return max((threshold, name) for threshold, name in DOSE_SIZES if gain >= threshold)[1]
