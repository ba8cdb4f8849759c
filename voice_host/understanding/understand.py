"""From what Whisper heard to what the table meant: a `Heard`, ready for the session to act on.

The steps, in order: normalise (numbers, exhibit citations, times), read exhibits leniently in the
card's exhibit slots, repair a command said alone, correct misheard names in name slots, then the
engine's own classifier (`Game.preview`), unchanged. Every repair lowers the confidence, and a costly
action (a question, a confrontation, a lock, a yes that ends a round or the night) heard with low
confidence or with a corrected or biased-only name is confirmed before anything is spent.

Recognition (`RecognitionPasses`) runs the biased pass (the case's names, titles and commands in the
initial prompt; never numbers). More passes run only when they are needed:
- a slot pass, when a command's verb was heard but not its argument ("Read the salmon."): Whisper
  decodes the audio again continuing from the verb ("Read E"), so the one word missing is heard in
  the only place it can be; what it fills counts as a repair, so a costly result is confirmed;
- a focus pass, when a transcript with the game's words in it gave the Host nothing to act on:
  the biased pass's words timed (Whisper's word alignment, no second decode) and only the loudest
  speaker's words kept (the one talking to the laptop, not the room); a repair too;
- a near-voice pass, when the transcript still gives the Host nothing to act on and Whisper was not
  sure of it: Whisper again on the audio with every moment quieter than the nearest voice turned
  down (`NearVoiceGate`); a repair too;
- a check pass, when the transcript names a suspect in a costly message that would otherwise go
  through: an unbiased pass, and a name only the biased pass produced counts as uncertain. See
docs/benchmarks.md ("Voice understanding") for the measurements behind these choices.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from engine.messages import Command, Message, MessageKind
from voice_host.ears.near_voice import NearVoiceGate
from voice_host.understanding.names import NamesMatcher, SuspectNames
from voice_host.understanding.normalise import (
    Correction,
    CorrectionKind,
    has_repeats,
    normalise,
    read_exhibits_leniently,
    repair_command,
    strip_openers,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from voice_host.ears.asr import HeardWord, Recognizer, Transcript


class Classifier(Protocol):
    """The engine's shared classifier (engine.game.Game has it)."""

    def preview(self, text: str) -> Message: ...


class TranscriptLike(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def avg_logprob(self) -> float: ...

    @property
    def no_speech_prob(self) -> float: ...


#: Below this confidence a costly action is confirmed first.
CONFIRM_BELOW = 0.7
# How much each kind of repair leaves of the confidence (multiplied in).
_EXHIBIT_REPAIR = 0.5
_BIASED_ONLY_NAME = 0.5
_SLOT_REPAIR = 0.8  # an argument heard only by the slot pass (an exhibit also takes _EXHIBIT_REPAIR)
_REPEAT_REPAIR = 0.6  # a loop of "Yes, yes, yes" is as likely noise as a keen table: ask before spending
_FOCUS_REPAIR = 0.6  # the words of the loudest speaker only


# Repairs that always make a costly action ask first, however confident Whisper was.
_DOUBTFUL_REPAIRS = (CorrectionKind.NAME, CorrectionKind.EXHIBIT, CorrectionKind.REPEAT, CorrectionKind.FOCUS)


@dataclass(frozen=True)
class Heard:
    """One utterance, understood: the raw words, the repaired text, and what the engine takes it as."""

    transcript: str  # raw, as whisper heard it
    text: str  # normalised and corrected: what goes to the engine
    corrections: tuple[Correction, ...]
    confidence: float  # 0-1
    message: Message | None  # the classifier's outcome; None when nothing usable was heard
    needs_confirmation: bool
    uncertain_names: tuple[str, ...] = ()  # suspect keys only the biased pass produced
    rejected: str | None = None  # why recognition threw the transcript away, if it did

    @property
    def usable(self) -> bool:
        return self.message is not None and bool(self.text)

    @property
    def name_corrected(self) -> bool:
        return any(c.kind is CorrectionKind.NAME for c in self.corrections)


def recognition_confidence(avg_logprob: float, no_speech_prob: float) -> float:
    """Whisper's own certainty, 0-1: the mean token probability, discounted by its no-speech belief."""
    if math.isinf(avg_logprob) or math.isnan(avg_logprob):
        return 0.0
    token_probability = math.exp(min(0.0, avg_logprob))
    return max(0.0, min(1.0, token_probability * (1.0 - 0.5 * no_speech_prob)))


def repaired_text(raw: str, matcher: NamesMatcher) -> tuple[str, tuple[Correction, ...]]:
    """Normalise, read exhibits leniently, repair a lone command, correct names in name slots."""
    text = normalise(raw)
    corrections: list[Correction] = []
    if has_repeats(raw):
        corrections.append(Correction(CorrectionKind.REPEAT, raw, text, _REPEAT_REPAIR))
    # Names before exhibits: "in front Keld with E30" only becomes a confrontation (whose "with"
    # is an exhibit slot) once the matcher has repaired its opening.
    for step in (repair_command, matcher.correct, read_exhibits_leniently):
        result = step(text)
        text = result.text
        corrections.extend(result.corrections)
    return text, tuple(corrections)


def _is_yes(message: Message) -> bool:
    return message.kind is MessageKind.COMMAND and message.command is Command.YES


class Understander:
    """Turns transcripts (or raw text) into `Heard` against a game's current classifier."""

    def __init__(self, suspects: Iterable[SuspectNames], confirm_below: float = CONFIRM_BELOW) -> None:
        self.matcher = NamesMatcher(suspects)
        self.confirm_below = confirm_below

    def understand(
        self,
        transcript: str,
        classifier: Classifier,
        recognition: float = 1.0,
        seats: Iterable[str] = (),
        uncertain_names: Iterable[str] = (),
        rejected: str | None = None,
        repairs: Iterable[Correction] = (),
    ) -> Heard:
        """Understand one transcript; `recognition` is Whisper's confidence (1.0 for plain text).

        `repairs` are corrections made before the text got here (a slot pass's), counted like the rest.
        """
        if rejected is not None or not transcript.strip():
            return Heard(transcript, "", (), 0.0, None, False, rejected=rejected or "empty")
        matcher = self.matcher.with_protected(seats)
        text, corrections = repaired_text(transcript, matcher)
        corrections = (*repairs, *corrections)
        if not text.strip():
            return Heard(transcript, "", corrections, 0.0, None, False, rejected="empty")
        message = classifier.preview(text)
        named = set(matcher.suspects_named(text))
        doubtful = tuple(key for key in uncertain_names if key in named)
        confidence = recognition
        for correction in corrections:
            if correction.kind is CorrectionKind.EXHIBIT:
                confidence *= _EXHIBIT_REPAIR
            else:
                confidence *= correction.score
        if doubtful:
            confidence *= _BIASED_ONLY_NAME
        confidence = round(max(0.0, min(1.0, confidence)), 3)
        doubt = confidence < self.confirm_below or any(c.kind in _DOUBTFUL_REPAIRS for c in corrections) or bool(doubtful)
        needs_confirmation = message.costly and doubt
        return Heard(transcript, text, corrections, confidence, message, needs_confirmation, doubtful)

    def understand_transcript(
        self,
        transcript: TranscriptLike,
        classifier: Classifier,
        seats: Iterable[str] = (),
        uncertain_names: Iterable[str] = (),
        rejected: str | None = None,
        repairs: Iterable[Correction] = (),
    ) -> Heard:
        recognition = recognition_confidence(transcript.avg_logprob, transcript.no_speech_prob)
        return self.understand(transcript.text, classifier, recognition, seats, uncertain_names, rejected, repairs)


# --- The focus pass --------------------------------------------------------------------------------

#: A word this many dB quieter than the loudest word was someone else in the room, not the person
#: talking to the Host (on the party fixtures 4, 6 and 8 dB gave about the same gain).
FOCUS_WITHIN_DB = 6.0


def loudest_speaker_text(words: Sequence[HeardWord], within_db: float = FOCUS_WITHIN_DB) -> str:
    """The words said loudly enough to be the nearest voice: the one talking to the laptop."""
    if not words:
        return ""
    top = max(word.level_db for word in words)
    return " ".join(word.text for word in words if word.level_db >= top - within_db)


# The card's own words: a transcript with one of these (or a suspect's name) was meant for the Host.
# The engine's commands, and the words of its other messages.
_MORE_GAME_WORDS = ("statement", "answer", "confront", "accuse", "exhibits?", r"e\d{1,2}")
_GAME_WORDS = re.compile(r"\b(?:" + "|".join([*(c.value for c in Command), *_MORE_GAME_WORDS]) + r")\b", re.IGNORECASE)


def _has_game_words(heard: Heard, matcher: NamesMatcher) -> bool:
    """Whether the text has a command, an exhibit or a suspect in it: something meant for the Host."""
    return bool(_GAME_WORDS.search(heard.text)) or bool(matcher.suspects_named(heard.text))


def _unusable(heard: Heard) -> bool:
    """Nothing for the Host to act on: table talk, or something it could only answer with a question."""
    message = heard.message
    return message is None or message.kind in (MessageKind.TABLE_TALK, MessageKind.OTHER)


# --- The slot pass ----------------------------------------------------------------------------------


class Slot(Enum):
    EXHIBIT = "exhibit"  # "Read the salmon." / "Confront Phoebe with the iron.": the number was lost
    SUSPECT = "suspect"  # "Answers, Cobb.": the name was lost


@dataclass(frozen=True)
class SlotPass:
    """Decode the audio again continuing from each prefix in turn, until one hears the missing word.

    An empty prefix is a plain decode with no prompt and no prefix at all.
    """

    prefixes: tuple[str, ...]
    slot: Slot


_READ = re.compile(r"read\b", re.IGNORECASE)
_CONFRONT = re.compile(r"confront\b", re.IGNORECASE)
_CONFRONT_WITH = re.compile(r"(confront\b.*?\bwith)\b", re.IGNORECASE)
_ANSWERS = re.compile(r"answers?\b", re.IGNORECASE)


def _fills(message: Message | None, slot: Slot) -> bool:
    """Whether the message has the slot's argument: an exhibit cited, or the suspect named."""
    if message is None:
        return False
    if slot is Slot.EXHIBIT:
        citing = message.command is Command.READ or message.kind is MessageKind.CONFRONTATION
        return citing and bool(message.exhibits)
    naming = message.command is Command.ANSWERS or message.kind is MessageKind.CONFRONTATION
    return naming and message.suspect is not None


def slot_pass_for(heard: Heard) -> SlotPass | None:
    """The slot pass for a command whose verb was heard but not its argument, or None.

    Only these qualify, each opening the message: "read …" without an exhibit, "confront SUSPECT
    with …" without one, "confront …" without a suspect, "answers …" without a suspect. Anything
    else is left as heard.
    """
    if not heard.usable:
        return None
    body = strip_openers(heard.text)
    # "E7" or "exhibit 7": the way the transcript suggests first, then the other.
    citations = ("exhibit", "E") if re.search(r"\bexhibit\b", body, re.IGNORECASE) else ("E", "exhibit")
    if _READ.match(body) and not _fills(heard.message, Slot.EXHIBIT):
        # Last, unprompted and unprefixed: Whisper alone writes "Read E4" as "3D4" (which the command
        # repair reads) where the prompted and prefixed decodes made it "the fall" and "E-fall".
        return SlotPass((*(f"Read {citation}" for citation in citations), ""), Slot.EXHIBIT)
    confront = _CONFRONT_WITH.match(body)
    if confront and heard.message is not None and heard.message.suspect and not _fills(heard.message, Slot.EXHIBIT):
        said = confront.group(1)
        return SlotPass(tuple(f"{said[0].upper()}{said[1:]} {citation}" for citation in citations), Slot.EXHIBIT)
    if _CONFRONT.match(body) and not _fills(heard.message, Slot.SUSPECT):
        return SlotPass(("Confront",), Slot.SUSPECT)
    if _ANSWERS.match(body) and not _fills(heard.message, Slot.SUSPECT):
        return SlotPass(("Answers",), Slot.SUSPECT)
    return None


# --- Recognition passes -----------------------------------------------------------------------------


class Biasing(Enum):
    NONE = "none"  # plain faster-whisper
    PROMPT = "prompt"  # the case vocabulary as initial_prompt, one pass
    # Biased, and an unbiased pass to check a name, only when it matters: the message would spend
    # (costly), names a suspect and is confident enough to go through without a confirmation.
    PROMPT_CHECKED = "prompt_checked"


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
        commands = "Confront, exhibit, next, save, pass, statements, lies, answers, read, give up."
        prompt = ". ".join(people) + ". " + commands
        return cls(prompt=prompt, hotwords=" ".join(words + ["Confront", "exhibit"]))


@dataclass(frozen=True)
class Recognised:
    """The transcript understood, and what the passes said about names."""

    transcript: Transcript
    heard: Heard
    seconds: float = 0.0  # recognition and understanding, all passes
    unbiased: Transcript | None = None  # the check pass's transcript, when one ran
    first: Heard | None = None  # what the first pass alone made of it (set when a check ran)
    first_seconds: float = 0.0
    slots: tuple[Transcript, ...] = ()  # the slot pass's transcripts, one per prefix tried
    focus: Transcript | None = None  # the biased transcript with its words timed, when a focus pass ran
    near: Transcript | None = None  # the near-voice pass's transcript, when one ran

    @property
    def transcripts(self) -> tuple[Transcript, ...]:
        """Every recognition pass that ran, in order: first, slot, focus, near voice, check."""
        later = (*self.slots, self.focus, self.near, self.unbiased)
        return (self.transcript, *(t for t in later if t is not None))

    @property
    def passes(self) -> int:
        return len(self.transcripts)

    @property
    def recognition_seconds(self) -> float:
        """Time spent in Whisper, all passes (`seconds` adds understanding)."""
        return sum(t.seconds for t in self.transcripts)


def _rejection(transcript: Transcript) -> str | None:
    return transcript.rejected.value if transcript.rejected is not None else None


@dataclass
class RecognitionPasses:
    """Runs the recognition passes for one utterance with the chosen biasing, then understands it."""

    recognizer: Recognizer
    vocabulary: Vocabulary
    understander: Understander
    biasing: Biasing = Biasing.PROMPT_CHECKED
    # The check pass only asks whether a name was really said: greedy decoding answers that as well
    # as beam 5, and sooner (the figures: docs/benchmarks.md, "Voice understanding").
    check_beam_size: int = 1
    near_voice: NearVoiceGate = NearVoiceGate()
    # A transcript Whisper was this sure of (mean token probability 0.82) is what was said, often
    # plain table talk: a second listen hears the same, so the near-voice pass is skipped (how often,
    # and that it lost nothing: docs/benchmarks.md, "Voice understanding").
    near_voice_below_logprob: float = -0.2

    def _understand(
        self,
        transcript: Transcript,
        classifier: Classifier,
        seats: tuple[str, ...],
        uncertain: tuple[str, ...] = (),
        repairs: tuple[Correction, ...] = (),
    ) -> Heard:
        rejected = _rejection(transcript)
        heard = self.understander.understand_transcript(transcript, classifier, seats, uncertain, rejected, repairs)
        return replace(heard, transcript=transcript.raw_text) if rejected is not None else heard

    def _fill_slot(
        self,
        audio: npt.NDArray[np.float32],
        slot_pass: SlotPass,
        heard: Heard,
        classifier: Classifier,
        seats: tuple[str, ...],
    ) -> tuple[Heard, tuple[Transcript, ...]]:
        """Try each prefix until one fills the slot; the heard message is kept when none does."""
        tried: list[Transcript] = []
        kind = CorrectionKind.EXHIBIT if slot_pass.slot is Slot.EXHIBIT else CorrectionKind.NAME
        for prefix in slot_pass.prefixes:
            slot = self.recognizer.transcribe(audio, initial_prompt="", hotwords=None, prefix=prefix)
            tried.append(slot)
            if slot.rejected is not None:
                continue
            repair = Correction(kind, heard.text, slot.text, _SLOT_REPAIR)
            filled = self._understand(slot, classifier, seats, repairs=(repair,))
            if _fills(filled.message, slot_pass.slot):
                return filled, tuple(tried)
        return heard, tuple(tried)

    def _focus(
        self, audio: npt.NDArray[np.float32], biased: Transcript, heard: Heard, classifier: Classifier, seats: tuple[str, ...]
    ) -> tuple[Heard, Transcript]:
        """Time the biased pass's words, measure how loud each was, and keep only the loudest speaker's.

        With other people talking, Whisper writes their words too ("Okay, next, read, the
        experiment."); the person talking to the laptop is the nearest and loudest voice. Used only
        when the whole transcript gave the Host nothing to act on; what it finds is a repair.
        """
        loud = self.recognizer.time_words(audio, biased)
        kept = loudest_speaker_text(loud.words) if loud.rejected is None else ""
        if not kept:
            return heard, loud
        repair = Correction(CorrectionKind.FOCUS, loud.raw_text, kept, _FOCUS_REPAIR)
        recognition = recognition_confidence(loud.avg_logprob, loud.no_speech_prob)
        focused = self.understander.understand(kept, classifier, recognition, seats, repairs=(repair,))
        if _unusable(focused):
            return heard, loud
        return replace(focused, transcript=loud.raw_text), loud

    def _near_voice(
        self, audio: npt.NDArray[np.float32], heard: Heard, classifier: Classifier, seats: tuple[str, ...]
    ) -> tuple[Heard, Transcript]:
        """Hear it again with only the nearest voice loud, and take what that finds if it is usable.

        It hears in the party some utterances the other passes could not, and loses none they could
        (the figures: docs/benchmarks.md, "Voice understanding"); it costs a decode (the encoder too:
        the audio is new), only for an utterance the Host could not act on.
        """
        near = self.recognizer.transcribe(self.near_voice.apply(audio), initial_prompt=self.vocabulary.prompt)
        if near.rejected is not None:
            return heard, near
        repair = Correction(CorrectionKind.FOCUS, heard.transcript, near.text, _FOCUS_REPAIR)
        found = self._understand(near, classifier, seats, repairs=(repair,))
        return (heard, near) if _unusable(found) else (found, near)

    def hear(self, audio: npt.NDArray[np.float32], classifier: Classifier, seats: Iterable[str] = ()) -> Recognised:
        started = time.perf_counter()
        seated = tuple(seats)
        if self.biasing is Biasing.NONE:
            plain = self.recognizer.transcribe(audio, initial_prompt="", hotwords=None)
            heard = self._understand(plain, classifier, seated)
            return Recognised(plain, heard, time.perf_counter() - started)
        biased = self.recognizer.transcribe(audio, initial_prompt=self.vocabulary.prompt)
        heard = self._understand(biased, classifier, seated)
        matcher = self.understander.matcher.with_protected(seated)
        slot_pass = slot_pass_for(heard)
        slots: tuple[Transcript, ...] = ()
        if slot_pass is not None:
            heard, slots = self._fill_slot(audio, slot_pass, heard, classifier, seated)
        focus: Transcript | None = None
        if _unusable(heard) and heard.rejected is None and _has_game_words(heard, matcher):
            heard, focus = self._focus(audio, biased, heard, classifier, seated)
        near: Transcript | None = None
        if _unusable(heard) and heard.rejected is None and biased.avg_logprob < self.near_voice_below_logprob:
            heard, near = self._near_voice(audio, heard, classifier, seated)
        message = heard.message
        named = matcher.suspects_named(heard.text) if heard.usable else ()
        worth_checking = (
            self.biasing is Biasing.PROMPT_CHECKED
            and message is not None
            and message.costly
            and not heard.needs_confirmation
            and bool(named)
        )
        if not worth_checking:
            return Recognised(biased, heard, time.perf_counter() - started, slots=slots, focus=focus, near=near)
        # Here `heard` is the biased pass's own: what a slot, focus or near-voice pass finds is a
        # repair, so a costly result from them is confirmed already and never reaches the check.
        first, first_seconds = heard, time.perf_counter() - started
        plain = self.recognizer.transcribe(audio, initial_prompt="", hotwords=None, beam_size=self.check_beam_size)
        plain_text = repaired_text(plain.text, matcher)[0] if plain.rejected is None else ""
        plain_names = set(matcher.suspects_named(plain_text))
        uncertain = tuple(key for key in named if key not in plain_names)
        if uncertain:
            heard = self._understand(biased, classifier, seated, uncertain)
        return Recognised(biased, heard, time.perf_counter() - started, plain, first, first_seconds, slots, focus, near)
