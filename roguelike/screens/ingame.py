"""The in-game screen: keys become commands; the game is drawn with the panel."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event

from components import Attributes, Bestiary, Position, Record, StateOfMind
from roguelike import sound
from roguelike.assist import readout
from roguelike.content import formulas
from roguelike.core.commands import Command, Move, Wait
from roguelike.core.floor import Tile
from roguelike.core.game import Game
from roguelike.core.session import Session
from roguelike.core.state import Message
from roguelike.records.ending import end_game
from roguelike.render.draw import draw_game
from roguelike.render.effects import Effects
from roguelike.screens import ambient, bindings, carrykeys
from roguelike.screens.askfirst import LEFT_ALONE, purer_risk, risky_step
from roguelike.screens.base import Push, Replace, Room, Screen, Transition
from roguelike.screens.death import DyingScreen
from roguelike.screens.help import HelpScreen, known_in
from roguelike.screens.hover import point_in_game
from roguelike.screens.look import LookScreen
from roguelike.screens.messages import MessageLogScreen
from roguelike.screens.mouse import MOUSE_EVENTS
from roguelike.screens.noticebar import draw_notices
from roguelike.screens.pause import PauseScreen
from roguelike.screens.pilot import Pilot, draw_pilot_line
from roguelike.screens.restuntil import RestUntilScreen
from roguelike.screens.sidebar import in_view_words
from roguelike.screens.speech import GameVoice
from roguelike.screens.wizard import WizardScreen


class InGameScreen(Screen):
    """Playing: every command key advances the game."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.game: Game = session.game
        self.effects = Effects(ambient.motion)
        self.asking: Command | None = None  # a risky step waiting for the player's y
        self.carry_question: str | None = None  # a carry key waiting for a direction or a number
        self.pilot = Pilot(self.game)
        self.voice = GameVoice(self.game, self.pilot)

    @property
    def animated(self) -> bool:
        """The world swirls while the player is High (unless the motion setting is none), and
        animations play out."""
        return (self.game.palette().psychedelic and ambient.chosen().motion.moves) or self.effects.active

    @property
    def busy(self) -> bool:
        """Auto-explore, travel or rest is under way: the frontends tick the screen."""
        return self.pilot.active

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        """Move, wait or open the menu; while the game steers, any key advances a turn."""
        if isinstance(event, MOUSE_EVENTS):
            point_in_game(self.pilot, event)
            return None
        if self.game.state.origin == "wizard" and is_wizard_key(event):
            return Push(WizardScreen(self.session)) if isinstance(event, tcod.event.TextInput) else None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if self.asking is not None:
            return self.answer(event)
        if self.carry_question is not None:
            return self.answer_carry(event)
        if self.pilot.offered is not None and not is_modifier(event) and self.pilot.answer_offer(event):
            return None
        action = ambient.keys().action_for(event)
        if self.pilot.on_key(event, action):
            return None
        if action in SCREEN_ACTIONS:
            return Push(SCREEN_ACTIONS[action](self))
        if action in READOUT_ACTIONS:
            self.pilot.show(READOUT_ACTIONS[action](self.game))
            return None
        if action in carrykeys.CHOICES and self.game.control_reason() is None:
            return self.carry(carrykeys.CHOICES[action](self.game))
        command = self.command_for(event, action)
        if command is None:
            return None
        return self.ask_or_play(command)

    def carry(self, choice: carrykeys.Choice) -> Transition | None:
        """A carry key: play its command, or show its words (and wait for the answer they ask for)."""
        self.carry_question = choice.awaits
        if choice.words is not None:
            self.pilot.show(choice.words)
        if choice.awaits is not None:
            self.pilot.disturbed = True  # keys typed ahead must not answer it
        return self.ask_or_play(choice.command) if choice.command is not None else None

    def answer_carry(self, event: tcod.event.KeyDown) -> Transition | None:
        """The direction or number a carry question asked for; any other key asks nothing more."""
        if is_modifier(event):
            return None
        awaits, self.carry_question = self.carry_question, None
        command = carrykeys.answer(self.game, awaits or "", event)
        self.pilot.show(None)
        return self.ask_or_play(command) if command is not None else None

    def ask_or_play(self, command: Command) -> Transition | None:
        """Play a command, unless it would take a dose that could overdose: then ask first."""
        asked = risky_step(self.game, command)
        if asked is None:
            told = purer_risk(self.game, command)
            if told is not None:
                self.pilot.show(told)  # said, not asked
            return self.play(command)
        self.asking = command
        self.pilot.show(asked)
        self.pilot.disturbed = True  # keys typed ahead of the question must not answer it
        return None

    def answer(self, event: tcod.event.KeyDown) -> Transition | None:
        """The answer to a risky step: y (pressed afresh) takes the dose, any other key leaves it."""
        if is_modifier(event) or event.repeat:
            return None
        command, self.asking = self.asking, None
        if event.sym == tcod.event.KeySym.Y and command is not None:
            self.pilot.show(None)
            return self.play(command)
        self.pilot.show(LEFT_ALONE)
        return None

    def travel_to(self, x: int, y: int) -> None:
        """Travel to a known cell (the look cursor's Enter), a step per tick."""
        self.pilot.begin(lambda autopilot: autopilot.travel_to(x, y))

    def rest_until(self, state_of_mind: int) -> None:
        """Rest until the State of Mind is down to a number (the R prompt's Enter)."""
        self.pilot.begin(lambda autopilot: autopilot.rest(until_som=state_of_mind))

    def on_tick(self) -> Transition | None:
        """One step of the automation under way, as the command it becomes (the last step of going
        to a dose takes it, asking first like the player's own step)."""
        command = self.pilot.next_command()
        return None if command is None else self.ask_or_play(command)

    def play(self, command: Command) -> Transition | None:
        """Apply a command (a step finishes the previous turn's save first); the death screen if it killed."""
        self.pilot.before_command()
        close_calls = self.game.player_component(Record).close_calls
        self.session.apply(command)
        self.effects.feed(self.game.action.cues)
        ambient.audio().hear(self.game.action.cues, ambient.chosen())
        self.pilot.after_command()
        if self.game.player_component(Record).close_calls > close_calls and not self.game.state.game_over:
            self.pilot.show(close_call_words(self.game.player_component(StateOfMind).value))
        if isinstance(command, Move) and not self.game.action.acted:
            self.say_once(bump_words(self.game, command))
        if self.game.state.game_over:
            self.pilot.disturbed = True
            ending = end_game(self.session)
            return Replace(DyingScreen(ending.game, ending.morgue_line, ending.standing, ending.coaching))
        return None

    def say_once(self, text: str) -> None:
        """Show a line unless it was the last one shown this turn (bumping a wall again says nothing new)."""
        notes = self.pilot.notes
        if not notes or notes[-1] != Message(self.game.state.turn, text):
            self.pilot.show(text)

    def command_for(self, event: tcod.event.KeyDown, action: str | None) -> Command | None:
        """The command for a key (its action looked up once, by the caller); any key is a wait
        while the game holds the controls (confusion leaves them to the player)."""
        command = bindings.command_of(action)
        steering = self.game.steering()
        if command is None and steering is not None and steering.takes_controls and not is_modifier(event):
            return Wait()
        return command

    def take_interrupt(self) -> bool:
        """Whether the last command, or an automation that stopped by itself, showed something that
        matters (keys typed ahead must not act on it)."""
        return self.pilot.take_disturbed()

    def on_draw(self, console: tcod.console.Console, now: float) -> None:
        """Draw map, entities and panel, and any warning about saving."""
        draw_game(console, self.game, now, ambient.look(), self.effects)
        draw_pilot_line(console, self.pilot)
        draw_notices(console, self.session)

    def spoken(self) -> list[str]:
        """New lines for a screen reader: messages, and why automation stopped."""
        return self.voice.spoken()

    def reader_cursor(self) -> tuple[int, int]:
        """A screen reader's cursor rests on the player."""
        return self.voice.cursor()

    def heard_mind(self) -> sound.Mind | None:
        """The drone plays the player's State of Mind while the game goes on."""
        if self.game.state.game_over:
            return None
        return sound.Mind(self.game.player_component(StateOfMind).value, self.game.player_component(Attributes).will)

    def room(self) -> Room:
        """The game, its in-view list and its messages grow into a large terminal's or window's room."""
        return Room(self.game, messages=True, note=self.pilot.shown)

    def before_input(self) -> None:
        """The turn just shown is on disk before the next key is read.

        The one place a played turn's autosave is waited for: frontends call this hook
        after showing each frame. (A step also finishes the write before it, so writes
        never overlap even where no frontend calls the hook.)
        """
        self.session.settle()

    def on_close(self) -> None:
        """The program is closing under this screen: end the session cleanly."""
        self.session.close()


def bump_words(game: Game, move: Move) -> str:
    """Why a step did nothing: a wall, or the walls that flank a doorway for a diagonal step."""
    pos = game.player_component(Position)
    in_doorway = game.state.floor.tiles[pos.y, pos.x] in (Tile.DOOR_OPEN, Tile.DOOR_CLOSED)
    if in_doorway and move.dx and move.dy:
        return "You cannot step diagonally out of a doorway: walls flank it."
    return "A wall is in the way."


def close_call_words(state_of_mind: int) -> str:
    """What a close call is, said when one happens (it counts for the score)."""
    if formulas.is_close_call(state_of_mind):
        return f"A close call: {formulas.STATE_OF_MIND_MAX - state_of_mind} from an overdose. It counts for your score."
    return "A close call: a dose at the last moment before exhaustion. It counts for your score."


def help_for(screen: InGameScreen) -> HelpScreen:
    """Help that knows the monsters met in any game and the player's Tolerance, floor and State of Mind."""
    bestiary = screen.game.player_component_or_none(Bestiary)
    met = screen.session.known_monsters | frozenset(bestiary.met if bestiary else ())
    return HelpScreen(known_in(screen.game, met))


SCREEN_ACTIONS: dict[str, Callable[[InGameScreen], Screen]] = {
    "menu": lambda screen: PauseScreen(screen.session),
    "help": help_for,
    "message_log": lambda screen: MessageLogScreen(screen.game, screen.pilot.notes),
    "look": lambda screen: LookScreen(screen.game, screen.travel_to),
    "rest_until": lambda screen: RestUntilScreen(screen.game, screen.on_draw, screen.rest_until),
}


# Keys that tell the game in words (a screen reader hears them; everyone sees them).
READOUT_ACTIONS: dict[str, Callable[[Game], str]] = {
    "surroundings": readout.surroundings,
    "condition": readout.condition,
    "in_view": in_view_words,
}


def is_wizard_key(event: tcod.event.Event) -> bool:
    """``&`` typed, on any layout, which opens the wizard prompt in a wizard-mode game.

    A shifted digit (Shift+7 on a US layout, Shift+6 on a German one) types a symbol, not a
    numpad digit: it must not move, and the ``&`` it types decides."""
    if isinstance(event, tcod.event.TextInput):
        return event.text == "&"
    return isinstance(event, tcod.event.KeyDown) and event.sym in SHIFTED_DIGITS and bool(event.mod & SHIFT)


SHIFT = tcod.event.Modifier.SHIFT
KEYS = tcod.event.KeySym
SHIFTED_DIGITS = frozenset({KEYS.N0, KEYS.N1, KEYS.N2, KEYS.N3, KEYS.N4, KEYS.N5, KEYS.N6, KEYS.N7, KEYS.N8, KEYS.N9})


def is_modifier(event: tcod.event.KeyDown) -> bool:
    """Shift, Ctrl, Alt and the like pressed alone."""
    return event.sym in MODIFIER_KEYS


MODIFIER_KEYS = frozenset(
    {
        tcod.event.KeySym.LSHIFT,
        tcod.event.KeySym.RSHIFT,
        tcod.event.KeySym.LCTRL,
        tcod.event.KeySym.RCTRL,
        tcod.event.KeySym.LALT,
        tcod.event.KeySym.RALT,
        tcod.event.KeySym.LGUI,
        tcod.event.KeySym.RGUI,
    }
)
