"""Sound through SDL: what reaches the device, a whole game with the speaker on, and
silence (quick and quiet) where there is no device.

What the device gets is recorded with SDL's ``disk`` driver in a process of its own
(``tests/sound_recorder.py``), into files in a temporary folder; the game played with
sound uses the ``dummy`` driver the test process runs SDL's audio on (``conftest.py``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
import tcod.console

from roguelike import settings, sound
from roguelike.content import formulas
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.snapshot import encoded_state
from roguelike.frontend import speaker as speakers
from roguelike.replay.fileformat import checksum_in, read_replay
from roguelike.screens.base import App
from roguelike.screens.death import DyingScreen
from roguelike.screens.ingame import InGameScreen
from roguelike.sound.bank import EFFECTS, build
from roguelike.sound.drone import pitch
from roguelike.sound.synth import RATE
from sound_recorder import DRONE_MINDS, EVENTS

ROOT = Path(__file__).resolve().parent.parent
SILENCE = 1e-4
EVENT_SOUNDS = {
    "dose_small": "dose_small",
    "dose_huge": "dose_huge",
    **{name: name for name in EVENTS if name in EFFECTS},
}


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every scenario recorded through the disk driver."""
    folder = tmp_path_factory.mktemp("sound")
    env = {key: value for key, value in os.environ.items() if key != "SDL_AUDIO_DRIVER"}  # the recorder picks disk
    subprocess.run(
        [sys.executable, str(ROOT / "tests" / "sound_recorder.py"), str(folder)],
        env=env,
        check=True,
        capture_output=True,
        timeout=240,
    )
    return folder


def recorded(folder: Path, name: str) -> np.ndarray:
    """One scenario's sound as mono samples (the device's first channel)."""
    layout = json.loads((folder / "format.json").read_text())
    assert layout["format"] == "float32" and layout["rate"] == RATE
    return np.fromfile(folder / f"{name}.raw", np.float32).reshape(-1, layout["channels"])[:, 0]


def audible_span(samples: np.ndarray) -> np.ndarray:
    """From the first to the last sample that is not silence."""
    loud = np.flatnonzero(np.abs(samples) > SILENCE)
    return samples[loud[0] : loud[-1] + 1] if loud.size else samples[:0]


@pytest.mark.parametrize("scenario", sorted(EVENT_SOUNDS))
def test_each_event_plays_its_effect_at_its_length_and_loudness(recordings: Path, scenario: str) -> None:
    heard = audible_span(recorded(recordings, scenario))
    made = build()[EVENT_SOUNDS[scenario]]
    assert 0.1 <= heard.size / RATE <= 1.5
    assert abs(heard.size - made.size) <= 0.02 * RATE  # the whole effect, once
    assert abs(float(np.max(np.abs(heard))) - EFFECTS[EVENT_SOUNDS[scenario]].peak) < 0.03  # full volume: as made
    assert float(np.sqrt(np.mean(np.square(heard)))) > 0.03


def test_a_larger_dose_is_heard_longer_and_louder(recordings: Path) -> None:
    small, huge = (audible_span(recorded(recordings, name)) for name in ("dose_small", "dose_huge"))
    assert huge.size > 2 * small.size and np.max(np.abs(huge)) > np.max(np.abs(small))


def test_muted_settings_send_only_silence(recordings: Path) -> None:
    muted = recorded(recordings, "muted")
    assert muted.size > RATE and not muted.any()  # the device ran; the death and the drone were silent


def dominant_hz(samples: np.ndarray) -> float:
    """The strongest frequency of a stretch of sound."""
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(samples.size)))
    return float(np.argmax(spectrum) * RATE / samples.size)


def test_the_drones_pitch_rises_with_the_state_of_mind(recordings: Path) -> None:
    heard = {name: dominant_hz(audible_span(recorded(recordings, name))[-RATE:]) for name in DRONE_MINDS}
    expected = {name: pitch(mind.state_of_mind) for name, mind in DRONE_MINDS.items()}
    assert all(abs(heard[name] - expected[name]) < 3 for name in DRONE_MINDS), (heard, expected)
    assert list(heard.values()) == sorted(heard.values())
    quiet = max(float(np.max(np.abs(recorded(recordings, name)))) for name in DRONE_MINDS)
    assert 0.01 < quiet < 0.2  # a drone under the effects, never as loud as them


def test_with_no_audio_device_the_game_is_silent_at_once_and_says_nothing() -> None:
    script = (
        "import time; from roguelike.frontend.speaker import start_speaker; from roguelike.sound import Audio; "
        "audio = Audio(); start = time.perf_counter(); speaker = start_speaker(audio); "
        "print(speaker is None, audio.bank is None, round(time.perf_counter() - start, 3))"
    )
    env = {**os.environ, "SDL_AUDIO_DRIVER": "no-such-driver", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    silent, unbuilt, seconds = done.stdout.split()
    assert (silent, unbuilt) == ("True", "True") and done.stderr == ""
    # At once: a driver that is not there fails its open in milliseconds; the bound only has to tell that
    # apart from the seconds a hanging device probe waits, and must hold on a machine at load 10.
    assert float(seconds) < 3.0


def test_a_whole_game_plays_with_sound_on_and_keeps_its_checksums() -> None:
    replay = read_replay(ROOT / "replays" / "death-overdose.replay")
    game = Game.new(replay.header.seed, replay.header.name)
    screen = InGameScreen(Session(game))
    app, console, audio = (
        App(screen),
        tcod.console.Console(formulas.SCREEN_WIDTH, formulas.SCREEN_HEIGHT, order="C"),
        sound.Audio(),
    )
    sound.use(audio)
    with speakers.speaking(audio, settings.current()):
        opened = audio.playing
        assert opened  # the dummy driver is a device
        for step in replay.steps:
            app.apply(screen.play(step.command))
            app.draw(console, 0.0)
            assert checksum_in(replay.format, encoded_state(game)) == step.checksum  # sound never touches the game
        played = audio.mixer.mixed
        time.sleep(0.1)
        assert audio.mixer.mixed > played  # the speaker's thread keeps feeding while no key comes
    assert game.state.game_over and isinstance(app.stack[-1], DyingScreen)
    assert app.heard_mind() is None and audio.mixer.drone.mind is None  # the drone fades with the game
    assert not audio.playing and not any(thread.name == "hedonic-speaker" for thread in threading.enumerate())
