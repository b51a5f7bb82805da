"""The State of Mind you can hear: a quiet drone whose pitch and pulse follow the mind.

Its pitch rises a semitone every :data:`POINTS_PER_SEMITONE` points of State of Mind;
its band (the panel's word, or near overdose) sets the pulse and the timbre: thin and
slow in Withdrawal and Desperation, fuller when Sober, shimmering when High, a fast tight
pulse near overdose. Changes glide rather than jump, and the drone fades in and out
when a game starts or ends. Cosmetic only: it reads a :class:`Mind`, never the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from roguelike.assist.disturb import band
from roguelike.content import formulas
from roguelike.sound.synth import RATE, Samples

LOWEST_HZ = 55.0  # the drone at a State of Mind of 0 (A1)
POINTS_PER_SEMITONE = 4  # 100 points span a little over two octaves
GLIDE_SECONDS = 0.4  # how long a change of pitch or band takes to settle (to 1/e)
FADE_SECONDS = 0.6


@dataclass(frozen=True)
class Mind:
    """What the drone follows: the State of Mind and the Will that sets Desperation's line."""

    state_of_mind: int
    will: int

    @property
    def band(self) -> str:
        """The band the drone plays: the panel's word, or near overdose."""
        return band(self.state_of_mind, self.will)


@dataclass(frozen=True)
class Colour:
    """How a band sounds: the pulse's rate and depth, harmonics, level and beating."""

    pulse_hz: float
    pulse_depth: float  # 0: steady, 1: the level falls to silence each pulse
    richness: float  # 0: a bare sine, 1: with its fifth and octave
    level: float
    beat_hz: float  # a second voice this far off the first: a slow shimmer or a tense beat


BANDS: dict[str, Colour] = {
    "Desperate": Colour(pulse_hz=0.25, pulse_depth=0.7, richness=0.0, level=0.55, beat_hz=0.0),
    "Withdrawal": Colour(pulse_hz=0.4, pulse_depth=0.5, richness=0.1, level=0.7, beat_hz=0.0),
    "Sober": Colour(pulse_hz=0.5, pulse_depth=0.25, richness=0.4, level=0.8, beat_hz=0.3),
    "High": Colour(pulse_hz=1.5, pulse_depth=0.35, richness=0.7, level=0.9, beat_hz=1.2),
    "near overdose": Colour(pulse_hz=7.0, pulse_depth=0.85, richness=1.0, level=1.0, beat_hz=4.0),
}
FIELDS = ("pulse_hz", "pulse_depth", "richness", "level", "beat_hz")


def pitch(state_of_mind: int) -> float:
    """The drone's frequency in hertz for a State of Mind."""
    som = formulas.clamp(state_of_mind, 0, formulas.STATE_OF_MIND_MAX)
    return LOWEST_HZ * 2 ** ((som // POINTS_PER_SEMITONE) / 12)


class Drone:
    """The drone's running state: samples come out continuous from one call to the next."""

    def __init__(self) -> None:
        self.mind: Mind | None = None
        self.hz = pitch(formulas.STATE_OF_MIND_START)
        self.colour = [getattr(BANDS["Withdrawal"], name) for name in FIELDS]
        self.fade = 0.0
        self.phases = np.zeros(4)  # the root, its beat, the fifth, the octave
        self.pulse_phase = 0.0

    def follow(self, mind: Mind | None) -> None:
        """Play for this mind from now on (None: fade out)."""
        self.mind = mind

    @property
    def silent(self) -> bool:
        """Whether it has faded out and has nothing to play."""
        return self.mind is None and self.fade <= 0.0

    def render(self, samples: int) -> Samples:
        """The next ``samples`` of the drone, at full scale times its band's level.

        Pitch and colour glide towards the mind's exponentially, sample by sample, so the
        sound is the same however the samples are asked for (ten milliseconds or seconds).
        """
        if self.silent:
            return np.zeros(samples, dtype=np.float32)
        seconds = np.arange(1, samples + 1) / RATE
        keep = np.exp(-seconds / GLIDE_SECONDS)
        step = seconds / FADE_SECONDS
        fade = np.minimum(1.0, self.fade + step) if self.mind is not None else np.maximum(0.0, self.fade - step)
        self.fade = float(fade[-1])
        if self.mind is not None:
            target_hz, target = pitch(self.mind.state_of_mind), BANDS[self.mind.band]
            log_hz = math.log(target_hz) + (math.log(self.hz) - math.log(target_hz)) * keep
            hz = np.exp(log_hz)
            colour = {
                name: getattr(target, name) + (now - getattr(target, name)) * keep
                for name, now in zip(FIELDS, self.colour)
            }
            self.hz, self.colour = float(hz[-1]), [float(colour[name][-1]) for name in FIELDS]
        else:
            hz = np.full(samples, self.hz)
            colour = {name: np.full(samples, now) for name, now in zip(FIELDS, self.colour)}
        out: NDArray[np.float64] = self.voices(hz, colour) * self.pulse(colour) * colour["level"] * fade
        return out.astype(np.float32)

    def voices(self, hz: NDArray[np.float64], colour: dict[str, NDArray[np.float64]]) -> NDArray[np.float64]:
        """The root, a second root off by the beat, and the fifth and octave by richness."""
        rates = (hz, hz + colour["beat_hz"], hz * 1.5, hz * 2.0)
        weights = (1.0, 0.5, 0.45 * colour["richness"], 0.3 * colour["richness"])
        out = np.zeros(hz.size)
        for index, (rate, weight) in enumerate(zip(rates, weights)):
            cycles = self.phases[index] + np.cumsum(rate) / RATE
            out += weight * np.sin(2 * np.pi * cycles)
            self.phases[index] = cycles[-1] % 1.0
        return out / 2.25

    def pulse(self, colour: dict[str, NDArray[np.float64]]) -> NDArray[np.float64]:
        """The level's slow swell, or its quick throb near overdose."""
        cycles = self.pulse_phase + np.cumsum(colour["pulse_hz"]) / RATE
        self.pulse_phase = float(cycles[-1] % 1.0)
        swell = 0.5 + 0.5 * np.cos(2 * np.pi * cycles)
        return 1.0 - colour["pulse_depth"] * (1.0 - swell)
