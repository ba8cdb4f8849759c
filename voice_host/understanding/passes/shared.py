"""What every recognition pass shares: the biasing, the case's vocabulary, the utterance being heard (`Hearing`), the
models and rules it is heard with (`Ears`), and the shape of a pass (`RecognitionPass`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from engine.grammar import IntentKind
from engine.grammar import grammar as phrases_grammar
from engine.messages import FORM_WORDS, Command, Message, MessageKind
from voice_host.ears.near_voice import NearVoiceGate
from voice_host.understanding.names import NamesMatcher, SuspectNames
from voice_host.understanding.normalise import Correction
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Classifier, Heard, Understander

if TYPE_CHECKING:
    from voice_host.ears.asr import Recognizer, SlotScores, Transcript
    from voice_host.ears.side_decode import SideDecoder
    from voice_host.ears.sound import Audio


class Biasing(Enum):
    NONE = "none"  # plain faster-whisper
    PROMPT = "prompt"  # the case vocabulary as initial_prompt, one pass
    # Biased, and an unbiased pass to check a name, only when it matters: the message would spend
    # (costly), names a suspect and is confident enough to go through without a confirmation.
    PROMPT_CHECKED = "prompt_checked"


# The card's words that go in the prompt, all taken from the engine's own lists (engine.messages), so
# the vocabulary is defined once. Of its form words, the two Whisper does not expect at a table ("ask",
# "accuse", "answer" it writes unprompted). Of its commands, all but yes and no: everyday words Whisper
# hears unaided, which in the prompt would only invite a phantom yes.
PROMPTED_FORM_WORDS = tuple(word for word in FORM_WORDS if word in ("confront", "exhibit"))
PROMPTED_COMMANDS = tuple(command for command in Command if command not in (Command.YES, Command.NO))


def command_prompt() -> str:
    """The card's words for the prompt: "Confront, exhibit, next, save, …, give up."."""
    words = ", ".join((*PROMPTED_FORM_WORDS, *(command.value for command in PROMPTED_COMMANDS)))
    return f"{words[:1].upper()}{words[1:]}."


@dataclass(frozen=True)
class Vocabulary:
    """The case's own words for biasing: names, titles, roles, commands. Never numbers."""

    prompt: str
    hotwords: str

    @classmethod
    def for_suspects(cls, suspects: Iterable[SuspectNames]) -> Vocabulary:
        people = []
        words: list[str] = []
        for suspect in suspects:
            role = getattr(suspect, "role", "")
            people.append(f"{suspect.name}, {role}".strip(", ") if role else suspect.name)
            for alias in suspect.aliases:
                if alias[:1].isupper() and alias not in words:
                    words.append(alias)
        prompt = ". ".join(people) + ". " + command_prompt()
        return cls(prompt=prompt, hotwords=" ".join(words + [word.capitalize() for word in PROMPTED_FORM_WORDS]))


class PassName(Enum):
    FIRST = "first"
    SLOT = "slot"
    CLOSED_SET = "closed_set"
    LOST_CITATION = "lost_citation"
    ADDRESSEE = "addressee"
    NAME_SLOT = "name_slot"
    WHOLE_COMMAND = "whole_command"
    PHRASED_COMMAND = "phrased_command"
    PHRASED_CONFRONTATION = "phrased_confrontation"
    NBEST = "nbest"
    SLOWER = "slower"
    FOCUS = "focus"
    NEAR_VOICE = "near_voice"
    ACCUSED_EXHIBITS = "accused_exhibits"
    NARROW_PICK = "narrow_pick"
    CHECK = "check"


@dataclass(frozen=True)
class PassRun:
    """One pass that ran, and the transcripts it made (a slot pass makes one per prefix tried)."""

    name: PassName
    transcripts: tuple[Transcript, ...]
    scores: tuple[SlotScores, ...] = ()  # a closed set scored on the audio
    searched: bool = True  # False: its transcripts came from an earlier pass's beam search, no decode of its own

    @property
    def decodes(self) -> int:
        """Whisper's decodes in this run: the n-best pass's hypotheses all come from one beam search."""
        if not self.searched:
            return 0
        if self.name is PassName.NBEST:
            return min(1, len(self.transcripts))
        return len(self.transcripts)


@dataclass
class Ears:
    """What the passes hear and understand with."""

    recognizer: Recognizer
    vocabulary: Vocabulary
    understander: Understander
    near_voice: NearVoiceGate
    beside: SideDecoder | None = None  # a second model instance that decodes beside the first pass

    @property
    def settings(self) -> UnderstandingSettings:
        return self.understander.settings


@dataclass
class Hearing:
    """One utterance on its way through the cascade: what the passes found so far."""

    audio: Audio
    classifier: Classifier
    seats: tuple[str, ...]
    matcher: NamesMatcher  # the case's names, the table's seats protected
    started: float
    heard: Heard | None = None  # what the table is taken to mean so far
    first: Transcript | None = None  # the first pass's transcript
    runs: list[PassRun] = field(default_factory=list)
    unchecked: Heard | None = None  # what was meant before the check pass, when it ran
    unchecked_seconds: float = 0.0
    # A whole message a closed set found by a narrow lead: taken, asked about first, only when no pass
    # after it finds a whole message (`NarrowPickPass`).
    narrow: Heard | None = None

    @property
    def current(self) -> Heard:
        assert self.heard is not None, "the first pass runs first"
        return self.heard

    def keep_narrow(self, found: Heard) -> None:
        """Keep `found` as the narrow pick, asked about first even if free; the first one kept stays."""
        if self.narrow is None:
            self.narrow = replace(found, needs_confirmation=True)

    @property
    def first_transcript(self) -> Transcript:
        assert self.first is not None, "the first pass runs first"
        return self.first

    def understand(
        self,
        ears: Ears,
        transcript: Transcript,
        uncertain: tuple[str, ...] = (),
        repairs: tuple[Correction, ...] = (),
    ) -> Heard:
        """A transcript understood against this utterance's game and seats (a rejected one keeps its raw words)."""
        rejected = transcript.rejected.value if transcript.rejected is not None else None
        heard = ears.understander.understand_transcript(transcript, self.classifier, self.seats, uncertain, rejected, repairs)
        return replace(heard, transcript=transcript.raw_text) if rejected is not None else heard


class RecognitionPass(Protocol):
    """One step of the cascade: when it applies, and what it does to the hearing."""

    @property
    def name(self) -> PassName: ...

    def applies(self, hearing: Hearing, ears: Ears) -> bool: ...

    def run(self, hearing: Hearing, ears: Ears) -> None:
        """Hear the audio again (or look at what was heard) and update `hearing.heard`; record the run."""


@runtime_checkable
class StartsAhead(Protocol):
    """A pass that may start its decode before the first pass runs (on `Ears.beside`), to take it when it runs."""

    def start_ahead(self, hearing: Hearing, ears: Ears) -> None: ...


def unusable(heard: Heard) -> bool:
    """Nothing for the Host to act on: table talk, or something it could only answer with a question."""
    message = heard.message
    return message is None or message.kind in (MessageKind.TABLE_TALK, MessageKind.OTHER)


# The card's own words: a transcript with one of these (or a suspect's name) was meant for the Host.
# The engine's commands, and the words of its other messages.
_MORE_GAME_WORDS = ("statement", "answer", "confront", "accuse", "exhibits?", r"e\d{1,2}")
_GAME_WORDS = re.compile(r"\b(?:" + "|".join([*(c.value for c in Command), *_MORE_GAME_WORDS]) + r")\b", re.IGNORECASE)


def has_game_words(heard: Heard, matcher: NamesMatcher) -> bool:
    """Whether the text has a command, an exhibit or a suspect in it: something meant for the Host."""
    return bool(_GAME_WORDS.search(heard.text)) or bool(matcher.suspects_named(heard.text))


def asks_the_host(text: str) -> bool:
    """A request to the voice host itself ("Say that again.", "Pardon?"): whole as it is, not a card message."""
    said = phrases_grammar().match(text)
    return said is not None and said.intent.kind is IntentKind.HOST


def whole_message(message: Message | None) -> bool:
    """A card message with everything it needs: a command (read with its exhibit, answers with its
    suspect), a question put to a suspect, a confrontation citing an exhibit, an accusation with both.

    Table talk, a request to the Host, and a command or question that lost its argument are not.
    """
    if message is None:
        return False
    if message.kind is MessageKind.COMMAND:
        if message.command is Command.READ:
            return bool(message.exhibits)
        return message.command is not Command.ANSWERS or message.suspect is not None
    if message.kind is MessageKind.QUESTION:
        return message.suspect is not None
    if message.kind in (MessageKind.CONFRONTATION, MessageKind.ACCUSATION):
        return message.suspect is not None and bool(message.exhibits)
    return False
