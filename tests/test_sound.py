"""Sound without a device: the effects built at start-up, what each event sounds like, the
drone, the mixer's levels, the bell, the settings and the rules' cues that drive it all."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest
import tcod.event
from tcod.event import KeySym

from bestiary_helpers import add_monster, arena, set_player
from components import Dose, StateOfMind
from helpers import drawn_game
from roguelike import settings, sound
from roguelike.cli.looks import overrides
from roguelike.cli.play import add_play_options
from roguelike.content import formulas
from roguelike.content.doses import NORMAL_DOSE
from roguelike.core import cues
from roguelike.core.commands import Move, Wait
from roguelike.core.cues import Cue
from roguelike.core.session import Session
from roguelike.frontend.terminal import BELL, TerminalLoop
from roguelike.screens.base import App
from roguelike.screens.ingame import InGameScreen
from roguelike.screens.settings import SettingsScreen
from roguelike.screens.soundpage import MUTED, SILENT, SoundScreen, status_line
from roguelike.settings.document import from_bytes, to_text
from roguelike.sound.bank import DOSE_SIZES, EFFECTS, build, dose_sound
from roguelike.sound.drone import BANDS, Drone, Mind, pitch
from roguelike.sound.hearing import STAGGER_SECONDS, sounds_for
from roguelike.sound.mixer import Levels, Mixer, loudness
from roguelike.sound.synth import RATE
from term_helpers import ScriptedTerminal, xterm_setup


def rms(samples: np.ndarray) -> float:
    """Root-mean-square loudness."""
    return float(np.sqrt(np.mean(np.square(samples, dtype=np.float64))))


def key(sym: KeySym) -> tcod.event.KeyDown:
    """A key press."""
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.A, sym=sym, mod=tcod.event.Modifier.NONE)


# --- the effects -------------------------------------------------------------------------


def test_the_effects_are_the_same_every_time_they_are_built() -> None:
    first, second = build(), build()
    assert set(first) == set(EFFECTS) and len(first) >= 10
    assert all(first[name].tobytes() == second[name].tobytes() for name in first)


def test_every_effect_is_short_audible_and_never_clips() -> None:
    for name, samples in build().items():
        assert samples.dtype == np.float32
        assert 0.1 <= samples.size / RATE <= 1.5, name
        assert 0.35 <= float(np.max(np.abs(samples))) <= 0.75, name
        assert rms(samples) > 0.05, name


def test_a_larger_dose_sounds_longer_and_fuller() -> None:
    effects = build()
    doses = [effects[name] for _, name in DOSE_SIZES]
    assert [d.size for d in doses] == sorted(d.size for d in doses) and len({d.size for d in doses}) == 4
    energy = [float(np.sum(np.square(d, dtype=np.float64))) for d in doses]
    assert energy == sorted(energy)
    assert [dose_sound(gain) for gain in (0, 29, 30, 49, 50, 69, 70, 96)] == [
        "dose_small",
        "dose_small",
        "dose_normal",
        "dose_normal",
        "dose_large",
        "dose_large",
        "dose_huge",
        "dose_huge",
    ]


# --- what an action sounds like -----------------------------------------------------------


def test_each_cue_of_the_rules_has_its_effect() -> None:
    heard = {
        kind: sounds_for([Cue(kind, ((1, 1),), key, amount)])
        for kind, key, amount in [
            (cues.DOSE, "normal_dose", 40),
            (cues.CLOSE_CALL, "", 0),
            (cues.SIGHTED, "hunger", 0),
            (cues.HIT, "drained", 0),
            (cues.SLAIN, "hunger", 0),
            (cues.BLAST, "cardinal_dose", 0),
            (cues.FLOOR, "", 2),
            (cues.DESPERATE, "", 0),
            (cues.PERFECT_HIGH, "", 0),
            (cues.DEATH, "overdose", 0),
        ]
    }
    assert {kind: names[0][0] for kind, names in heard.items()} == {
        cues.DOSE: "dose_normal",
        cues.CLOSE_CALL: "close_call",
        cues.SIGHTED: "sighted",
        cues.HIT: "hit",
        cues.SLAIN: "slain",
        cues.BLAST: "blast",
        cues.FLOOR: "floor",
        cues.DESPERATE: "desperate",
        cues.PERFECT_HIGH: "perfect_high",
        cues.DEATH: "death",
    }
    assert sounds_for([Cue(cues.FORCED, ((1, 1), (2, 1)))]) == []


def test_an_action_plays_each_effect_once_one_after_another_and_death_alone() -> None:
    blast = [
        Cue(cues.DOSE, ((3, 3),), "cardinal_dose", 35),
        Cue(cues.BLAST, ((3, 3),)),
        *[Cue(cues.HIT, ((x, 3),), cues.SLAIN) for x in range(4, 8)],
        *[Cue(cues.SLAIN, ((x, 3),), "hunger") for x in range(4, 8)],
    ]
    assert sounds_for(blast) == [("dose_normal", 0.0), ("blast", STAGGER_SECONDS), ("slain", 2 * STAGGER_SECONDS)]
    overdose = [Cue(cues.DOSE, ((3, 3),), "large_dose", 70), Cue(cues.DEATH, ((3, 3),), "overdose")]
    assert sounds_for(overdose) == [("death", 0.0)]


def test_the_rules_cue_doses_close_calls_sightings_floors_and_desperation() -> None:
    game = drawn_game(["#####", "#@i>#", "#####"], dose=Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    set_player(game, state_of_mind=30)
    game.apply(Move(1, 0))
    assert Cue(cues.DOSE, ((2, 1),), NORMAL_DOSE.key, 40) in game.action.cues
    assert not any(cue.kind == cues.CLOSE_CALL for cue in game.action.cues)
    game.apply(Move(1, 0))  # onto the dose's tile
    game.apply(Move(1, 0))  # down the stairs
    assert [cue for cue in game.action.cues if cue.kind == cues.FLOOR][0].amount == 2

    close = drawn_game(["####", "#@i#", "####"], dose=Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    set_player(close, state_of_mind=formulas.STATE_OF_MIND_MAX - formulas.CLOSE_CALL_MARGIN - 40)
    close.apply(Move(1, 0))
    assert [cue.kind for cue in close.action.cues if cue.kind in (cues.DOSE, cues.CLOSE_CALL)] == [
        cues.DOSE,
        cues.CLOSE_CALL,
    ]

    seen = arena()
    add_monster(seen, "hunger", 12, 4)
    seen.apply(Wait())
    assert [cue.key for cue in seen.action.cues if cue.kind == cues.SIGHTED] == ["hunger"]
    seen.apply(Wait())
    assert not any(cue.kind == cues.SIGHTED for cue in seen.action.cues)  # only the first time

    low = arena()
    set_player(low, state_of_mind=formulas.desperation_threshold(5) + formulas.STATE_OF_MIND_DECAY, will=5)
    low.apply(Wait())
    assert [cue.kind for cue in low.action.cues] == [cues.DESPERATE]


# --- the drone and the mixer ---------------------------------------------------------------


def test_the_drones_pitch_rises_with_the_state_of_mind() -> None:
    pitches = [pitch(som) for som in range(0, formulas.STATE_OF_MIND_MAX + 1)]
    assert pitches == sorted(pitches) and pitches[-1] > 4 * pitches[0]
    assert {Mind(som, 5).band for som in (10, 30, 55, 80, 97)} == set(BANDS)


def dominant_hz(samples: np.ndarray) -> float:
    """The strongest frequency of a stretch of sound."""
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(samples.size)))
    return float(np.argmax(spectrum) * RATE / samples.size)


def test_the_drone_glides_to_its_mind_and_fades_out_without_one() -> None:
    drone = Drone()
    drone.follow(Mind(80, 5))
    drone.render(RATE * 3)  # settled
    assert abs(dominant_hz(drone.render(RATE)) - pitch(80)) < 3
    drone.follow(None)
    drone.render(RATE)
    assert drone.silent and not drone.render(100).any()


def test_muted_levels_make_silence_and_each_part_can_be_turned_off() -> None:
    effects = build()

    def mixed(levels: Levels) -> np.ndarray:
        mixer = Mixer()
        mixer.set_levels(levels)
        mixer.follow(Mind(50, 5))
        mixer.play(effects["hit"])
        return np.concatenate([mixer.mix(1024) for _ in range(40)])

    assert not mixed(Levels(0.0, True, True)).any()
    assert not mixed(Levels(1.0, False, False)).any()
    everything, drone_only, effects_only = (
        mixed(Levels(1.0)),
        mixed(Levels(1.0, effects=False)),
        mixed(Levels(1.0, drone=False)),
    )
    assert not effects_only[RATE // 2 :].any()  # the hit is over, and there is no drone
    assert drone_only[RATE // 2 :].any() and np.max(np.abs(drone_only)) < 0.2
    assert np.max(np.abs(everything[:2048])) > np.max(np.abs(drone_only[:2048])) + 0.2
    assert loudness(0) == 0.0 and loudness(50) < loudness(60) < loudness(100) == 1.0


def test_an_effect_waits_for_its_delay_and_the_oldest_gives_way() -> None:
    mixer = Mixer()
    mixer.set_levels(Levels(1.0, drone=False))
    mixer.play(build()["hit"], delay=0.1)
    out = mixer.mix(RATE // 5)
    assert not out[: int(0.1 * RATE) - 1].any() and out[int(0.1 * RATE) :].any()
    for _ in range(12):
        mixer.play(build()["slain"])
    assert len(mixer.playing) == 8


# --- the sound of a run --------------------------------------------------------------------


def test_without_an_output_nothing_is_built_or_played() -> None:
    audio = sound.Audio()
    audio.hear([Cue(cues.DEATH, ((1, 1),), "overdose")], settings.current())
    audio.follow(Mind(50, 5), settings.current())
    assert not audio.playing and not audio.mixer.playing


def test_with_an_output_effects_play_unless_turned_off() -> None:
    audio = sound.Audio()
    audio.bank = build()
    audio.hear([Cue(cues.SLAIN, ((1, 1),), "hunger")], settings.current())
    assert len(audio.mixer.playing) == 1
    settings.preferences().change("sound_effects", False)
    audio.hear([Cue(cues.SLAIN, ((1, 1),), "hunger")], settings.current())
    assert len(audio.mixer.playing) == 1


def test_the_bell_rings_once_on_coming_near_overdose_only_if_asked() -> None:
    audio = sound.Audio()
    for som in (60, 96, 97):
        audio.follow(Mind(som, 5), settings.current())
    assert not audio.take_bell()  # off by default
    settings.preferences().change("bell", True)
    rung = []
    for som in (60, 96, 97, 80, 99):
        audio.follow(Mind(som, 5), settings.current())
        rung.append(audio.take_bell())
    assert rung == [False, True, False, False, True]
    settings.preferences().overrides["volume"] = 0  # --mute
    audio.follow(Mind(60, 5), settings.current())
    audio.follow(Mind(96, 5), settings.current())
    assert not audio.take_bell()


def test_the_output_opens_once_when_sound_is_first_wanted() -> None:
    audio, opened = sound.Audio(), []
    audio.open_output = lambda: opened.append(1)
    settings.preferences().overrides["volume"] = 0
    audio.follow(None, settings.current())
    assert opened == []
    settings.preferences().change("volume", 40)
    audio.follow(None, settings.current())
    audio.follow(None, settings.current())
    assert opened == [1]


# --- settings and the command line ---------------------------------------------------------


def test_the_sound_settings_are_written_and_read_back_naming_wrong_values() -> None:
    chosen = settings.Settings(volume=30, sound_effects=False, drone=True, bell=True)
    assert from_bytes(to_text(chosen).encode()).settings == chosen
    reading = from_bytes(json.dumps({"volume": 150, "drone": "yes", "bell": True}).encode())
    assert reading.settings.volume == 60 and reading.settings.drone and reading.settings.bell
    assert reading.problems == ("volume: 150 is not a volume from 0 to 100", 'drone: "yes" is not true or false')


def test_mute_silences_one_run_only() -> None:
    parser = argparse.ArgumentParser()
    add_play_options(parser)
    assert overrides(parser.parse_args(["--mute"])) == {"volume": 0}
    assert "volume" not in overrides(parser.parse_args([]))


def test_the_sound_page_changes_saves_and_says_why_nothing_is_heard(tmp_path: Path) -> None:
    settings.use(settings.Preferences.load(tmp_path))
    app = App(SettingsScreen())
    app.handle(key(KeySym.UP))  # from the first option round to Back,
    app.handle(key(KeySym.UP))  # then the Sound page
    app.handle(key(KeySym.RETURN))
    assert isinstance(app.stack[-1], SoundScreen)
    app.handle(key(KeySym.RIGHT))  # volume 60 -> 70
    app.handle(key(KeySym.DOWN))
    app.handle(key(KeySym.RETURN))  # effects off
    app.handle(key(KeySym.T))  # the terminal bell on
    document = json.loads((tmp_path / "settings.json").read_text())
    assert (document["volume"], document["sound_effects"], document["drone"], document["bell"]) == (
        70,
        False,
        True,
        True,
    )
    assert status_line() == SILENT  # no speaker in this run
    settings.preferences().overrides["volume"] = 0
    assert status_line() == MUTED


class BellCounter(ScriptedTerminal):
    """A scripted terminal that keeps every write."""

    def __init__(self, script: list[bytes]) -> None:
        super().__init__(script)
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        super().write(data)


@pytest.mark.parametrize("bell", [True, False])
def test_the_terminal_rings_its_bell_when_a_dose_brings_the_mind_near_overdose(bell: bool) -> None:
    settings.preferences().change("bell", bell)
    settings.preferences().change("confirm_lethal", False)  # no question before the dose: this is about the bell
    game = drawn_game(["#####", "#@i.#", "#####"], dose=Dose(NORMAL_DOSE.key, 40, 0, 0, 0))
    set_player(game, state_of_mind=formulas.STATE_OF_MIND_MAX - formulas.CLOSE_CALL_MARGIN - 40 + 1)
    terminal = BellCounter([b"", b"\x1b[C", b""])  # a frame, Right (the dose), a frame
    TerminalLoop(App(InGameScreen(Session(game))), terminal, xterm_setup()).run()
    rings = [index for index, data in enumerate(terminal.writes) if data == BELL]
    assert len(rings) == (1 if bell else 0)
    assert Mind(game.player_component(StateOfMind).value, 5).band == "near overdose"
