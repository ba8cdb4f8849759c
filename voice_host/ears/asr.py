"""Ears: faster-whisper on one finished utterance, with guards against what Whisper invents.

`RecognitionOptions` holds every decoding choice in one frozen dataclass; `Recognizer(options)`
transcribes 16 kHz mono float32 audio into a `Transcript`. Models load once per process and are
shared by every Recognizer that uses the same model, so a biased and an unbiased pass cost one load.

Guards (each a reason in `Transcript.rejected`, with the raw text kept for diagnostics):
- no speech: Whisper's own rule (no_speech_prob high and avg_logprob low), or no_speech_prob very high;
- low confidence: avg_logprob below a floor;
- a phantom: the phrases Whisper produces from silence and noise ("Thank you.", "Thanks for watching",
  "you", subtitle credits ...);
- a repetition loop: one word three times or more and nothing else ("Yes, yes, yes."), or a long
  loop (compression ratio); `max_new_tokens` caps how long a loop can run;
- a prompt echo: the transcript is a run of the initial prompt's own words (`is_prompt_echo`).
"""

from __future__ import annotations

import collections
import hashlib
import logging
import math
import re
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from rapidfuzz import fuzz

from models.locate import WhisperModelName, whisper_model_dir
from voice_host.ears.sound import SAMPLE_RATE, Audio

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from faster_whisper import WhisperModel
    from faster_whisper.tokenizer import Tokenizer


@dataclass(frozen=True)
class RecognitionOptions:
    """Every choice that shapes recognition. The defaults are the measured best on 2 cores."""

    model: WhisperModelName = WhisperModelName.BASE
    beam_size: int = 5
    language: str = "en"
    compute_type: str = "int8"
    cpu_threads: int = 2
    without_timestamps: bool = True
    condition_on_previous_text: bool = False
    initial_prompt: str | None = None  # the case's vocabulary; never example numbers (they leak)
    hotwords: str | None = None
    max_new_tokens: int = 40  # a table's message is short; this caps hallucination loops on noise
    # A closed set scored with `keep_within` is scored in stages (the shared prefix, the likeliest
    # candidate, those still close) only when its trie has at least this many paths: each stage is a
    # decoder call, and a call costs about one more sequence, so a set of two or three paths
    # (the exhibits after "Read") is cheaper in one call.
    staged_scoring_from: int = 4
    # The encoder sees the utterance plus this much silence, not Whisper's whole 30 s window: its cost
    # grows with the window, and 8 s is the least padding that understood the fixtures as well as the
    # full window did (the figures: docs/benchmarks.md, "Voice understanding"). None: the full window.
    window_padding_seconds: float | None = 8.0
    # Whisper hears the utterance played at this rate (1.0: as said; 0.9: a tenth slower and lower):
    # the audio is resampled as if recorded at this fraction of its rate (`played_at`), the same for
    # every pass over it, so the encoder output the passes share is the played one.
    playback_rate: float = 1.0
    temperatures: tuple[float, ...] = (0.0,)  # no fallback re-decoding: it costs time and invents words
    suppress_blank: bool = True
    # Whisper's own skip rule: no_speech_prob above this AND avg_logprob below log_prob_threshold.
    no_speech_threshold: float = 0.6
    log_prob_threshold: float = -1.0
    # Our stricter guards on top.
    reject_no_speech_prob: float = 0.9  # this sure of no speech: rejected whatever the log-probability
    reject_avg_logprob: float = -1.6  # below this the words are guesses
    compression_ratio_threshold: float = 2.4  # above this the text loops
    loop_repeats: int = 3  # one word this many times and nothing else is a loop, never a message
    min_audio_seconds: float = 0.2  # shorter is not an utterance
    reject_phantoms: bool = True
    reject_prompt_echo: bool = True


class Rejection(Enum):
    EMPTY = "empty"  # no audio, too short, or nothing decoded
    NO_SPEECH = "no_speech"
    LOW_CONFIDENCE = "low_confidence"
    PHANTOM = "phantom"
    REPETITION = "repetition"
    PROMPT_ECHO = "prompt_echo"


@dataclass(frozen=True)
class TranscriptSegment:
    text: str
    avg_logprob: float
    no_speech_prob: float
    compression_ratio: float
    token_ids: tuple[int, ...]  # what Whisper decoded: `Recognizer.time_words` aligns these

    @property
    def tokens(self) -> int:
        return len(self.token_ids)


@dataclass(frozen=True)
class HeardWord:
    """One word with where it was said and how loud (dB of full scale, RMS over the word)."""

    text: str
    start: float
    end: float
    level_db: float


@dataclass(frozen=True)
class Transcript:
    """What Whisper heard. `text` is empty when a guard rejected it; `raw_text` keeps what it said."""

    text: str
    raw_text: str
    avg_logprob: float  # token-weighted over segments; -inf when nothing was decoded
    no_speech_prob: float  # the highest over segments
    seconds: float  # time spent recognising
    audio_seconds: float
    segments: tuple[TranscriptSegment, ...] = ()
    rejected: Rejection | None = None
    truncated: bool = False  # decoding stopped at max_new_tokens
    initial_prompt: str | None = None
    hotwords: str | None = None
    model: str = ""
    words: tuple[HeardWord, ...] = ()  # only when asked for (`Recognizer.time_words`)
    # The beam's other finished transcripts, best first, each through the guards: the same beam search
    # gave them at no cost (`BeamKeeper`), and the n-best pass reads them instead of searching again.
    runners_up: tuple[Transcript, ...] = ()

    @property
    def confidence(self) -> float:
        """exp(avg_logprob): the mean per-token probability, 0-1 (0 when rejected or empty)."""
        if self.rejected is not None or not self.text or math.isinf(self.avg_logprob):
            return 0.0
        return min(1.0, math.exp(self.avg_logprob))

    @property
    def biased(self) -> bool:
        return bool(self.initial_prompt or self.hotwords)


# --- guards ---------------------------------------------------------------------------------------------

#: Whole transcripts Whisper makes from silence or noise (compared without case or punctuation).
PHANTOM_PHRASES: frozenset[str] = frozenset(
    {
        "you",
        "thank you",
        "thank you very much",
        "thank you so much",
        "thanks",
        "thanks for watching",
        "thank you for watching",
        "thanks for watching and see you next time",
        "thank you for watching and see you next time",
        "please subscribe",
        "please like and subscribe",
        "subscribe",
        "like and subscribe",
        "see you next time",
        "see you in the next video",
        "ill see you next time",
        "bye",
        "bye bye",
        "goodbye",
        "so",
        "oh",
        "hmm",
        "um",
        "uh",
        "music",
        "applause",
        "laughter",
        "silence",
        "blank audio",
        "the end",
        "thank you for listening",
    }
)

#: Fragments that mark a transcript as a credit line wherever they appear.
PHANTOM_FRAGMENTS: tuple[str, ...] = (
    "subtitles by",
    "subtitled by",
    "captions by",
    "captioned by",
    "transcribed by",
    "transcription by",
    "translated by",
    "amara org",
    "castingwords",
    "www ",
    " com ",
    "thanks for watching",
    "thank you for watching",
    "subscribe to",
)

_WORD = re.compile(r"[a-z0-9]+")
_NON_SPEECH_MARKS = re.compile(r"^[\s\W_]*$|^\s*[\[(♪*].*[\])♪*]\s*$")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("'", "").replace("’", ""))


def is_phantom(text: str) -> bool:
    """True for Whisper's silence-and-noise inventions: "Thank you.", "you", credits, [Music] ..."""
    if _NON_SPEECH_MARKS.match(text):
        return True
    words = _words(text)
    if not words:
        return True
    plain = " ".join(words)
    if plain in PHANTOM_PHRASES:
        return True
    padded = f" {plain} "
    return any(fragment in padded for fragment in PHANTOM_FRAGMENTS)


def is_loop(text: str, min_repeats: int = 3) -> bool:
    """True when the whole transcript is one word said again and again: "Yes, yes, yes, yes…".

    Whisper writes such loops from noise ("Okay, okay, okay.", "you you you"); a table says a word
    once or twice, not three times running. Only a transcript that is nothing but the one word
    counts. A phrase Whisper repeats ("We give up. We give up. We give up.") is what it heard said
    once in noise: it is kept once and doubted (`has_repeats` in normalise), not thrown away.
    """
    words = _words(text)
    return len(words) >= min_repeats and len(set(words)) == 1


def is_prompt_echo(text: str, prompt: str | None, min_words: int = 3, min_similarity: float = 92.0) -> bool:
    """True when the transcript is just a run of the prompt's own words (Whisper echoing its prompt).

    A transcript with min_words or more words that all sit, in order and together, in the prompt is an
    echo ("Martha Ruddock the housekeeper," for a prompt naming her so); a near-copy counts too (one
    word off). Something said about the prompt's words ("Ask Martha where she was") is not.
    """
    if not prompt:
        return False
    said = _words(text)
    if len(said) < min_words:
        return False
    given = _words(prompt)
    span = len(said)
    for start in range(len(given) - span + 1):
        if given[start : start + span] == said:
            return True
    # Near copies: the same words with one misheard, compared on whole runs of the prompt.
    said_text = " ".join(said)
    for start in range(len(given) - span + 1):
        window = " ".join(given[start : start + span])
        if fuzz.ratio(said_text, window) >= min_similarity:
            return True
    return False


# --- the model --------------------------------------------------------------------------------------------

_FRAMES_PER_SECOND = 100  # Whisper's mel frames: a 10 ms hop
_MEL_BINS = 80  # the mel features' bins, in both of our models (tiny.en, base)
# faster-whisper's defaults: punctuation joined to the word beside it when words are timed.
_PREPEND_PUNCTUATIONS = "\"'“¿([{-"
_APPEND_PUNCTUATIONS = "\"'.。,，!！?？:：”)]}、"


def word_level_db(audio: Audio, start: float, end: float, min_seconds: float = 0.02) -> float:
    """How loud the audio is between start and end: RMS in dB of full scale (-120 for silence)."""
    first = max(0, int(start * SAMPLE_RATE))
    last = min(len(audio), max(int(end * SAMPLE_RATE), first + int(min_seconds * SAMPLE_RATE)))
    span = audio[first:last]
    if len(span) == 0:
        return -120.0
    return float(10.0 * np.log10(float(np.mean(np.square(span, dtype=np.float64))) + 1e-12))


def played_at(audio: Audio, rate: float) -> Audio:
    """The audio as heard played at `rate` of its speed: longer (rate < 1) and lower by the same factor.

    A plain resampling (soxr), as a tape played slower: tempo and pitch change together.
    """
    audio = np.asarray(audio, dtype=np.float32).reshape(-1)
    if rate == 1.0 or len(audio) == 0:
        return audio
    import soxr

    return np.asarray(soxr.resample(audio, SAMPLE_RATE, SAMPLE_RATE / rate), dtype=np.float32)


def window_frames(audio_seconds: float, padding_seconds: float | None) -> int | None:
    """How many mel frames the encoder should see for this much audio (None: Whisper's full window).

    Never a window whose encoder output is `_MEL_BINS` frames long (159 or 160 mel frames): CTranslate2's
    `generate` tells an encoder output, (batch, frames / 2, width), from mel features, (batch, mel bins, frames),
    by its second dimension, so it takes that one for features and encodes it again, slowly, into nonsense (the
    short path's 0.6 s "Stop." scored -5.0 for "stop", not -1.4, in 0.35 s, not 0.08). One frame more is read
    as it should be.
    """
    if padding_seconds is None:
        return None
    frames = min(30 * _FRAMES_PER_SECOND, math.ceil((audio_seconds + padding_seconds) * _FRAMES_PER_SECOND))
    if math.ceil(frames / 2) == _MEL_BINS:  # the encoder halves the frames (its second convolution's stride)
        return 2 * _MEL_BINS + 1
    return frames


class KeptEncodings:
    """The last few encoder outputs of one model, by a digest of their features; another thread may wait for one.

    A second instance of the same model (`SideDecoder`) decodes beside the first pass on the encoder
    output the first instance is making: it waits here for it rather than encode the audio again. An
    output someone waits for is handed to them even if newer ones push it out before they wake.
    """

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self._kept: dict[bytes, object] = {}
        self._awaited: dict[bytes, object | None] = {}  # waited for: None until it is made
        self._made: collections.deque[bytes] = collections.deque(maxlen=16)  # the latest made, kept or not
        self._changed = threading.Condition()

    def get(self, key: bytes) -> object | None:
        with self._changed:
            found = self._kept.pop(key, None)
            if found is not None:
                self._kept[key] = found  # the most recent last
            return found

    def put(self, key: bytes, encoded: object) -> None:
        with self._changed:
            self._kept[key] = encoded
            self._made.append(key)
            while len(self._kept) > self.size:
                self._kept.pop(next(iter(self._kept)))
            if key in self._awaited:
                self._awaited[key] = encoded
            self._changed.notify_all()

    def awaited(self, key: bytes) -> bool:
        """Whether a thread is waiting for this encoder output."""
        with self._changed:
            return key in self._awaited

    def wait_for(self, key: bytes, timeout: float) -> object | None:
        """The encoder output for `key`, once it is made, or None after `timeout` seconds (or at once, when it
        was made and is no longer kept: it will not come again)."""
        with self._changed:
            found = self._kept.get(key)
            if found is not None or key in self._made:
                return found
            self._awaited[key] = None
            try:
                self._changed.wait_for(lambda: self._awaited[key] is not None, timeout)
                return self._awaited[key]
            finally:
                del self._awaited[key]

    def clear(self) -> None:
        with self._changed:
            self._kept.clear()
            self._made.clear()


def features_key(features: npt.NDArray[np.float32]) -> bytes:
    return hashlib.blake2b(features.tobytes(), digest_size=16).digest() + repr(features.shape).encode()


class BeamKeeper:
    """CTranslate2's Whisper, whose beam searches return every finished hypothesis, the last one kept.

    faster-whisper asks a beam search for its best transcript only, and reads `sequences_ids[0]`;
    asking for as many hypotheses as the beam is wide costs nothing more here (a decode of 60 room
    utterances 0.265 s with them against 0.262 s without, alternated; the best the same), so the
    others are kept (`last`) for `Recognizer.transcribe` to pass on. Everything else goes to the model
    as it is.
    """

    def __init__(self, whisper: object) -> None:
        self.whisper = whisper
        self.last: Any = None  # the last search's CTranslate2 result, when it searched one utterance
        self.searches = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.whisper, name)

    def generate(self, *args: object, **kwargs: object) -> list[object]:
        beam = kwargs.get("beam_size", 1)
        if isinstance(beam, int) and beam > 1 and "num_hypotheses" not in kwargs:
            kwargs["num_hypotheses"] = beam
        results: list[object] = self.whisper.generate(*args, **kwargs)  # type: ignore[attr-defined]
        self.searches += 1
        self.last = results[0] if len(results) == 1 else None
        return results


def _windowed_model_class() -> type:
    from faster_whisper import WhisperModel

    class WindowedWhisperModel(WhisperModel):  # type: ignore[misc]
        """faster-whisper's model, whose encoder can be given less than the 30 s window, and which
        encodes the same features only once.

        Its beam searches keep their other hypotheses (`BeamKeeper`).

        faster-whisper pads every segment's features to 3000 frames before `encode`; cutting that
        padding back to `window_frames` here is the same as padding the utterance to that length,
        and CTranslate2's Whisper encoder accepts the shorter input. Every pass over one utterance
        (biased, slot, check, word timing) encodes the same features: the last encoder outputs are
        kept and reused, so a later pass costs only its decoding (the encoder is half of a pass).
        Two are kept: a pass that hears other audio (the near voice, the slower view) leaves the
        utterance's own encoding for the passes after it. A model with a `lender` (a second instance
        of the same weights) waits up to `borrow_seconds` for the lender's encoding of the same
        features before it encodes them itself.
        """

        window_frames: int | None = None
        kept: KeptEncodings
        model: BeamKeeper  # CTranslate2's Whisper, wrapped
        lender: WindowedWhisperModel | None = None
        borrow_seconds: float = 5.0

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self.kept = KeptEncodings()
            self.model = BeamKeeper(self.model)

        def encode(self, features: npt.NDArray[np.float32]):  # type: ignore[no-untyped-def]
            frames = self.window_frames
            if frames is not None and features.shape[-1] > frames:
                features = features[..., :frames]
            features = np.ascontiguousarray(features)
            key = features_key(features)
            found = self.kept.get(key)
            if found is None and self.lender is not None:
                found = self.lender.kept.wait_for(key, self.borrow_seconds)
            if found is not None:
                return found
            encoded = super().encode(features)
            self.kept.put(key, encoded)
            return encoded

    return WindowedWhisperModel


@dataclass(frozen=True)
class SlotScores:
    """Closed-set scores for one slot: each continuation of the prefix, and its mean token log-probability."""

    prefix: str
    continuations: tuple[str, ...]
    scores: tuple[float, ...]  # -inf: nothing of its own to score, or left unscored (`keep_within`)
    seconds: float
    sequences: int = 0  # decoder sequences run to score them (each costs about a short decode)

    def ranked(self) -> list[tuple[str, float]]:
        """The continuations, best first."""
        return sorted(zip(self.continuations, self.scores, strict=True), key=lambda pair: pair[1], reverse=True)


@dataclass(frozen=True)
class Hypotheses:
    """The beam's best transcripts of one utterance, best first (`Recognizer.hypotheses`)."""

    transcripts: tuple[Transcript, ...]
    seconds: float


_PAD_TOKEN = 13  # "." in Whisper's vocabulary


def _common_prefix_length(sequences: Sequence[tuple[int, ...]]) -> int:
    shortest = min(len(tokens) for tokens in sequences)
    for index in range(shortest):
        if len({tokens[index] for tokens in sequences}) > 1:
            return index
    return shortest


def _covering_paths(wanted: Iterable[tuple[int, ...]], forced: Sequence[tuple[int, ...]] = ()) -> list[tuple[int, ...]]:
    """The fewest paths to force so that every wanted path is run: a path inside another (or inside one
    already forced) is covered by it."""
    covering: list[tuple[int, ...]] = []
    for path in sorted(set(wanted), key=len, reverse=True):
        if not any(longer[: len(path)] == path for longer in (*covering, *forced)):
            covering.append(path)
    return covering


def _known_logprobs(tokens: tuple[int, ...], shared: int, rows: dict[tuple[int, ...], npt.NDArray[np.float32]]) -> list[float]:
    """The log-probabilities of a candidate's own tokens (after the `shared` ones) the forced paths give so far.

    Token i's distribution is row i of any forced path that runs through the candidate's first i
    tokens; the list stops at the first token no path reaches.
    """
    found: list[float] = []
    for i in range(shared, len(tokens)):
        row = next((steps for path, steps in rows.items() if len(path) >= i and path[:i] == tokens[:i]), None)
        if row is None:
            break
        found.append(float(row[i, tokens[i]]))
    return found


def expansion_plan(
    known: Sequence[Sequence[float]], lengths: Sequence[int], keep_within: float, final: bool, floor: float = -math.inf
) -> list[int]:
    """Which candidates of a closed set to follow to their end next (their indices).

    `known[i]` are candidate i's first token log-probabilities found so far, of `lengths[i]` (0: it
    has nothing of its own and is never scored). Its mean can be no higher than their sum over its
    length (no token's log-probability is above 0): one whose bound is more than `keep_within` below
    the best mean already known can neither be the best nor come within `keep_within` of it, and is
    not followed. Nor is one more than `keep_within` below `floor`, the least mean the caller takes:
    a best under the floor is taken by no one, and a best at it or over leaves such a one behind.
    Of the rest, the one that promises most is followed first (its mean is then known, and most
    others fall away), and when `final` every one still open.
    """
    exact = [sum(found) / count for found, count in zip(known, lengths, strict=True) if count and len(found) == count]
    best = max([*exact, floor])
    bounds = [
        (sum(found) / count, index)
        for index, (found, count) in enumerate(zip(known, lengths, strict=True))
        if count and len(found) < count
    ]
    still_open = [(bound, index) for bound, index in bounds if bound >= best - keep_within]
    if not still_open:
        return []
    if final:
        return [index for _, index in still_open]
    top = max(bound for bound, _ in still_open)
    return [index for bound, index in still_open if bound == top]


def _log_softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    top = logits.max(axis=-1, keepdims=True)
    shifted: npt.NDArray[np.float32] = logits - top
    normaliser: npt.NDArray[np.float32] = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    return shifted - normaliser


def _repeat_batch(encoded: object, size: int) -> object:
    """The encoder output repeated for a batch of decoder prompts (CTranslate2 wants one row per prompt)."""
    if size == 1:
        return encoded
    import ctranslate2  # type: ignore[import-untyped]

    array = np.asarray(encoded)
    return ctranslate2.StorageView.from_array(np.ascontiguousarray(np.repeat(array, size, axis=0)))


_models: dict[tuple[Path, str, int, int], WhisperModel] = {}
_models_lock = threading.Lock()
# One transcription at a time per model: the window is set on the shared model for the call. Another model
# (the short path's tiny.en, voice_host/ears/short_words.py) need not wait for this one: a stop word must not
# queue behind a question. A decode keeps about one core busy, so the check pass's decode runs beside the
# first pass's on a second instance with a lock of its own (voice_host/ears/side_decode.py).
_transcribe_locks: dict[int, threading.Lock] = {}


def _transcribe_lock(model: WhisperModel) -> threading.Lock:
    with _models_lock:
        return _transcribe_locks.setdefault(id(model), threading.Lock())


def load_whisper(options: RecognitionOptions, cache_dir: Path | None = None, lender: WhisperModel | None = None) -> WhisperModel:
    """The faster-whisper model for these options, loaded once per process and then shared.

    With a `lender` (a model of the same weights): a second instance of its own, which decodes on the
    lender's encoder outputs (`KeptEncodings`) and never waits for the lender's transcribe lock.
    """
    folder = whisper_model_dir(options.model, cache_dir)
    key = (folder, options.compute_type, options.cpu_threads, id(lender) if lender is not None else 0)
    with _models_lock:
        model = _models.get(key)
        if model is None:
            started = time.perf_counter()
            model = _windowed_model_class()(
                str(folder),
                device="cpu",
                compute_type=options.compute_type,
                cpu_threads=options.cpu_threads,
                local_files_only=True,
            )
            model.lender = lender
            _models[key] = model
            log.info("whisper %s loaded in %.1f s", options.model.value, time.perf_counter() - started)
        return model


@dataclass
class Recognizer:
    """Transcribes one utterance at a time with fixed options (prompt and hotwords per call if wanted)."""

    options: RecognitionOptions = field(default_factory=RecognitionOptions)
    cache_dir: Path | None = None
    lender: WhisperModel | None = None  # a second instance decoding on this model's encoder outputs

    def __post_init__(self) -> None:
        self.model = load_whisper(self.options, self.cache_dir, self.lender)

    def transcribe(
        self,
        audio: Audio,
        initial_prompt: str | None = None,
        hotwords: str | None = None,
        prefix: str | None = None,
        beam_size: int | None = None,
        playback_rate: float | None = None,
    ) -> Transcript:
        """Transcribe one utterance.

        `prefix` makes Whisper continue from those words (they are in the text). `beam_size` and
        `playback_rate` override the options' for this call.
        """
        options = self.options
        # None: the options' own; "" means none at all (faster-whisper would encode "" as a space).
        prompt = (initial_prompt if initial_prompt is not None else options.initial_prompt) or None
        hot = (hotwords if hotwords is not None else options.hotwords) or None
        audio_seconds = len(np.asarray(audio).reshape(-1)) / SAMPLE_RATE
        audio = played_at(audio, options.playback_rate if playback_rate is None else playback_rate)
        started = time.perf_counter()

        def empty(raw: str = "", reason: Rejection = Rejection.EMPTY) -> Transcript:
            return Transcript(
                text="",
                raw_text=raw,
                avg_logprob=-math.inf,
                no_speech_prob=1.0,
                seconds=time.perf_counter() - started,
                audio_seconds=audio_seconds,
                rejected=reason,
                initial_prompt=prompt,
                hotwords=hot,
                model=options.model.value,
            )

        if audio_seconds < options.min_audio_seconds or not np.any(audio):
            return empty()
        keeper: BeamKeeper = self.model.model
        with _transcribe_lock(self.model):
            self.model.window_frames = window_frames(len(audio) / SAMPLE_RATE, options.window_padding_seconds)
            keeper.last, keeper.searches = None, 0
            try:
                segments = self._decode(audio, prompt, hot, prefix or None, beam_size or options.beam_size)
            finally:
                self.model.window_frames = None
            beam = keeper.last if keeper.searches == 1 and not prefix else None
        seconds = time.perf_counter() - started
        raw = " ".join(segment.text for segment in segments if segment.text).strip()
        if not segments or not raw:
            # Audio went in but Whisper kept nothing: its own no-speech rule dropped every segment.
            return empty(raw, Rejection.NO_SPEECH)
        transcript = self._judged(segments, seconds, audio_seconds, prompt, hot)
        if beam is not None and len(segments) == 1 and tuple(beam.sequences_ids[0]) == segments[0].token_ids:
            transcript = replace(transcript, runners_up=self._beam_transcripts(beam, 0.0, audio_seconds, prompt, hot)[1:])
        return transcript

    def _judged(
        self,
        segments: tuple[TranscriptSegment, ...],
        seconds: float,
        audio_seconds: float,
        prompt: str | None,
        hot: str | None,
    ) -> Transcript:
        """The decoded segments as a transcript, through the guards (`rejected` says why one failed)."""
        options = self.options
        raw = " ".join(segment.text for segment in segments if segment.text).strip()
        tokens = sum(max(segment.tokens, 1) for segment in segments)
        avg_logprob = sum(segment.avg_logprob * max(segment.tokens, 1) for segment in segments) / tokens
        no_speech = max(segment.no_speech_prob for segment in segments)
        compression = max(segment.compression_ratio for segment in segments)
        truncated = any(segment.tokens >= options.max_new_tokens for segment in segments)
        rejected = self._judge(raw, avg_logprob, no_speech, compression, prompt) if raw else Rejection.EMPTY
        return Transcript(
            text="" if rejected else raw,
            raw_text=raw,
            avg_logprob=avg_logprob,
            no_speech_prob=no_speech,
            seconds=seconds,
            audio_seconds=audio_seconds,
            segments=segments,
            rejected=rejected,
            truncated=truncated,
            initial_prompt=prompt,
            hotwords=hot,
            model=options.model.value,
        )

    def hypotheses(self, audio: Audio, initial_prompt: str | None, count: int) -> Hypotheses:
        """The beam's `count` best transcripts of the utterance, best first, each through the guards.

        The same beam search as `transcribe` (prompt, suppressed tokens, the length cap), at least
        `count` wide, on the encoder output the passes over this audio already made, asking
        CTranslate2 for the other finished hypotheses too (faster-whisper keeps only the best). With
        the options' own beam the first is the transcript `transcribe` gives. Each hypothesis's
        `avg_logprob` is faster-whisper's (its summed log-probability over its tokens plus one);
        `Hypotheses.seconds` is the time the one beam search took.
        """
        from faster_whisper.transcribe import get_suppressed_tokens

        options = self.options
        prompt = (initial_prompt if initial_prompt is not None else options.initial_prompt) or None
        audio_seconds = len(np.asarray(audio).reshape(-1)) / SAMPLE_RATE
        audio = played_at(audio, options.playback_rate)
        started = time.perf_counter()
        if audio_seconds < options.min_audio_seconds or not np.any(audio) or count < 1:
            return Hypotheses((), 0.0)
        model = self.model
        tokenizer = self.tokenizer
        # As faster-whisper builds a segment's prompt (`get_prompt`): the previous text, then the start.
        previous = tokenizer.encode(" " + prompt.strip())[-(model.max_length // 2 - 1) :] if prompt else []
        start = [*([tokenizer.sot_prev, *previous] if previous else []), *tokenizer.sot_sequence]
        if options.without_timestamps:
            start.append(tokenizer.no_timestamps)
        with _transcribe_lock(self.model):
            model.window_frames = window_frames(len(audio) / SAMPLE_RATE, options.window_padding_seconds)
            try:
                encoded = self._encoded(audio)
                result = model.model.generate(
                    encoded,
                    [start],
                    beam_size=max(options.beam_size, count),
                    num_hypotheses=count,
                    max_length=len(start) + options.max_new_tokens,
                    return_scores=True,
                    return_no_speech_prob=True,
                    suppress_blank=options.suppress_blank,
                    suppress_tokens=list(get_suppressed_tokens(tokenizer, [-1]) or ()),
                )[0]
            finally:
                model.window_frames = None
        seconds = time.perf_counter() - started
        return Hypotheses(self._beam_transcripts(result, seconds, audio_seconds, prompt, None), seconds)

    @cached_property
    def tokenizer(self) -> Tokenizer:
        """Whisper's tokenizer for this model and language, as faster-whisper's transcribe builds it (made once)."""
        from faster_whisper.tokenizer import Tokenizer

        model = self.model
        return Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=self.options.language)

    def _beam_transcripts(
        self, result: Any, seconds: float, audio_seconds: float, prompt: str | None, hot: str | None
    ) -> tuple[Transcript, ...]:
        """A beam search's finished hypotheses (a CTranslate2 `WhisperGenerationResult`) as transcripts, best first."""
        from faster_whisper.transcribe import get_compression_ratio

        tokenizer = self.tokenizer
        found: list[Transcript] = []
        for tokens, score in zip(result.sequences_ids, result.scores, strict=True):
            text = tokenizer.decode(tokens).strip()
            # CTranslate2's score is the summed log-probability over the length (length penalty 1).
            avg_logprob = score * len(tokens) / (len(tokens) + 1)
            segment = TranscriptSegment(
                text, avg_logprob, float(result.no_speech_prob), get_compression_ratio(text), tuple(tokens)
            )
            # The beam search's time goes with the first, so the transcripts' seconds add up to it.
            found.append(self._judged((segment,), 0.0 if found else seconds, audio_seconds, prompt, hot))
        return tuple(found)

    def forget_encoding(self) -> None:
        """Drop the kept encoder outputs, so the next pass encodes its audio (benchmarks time that)."""
        with _transcribe_lock(self.model):
            self.model.kept.clear()

    def time_words(self, audio: Audio, transcript: Transcript) -> Transcript:
        """The transcript with every word timed and how loud it was (`Transcript.words`).

        Whisper's own word timestamps for the tokens this audio's pass already decoded: one
        cross-attention alignment on the encoder output that pass left behind, not a second decode
        (asking `transcribe` for word timestamps decodes again, and twice: 0.5 s more, not 0.05 s).
        `seconds` becomes the time this took. A rejected or empty transcript comes back as it was.
        For a transcript decoded without a prefix (a prefix's words are not among its tokens).
        """
        from faster_whisper.audio import pad_or_trim
        from faster_whisper.transcribe import merge_punctuations

        rate = self.options.playback_rate
        audio = played_at(audio, rate)
        model = self.model
        tokenizer = self.tokenizer
        tokens = [t for segment in transcript.segments for t in segment.token_ids if t < tokenizer.eot]
        if transcript.rejected is not None or not tokens:
            return transcript
        started = time.perf_counter()
        with _transcribe_lock(self.model):
            model.window_frames = window_frames(len(audio) / SAMPLE_RATE, self.options.window_padding_seconds)
            try:
                # The features and padding exactly as `transcribe` made them, so the encoder output is
                # the one kept from that pass. An utterance is one segment (the listener cuts at 15 s).
                features = model.feature_extractor(audio)
                content_frames = min(features.shape[-1] - 1, model.feature_extractor.nb_max_frames)
                encoded = model.encode(pad_or_trim(features[:, :content_frames]))
                alignment = model.find_alignment(tokenizer, [tokens], encoded, content_frames)[0]
            finally:
                model.window_frames = None
        merge_punctuations(alignment, _PREPEND_PUNCTUATIONS, _APPEND_PUNCTUATIONS)
        # Timed on the played audio (as loud there as where it was said), then put back on the said time.
        words = tuple(
            HeardWord(
                w["word"].strip(),
                float(w["start"]) * rate,
                float(w["end"]) * rate,
                word_level_db(audio, w["start"], w["end"]),
            )
            for w in alignment
            if w["word"].strip()
        )
        return replace(transcript, words=words, seconds=time.perf_counter() - started)

    def score_continuations(
        self,
        audio: Audio,
        prefix: str,
        continuations: Sequence[str],
        initial_prompt: str | None = None,
        keep_within: float | None = None,
        floor: float = -math.inf,
    ) -> SlotScores:
        """How well each continuation of `prefix` fits the audio: its mean token log-probability.

        A closed set of candidates for one slot ("Read E" + "1" … "16", "Answers" + each name) is
        scored on the encoder output the passes over this audio already made, with no prompt, in
        batched decoder calls. The candidates' tokens form a trie: Whisper is forced along a path
        and gives the next token's whole distribution at every node on it, so every candidate's
        tokens are scored with one sequence per branching path (the sixteen exhibit numbers after
        "Read E" are single tokens: one sequence for all of them). Only the candidates' own tokens
        are scored, not the prefix they share; the mean, not the sum, so a longer name is not worse
        for being longer. With `initial_prompt`, every sequence is conditioned on it as `transcribe`
        conditions a decode (the previous-text slot before the start of transcript).

        Each sequence in a batch costs about as much as the whole of a short one (the decoder attends
        to its own copy of the encoder output), so with `keep_within` only the candidates that can
        matter are followed to their end (`expansion_plan`): first the shared prefix alone, which
        gives every candidate's first token; then the candidate whose first tokens promise most; then
        every candidate that could still come within `keep_within` of the best mean found. The rest
        score -inf: they are more than `keep_within` behind the best, which is all a caller comparing
        the best with the runner-up by a margin of at most `keep_within` needs to know. A caller that takes
        no best under `floor` says so: a candidate more than `keep_within` under it is not followed either
        (when none can reach the floor, only the shared prefix is decoded).
        """
        audio = played_at(audio, self.options.playback_rate)
        model = self.model
        tokenizer = self.tokenizer
        started = time.perf_counter()
        # As faster-whisper writes a prefix: one leading space, then the words.
        full = [tuple(tokenizer.encode(" " + (prefix.strip() + continuation).strip())) for continuation in continuations]
        if not full:
            return SlotScores(prefix, (), (), 0.0)
        shared = _common_prefix_length(full)
        own = [len(tokens) - shared for tokens in full]  # 0: the same as another candidate up to its end
        if not any(own):
            return SlotScores(prefix, tuple(continuations), tuple(-math.inf for _ in full), 0.0)
        context = [tokenizer.sot_prev, *tokenizer.encode(" " + initial_prompt.strip())] if initial_prompt else []
        start = [*context, *tokenizer.sot_sequence, tokenizer.no_timestamps]
        rows: dict[tuple[int, ...], npt.NDArray[np.float32]] = {}  # a forced path -> log-softmax of each of its steps
        sequences = 0

        def force(wanted: Iterable[tuple[int, ...]], encoded: object) -> None:
            """Force the decoder along each path (one batched call) and keep each step's distribution."""
            nonlocal sequences
            forced = _covering_paths(wanted, tuple(rows))
            if not forced:
                return
            # CTranslate2 forces a batch's text tokens only as far as the shortest prompt's: every path
            # is padded to the longest with a full stop (the decoder is causal: what follows a token
            # never changes the distributions before it).
            longest = max(len(path) for path in forced)
            prompts = [start + list(path) + [_PAD_TOKEN] * (longest - len(path)) for path in forced]
            # Decode exactly one token past the forced ones: CTranslate2 caps the steps at half of
            # max_length and at max_length less the prompt before <|notimestamps|>.
            steps = longest + 1
            results = model.model.generate(
                _repeat_batch(encoded, len(forced)),
                prompts,
                beam_size=1,
                max_length=max(2 * steps, steps + len(start) - 1),
                return_logits_vocab=True,
                suppress_blank=False,
                suppress_tokens=[],
            )
            sequences += len(forced)
            # Row i of a path's logits is the distribution over token i of that path (the last row:
            # the token after it): log-softmax once per row.
            for path, result in zip(forced, results, strict=True):
                rows[path] = _log_softmax(np.asarray(result.logits[0], dtype=np.float32))

        def known() -> list[list[float]]:
            return [_known_logprobs(tokens, shared, rows) for tokens in full]

        with _transcribe_lock(self.model):
            model.window_frames = window_frames(len(audio) / SAMPLE_RATE, self.options.window_padding_seconds)
            try:
                encoded = self._encoded(audio)
                every = [tokens[:-1] for tokens in full if len(tokens) > shared]
                if keep_within is None or len(_covering_paths(every)) < self.options.staged_scoring_from:
                    force(every, encoded)
                else:
                    force([full[0][:shared]], encoded)
                    for final in (False, True):
                        chosen = expansion_plan(known(), own, keep_within, final, floor)
                        if not chosen:
                            break
                        force((full[i][:-1] for i in chosen), encoded)
            finally:
                model.window_frames = None
        scores = tuple(
            sum(logprobs) / count if count and len(logprobs) == count else -math.inf
            for logprobs, count in zip(known(), own, strict=True)
        )
        return SlotScores(prefix, tuple(continuations), scores, time.perf_counter() - started, sequences)

    def _encoded(self, audio: Audio) -> object:
        """The encoder output for this audio, windowed exactly as `transcribe` made it (so it is the kept one).

        Call with the transcribe lock held and the model's window set.
        """
        from faster_whisper.audio import pad_or_trim

        model = self.model
        features = model.feature_extractor(audio)
        content_frames = min(features.shape[-1] - 1, model.feature_extractor.nb_max_frames)
        return model.encode(pad_or_trim(features[:, :content_frames]))

    def _decode(
        self, audio: Audio, prompt: str | None, hot: str | None, prefix: str | None, beam_size: int
    ) -> tuple[TranscriptSegment, ...]:
        options = self.options
        segments_iter, _info = self.model.transcribe(
            audio,
            language=options.language,
            task="transcribe",
            beam_size=beam_size,
            temperature=list(options.temperatures),
            compression_ratio_threshold=options.compression_ratio_threshold,
            log_prob_threshold=options.log_prob_threshold,
            no_speech_threshold=options.no_speech_threshold,
            condition_on_previous_text=options.condition_on_previous_text,
            initial_prompt=prompt,
            hotwords=hot,
            prefix=prefix,
            without_timestamps=options.without_timestamps,
            max_new_tokens=options.max_new_tokens,
            suppress_blank=options.suppress_blank,
            vad_filter=False,  # the listener has already cut the utterance with Silero
        )
        return tuple(
            TranscriptSegment(
                text=segment.text.strip(),
                avg_logprob=float(segment.avg_logprob),
                no_speech_prob=float(segment.no_speech_prob),
                compression_ratio=float(segment.compression_ratio),
                token_ids=tuple(segment.tokens),
            )
            for segment in segments_iter
        )

    def _judge(self, raw: str, avg_logprob: float, no_speech: float, compression: float, prompt: str | None) -> Rejection | None:
        options = self.options
        if no_speech >= options.reject_no_speech_prob or (
            no_speech > options.no_speech_threshold and avg_logprob < options.log_prob_threshold
        ):
            return Rejection.NO_SPEECH
        if options.reject_phantoms and is_phantom(raw):
            return Rejection.PHANTOM
        if options.reject_prompt_echo and is_prompt_echo(raw, prompt):
            return Rejection.PROMPT_ECHO
        if compression > options.compression_ratio_threshold or is_loop(raw, options.loop_repeats):
            return Rejection.REPETITION
        if avg_logprob < options.reject_avg_logprob:
            return Rejection.LOW_CONFIDENCE
        return None
