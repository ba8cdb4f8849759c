"""The recognition cascade: the passes that hear one utterance, as data, run by one loop.

Each pass is a small object that says when it applies (`applies`) and what it does (`run`); the
cascade (`RecognitionPasses.passes`) is the list of them in order, and `RecognitionPasses.hear` runs
every pass that applies, in turn, on one `Hearing` (the utterance, the transcripts so far and what
the table is taken to mean). Text rules stay in `understand.py` (normalise, names); every threshold
is in `UnderstandingSettings`.

The passes, in order (with the prompt biasing, the default):
- first: the biased pass (the case's names, titles and commands in the initial prompt; never numbers);
- closed set, when the transcript looks like a command with an argument (read E{n}, confront NAME
  with E{n}, answers NAME): the 16 exhibits (or the six suspects, when the name was lost) are scored
  against the audio on the encoder output already made, in batched decoder calls (those that cannot
  come within the margin of the best are not followed to their end); the best fills
  an empty slot, as a repair, so a costly result is confirmed; a confrontation that lost its
  suspect, its exhibit or both is filled slot by slot (suspect, then exhibit: one small pass each);
  a question "Ask …" whose words named no one has its addressee scored the same way;
- lost citation, when a question to a suspect has the card's words for citing an exhibit ("exhibit",
  "explain") but no number: the 16 exhibits scored after its words; the best makes it a
  confrontation (a repair), else the question is asked about first; and when any other message that
  is not whole says "exhibit" with no number after it: the best number, put in place of the words
  heard for it, is taken only if that makes the message whole (a repair);
- focus, when a transcript with the game's words in it gave the Host nothing to act on: the first
  pass's words timed (Whisper's word alignment, no second decode) and only the loudest speaker's
  words kept (the one talking to the laptop, not the room); a repair too;
- n-best, when what the transcript was taken as is still not a whole card message (table talk, a
  request to the Host, a command or question that lost its argument): the beam's other hypotheses
  (one beam search on the encoder output already made) are understood, and the best that is a whole
  message, close enough behind the best score, is taken as a repair (a costly one is confirmed);
- slower, when what the transcript was taken as is still not a whole card message (and not a
  request to the Host) and no other voice is in the gaps: Whisper again on the utterance played a
  tenth slower and lower, and a whole message heard there is taken as a repair (a costly one is
  confirmed);
- near voice, when the transcript still gives the Host nothing to act on and Whisper was not sure of
  it: Whisper again on the audio with every moment quieter than the nearest voice turned down
  (`NearVoiceGate`); a repair too;
- accused's exhibits, when an accusation names its accused but what was heard after the name is no
  exhibit list ("We accuse Phoebe Marsden, he says."): the sixteen exhibits scored slot by slot after
  the name, each slot one batched call, until the list's end wins (the card reads it back);
- addressee, when the transcript still gives nothing (or a question to no one) but reads as a
  question put to someone whose name was lost ("Sir Goyer, how did you …"): the six's names and
  roles scored in the head's place; the best gets the question, always asked about first;
- whole command, when a short utterance (an empty or rejected transcript, or a few words) still gives
  the Host nothing: the card's free commands ("Next", "Read E{n}", "Answers" …) and the transcript's
  own words scored against the audio in one batched decoder pass over their prefix trie; the best
  command is taken, as a repair, only when it fits, stands out from the next and comes close to the
  transcript, and confirmed when its lead is narrow ("Answers" then finds its name as a closed set);
- check, when the transcript names a suspect in a costly message that would otherwise go through: an
  unbiased pass, and a name only the biased pass produced counts as uncertain, unless the unbiased
  pass had words in its place and the six's names scored there (a closed set) put it clearly first.
The slot pass (`SlotPass`: Whisper decodes again continuing from the verb, "Read E") did the
closed set's work before it, with up to three decodes; it is kept as a pass one can list instead.
See docs/benchmarks.md ("Voice understanding") for the measurements behind these choices.
"""

from __future__ import annotations

import difflib
import math
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Protocol

from engine.classify import ADDRESS_WORDS, QUESTION_WORDS
from engine.grammar import IntentKind, phrases
from engine.grammar import grammar as phrases_grammar
from engine.messages import FORM_WORDS, Command, Message, MessageKind
from engine.rules import EXHIBITS, MAX_COUNTED_EXHIBITS, ROUNDS
from engine.text import after_words
from voice_host.ears.near_voice import NearVoiceGate
from voice_host.ears.sound import SAMPLE_RATE
from voice_host.understanding.names import SPOKEN_TITLES, NamesMatcher, SuspectNames
from voice_host.understanding.normalise import Correction, CorrectionKind, normalise, strip_openers
from voice_host.understanding.phrasings import (
    CommandPhrasing,
    as_whisper_writes,
    command_phrasings,
    heard_name,
    heard_number,
    nearest_phrasings,
)
from voice_host.understanding.settings import DEFAULT_SETTINGS, UnderstandingSettings
from voice_host.understanding.understand import (
    Classifier,
    Heard,
    Understander,
    recognition_confidence,
    repaired_text,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from voice_host.ears.asr import HeardWord, Recognizer, SlotScores, Transcript
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


# --- What the passes share --------------------------------------------------------------------------


class PassName(Enum):
    FIRST = "first"
    SLOT = "slot"
    CLOSED_SET = "closed_set"
    LOST_CITATION = "lost_citation"
    ADDRESSEE = "addressee"
    WHOLE_COMMAND = "whole_command"
    PHRASED_COMMAND = "phrased_command"
    NBEST = "nbest"
    SLOWER = "slower"
    FOCUS = "focus"
    NEAR_VOICE = "near_voice"
    ACCUSED_EXHIBITS = "accused_exhibits"
    CHECK = "check"


@dataclass(frozen=True)
class PassRun:
    """One pass that ran, and the transcripts it made (a slot pass makes one per prefix tried)."""

    name: PassName
    transcripts: tuple[Transcript, ...]
    scores: tuple[SlotScores, ...] = ()  # a closed set scored on the audio

    @property
    def decodes(self) -> int:
        """Whisper's decodes in this run: the n-best pass's hypotheses all come from one beam search."""
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

    @property
    def current(self) -> Heard:
        assert self.heard is not None, "the first pass runs first"
        return self.heard

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


def _unusable(heard: Heard) -> bool:
    """Nothing for the Host to act on: table talk, or something it could only answer with a question."""
    message = heard.message
    return message is None or message.kind in (MessageKind.TABLE_TALK, MessageKind.OTHER)


# The card's own words: a transcript with one of these (or a suspect's name) was meant for the Host.
# The engine's commands, and the words of its other messages.
_MORE_GAME_WORDS = ("statement", "answer", "confront", "accuse", "exhibits?", r"e\d{1,2}")
_GAME_WORDS = re.compile(r"\b(?:" + "|".join([*(c.value for c in Command), *_MORE_GAME_WORDS]) + r")\b", re.IGNORECASE)


def _has_game_words(heard: Heard, matcher: NamesMatcher) -> bool:
    """Whether the text has a command, an exhibit or a suspect in it: something meant for the Host."""
    return bool(_GAME_WORDS.search(heard.text)) or bool(matcher.suspects_named(heard.text))


# --- The first pass ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FirstPass:
    """Whisper on the utterance, with the case's vocabulary as its prompt or without."""

    prompted: bool = True
    name: PassName = PassName.FIRST

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return hearing.first is None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        if self.prompted:
            transcript = ears.recognizer.transcribe(hearing.audio, initial_prompt=ears.vocabulary.prompt)
        else:
            transcript = ears.recognizer.transcribe(hearing.audio, initial_prompt="", hotwords=None)
        hearing.first = transcript
        hearing.heard = hearing.understand(ears, transcript)
        hearing.runs.append(PassRun(self.name, (transcript,)))


# --- The slot pass ----------------------------------------------------------------------------------


class Slot(Enum):
    EXHIBIT = "exhibit"  # "Read the salmon." / "Confront Phoebe with the iron.": the number was lost
    SUSPECT = "suspect"  # "Answers, Cobb.": the name was lost
    # "Confront, together with E.R.": the suspect or the exhibit (or both) of a confrontation lost; the
    # whole confrontations are the candidates (closed set only: the slot pass never fills this).
    CONFRONTATION = "confrontation"  # filled slot by slot: the suspect (when lost), then the exhibit
    ADDRESSEE = "addressee"  # "Ask Flit, where were you?": the suspect a question is put to was lost


@dataclass(frozen=True)
class SlotPrefixes:
    """Decode the audio again continuing from each prefix in turn, until one hears the missing word.

    An empty prefix is a plain decode with no prompt and no prefix at all.
    """

    prefixes: tuple[str, ...]
    slot: Slot


_READ = re.compile(r"read\b", re.IGNORECASE)
_CONFRONT = re.compile(r"confront\b", re.IGNORECASE)
_CONFRONT_WITH = re.compile(r"(confront\b.*?\bwith)\b", re.IGNORECASE)
_ANSWERS = re.compile(r"answers?\b", re.IGNORECASE)
# "Ask Flit, where were you?": the card's ask form, and the words it puts the suspect in (up to a
# comma within three words, else one word).
_ASK = re.compile(r"(ask)\s+((?:[\w'.-]+\s+){0,2}?[\w'.-]+(?=,)|[\w'.-]+)", re.IGNORECASE)
# Words after "Ask" that are no one's name ("Ask him", "Ask everyone"): the grammar's own list.
_NOT_ADDRESSEES = frozenset(phrases("name")) | {"the", "a", "an"}


def fills(message: Message | None, slot: Slot) -> bool:
    """Whether the message has the slot's argument: an exhibit cited, or the suspect named."""
    if message is None:
        return False
    if slot is Slot.CONFRONTATION:
        return message.kind is MessageKind.CONFRONTATION and message.suspect is not None and bool(message.exhibits)
    if slot is Slot.ADDRESSEE:
        return message.kind in (MessageKind.QUESTION, MessageKind.CONFRONTATION) and message.suspect is not None
    if slot is Slot.EXHIBIT:
        citing = message.command is Command.READ or message.kind is MessageKind.CONFRONTATION
        return citing and bool(message.exhibits)
    naming = message.command is Command.ANSWERS or message.kind is MessageKind.CONFRONTATION
    return naming and message.suspect is not None


def slot_prefixes_for(heard: Heard) -> SlotPrefixes | None:
    """The prefixes to hear a command's missing argument from, or None when nothing is missing.

    Only these qualify, each opening the message: "read …" without an exhibit, "confront SUSPECT
    with …" without one, "confront …" without a suspect, "answers …" without a suspect. Anything
    else is left as heard.
    """
    if not heard.usable:
        return None
    body = strip_openers(heard.text)
    # "E7" or "exhibit 7": the way the transcript suggests first, then the other.
    citations = ("exhibit", "E") if re.search(r"\bexhibit\b", body, re.IGNORECASE) else ("E", "exhibit")
    if _READ.match(body) and not fills(heard.message, Slot.EXHIBIT):
        # Last, unprompted and unprefixed: Whisper alone writes "Read E4" as "3D4" (which the command
        # repair reads) where the prompted and prefixed decodes made it "the fall" and "E-fall".
        return SlotPrefixes((*(f"Read {citation}" for citation in citations), ""), Slot.EXHIBIT)
    confront = _CONFRONT_WITH.match(body)
    if confront and heard.message is not None and heard.message.suspect and not fills(heard.message, Slot.EXHIBIT):
        said = confront.group(1)
        return SlotPrefixes(tuple(f"{said[0].upper()}{said[1:]} {citation}" for citation in citations), Slot.EXHIBIT)
    if _CONFRONT.match(body) and not fills(heard.message, Slot.SUSPECT):
        return SlotPrefixes(("Confront",), Slot.SUSPECT)
    if _ANSWERS.match(body) and not fills(heard.message, Slot.SUSPECT):
        return SlotPrefixes(("Answers",), Slot.SUSPECT)
    return None


@dataclass(frozen=True)
class SlotPass:
    """A command's verb heard but not its argument: hear the argument again, continuing from the verb."""

    name: PassName = PassName.SLOT

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return slot_prefixes_for(hearing.current) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        """Try each prefix until one fills the slot; what was heard is kept when none does."""
        heard = hearing.current
        wanted = slot_prefixes_for(heard)
        assert wanted is not None
        weights = ears.settings.repairs
        kind, weight = (
            (CorrectionKind.EXHIBIT, weights.exhibit) if wanted.slot is Slot.EXHIBIT else (CorrectionKind.NAME, weights.slot)
        )
        tried: list[Transcript] = []
        for prefix in wanted.prefixes:
            slot = ears.recognizer.transcribe(hearing.audio, initial_prompt="", hotwords=None, prefix=prefix)
            tried.append(slot)
            if slot.rejected is not None:
                continue
            repair = Correction(kind, heard.text, slot.text, weight)
            filled = hearing.understand(ears, slot, repairs=(repair,))
            if fills(filled.message, wanted.slot):
                hearing.heard = filled
                break
        hearing.runs.append(PassRun(self.name, tuple(tried)))


# --- The closed-set pass ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ClosedSlot:
    """One slot of a command the transcript looks like, and the small set of what could fill it."""

    slot: Slot
    prefix: str  # the words before the slot, as the command is said: "Read", "Confront Phoebe with"
    candidates: tuple[str, ...]  # continuations of the prefix: " E7", " exhibit 7", " Keld"
    values: tuple[int | str, ...]  # what each candidate means: an exhibit number or a suspect key


def _exhibit_candidates() -> tuple[tuple[str, ...], tuple[int, ...]]:
    numbers = range(1, EXHIBITS + 1)
    candidates = (*(f" E{n}" for n in numbers), *(f" exhibit {n}" for n in numbers))
    return candidates, (*numbers, *numbers)


def _name_candidates(matcher: NamesMatcher) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every one-word name of the six (given names and surnames), as a continuation."""
    pairs = [(target.word, target.suspect) for target in matcher.targets if " " not in target.word]
    return tuple(f" {word}" for word, _ in pairs), tuple(key for _, key in pairs)


def closed_slot_for(heard: Heard, matcher: NamesMatcher) -> ClosedSlot | None:
    """The empty slot of a command the transcript looks like, or None.

    Only these qualify, each opening the message: "read …" without an exhibit, "confront SUSPECT
    with …" without one, "confront …" (either after the grammar's "we'd like to", "let's", ...) or
    "answers …" without a suspect. The transcript decides
    what the message is; the closed set only fills its argument. A slot the transcript filled is
    left as heard: on the tune fixtures the closed set's own choice there was never better and
    sometimes worse (a teen heard as E3 for E13 in the party).
    """
    if not heard.usable or heard.message is None:
        return None
    message = heard.message
    body = strip_openers(heard.text)
    read = _READ.match(body)
    if read and _said_after(body, read.end()) and not fills(message, Slot.EXHIBIT):
        return ClosedSlot(Slot.EXHIBIT, "Read", *_exhibit_candidates())
    # "We'd like to confront Phoebe Marsden with the iron.": the grammar's ways of asking to do a thing
    # (<let_us>) may open a confrontation; they stay in the words its slot is scored after. ("Shall we
    # read it again?" is table talk: a read must open the message.)
    asked = len(body) - len(after_words(body, phrases_grammar().part_words("let_us", body)))
    confront = _CONFRONT_WITH.match(body, asked)
    if confront and _said_after(body, confront.end()) and message.suspect and not fills(message, Slot.EXHIBIT):
        return ClosedSlot(Slot.EXHIBIT, _capitalised(body[: confront.end()]), *_exhibit_candidates())
    # Any other "Confront" opening a message that is not a whole confrontation: the suspect, or the
    # exhibit with no "with" after the suspect to continue from, or both were lost. The suspect is
    # found first (when lost), then the exhibit after it: one small batched pass per lost slot, each
    # scoring only that slot's candidates (all sixteen exhibits with all six suspects at once is
    # 24 decoder sequences, not one or two: tens of seconds on two loaded cores).
    opening = _CONFRONT.match(body, asked)
    if opening and _said_after(body, opening.end()) and not fills(message, Slot.CONFRONTATION):
        return ClosedSlot(Slot.CONFRONTATION, _capitalised(body[: opening.end()]), *_name_candidates(matcher))
    answers = _ANSWERS.match(body)
    if answers and _said_after(body, answers.end()) and not fills(message, Slot.SUSPECT):
        return ClosedSlot(Slot.SUSPECT, "Answers", *_name_candidates(matcher))
    # "Ask Flit, where were you?": the words after "Ask" named no one (not a pronoun: "Ask him").
    ask = _ASK.match(body)
    if ask and ask.group(2).split()[0].lower() not in _NOT_ADDRESSEES and not fills(message, Slot.ADDRESSEE):
        return ClosedSlot(Slot.ADDRESSEE, "Ask", *_name_candidates(matcher))
    return None


def _capitalised(said: str) -> str:
    return f"{said[:1].upper()}{said[1:]}"


def _said_after(body: str, end: int) -> bool:
    """Whether any word was heard after the verb: a slot nothing was heard in is not filled."""
    return bool(re.search(r"\w", body[end:]))


@dataclass(frozen=True)
class ClosedSetPass:
    """Score the small known set that can fill a command's slot against the audio, and fill or correct it.

    When the transcript looks like a command with an argument (read E{n}, confront NAME with E{n},
    answers NAME), the argument is one of 16 exhibits or six suspects. Each candidate is scored on
    the encoder output the first pass made (`Recognizer.score_continuations`: batched decoder calls,
    mean token log-probability; a candidate that cannot come within `closed_set_margin` of the best
    is not followed to its end). The best fills the empty slot when it reaches
    `closed_set_floor` and leads the next best by `closed_set_margin`; it is a repair, so a costly
    result is confirmed. The closed set always picks
    something, so it never decides that a sentence is a command: the transcript does.
    """

    name: PassName = PassName.CLOSED_SET

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return closed_slot_for(hearing.current, hearing.matcher) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        wanted = closed_slot_for(heard, hearing.matcher)
        assert wanted is not None
        if wanted.slot is Slot.CONFRONTATION:
            self._confrontation(hearing, ears, wanted)
            return
        said = closed_best(hearing, ears, wanted, self.name)
        if said is None:
            return
        if wanted.slot is Slot.ADDRESSEE:
            # The question as heard, put to the suspect the closed set found.
            body = strip_openers(hearing.current.text)
            ask = _ASK.match(body)
            assert ask is not None
            fill_slot(hearing, ears, wanted.slot, f"{body[: ask.start(2)]}{said.strip()}{body[ask.end(2) :]}")
        else:
            fill_slot(hearing, ears, wanted.slot, _with_argument(wanted, said))

    def _confrontation(self, hearing: Hearing, ears: Ears, names: ClosedSlot) -> None:
        """The suspect (unless heard), then the exhibit after "Confront NAME with"; both or nothing."""
        message = hearing.current.message
        assert message is not None
        suspect = message.suspect
        if suspect is None:
            said = closed_best(hearing, ears, names, self.name)
            if said is None:
                return
            name = said.strip()
        else:
            heard_names = [w for w, key in zip(names.candidates, names.values, strict=True) if key == suspect]
            name = next((w.strip() for w in heard_names if w.strip().lower() in hearing.current.text.lower()), "")
            name = name or heard_names[0].strip()
        prefix = f"{names.prefix} {name} with"
        exhibit = closed_best(hearing, ears, ClosedSlot(Slot.EXHIBIT, prefix, *_exhibit_candidates()), self.name)
        if exhibit is not None:
            fill_slot(hearing, ears, Slot.CONFRONTATION, f"{prefix} E{exhibit.split()[-1].lstrip('E')}.")


def closed_best(hearing: Hearing, ears: Ears, wanted: ClosedSlot, by: PassName) -> str | None:
    """Score the slot's candidates (batched, in stages: recorded as `by`'s run); the best, if it fits and
    stands out, else None."""
    # Only the best and whatever comes within the margin of it decide: the rest need not be scored to the end.
    settings = ears.settings
    scores = ears.recognizer.score_continuations(
        hearing.audio, wanted.prefix, wanted.candidates, keep_within=settings.closed_set_margin
    )
    hearing.runs.append(PassRun(by, (), (scores,)))
    best: dict[int | str, float] = {}
    for value, score in zip(wanted.values, scores.scores, strict=True):
        best[value] = max(best.get(value, -math.inf), score)
    ranked = sorted(best.values(), reverse=True)
    # The closed set always picks something: the best must fit (the floor) and stand out from
    # the next best (the margin), or the slot stays as heard.
    floor = settings.closed_set_exhibit_floor if wanted.slot is Slot.EXHIBIT else settings.closed_set_floor
    if ranked[0] < floor or ranked[0] - ranked[1] < settings.closed_set_margin:
        return None
    # The candidate that scored best, as said ("Francis" or "Keld": the next slot continues from it).
    return max(zip(scores.scores, wanted.candidates, strict=True))[1]


def understand_repaired(hearing: Hearing, ears: Ears, kind: CorrectionKind, weight: float, text: str) -> Heard:
    """`text`, which a pass put in place of what was heard, understood as a repair of it."""
    repair = Correction(kind, hearing.current.text, text, weight)
    first = hearing.first_transcript
    recognition = recognition_confidence(first.avg_logprob, first.no_speech_prob)
    return ears.understander.understand(text, hearing.classifier, recognition, hearing.seats, repairs=(repair,))


def fill_slot(hearing: Hearing, ears: Ears, slot: Slot, text: str) -> None:
    """Take the filled message as a repair (a costly one is confirmed), if it does fill the slot."""
    weights = ears.settings.repairs
    kind, weight = (CorrectionKind.EXHIBIT, weights.exhibit) if slot is Slot.EXHIBIT else (CorrectionKind.NAME, weights.slot)
    filled = understand_repaired(hearing, ears, kind, weight, text)
    if fills(filled.message, slot):
        hearing.heard = replace(filled, transcript=hearing.current.transcript)


def _with_argument(wanted: ClosedSlot, candidate: str) -> str:
    """The command with the slot filled by a candidate: "Read E7.", "Confront Keld with E3.", "Answers Keld."."""
    if wanted.slot is Slot.EXHIBIT:
        return f"{wanted.prefix} E{candidate.split()[-1].lstrip('E')}."
    return f"{wanted.prefix}{candidate}."


# --- The lost-citation pass -------------------------------------------------------------------------

# The card's words that cite an exhibit in a message put to a suspect ("Keld, explain E7", "To Keld:
# what do you say to exhibit 5?"); a question with one of these and no number lost its exhibit.
_CITING_WORD = re.compile(r"\b(?:exhibits?|explain)\b", re.IGNORECASE)
# The card's other ways to confront put to a suspect ("what about exhibit 4?", "what do you say to exhibit
# 13?"): after them a short rest of the clause may have been the exhibit ("what about and leave it to?").
# These words ask ordinary questions too ("what about your debts?"), so a number is filled only when one
# stands out, and the question is not asked about when none does.
_ASKING_ABOUT = re.compile(r"\b(?:what about|what do you say(?: to| about)?|how do you explain)\b", re.IGNORECASE)
_ASKING_ABOUT_MAX_WORDS = 4
# In any other message that is not whole, only "exhibit" says a number was meant after it.
_EXHIBIT_WORD = re.compile(r"\bexhibit\b", re.IGNORECASE)


@dataclass(frozen=True)
class LostCitation:
    """Where a message cites an exhibit whose number was lost, and what could fill it."""

    prefix: str  # the words up to the citing word, as heard: "To Julius, what do you say to exhibit"
    # A question to a suspect: what follows the lost number ("?": the heard word for the number is
    # dropped). Any other message: every word heard after the citing word (which were the number is
    # not known, so each way of dropping one to three of them, or none, is a reading).
    rest: str
    candidates: tuple[str, ...]  # " 7" after "exhibit"; " E7" or " exhibit 7" after "explain"
    values: tuple[int, ...]
    to_suspect: bool = True  # a question put to one of the six (else a message that is not whole)
    # whether the question, when no number stands out, is still asked about first (the card's own
    # citing words are; "what about ..." asks ordinary questions too)
    doubtful: bool = True

    def readings(self, citation: str) -> tuple[str, ...]:
        """The message with the number in its place: one text for a question, else each reading."""
        if self.to_suspect:
            return (f"{self.prefix}{citation}{self.rest}",)
        words = re.findall(r"[\s,]*[\w'-]+", self.rest)
        readings = []
        for dropped in (1, 2, 3, 0):
            if dropped <= len(words):
                after = self.rest[sum(len(word) for word in words[:dropped]) :]
                readings.append(f"{self.prefix}{citation}{after}")
        return tuple(dict.fromkeys(readings))


def lost_citation_for(heard: Heard) -> LostCitation | None:
    """A message whose words cite an exhibit but give no number, or None.

    A question to a suspect: "exhibit" followed by no number ("what do you say to exhibit, sir?"), or
    "explain" followed by no citation ("Miss Marsden, explain the eleven."): Whisper lost the number in
    the card's own words for a confrontation. Any other message that is not whole (`whole_message`:
    table talk, a request, a command without its argument) with "exhibit" followed by no number
    ("Could you read exhibit, fine?", "What does exhibit the love and say?"): the number is the one
    slot in doubt, whatever the words around it. Anything else is left as heard.
    """
    message = heard.message
    if not heard.usable or message is None:
        return None
    question = message.kind is MessageKind.QUESTION and message.suspect is not None
    if not question and whole_message(message):
        return None
    text = heard.text
    cues = _CITING_WORD if question else _EXHIBIT_WORD
    cue = next((m for m in cues.finditer(text) if not _cites_after(text, m.end())), None)
    if cue is None and question and not _CITING_WORD.search(text):
        return _lost_after_asking_about(text)
    if cue is None:
        return None
    after = text[cue.end() :]
    numbers = tuple(range(1, EXHIBITS + 1))
    after_exhibit = tuple(f" {n}" for n in numbers)  # " 7": "exhibit" is already heard
    if not question:
        if not re.search(r"\w", after):
            return None  # nothing heard where the number would be ("Read the exhibit."): not filled
        return LostCitation(text[: cue.end()], after, after_exhibit, numbers, to_suspect=False)
    if cue.group(0).lower().startswith("exhibit"):
        # The word Whisper heard for the number (one word, up to punctuation) is replaced.
        lost = re.match(r"[\s,]*(?:[\w'-]+)?", after)
        candidates = after_exhibit
        values: tuple[int, ...] = numbers
    else:
        # "explain the eleven": the rest of the clause was the exhibit.
        lost = re.match(r"[^.?!;:]*", after)
        candidates, values = _exhibit_candidates()
    assert lost is not None
    return LostCitation(text[: cue.end()], after[lost.end() :], candidates, values)


def _lost_after_asking_about(text: str) -> LostCitation | None:
    """A question whose short rest of the clause after "what about" (or "what do you say to") may have been
    the exhibit ("Companion, what about and leave it to?"), or None."""
    about = next((m for m in _ASKING_ABOUT.finditer(text) if not _cites_after(text, m.end())), None)
    if about is None:
        return None
    clause = re.match(r"[^.?!;:]*", text[about.end() :])
    assert clause is not None
    if not 0 < len(clause.group().split()) <= _ASKING_ABOUT_MAX_WORDS:
        return None
    candidates, values = _exhibit_candidates()
    if about.group().lower().endswith("say"):
        candidates = tuple(f" to{candidate}" for candidate in candidates)  # "what do you say to E5?"
    return LostCitation(text[: about.end()], text[about.end() + clause.end() :], candidates, values, doubtful=False)


def _cites_after(text: str, end: int) -> bool:
    """Whether an exhibit number follows the citing word ("exhibit 7", "explain E7")."""
    return bool(re.match(r"\W*(?:E\d|\d)", text[end:]))


@dataclass(frozen=True)
class LostCitationPass:
    """A message citing an exhibit whose number was lost: the 16 numbers scored in its place.

    A question to a suspect in the card's words for a confrontation ("To Julius, what do you say to
    exhibit, sir?", "Miss Marsden, explain the eleven."): taken as a question, it would spend the
    round's question on what was meant as a confrontation. The 16 exhibits are scored after the words
    as heard (the closed set's own scorer, floor and margin); the best fills the citation as a repair
    (so it is confirmed). When none stands out the question is still asked about first: the table may
    have meant a confrontation.
    Any other message that is not whole and says "exhibit" with no number after it ("Could you read
    exhibit, fine?"): the best number, when it stands out, is put in place of the words heard for it,
    and the message taken only if that makes it whole (a repair: a costly one is confirmed).
    """

    name: PassName = PassName.LOST_CITATION

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return lost_citation_for(hearing.current) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        lost = lost_citation_for(heard)
        assert lost is not None
        said = closed_best(hearing, ears, ClosedSlot(Slot.EXHIBIT, lost.prefix, lost.candidates, lost.values), self.name)
        if not lost.to_suspect:
            if said is not None:
                self._make_whole(hearing, ears, lost, f" {said.split()[-1]}")
            return
        if said is not None:
            number = said.split()[-1].lstrip("E")
            citation = f" {number}" if lost.prefix.lower().endswith(("exhibit", "exhibits")) else f" E{number}"
            citation = f" to{citation}" if said.startswith(" to ") else citation  # "what do you say" + " to E5"
            fill_slot(hearing, ears, Slot.EXHIBIT, lost.readings(citation)[0])
        if hearing.current.message is heard.message and lost.doubtful:
            hearing.heard = replace(heard, needs_confirmation=bool(heard.message and heard.message.costly))

    def _make_whole(self, hearing: Hearing, ears: Ears, lost: LostCitation, citation: str) -> None:
        """The first reading with the number in place that is a whole message, as a repair."""
        weight = ears.settings.repairs.exhibit
        for text in lost.readings(citation):
            found = understand_repaired(hearing, ears, CorrectionKind.EXHIBIT, weight, text)
            if whole_message(found.message):
                hearing.heard = replace(found, transcript=hearing.current.transcript)
                return


# --- The addressee pass -----------------------------------------------------------------------------

# The card's ways to put a question (MESSAGES rule 4) that come before the name, and the titles said
# with a surname (the names matcher's): kept as heard, the name after them is the slot.
_TITLE = "(?:" + "|".join(SPOKEN_TITLES) + ")"
_ADDRESS_WORDS = "|".join(words.replace(" ", r"\s+") for words in ADDRESS_WORDS)
_ADDRESS_OPENING = re.compile(rf"^\W*(?:(?:{_ADDRESS_WORDS})\b[\s,.:]*)?(?:{_TITLE}\b\.?\s*)?", re.IGNORECASE)
_TITLED = re.compile(rf"{_TITLE}\.?$", re.IGNORECASE)
# The head of a message put to someone: up to four words before its first comma, colon or stop.
_HEAD = re.compile(r"^\W*((?:[\w'.-]+\s+){0,3}?[\w'.-]+)\s*[,:;.!?]\s*(.*)$", re.DOTALL)
_TITLE_STOP = re.compile(r"\b(Mr|Mrs|Ms|Rev|Dr)\.", re.IGNORECASE)
_YOU_WORDS = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)


@dataclass(frozen=True)
class LostAddressee:
    """A question whose addressee was lost: the words kept before the name, and the question after it."""

    prefix: str  # "Ask", "Question for", "Mrs.", or "" (the name opened the message)
    question: str  # "how did you get mud on your shoes?"


def lost_addressee_for(heard: Heard) -> LostAddressee | None:
    """A message shaped like a question put to someone, whose head named no one, or None.

    The head is the words before the first comma, colon or stop (at most four, none of them a
    question word or "you"); what follows must read as a question (it opens with a question word,
    says "you" or ends with "?"). "Sir Goyer, how did you get mud on your shoes?" and "Yeah, where
    were you at 10?" qualify; "Who killed her, though?" and "Well, I think so." do not.
    """
    if heard.rejected is not None or not heard.text:
        return None
    message = heard.message
    if message is not None and message.suspect is not None:
        return None
    if not (_unusable(heard) or (message is not None and message.kind is MessageKind.QUESTION)):
        return None
    # "Mrs. Logick, …": a title's full stop is not where the head ends.
    head = _HEAD.match(_TITLE_STOP.sub(r"\1", heard.text))
    if head is None:
        return None
    words = re.findall(r"[\w']+", head.group(1).lower())
    if any(word in QUESTION_WORDS or _YOU_WORDS.fullmatch(word) for word in words):
        return None
    if not strip_openers(head.group(1)).strip(" ,.:;"):
        return None  # "Okay, what do you think?": only an opener before the question
    question = head.group(2).strip()
    first = re.findall(r"[\w']+", question.lower())[:1]
    if not (question.endswith("?") or _YOU_WORDS.search(question) or (first and first[0] in QUESTION_WORDS)):
        return None
    opening = _ADDRESS_OPENING.match(head.group(1))
    prefix = opening.group(0).strip(" ,.:") if opening else ""
    if prefix and len(prefix) >= len(head.group(1).strip(" ,.:")):
        return None  # nothing heard where the name goes ("To, where ...")
    return LostAddressee(prefix, question)


def _address_candidates(matcher: NamesMatcher, titled: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The six's one-word names, and (without a title before them) their roles after "the"."""
    names, keys = _name_candidates(matcher)
    if titled:
        return names, keys
    roles = [(f" the {target.word}", target.suspect) for target in matcher.role_targets]
    return (*names, *(said for said, _ in roles)), (*keys, *(key for _, key in roles))


@dataclass(frozen=True)
class AddresseePass:
    """A question put to someone whose name was lost: score the six in the name's place.

    Whisper writes an espeak voice's "The lawyer, how did you ..." as "Sir Goyer, how did you ...",
    and "Mrs Ruddock, your letter ..." as "Mrs. Logick, ...": the message is a question in the card's
    form, but its head names no one the matcher can reach. The six's names (and, with no title heard,
    their roles after "the") are scored in the head's place, after the card's opening words heard
    before it ("Ask", "Question for", "To", a title), with the closed set's own scorer, floor and
    margin. The best is put in the head's place and the question goes to them as a repair, always
    asked about first (a question is spent on the closed set's choice).
    """

    name: PassName = PassName.ADDRESSEE

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return lost_addressee_for(hearing.current) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        lost = lost_addressee_for(heard)
        assert lost is not None
        titled = bool(_TITLED.search(lost.prefix))
        candidates, values = _address_candidates(hearing.matcher, titled)
        said = closed_best(hearing, ears, ClosedSlot(Slot.ADDRESSEE, lost.prefix, candidates, values), self.name)
        if said is None:
            return
        text = f"{lost.prefix} {said.strip()}, {lost.question}".strip()
        found = understand_repaired(hearing, ears, CorrectionKind.NAME, ears.settings.repairs.slot, text)
        if found.message is not None and found.message.kind is MessageKind.QUESTION and found.message.suspect is not None:
            hearing.heard = replace(found, transcript=heard.transcript, needs_confirmation=True)


# --- The whole-command pass ------------------------------------------------------------------------


@dataclass(frozen=True)
class CommandCandidate:
    """One of the card's free commands as Whisper would write it, and the card message it is."""

    said: str  # " Next", " Read E7", " Answers Keld": a continuation of nothing, as Whisper spells it
    card: str  # what it means, the same for every way of saying it: "next", "read E7", "answers keld"


def whole_command_candidates() -> tuple[CommandCandidate, ...]:
    """The card's free commands as the engine's grammar phrases them, each said alone.

    "Read E{n}" shares "Read E": the scorer's prefix trie forces it once, and the sixteen numbers
    after it are one sequence. "Answers NAME" is "Answers" here; its name is a second small closed
    set, scored only when "Answers" wins (a sequence per name would triple the pass's cost).
    """
    alone = [command for command in Command if command is not Command.READ]
    words = [*(command.value for command in alone), "repeat"]
    candidates = [CommandCandidate(f" {word[:1].upper()}{word[1:]}", word) for word in words]
    candidates += [CommandCandidate(f" Read E{n}", f"read E{n}") for n in range(1, EXHIBITS + 1)]
    return tuple(candidates)


def _words(text: str) -> int:
    return len(re.findall(r"\w+", text))


@dataclass(frozen=True)
class WholeCommandPass:
    """A short utterance that gave the Host nothing: was it one of the card's commands, said alone?

    The card's free commands (`whole_command_candidates`) and the transcript's own words are scored
    against the audio in one batched decoder pass over their prefix trie, on the encoder output the
    first pass made (`Recognizer.score_continuations`, with no prefix: each candidate is the whole
    utterance, all under the first pass's prompt). The best command is taken only when it fits
    (`whole_command_floor`), clearly beats the next command (`whole_command_margin`) and comes close
    to the transcript or beats it (`whole_command_over_transcript`: Whisper's own output nearly always
    scores best); it is a repair, so a costly one is confirmed, and a narrow lead (or a command behind
    the transcript) is confirmed even for a free command. Only short utterances qualify
    (`whole_command_max_seconds`, `whole_command_max_words`): longer table talk never becomes a command.
    """

    name: PassName = PassName.WHOLE_COMMAND

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        if not _unusable(heard) or hearing.first is None:
            return False
        settings = ears.settings
        if len(hearing.audio) / SAMPLE_RATE > settings.whole_command_max_seconds:
            return False
        # A rejected transcript ("Yes, yes, yes, yes…", a phantom "Thank you.") is no words at all.
        said = "" if heard.rejected is not None else hearing.first.raw_text
        return _words(said) <= settings.whole_command_max_words

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        first = hearing.first_transcript
        candidates = whole_command_candidates()
        own = "" if heard.rejected is not None else first.raw_text.strip()
        said = [candidate.said for candidate in candidates]
        # Conditioned on the first pass's prompt, so that the transcript it made and the commands
        # are scored alike (unprompted, a command opening a transcript is unlikely to Whisper).
        scores = ears.recognizer.score_continuations(
            hearing.audio,
            "",
            [*said, f" {own}"] if own else said,
            initial_prompt=ears.vocabulary.prompt,
            keep_within=ears.settings.whole_command_keep_within,
        )
        hearing.runs.append(PassRun(self.name, (), (scores,)))
        best: dict[str, float] = {}
        for candidate, score in zip(candidates, scores.scores, strict=False):
            best[candidate.card] = max(best.get(candidate.card, -math.inf), score)
        transcript = scores.scores[-1] if own else -math.inf
        ranked = sorted(best.items(), key=lambda pair: pair[1], reverse=True)
        (card, top), (_, runner_up) = ranked[0], ranked[1]
        settings = ears.settings
        over_next, over_transcript = top - runner_up, top - transcript
        if top < settings.whole_command_floor or over_next < settings.whole_command_margin:
            return
        if over_transcript < settings.whole_command_over_transcript:
            return
        text = next(c.said for c in candidates if c.card == card).strip()
        if card == Command.ANSWERS.value:
            # Whose answers: the six's names after "Answers", the closed set's own small pass.
            name = closed_best(hearing, ears, ClosedSlot(Slot.SUSPECT, "Answers", *_name_candidates(hearing.matcher)), self.name)
            if name is None:
                return
            text += name
        text += "."
        repair = Correction(CorrectionKind.WHOLE_COMMAND, heard.transcript, text, settings.repairs.whole_command)
        recognition = recognition_confidence(first.avg_logprob, first.no_speech_prob) if heard.rejected is None else 1.0
        found = ears.understander.understand(text, hearing.classifier, recognition, hearing.seats, repairs=(repair,))
        if found.message is None:
            return
        close = min(over_next, over_transcript) < settings.whole_command_sure
        hearing.heard = replace(found, transcript=heard.transcript, needs_confirmation=found.needs_confirmation or close)


# --- The phrased-command pass ----------------------------------------------------------------------


@dataclass(frozen=True)
class PhrasedCommandPass:
    """A short utterance that gave the Host nothing: was it a command in other words, heard wrong?

    "What on in the bit 14 say?" is no template's match, but its words are near "what does E{exhibit}
    say", one of the ways the phrase grammar's tests say "read". The phrasings nearest the words heard
    (`phrasings.nearest_phrasings`) have their slot filled by the number or name heard (a phrasing
    whose slot the words do not fill is dropped), and are scored against the audio with the
    transcript's own words, all under the first pass's prompt, on the kept encoder output (one
    batched decoder call). The best is taken when it fits (`phrased_command_floor`), is no more
    than `phrased_command_behind` behind the transcript (Whisper's own output nearly always scores
    best) and is a whole card command; it is a repair, so a costly one is confirmed, and one
    further behind than `phrased_command_sure` too.
    """

    name: PassName = PassName.PHRASED_COMMAND

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        settings = ears.settings
        if settings.phrased_command_candidates <= 0 or hearing.first is None or heard.rejected is not None:
            return False
        if not _unusable(heard) or len(hearing.audio) / SAMPLE_RATE > settings.phrased_command_max_seconds:
            return False
        return 0 < _words(hearing.first.raw_text) <= settings.phrased_command_max_words

    def run(self, hearing: Hearing, ears: Ears) -> None:
        settings = ears.settings
        own = hearing.first_transcript.raw_text.strip()
        # Numbers as the normaliser reads them ("exhibit seven" is exhibit 7), the words as heard.
        numbered = normalise(own)
        names = frozenset(target.word.lower() for target in hearing.matcher.targets)
        nearest = nearest_phrasings(
            numbered, command_phrasings(), names, settings.phrased_command_candidates, settings.phrased_command_alike
        )
        texts = list(dict.fromkeys(text for phrasing in nearest if (text := self._filled(phrasing, numbered, names))))
        if not texts:
            return
        scores = ears.recognizer.score_continuations(
            hearing.audio, "", [*(f" {text}" for text in texts), f" {own}"], initial_prompt=ears.vocabulary.prompt
        )
        hearing.runs.append(PassRun(self.name, (), (scores,)))
        top, text = max(zip(scores.scores, texts, strict=False))
        behind = top - scores.scores[-1]
        if top < settings.phrased_command_floor or behind < -settings.phrased_command_behind:
            return
        heard = hearing.current
        found = understand_repaired(hearing, ears, CorrectionKind.PHRASED_COMMAND, settings.repairs.phrased_command, text)
        if found.message is None or found.message.kind is not MessageKind.COMMAND or not whole_message(found.message):
            return
        unsure = behind < -settings.phrased_command_sure
        hearing.heard = replace(found, transcript=heard.transcript, needs_confirmation=found.needs_confirmation or unsure)

    def _filled(self, phrasing: CommandPhrasing, own: str, names: frozenset[str]) -> str | None:
        """The phrasing as Whisper would write it, its slot filled by the one number or name the words
        heard have; None when they have none.

        Scoring the slot's values in place costs a decoder call (and a name's, one sequence per name,
        with the rest of the phrasing after it: alone, " Blamire" outscored " Thwaite" for "Waits
        answers"); on tune it found no command the words did not already give.
        """
        said = phrasing.said
        if not phrasing.slots:
            return as_whisper_writes(said)
        slot = phrasing.slots[0]
        if slot == "name":
            fill = heard_name(own, names)
        else:
            fill = heard_number(own)
            if fill is not None and not 1 <= int(fill) <= (EXHIBITS if slot == "exhibit" else ROUNDS):
                fill = None
        return None if fill is None else as_whisper_writes(said.format_map({slot: fill}))


# --- The n-best pass --------------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Hypothesis:
    """One of the beam's transcripts, and what it would be taken as."""

    said: str  # Whisper's words
    avg_logprob: float
    heard: Heard


def choose_hypothesis(first: Hypothesis, others: Sequence[Hypothesis], behind: float) -> Hypothesis | None:
    """The hypothesis to take instead of the first transcript, or None.

    Only a hypothesis whose understanding is a whole card message (`whole_message`) and that Whisper
    scored no more than `behind` below the best of all (the first transcript included) qualifies; of
    those, the one Whisper scored best. Words the first transcript already had are never a new choice.
    """
    usable = [h for h in others if h.heard.rejected is None and h.said.strip() != first.said.strip()]
    best = max([first.avg_logprob, *(h.avg_logprob for h in usable)])
    whole = [h for h in usable if whole_message(h.heard.message) and h.avg_logprob >= best - behind]
    return max(whole, key=lambda h: h.avg_logprob, default=None)


@dataclass(frozen=True)
class NBestPass:
    """The transcript is not a whole card message: did the beam have one close behind it?

    Whisper's beam search finds several transcripts and faster-whisper keeps the best. For a voice
    Whisper mishears, the words the table said are often a close runner-up ("Ass, Marsden, is it
    true …" first, "As Marsden, is it true …" 0.05 behind; "Read it well." first, "Read the
    twelve." behind it). When what the transcript was taken as is not a whole message (table talk, a
    request to the Host, a command or question that lost its argument), the beam's hypotheses
    (`nbest_hypotheses`, one beam search on the encoder output already made) are each understood,
    and the best that is a whole message within `nbest_behind` of the best score is taken
    (`choose_hypothesis`), as a repair: a costly one (a question, a confrontation) is always asked
    about first, so table talk the beam turned into a question costs a confirmation, never a question.
    A transcript a guard rejected (a loop, a phantom, no speech) is left: its runners-up are the same.
    """

    name: PassName = PassName.NBEST

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        first = hearing.first
        on = ears.settings.nbest_hypotheses > 0  # off as it ships: see the settings
        return on and first is not None and first.rejected is None and not whole_message(hearing.current.message)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        first = hearing.first_transcript
        found = ears.recognizer.hypotheses(hearing.audio, ears.vocabulary.prompt, ears.settings.nbest_hypotheses)
        hearing.runs.append(PassRun(self.name, found.transcripts))
        weight = ears.settings.repairs.nbest
        others = [
            Hypothesis(
                h.raw_text,
                h.avg_logprob,
                hearing.understand(ears, h, repairs=(Correction(CorrectionKind.NBEST, first.raw_text, h.raw_text, weight),)),
            )
            for h in found.transcripts
        ]
        chosen = choose_hypothesis(Hypothesis(first.raw_text, first.avg_logprob, heard), others, ears.settings.nbest_behind)
        if chosen is not None:
            hearing.heard = replace(chosen.heard, transcript=heard.transcript)


# --- The slower pass --------------------------------------------------------------------------------


def _asks_the_host(text: str) -> bool:
    """A request to the voice host itself ("Say that again.", "Pardon?"): whole as it is, not a card message."""
    said = phrases_grammar().match(text)
    return said is not None and said.intent.kind is IntentKind.HOST


@dataclass(frozen=True)
class SlowerPass:
    """The transcript is not a whole card message: does Whisper hear one with the utterance played slower?

    Whisper base mishears voices unlike those it learned from (espeak-ng's, at 160-200 words a
    minute) in ways that depend on the voice; the same audio played a tenth slower and lower
    (`slower_playback_rate`, a plain resampling) is another view of it, misheard otherwise. As the
    first view (every utterance heard slower) it gained espeak-ng voices and lost piper ones; as a
    second view, only for what the first left short of a whole message (`whole_message`; a request
    to the Host is whole as it is), it keeps what the first heard right. What the slower view hears
    is understood, and taken when it is a whole message; it is a repair, so a costly one is always
    asked about first. It costs a pass (the encoder on the new audio, and a decode); the encoder
    output of the utterance as said stays kept for the passes after it. Not when the gaps between
    the words hold another voice (`near_voice_gaps_above_db`, the near-voice pass's own measure): in
    the kitchen on tune it ran on 59 of 80 utterances and understood none more.
    """

    name: PassName = PassName.SLOWER

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        settings = ears.settings
        if settings.slower_playback_rate == 1.0 or hearing.first is None:
            return False
        if whole_message(heard.message) or (heard.rejected is None and _asks_the_host(heard.text)):
            return False
        # Not when the gaps hold another voice (the near-voice pass's case): played slower, the other
        # talkers are heard slower too.
        return ears.near_voice.gap_level_db(hearing.audio) <= settings.near_voice_gaps_above_db

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        settings = ears.settings
        slower = ears.recognizer.transcribe(
            hearing.audio,
            initial_prompt=ears.vocabulary.prompt,
            beam_size=settings.slower_beam_size,
            playback_rate=settings.slower_playback_rate,
        )
        hearing.runs.append(PassRun(self.name, (slower,)))
        if slower.rejected is not None:
            return
        repair = Correction(CorrectionKind.SLOWER, heard.transcript, slower.raw_text, settings.repairs.slower)
        found = hearing.understand(ears, slower, repairs=(repair,))
        if whole_message(found.message):
            hearing.heard = replace(found, transcript=heard.transcript)


# --- The focus pass ---------------------------------------------------------------------------------


def loudest_speaker_text(words: Sequence[HeardWord], within_db: float = DEFAULT_SETTINGS.focus_within_db) -> str:
    """The words said loudly enough to be the nearest voice: the one talking to the laptop."""
    if not words:
        return ""
    top = max(word.level_db for word in words)
    return " ".join(word.text for word in words if word.level_db >= top - within_db)


@dataclass(frozen=True)
class FocusPass:
    """Time the first pass's words, measure how loud each was, and keep only the loudest speaker's.

    With other people talking, Whisper writes their words too ("Okay, next, read, the
    experiment."); the person talking to the laptop is the nearest and loudest voice. Used only
    when the whole transcript gave the Host nothing to act on though the game's words are in it;
    what it finds is a repair.
    """

    name: PassName = PassName.FOCUS

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        return _unusable(heard) and heard.rejected is None and _has_game_words(heard, hearing.matcher)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        loud = ears.recognizer.time_words(hearing.audio, hearing.first_transcript)
        hearing.runs.append(PassRun(self.name, (loud,)))
        kept = loudest_speaker_text(loud.words, ears.settings.focus_within_db) if loud.rejected is None else ""
        if not kept:
            return
        repair = Correction(CorrectionKind.FOCUS, loud.raw_text, kept, ears.settings.repairs.focus)
        recognition = recognition_confidence(loud.avg_logprob, loud.no_speech_prob)
        focused = ears.understander.understand(kept, hearing.classifier, recognition, hearing.seats, repairs=(repair,))
        if not _unusable(focused):
            hearing.heard = replace(focused, transcript=loud.raw_text)


# --- The near-voice pass ----------------------------------------------------------------------------


@dataclass(frozen=True)
class NearVoicePass:
    """Hear it again with only the nearest voice loud, and take what that finds if it is usable.

    It hears in the party some utterances the other passes could not, and loses none they could
    (the figures: docs/benchmarks.md, "Voice understanding"); it costs a decode (the encoder too:
    the audio is new), only for an utterance the Host could not act on that Whisper was not sure of,
    and whose gaps hold something the gate would take out (`near_voice_gaps_above_db`).
    """

    name: PassName = PassName.NEAR_VOICE

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        settings = ears.settings
        unsure = hearing.first_transcript.avg_logprob < settings.near_voice_below_logprob
        if not (_unusable(heard) and heard.rejected is None and unsure):
            return False
        # Only when the gate has another voice to take out of the gaps: else it hears the same again.
        return ears.near_voice.gap_level_db(hearing.audio) > settings.near_voice_gaps_above_db

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        near = ears.recognizer.transcribe(ears.near_voice.apply(hearing.audio), initial_prompt=ears.vocabulary.prompt)
        hearing.runs.append(PassRun(self.name, (near,)))
        if near.rejected is not None:
            return
        repair = Correction(CorrectionKind.FOCUS, heard.transcript, near.text, ears.settings.repairs.focus)
        found = hearing.understand(ears, near, repairs=(repair,))
        if not _unusable(found):
            hearing.heard = found


# --- The accused's-exhibits pass --------------------------------------------------------------------

# What an exhibit list after the accused's name is made of, as the classifier reads it: citations of
# E1-E16, the list's own words and punctuation. Any other word heard there ("he says", "at 0.3.413",
# "exhibit, sporty") is where numbers were lost.
_EXHIBIT_LIST = re.compile(
    r"(?:[\s,.:;&!-]|\b(?:and|with|exhibits?|E?(?:1[0-6]|[1-9]))\b)*",
    re.IGNORECASE,
)


def accused_exhibits_prefix(heard: Heard, matcher: NamesMatcher) -> str | None:
    """The words up to the end of the accused's name, when what was heard after it is no exhibit list.

    An accusation ("We accuse Phoebe Marsden, he says.", "It was the butler, be I.") names its
    accused, and its exhibits are a short list of one to six of sixteen numbers: the transcript keeps
    the name and loses the numbers. Nothing after the name (an accusation citing no exhibits) and a
    list the classifier reads whole ("… Marsden: E3, E11.") are left as heard.
    """
    message = heard.message
    if not heard.usable or message is None or message.kind is not MessageKind.ACCUSATION or message.suspect is None:
        return None
    end = matcher.name_end(heard.text, message.suspect)
    if end is None:
        return None
    tail = heard.text[end:]
    if not re.search(r"\w", tail) or _EXHIBIT_LIST.fullmatch(tail):
        return None
    return heard.text[:end]


@dataclass(frozen=True)
class AccusedExhibitsPass:
    """An accusation whose exhibits were lost after the accused's name: the list scored slot by slot.

    The closed set is the sixteen exhibits, one slot at a time on the encoder output already made:
    after the words up to the name ("We accuse Phoebe Marsden"), the first exhibit in the ways Whisper
    writes a list (", E7", ", exhibits 7", and both after "with"); then after each exhibit found, every exhibit not
    yet in the list (", E9", " and E9") and the list's end ("."), one batched decoder call per slot.
    Each slot is the closed set's own (`closed_best`: its floor and margin), and the list ends where
    the end wins or nothing stands out; a list
    that is only part of the one heard leaves what was heard. The card reads an accusation back
    before anything is locked, so the list found is taken as it is. Only in round A: before it an
    accusation is only told to wait.
    """

    name: PassName = PassName.ACCUSED_EXHIBITS

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        # Before round A an accusation is only told to wait: its exhibits change nothing.
        return hearing.classifier.accusing() and accused_exhibits_prefix(hearing.current, hearing.matcher) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        prefix = accused_exhibits_prefix(heard, hearing.matcher)
        assert prefix is not None and heard.message is not None
        numbers = range(1, EXHIBITS + 1)
        # Each way of opening the list is one forced path: the numbers after it are single tokens.
        openings = {", E": "E", ", exhibits ": "", " with E": "E", " with exhibits ": ""}
        first = self._slot(
            hearing, ears, prefix, {f"{said}{n}": (n, form) for said, form in openings.items() for n in numbers}
        )
        if first is None:
            return
        said, (number, form) = first
        found = [number]
        while len(found) < MAX_COUNTED_EXHIBITS:
            left = [n for n in numbers if n not in found]
            candidates: dict[str, tuple[int, str]] = {".": (0, form)}
            for joiner in (",", " and"):
                candidates.update({f"{joiner} {form}{n}": (n, form) for n in left})
            step = self._slot(hearing, ears, said, candidates)
            if step is None or step[1][0] == 0:
                break
            said, found = said + step[0], [*found, step[1][0]]
        if set(found) < set(heard.message.exhibits):
            return  # the list ended sooner than the one heard ("E1, E8, E13, E16, C."): what was heard stands
        text = f"{prefix.rstrip(' ,.:;')}: {', '.join(f'E{n}' for n in found)}."
        repaired = understand_repaired(hearing, ears, CorrectionKind.EXHIBIT, ears.settings.repairs.exhibit, text)
        message = repaired.message
        if message is not None and message.kind is MessageKind.ACCUSATION and message.suspect == heard.message.suspect:
            hearing.heard = replace(repaired, transcript=heard.transcript)

    def _slot(
        self, hearing: Hearing, ears: Ears, said: str, candidates: dict[str, tuple[int, str]]
    ) -> tuple[str, tuple[int, str]] | None:
        """The candidate (and what it means: its exhibit, 0 for the list's end) that fills the next slot
        after `said`, or None."""
        continuations = tuple(candidates)
        values = tuple(candidates[continuation][0] for continuation in continuations)
        best = closed_best(hearing, ears, ClosedSlot(Slot.EXHIBIT, said, continuations, values), self.name)
        return None if best is None else (best, candidates[best])


# --- The check pass ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckPass:
    """A costly message naming a suspect that would go through: was the name heard without the prompt?

    Here the heard message is the first pass's own: what a slot, focus or near-voice pass finds is a
    repair, so a costly result from them is confirmed already and never reaches the check. A name the
    unprompted decode did not write is uncertain (the message is asked about first) unless it was
    heard in its place (`name_heard_in_place`): unprompted, Whisper misspells the names it does not know.
    """

    name: PassName = PassName.CHECK

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        message = heard.message
        named = hearing.matcher.suspects_named(heard.text) if heard.usable else ()
        return message is not None and message.costly and not heard.needs_confirmation and bool(named)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        hearing.unchecked, hearing.unchecked_seconds = heard, time.perf_counter() - hearing.started
        named = hearing.matcher.suspects_named(heard.text)
        plain = ears.recognizer.transcribe(
            hearing.audio, initial_prompt="", hotwords=None, beam_size=ears.settings.check_beam_size
        )
        hearing.runs.append(PassRun(self.name, (plain,)))
        plain_text = repaired_text(plain.text, hearing.matcher, ears.settings)[0] if plain.rejected is None else ""
        plain_names = set(hearing.matcher.suspects_named(plain_text))
        uncertain = tuple(key for key in named if key not in plain_names)
        # Unprompted, Whisper misspells a name it does not know ("Kailt", "Ables wait", "Vickr"): a name
        # the closed set hears in its place counts as heard. Not when the unprompted pass wrote someone
        # else's name: then the two passes disagree on who it was. A name only the matcher made of the
        # unprompted words ("Parsons" put right as Marsden, "Miss Martian" as Martha) is its guess, and
        # the closed set, which scores all six there, judges it better.
        said = plain.raw_text if plain.rejected is None else ""
        if uncertain and set(hearing.matcher.suspects_named(said)) <= set(named):
            uncertain = tuple(key for key in uncertain if not name_heard_in_place(hearing, ears, key, said))
        if uncertain:
            hearing.heard = hearing.understand(ears, hearing.first_transcript, uncertain)


_WORD = re.compile(r"[\w']+")


def words_in_place(first: str, start: int, end: int, plain: str) -> tuple[str, ...]:
    """The unprompted transcript's words where the first transcript has `first[start:end]` (a name).

    The two transcripts' words are aligned (difflib, the standard library's longest matching blocks,
    case folded); what the plain transcript has in place of the name's words ("Ables wait" for "Abel
    Thwaite"), or () when it has nothing there ("When did you come man?" for "Julius, when did you
    come man?").
    """
    spans = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(first)]
    named = [i for i, (a, b, _) in enumerate(spans) if a < end and b > start]
    if not named:
        return ()
    theirs = [m.group(0) for m in _WORD.finditer(plain)]
    matcher = difflib.SequenceMatcher(a=[w for _, _, w in spans], b=[w.lower() for w in theirs], autojunk=False)
    found: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "delete" and i1 <= named[-1] and i2 > named[0]:
            found.extend(theirs[j1:j2])
    return tuple(found)


def _spoken_name_candidates(matcher: NamesMatcher, capital: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The six's one-word names and roles as continuations, each with the case of the word heard."""
    targets = [*(t for t in matcher.targets if " " not in t.word), *matcher.role_targets]
    cased = [f" {t.word[:1].upper() if capital else t.word[:1].lower()}{t.word[1:]}" for t in targets]
    return tuple(cased), tuple(t.suspect for t in targets)


def name_heard_in_place(hearing: Hearing, ears: Ears, suspect: str, plain: str) -> bool:
    """Whether the suspect's name, which only the prompted pass wrote, was said where it wrote it.

    Two things must hold. The unprompted pass heard words in the name's place (`words_in_place`):
    a name the prompt made out of nothing (a pause, another talker) has none. And the six's names and
    roles, scored unprompted after the words the first pass wrote before the name (the closed set's
    scorer on the encoder output already made), put this suspect's first by `check_name_margin` at
    `check_name_floor` or better.
    """
    first = hearing.first_transcript.raw_text
    span = hearing.matcher.first_mention(first, suspect)
    if span is None or not words_in_place(first, *span, plain):
        return False
    settings = ears.settings
    candidates, keys = _spoken_name_candidates(hearing.matcher, first[span[0]].isupper())
    scores = ears.recognizer.score_continuations(
        hearing.audio, first[: span[0]].rstrip(), candidates, keep_within=settings.check_name_margin
    )
    hearing.runs.append(PassRun(PassName.CHECK, (), (scores,)))
    best: dict[str, float] = {}
    for key, score in zip(keys, scores.scores, strict=True):
        best[key] = max(best.get(key, -math.inf), score)
    own = best.pop(suspect, -math.inf)
    return own >= settings.check_name_floor and own - max(best.values(), default=-math.inf) >= settings.check_name_margin


def cascade_for(biasing: Biasing) -> tuple[RecognitionPass, ...]:
    """The passes for a biasing choice, in the order they run."""
    if biasing is Biasing.NONE:
        return (FirstPass(prompted=False),)
    passes: tuple[RecognitionPass, ...] = (
        FirstPass(),
        ClosedSetPass(),
        LostCitationPass(),
        FocusPass(),
        NBestPass(),
        SlowerPass(),
        NearVoicePass(),
        AccusedExhibitsPass(),
        AddresseePass(),
        WholeCommandPass(),
        PhrasedCommandPass(),
    )
    return (*passes, CheckPass()) if biasing is Biasing.PROMPT_CHECKED else passes


# --- The loop ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recognised:
    """What the table meant, and every pass that ran to find it."""

    heard: Heard
    runs: tuple[PassRun, ...]
    seconds: float = 0.0  # recognition and understanding, all passes
    first: Heard | None = None  # what was meant before the check pass (set when a check ran)
    first_seconds: float = 0.0
    # Processor time of the whole process while the passes ran (every thread: CTranslate2's own too).
    # On a loaded machine this, not `seconds`, says what the passes cost.
    processor_seconds: float = 0.0

    def _of(self, name: PassName) -> tuple[Transcript, ...]:
        return tuple(transcript for run in self.runs if run.name is name for transcript in run.transcripts)

    def _one(self, name: PassName) -> Transcript | None:
        found = self._of(name)
        return found[0] if found else None

    @property
    def transcript(self) -> Transcript:
        """The first pass's transcript."""
        first = self._one(PassName.FIRST)
        assert first is not None
        return first

    @property
    def slots(self) -> tuple[Transcript, ...]:
        """The slot pass's transcripts, one per prefix tried."""
        return self._of(PassName.SLOT)

    @property
    def focus(self) -> Transcript | None:
        """The first transcript with its words timed, when a focus pass ran."""
        return self._one(PassName.FOCUS)

    @property
    def near(self) -> Transcript | None:
        return self._one(PassName.NEAR_VOICE)

    @property
    def unbiased(self) -> Transcript | None:
        """The check pass's transcript, when one ran."""
        return self._one(PassName.CHECK)

    @property
    def transcripts(self) -> tuple[Transcript, ...]:
        """Every recognition pass that ran, in order."""
        return tuple(transcript for run in self.runs for transcript in run.transcripts)

    @property
    def scores(self) -> tuple[SlotScores, ...]:
        """What the closed-set pass scored, when it ran."""
        return tuple(scores for run in self.runs for scores in run.scores)

    @property
    def passes(self) -> int:
        """Whisper's passes over the audio: decodes (one per n-best list), word timings and closed-set scorings."""
        return sum(run.decodes for run in self.runs) + len(self.scores)

    @property
    def recognition_seconds(self) -> float:
        """Time spent in Whisper, all passes (`seconds` adds understanding)."""
        return sum(t.seconds for t in self.transcripts) + sum(s.seconds for s in self.scores)


@dataclass
class RecognitionPasses:
    """Runs the cascade for one utterance with the chosen biasing: every pass that applies, in order."""

    recognizer: Recognizer
    vocabulary: Vocabulary
    understander: Understander
    biasing: Biasing = Biasing.PROMPT_CHECKED
    near_voice: NearVoiceGate = NearVoiceGate()
    passes: tuple[RecognitionPass, ...] = ()  # () means `cascade_for(biasing)`
    ears: Ears = field(init=False)

    def __post_init__(self) -> None:
        if not self.passes:
            self.passes = cascade_for(self.biasing)
        self.ears = Ears(self.recognizer, self.vocabulary, self.understander, self.near_voice)

    def hear(self, audio: Audio, classifier: Classifier, seats: Iterable[str] = ()) -> Recognised:
        seated = tuple(seats)
        matcher = self.understander.matcher.with_protected(seated)
        hearing = Hearing(audio, classifier, seated, matcher, time.perf_counter())
        processor_started = time.process_time()
        for step in self.passes:
            if step.applies(hearing, self.ears):
                step.run(hearing, self.ears)
        return Recognised(
            hearing.current,
            tuple(hearing.runs),
            time.perf_counter() - hearing.started,
            hearing.unchecked,
            hearing.unchecked_seconds,
            time.process_time() - processor_started,
        )
