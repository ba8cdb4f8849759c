"""From a transcript to what the table meant: a `Heard`, ready for the session to act on.

Text rules only; the recognition passes that hear the audio again are in `passes/`, run by `cascade.py`. The steps, in
order: normalise (numbers, exhibit citations, times), read exhibits leniently in the card's exhibit
slots, repair a command said alone, correct misheard names in name slots, then the engine's own
classifier (`Game.preview`), unchanged. Every repair lowers the confidence by its weight
(`UnderstandingSettings.repairs`), and a costly action (a question, a confrontation, a lock, a yes
that ends a round or the night) heard with low confidence or with a corrected or biased-only name is
confirmed before anything is spent.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from engine.messages import Command, Message, MessageKind
from voice_host.understanding.names import NamesMatcher, SuspectNames
from voice_host.understanding.normalise import (
    Correction,
    CorrectionKind,
    has_repeats,
    normalise,
    read_exhibits_leniently,
    repair_command,
)
from voice_host.understanding.settings import DEFAULT_SETTINGS, UnderstandingSettings


class Classifier(Protocol):
    """The engine's shared classifier (engine.game.Game has it)."""

    def preview(self, text: str) -> Message: ...

    def accusing(self) -> bool: ...


class TranscriptLike(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def avg_logprob(self) -> float: ...

    @property
    def no_speech_prob(self) -> float: ...


# Repairs that always make a costly action ask first, however confident Whisper was.
_DOUBTFUL_REPAIRS = (
    CorrectionKind.NAME,
    CorrectionKind.EXHIBIT,
    CorrectionKind.REPEAT,
    CorrectionKind.FOCUS,
    CorrectionKind.WHOLE_COMMAND,
    CorrectionKind.PHRASED_CONFRONTATION,
    CorrectionKind.NBEST,
    CorrectionKind.SLOWER,
)


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

    @property
    def words_repaired(self) -> bool:
        """The message was made by repairing what Whisper wrote ("Same." -> save, or a pass's closed set), not
        only by keeping once what it wrote twice ("Next, next,")."""
        return any(c.kind is not CorrectionKind.REPEAT for c in self.corrections)


def recognition_confidence(avg_logprob: float, no_speech_prob: float) -> float:
    """Whisper's own certainty, 0-1: the mean token probability, discounted by its no-speech belief."""
    if math.isinf(avg_logprob) or math.isnan(avg_logprob):
        return 0.0
    token_probability = math.exp(min(0.0, avg_logprob))
    return max(0.0, min(1.0, token_probability * (1.0 - 0.5 * no_speech_prob)))


def repaired_text(
    raw: str, matcher: NamesMatcher, settings: UnderstandingSettings = DEFAULT_SETTINGS
) -> tuple[str, tuple[Correction, ...]]:
    """Normalise, read exhibits leniently, repair a lone command, correct names in name slots."""
    text = normalise(raw)
    weights = settings.repairs
    corrections: list[Correction] = []
    if has_repeats(raw):
        corrections.append(Correction(CorrectionKind.REPEAT, raw, text, weights.repeat))
    # Names before exhibits: "in front Keld with E30" only becomes a confrontation (whose "with"
    # is an exhibit slot) once the matcher has repaired its opening.
    command = repair_command(text, weights, settings.fuzzy_command_at_least)
    named = matcher.correct(command.text)
    cited = read_exhibits_leniently(named.text, weights)
    corrections.extend((*command.corrections, *named.corrections, *cited.corrections))
    text = cited.text
    return text, tuple(corrections)


def _is_yes(message: Message) -> bool:
    return message.kind is MessageKind.COMMAND and message.command is Command.YES


class Understander:
    """Turns transcripts (or raw text) into `Heard` against a game's current classifier."""

    def __init__(self, suspects: Iterable[SuspectNames], settings: UnderstandingSettings = DEFAULT_SETTINGS) -> None:
        self.settings = settings
        self.matcher = NamesMatcher(suspects, thresholds=settings.names, weights=settings.repairs)

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
        text, corrections = repaired_text(transcript, matcher, self.settings)
        corrections = (*repairs, *corrections)
        if not text.strip():
            return Heard(transcript, "", corrections, 0.0, None, False, rejected="empty")
        message = classifier.preview(text)
        named = set(matcher.suspects_named(text))
        doubtful = tuple(key for key in uncertain_names if key in named)
        confidence = recognition
        for correction in corrections:
            confidence *= correction.score
        if doubtful:
            confidence *= self.settings.repairs.biased_only_name
        confidence = round(max(0.0, min(1.0, confidence)), 3)
        doubt = (
            confidence < self.settings.confirm_below or any(c.kind in _DOUBTFUL_REPAIRS for c in corrections) or bool(doubtful)
        )
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
