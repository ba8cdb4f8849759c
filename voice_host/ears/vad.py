"""End of speech: a pure segmenter driven by timings, an audio collector around it, and Silero.

The segmenter works like Home Assistant's assist_pipeline VoiceCommandSegmenter: it is fed the length
of each chunk and whether the chunk was speech, and says what happened. Besides "speech started" and
"speech ended" it says "silence started" (a short pause after speech: transcription may begin now) and
"speech resumed" (that early transcription is stale: throw it away), so the silence hangover and the
transcription overlap instead of adding up.

`UtteranceCollector` keeps the audio: a pre-roll of what came just before speech was detected (the
first consonant is quiet and Silero needs a few windows to be sure) and the utterance so far.

`SileroVad` gives a speech probability per chunk from the Silero model bundled inside faster-whisper,
keeping the model's recurrent state across chunks so the stream is judged as one signal.
"""

from __future__ import annotations

import logging
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Protocol

import numpy as np

from voice_host.ears.sound import SAMPLE_RATE, SILERO_WINDOW, Audio

log = logging.getLogger(__name__)


class SegmentEvent(Enum):
    NONE = "none"  # nothing new
    SPEECH_STARTED = "speech_started"  # enough speech in a row: an utterance began
    SILENCE_STARTED = "silence_started"  # a pause long enough to start transcribing early
    SPEECH_RESUMED = "speech_resumed"  # speech again after SILENCE_STARTED: the early result is stale
    SPEECH_ENDED = "speech_ended"  # the silence hangover ran out: the utterance is complete
    TOO_LONG = "too_long"  # the utterance hit the length limit and was cut (complete, as SPEECH_ENDED)


@dataclass(frozen=True)
class SegmenterSettings:
    speech_seconds: float = 0.15  # speech in a row before an utterance counts as started
    # Silence after speech before understanding starts on the audio so far, speculatively: thrown away if
    # speech resumes. 0.1 s rather than a word gap's 0.2 s: the result is ready 0.1 s sooner, for about
    # 0.13 more runs per utterance on tune (docs/benchmarks.md "End of turn", run 4).
    early_seconds: float = 0.1
    # The ceiling of the hangover: silence after speech that ends any utterance. A turn whose words are
    # a whole message ends sooner (voice_host.ears.turn.EndOfTurn); this is for the rest, and must
    # outlast a comma pause inside a question ("Abel, ... where were you?").
    silence_seconds: float = 1.0
    pre_roll_seconds: float = 0.3  # audio kept from before speech was detected
    max_seconds: float = 15.0  # an utterance is cut here (a table talking over itself)

    def __post_init__(self) -> None:
        if not 0 <= self.early_seconds <= self.silence_seconds:
            raise ValueError("early_seconds must lie between 0 and silence_seconds")


@dataclass
class VoiceSegmenter:
    """Pure timing state machine: `process(chunk_seconds, is_speech)` says what just happened."""

    settings: SegmenterSettings = field(default_factory=SegmenterSettings)
    in_speech: bool = False
    speech_run: float = 0.0  # seconds of speech in a row, before the utterance has started
    silence_run: float = 0.0  # seconds of silence in a row, inside an utterance
    utterance_seconds: float = 0.0  # length of the current utterance (after detection)
    early_signalled: bool = False  # SILENCE_STARTED was sent for the current pause

    def reset(self) -> None:
        self.in_speech = False
        self.speech_run = 0.0
        self.silence_run = 0.0
        self.utterance_seconds = 0.0
        self.early_signalled = False

    def process(self, chunk_seconds: float, is_speech: bool) -> SegmentEvent:
        if not self.in_speech:
            if not is_speech:
                self.speech_run = 0.0
                return SegmentEvent.NONE
            self.speech_run += chunk_seconds
            if self.speech_run + 1e-9 < self.settings.speech_seconds:
                return SegmentEvent.NONE
            self.in_speech = True
            self.utterance_seconds = self.speech_run
            self.silence_run = 0.0
            self.early_signalled = False
            return SegmentEvent.SPEECH_STARTED

        self.utterance_seconds += chunk_seconds
        if self.utterance_seconds + 1e-9 >= self.settings.max_seconds:
            self.reset()
            return SegmentEvent.TOO_LONG
        if is_speech:
            self.silence_run = 0.0
            if self.early_signalled:
                self.early_signalled = False
                return SegmentEvent.SPEECH_RESUMED
            return SegmentEvent.NONE
        self.silence_run += chunk_seconds
        if self.silence_run + 1e-9 >= self.settings.silence_seconds:
            self.reset()
            return SegmentEvent.SPEECH_ENDED
        if not self.early_signalled and self.silence_run + 1e-9 >= self.settings.early_seconds:
            self.early_signalled = True
            return SegmentEvent.SILENCE_STARTED
        return SegmentEvent.NONE


class SilenceStep(Enum):
    HEAR = "hear"  # run the model on the block
    REST = "rest"  # the gate's silence has just lasted long enough: start the model afresh on a little silence
    SKIP = "skip"  # still the gate's silence: the model rests (nothing is there to find)


@dataclass
class DigitalSilence:
    """When Silero should rest: after a run of digital silence (every sample exactly 0).

    Over the Host, Silero hears the echo canceller's output through the residual-echo gate, which is
    digital silence most of the time. Silero's recurrent state drifts over it: after 10 s of zeros the
    stop words of the barge-in bench peak 0.1-0.4 lower than from a fresh state, and after 30 s most
    never reach 0.5 (docs/benchmarks.md "Barge-in", tune only). So once a run of the gate's silence
    has lasted `rest_after_seconds` (longer than the gate shuts between two syllables), the model is
    started afresh on `rest_seconds` of silence (straight from a reset its first syllable scores low)
    and not run again until something passes the gate. A real microphone never gives exact zeros.
    Pure: fed each block's length and whether it was all zeros.
    """

    rest_after_seconds: float = 0.3
    rest_seconds: float = 0.5
    run_seconds: float = 0.0
    resting: bool = False

    def add(self, chunk_seconds: float, silent: bool) -> SilenceStep:
        if not silent:
            self.run_seconds, self.resting = 0.0, False
            return SilenceStep.HEAR
        self.run_seconds += chunk_seconds
        if self.resting:
            return SilenceStep.SKIP
        if self.run_seconds + 1e-9 >= self.rest_after_seconds:
            self.resting = True
            return SilenceStep.REST
        return SilenceStep.HEAR


@dataclass(frozen=True)
class CollectorStep:
    """One chunk's outcome; `audio` is the utterance so far on SILENCE_STARTED, SPEECH_ENDED, TOO_LONG."""

    event: SegmentEvent
    audio: Audio | None = None


class RecentAudio:
    """The last `seconds` of a signal, block by block: the pre-roll before speech, and the detector's signal
    beside the utterance's (for the short path)."""

    def __init__(self, seconds: float, sample_rate: int = SAMPLE_RATE) -> None:
        self.keep = round(seconds * sample_rate)
        self._blocks: deque[Audio] = deque()
        self._samples = 0

    def add(self, block: Audio) -> None:
        self._blocks.append(block)
        self._samples += len(block)
        while self._blocks and self._samples - len(self._blocks[0]) >= self.keep:
            self._samples -= len(self._blocks.popleft())

    def blocks(self) -> list[Audio]:
        return list(self._blocks)

    def __len__(self) -> int:
        """Samples kept now (up to `keep`, and a block more)."""
        return self._samples

    def clear(self) -> None:
        self._blocks.clear()
        self._samples = 0

    def last(self, samples: int) -> Audio | None:
        """The latest `samples` samples, or None when fewer than that were kept."""
        if samples > self._samples:
            return None
        if samples == 0:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(self._blocks).astype(np.float32, copy=False)[-samples:]


class UtteranceCollector:
    """Keeps the audio for the segmenter: a pre-roll ring before speech, the utterance during it."""

    def __init__(self, settings: SegmenterSettings | None = None, sample_rate: int = SAMPLE_RATE) -> None:
        self.settings = settings or SegmenterSettings()
        self.segmenter = VoiceSegmenter(self.settings)
        self.sample_rate = sample_rate
        # Recent chunks while waiting for speech: the pre-roll plus the speech run still being confirmed.
        self._before = RecentAudio(self.settings.pre_roll_seconds + self.settings.speech_seconds, sample_rate)
        self._utterance: list[Audio] = []

    @property
    def collecting(self) -> bool:
        return self.segmenter.in_speech

    def reset(self) -> None:
        self.segmenter.reset()
        self._before.clear()
        self._utterance = []

    def add(self, chunk: Audio, is_speech: bool) -> CollectorStep:
        event = self.segmenter.process(len(chunk) / self.sample_rate, is_speech)
        if event is SegmentEvent.NONE and not self.segmenter.in_speech:
            self._before.add(chunk)
            return CollectorStep(event)
        if event is SegmentEvent.SPEECH_STARTED:
            self._before.add(chunk)
            self._utterance = self._before.blocks()
            self._before.clear()
            return CollectorStep(event)
        self._utterance.append(chunk)
        if event is SegmentEvent.SILENCE_STARTED:
            return CollectorStep(event, self._joined())
        if event in (SegmentEvent.SPEECH_ENDED, SegmentEvent.TOO_LONG):
            audio = self._joined()
            self._utterance = []
            return CollectorStep(event, audio)
        return CollectorStep(event)

    @property
    def samples(self) -> int:
        """Samples of the utterance collected so far (0 between utterances)."""
        return sum(len(chunk) for chunk in self._utterance)

    def so_far(self) -> Audio:
        """The utterance being collected, up to now (it goes on being collected)."""
        return self._joined()

    def finish(self) -> Audio:
        """End the utterance now (the turn was judged over before the hangover ran out): its audio."""
        audio = self._joined()
        self.segmenter.reset()
        self._utterance = []
        return audio

    def _joined(self) -> Audio:
        if not self._utterance:
            return np.zeros(0, dtype=np.float32)
        return np.concatenate(self._utterance).astype(np.float32, copy=False)


class SpeechDetector(Protocol):
    """Anything that says how likely a chunk of 16 kHz audio is speech."""

    def probability(self, chunk: Audio) -> float: ...

    def reset(self) -> None: ...


def load_silero() -> Any:
    """The Silero VAD ONNX session that faster-whisper bundles (shared: faster-whisper caches it)."""
    from faster_whisper.vad import get_vad_model

    from models.locate import silero_vad_path

    silero_vad_path()  # a clear error naming faster-whisper if the asset is gone
    session = get_vad_model().session
    log.debug("Silero VAD ready")
    return session


class SileroVad:
    """Streaming Silero VAD (faster-whisper's bundled ONNX model), state kept across chunks."""

    WINDOW = SILERO_WINDOW
    CONTEXT = 64  # samples of the previous window the model sees

    def __init__(self, threshold: float = 0.5) -> None:
        self._session = load_silero()
        self.threshold = threshold
        self._pending = np.zeros(0, dtype=np.float32)
        self.reset()

    def reset(self) -> None:
        self._h = np.zeros((1, 1, 128), dtype=np.float32)
        self._c = np.zeros((1, 1, 128), dtype=np.float32)
        self._context = np.zeros(self.CONTEXT, dtype=np.float32)
        self._pending = np.zeros(0, dtype=np.float32)
        self._last = 0.0

    def probability(self, chunk: Audio) -> float:
        """The highest speech probability among the model windows this chunk completed.

        A chunk shorter than a window may complete none; then the last probability stands.
        """
        samples = np.concatenate([self._pending, chunk.astype(np.float32, copy=False)])
        whole = len(samples) // self.WINDOW * self.WINDOW
        self._pending = samples[whole:]
        best: float | None = None
        for start in range(0, whole, self.WINDOW):
            window = samples[start : start + self.WINDOW]
            model_input = np.concatenate([self._context, window]).reshape(1, -1)
            output, self._h, self._c = self._session.run(None, {"input": model_input, "h": self._h, "c": self._c})
            self._context = window[-self.CONTEXT :]
            value = float(np.asarray(output).reshape(-1)[0])
            best = value if best is None else max(best, value)
        if best is not None:
            self._last = best
        return self._last

    def is_speech(self, chunk: Audio) -> bool:
        return self.probability(chunk) >= self.threshold
