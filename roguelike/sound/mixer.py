"""Mixing: the effects playing and the drone, at the levels the settings ask for.

The frontend's output thread calls :meth:`Mixer.mix` for the next samples while the
screens start effects and set levels from the main thread; one lock keeps them apart,
held only for a few numpy additions. Level changes glide over 10 ms, so turning the
volume never clicks.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from roguelike.sound.drone import Drone, Mind
from roguelike.sound.synth import Samples, count

MAX_PLAYING = 8  # the oldest effect stops when a ninth starts
RAMP_SAMPLES = 441  # a change of level glides over 10 ms: quick, without a click
DRONE_LEVEL = 0.12  # the drone under the effects: quiet, it plays all game long


@dataclass
class Playing:
    """An effect under way: its samples and how far it has played (negative: still waiting)."""

    samples: Samples
    at: int
    gain: float


@dataclass(frozen=True)
class Levels:
    """How loud things are: master volume (0..1) and whether effects and the drone play."""

    master: float = 0.0
    effects: bool = True
    drone: bool = True


def loudness(volume: int) -> float:
    """The gain for a volume setting in percent (squared, so the steps sound even)."""
    return (max(0, min(100, volume)) / 100) ** 2


class Mixer:
    """Effects and the drone, mixed into one mono stream."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.playing: list[Playing] = []
        self.drone = Drone()
        self.levels = Levels()
        self.gains = (0.0, 0.0)  # effects and drone, as last mixed: the start of the next ramp
        self.mixed = 0  # samples handed out so far

    def play(self, samples: Samples, delay: float = 0.0, gain: float = 1.0) -> None:
        """Start an effect after ``delay`` seconds."""
        with self.lock:
            self.playing.append(Playing(samples, -count(delay) if delay else 0, gain))
            del self.playing[:-MAX_PLAYING]

    def follow(self, mind: Mind | None) -> None:
        """The drone plays this mind (None: it fades out)."""
        with self.lock:
            self.drone.follow(mind)

    def set_levels(self, levels: Levels) -> None:
        """Use these levels from the next samples on (at once while nothing sounds: no click to soften)."""
        with self.lock:
            self.levels = levels
            if self.idle:
                self.gains = self.targets()

    @property
    def idle(self) -> bool:
        """Whether nothing would sound: no effect under way and the drone silent."""
        return not self.playing and self.drone.silent

    def mix(self, samples: int) -> Samples:
        """The next ``samples`` of sound, in -1..1."""
        with self.lock:
            effects_gain, drone_gain = self.targets()
            out = self.effects(samples) * ramp(self.gains[0], effects_gain, samples)
            if not self.drone.silent:
                out += self.drone.render(samples) * ramp(self.gains[1], drone_gain, samples)
            self.gains = (effects_gain, drone_gain)
            self.mixed += samples
        return np.clip(out, -1.0, 1.0, out=out)

    def targets(self) -> tuple[float, float]:
        """The effects' and the drone's gains the levels ask for."""
        return self.levels.master * self.levels.effects, self.levels.master * self.levels.drone * DRONE_LEVEL

    def effects(self, samples: int) -> Samples:
        """The effects under way summed over the next ``samples``; finished ones are dropped."""
        out = np.zeros(samples, dtype=np.float32)
        for voice in self.playing:
            start, voice.at = voice.at, voice.at + samples
            chunk = voice.samples[max(0, start) : max(0, voice.at)]
            offset = max(0, -start)
            out[offset : offset + chunk.size] += chunk * voice.gain
        self.playing = [voice for voice in self.playing if voice.at < voice.samples.size]
        return out


def ramp(start: float, end: float, samples: int) -> Samples:
    """Gains gliding from ``start`` to ``end`` over :data:`RAMP_SAMPLES`, then steady."""
    gains = np.full(samples, end, dtype=np.float32)
    if start != end:
        glide = min(samples, RAMP_SAMPLES)
        gains[:glide] = np.linspace(start, end, RAMP_SAMPLES, endpoint=False, dtype=np.float32)[:glide]
    return gains
