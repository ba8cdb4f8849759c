"""Listening: microphone -> Silero -> segmenter -> (early) understanding -> the app.

`Listener` reads blocks from an audio source on its own thread. When a pause after speech reaches
`early_seconds` it starts understanding the utterance at once (on a single worker), and throws that
result away if speech resumes. End of turn: once that early result is ready, `turn_complete(result)`
says whether its words are a whole message; if so the turn ends at once (`EndOfTurn`), and if not
the listener waits for more speech, up to the segmenter's hangover ceiling, when the early result is
used anyway (over the Host, where Silero can miss words the understanding would hear, such an utterance is
understood again whole). `understand` is the app's function from audio to whatever it needs (a Transcript, or the
whole understood message): everything it does overlaps the pause.

Turn-taking: with an echo canceller (`echo`, fed what the speaker played through `far_end`) the
microphone stays open while the Host speaks: each block has the Host's voice taken out before Silero
and Whisper hear it, and an utterance carries when it began and the Host's talk it may overlap
(`HostTalk`), for the barge-in decision (voice_host/loop/barge_in.py). Without one, while the Host
speaks (the mouth calls `begin_speaking` / `end_speaking`) and for a short tail after, blocks are thrown
away (the Host never hears itself). Mute throws them away too. A
lost device pauses the loop; it retries until the device returns, and the game's state, which lives
elsewhere, is untouched.

It reports `MicLevel` statuses through one callback (called from background threads: a screen should
hand them to its own thread).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from voice_host.ears.audio import MICROPHONE_LOST, AudioUnavailableError, DeviceLostError
from voice_host.ears.echo import EchoCanceller, FarEnd, echo_coherence
from voice_host.ears.short_words import ShortViews, ShortWord, ShortWordScores
from voice_host.ears.sound import SAMPLE_RATE, Audio
from voice_host.ears.turn import EndOfTurn, TurnText
from voice_host.ears.vad import (
    DigitalSilence,
    RecentAudio,
    SegmenterSettings,
    SegmentEvent,
    SilenceStep,
    SpeechDetector,
    UtteranceCollector,
)
from voice_host.loop.barge_in import BargeIn, HostTalk, ScoredWord, Scoring, ShortPath
from voice_host.loop.events import MicLevel, MicStatus

T = TypeVar("T")
log = logging.getLogger(__name__)

# Logged when the echo canceller comes to be trusted with the microphone over the Host, and when it no longer is
# (bench/live_turn.py reads them).
ECHO_TRUSTED = "the echo is taken out: the microphone is open over the Host"
ECHO_NOT_TRUSTED = "the echo is not taken out: the microphone is shut over the Host"
UNTRUSTED_REPORT_SECONDS = 30.0  # while it is not, how it stands is logged every this many seconds of the Host's voice
# The detector's signal is kept this long for the short path, which scores at most a short utterance of it.
DETECTED_SECONDS = 5.0


class AudioSource(Protocol):
    """What the listener reads: `Capture`, or a fake in tests."""

    sample_rate: int

    def start(self) -> None: ...

    def read(self, timeout: float = 0.5) -> Audio | None: ...

    def drain(self) -> int: ...

    def stop(self) -> None: ...

    def reopen(self) -> None: ...


class HostHold(Protocol):
    """What holds the Host's voice silent, dropping nothing, while a word said over it may be "stop":
    `HostVoice` (the loop never imports the mouth)."""

    def hold(self) -> None: ...

    def release(self) -> None: ...


class FeedOnlySource:
    """A source for driving `Listener.feed` by hand (files in `hear`, benchmarks): it gives the sample
    rate and never produces blocks of its own."""

    def __init__(self, sample_rate: int = SAMPLE_RATE) -> None:
        self.sample_rate = sample_rate

    def start(self) -> None: ...

    def read(self, timeout: float = 0.5) -> Audio | None:
        return None

    def drain(self) -> int:
        return 0

    def stop(self) -> None: ...

    def reopen(self) -> None: ...


class InlineExecutor(Executor):
    """Runs each job at once in the caller's thread (tests, and offline tools such as `hear`)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:  # handed to whoever reads the future, as a real executor does
            future.set_exception(error)
        return future


@dataclass(frozen=True)
class StoppableUnderstanding(Generic[T]):
    """An understanding that can stop part way once its result is no longer wanted: `run(audio, abandoned)` asks
    `abandoned()` between its steps (the recognition cascade, before each pass).

    The listener abandons its early run when speech goes on after the pause it began at: on one worker, a run
    left to finish held the whole utterance's understanding back (a misheard name's cascade, 2.4 s live). Called
    as a plain understanding (`self(audio)`), it runs to the end.
    """

    run: Callable[[Audio, Callable[[], bool]], T]

    def __call__(self, audio: Audio) -> T:
        return self.run(audio, lambda: False)


# Early results that end a turn after the short pause: taken as they are, over the Host too.
_WHOLE_TURNS = frozenset({TurnText.WHOLE, TurnText.STOP_WORDS})


@dataclass(frozen=True)
class ListenerSettings:
    segmenter: SegmenterSettings = field(default_factory=SegmenterSettings)
    end_of_turn: EndOfTurn = field(default_factory=EndOfTurn)
    speech_threshold: float = 0.5  # Silero probability at or above which a block is speech
    # Over the Host, Silero rests (starts afresh) after this much of the residual-echo gate's digital
    # silence (`DigitalSilence`: its state drifts deaf over long runs of zeros). None: never.
    rest_after_gate_seconds: float | None = 0.3
    speaking_tail_seconds: float = 0.3  # the microphone stays shut this long after the Host stops
    retry_seconds: float = 1.0  # how often to look for a lost microphone
    read_timeout: float = 0.2
    level_every_seconds: float = 0.1  # HEARING level updates at most this often
    short_path: ShortPath = field(default_factory=ShortPath)  # stop words over the Host
    # Words over the Host this coherent with what it played are its own voice, let through when the echo's delay
    # moved (a sound server under load) before the canceller found the move: never handed on, never scored
    # (`echo_coherence`; docs/speech.md "Echo cancellation"). None: every utterance is handed on.
    own_voice_coherence: float | None = 0.1
    own_voice_lag_seconds: float = 0.3  # the echo's delay is searched up to this (the canceller's own 10 ms included)
    # ... and words this far under the microphone over them are what the canceller left of its voice (a player
    # over the Host is most of what the microphone hears then). None: not judged by level.
    own_voice_left_db: float | None = -20.0
    # ... or this little over what the canceller leaves of the Host these days (its ERLE, the 10-s median): while
    # speex learns the room again after a move of the echo's delay it takes out only 10-12 dB for a while, and its
    # residue passed the floor above (tune night 77: "Save, man." 12.9 dB under the microphone, 12 dB taken out). A
    # player over the Host is 22 dB and more over the residue on the tune trials. None: the floor above alone.
    own_voice_over_residue_db: float | None = 4.0
    # Over the Host, Silero hears the canceller's suppressed and gated signal, which can lose the rest of a player's
    # words after a pause that the linear output (what is understood) still holds: the early result then misses
    # them. So over the Host an utterance whose early words were not a whole message is understood again whole when
    # it ends (tune, 80 other words said over the Host: 61 -> 66 understood as labelled; docs/benchmarks.md
    # "Barge-in", run 12). False: the early result is taken as always.
    understand_again_over_host: bool = True
    barge_in: BargeIn = field(default_factory=BargeIn)  # whether an utterance was said over the Host


@dataclass(frozen=True)
class Utterance(Generic[T]):
    """One finished utterance and what `understand` made of it."""

    audio: Audio
    result: T
    early: bool  # the result came from the early run, started when the pause began
    ended_at: float  # clock time when the end of speech was detected
    ready_at: float  # clock time when the result was ready (>= ended_at)
    cut: bool = False  # the utterance hit the length limit
    began_at: float | None = None  # clock time the first kept sample was heard (pre-roll included)
    host: HostTalk | None = None  # the Host's latest talk when the utterance ended (echo cancelling only)
    # What was said after a stop word the short path took, when the utterance went on after it
    # (`Listener._speech_went_on`); `result` is the whole, the word included.
    after_stop: T | None = None

    @property
    def wait_seconds(self) -> float:
        """End of speech to result: what the table waits for recognition after it stops talking."""
        return self.ready_at - self.ended_at


@dataclass(frozen=True)
class ShortHeard:
    """A short utterance over the Host taken as a stop, repeat, next or skip word by the short path."""

    word: ShortWord
    scores: ShortWordScores
    began_at: float  # clock time the first kept sample was heard (pre-roll included)
    ended_at: float  # clock time its pause began (the end of the words, as Silero heard it)
    asked_at: float  # clock time the scoring was asked for (the pause long enough)
    decided_at: float  # clock time the verdict came
    host: HostTalk


class PauseGate:
    """What a short-path scoring asks done (hold the Host, act on its word), kept until its pause counts.

    The short path scores a stretch a block into its pause (`ShortPath.scored_from_seconds`), before the pause is
    long enough to end the stretch (`ShortPath.pause_seconds`); what it asks is done once the pause counts, and
    dropped if speech goes on first. Actions come from the short path's worker, `count` and `drop` from the listener's
    loop; an action asked after the pause counts is done at once, where it was asked."""

    def __init__(self, counts: bool) -> None:
        self._lock = threading.Lock()
        self._counts = counts
        self._dropped = False
        self._waiting: list[Callable[[], None]] = []

    @property
    def waiting(self) -> bool:
        """Neither counted nor dropped yet."""
        with self._lock:
            return not self._counts and not self._dropped

    @property
    def wanted(self) -> bool:
        """Not dropped: what the scoring finds may still be acted on."""
        with self._lock:
            return not self._dropped

    def run(self, action: Callable[[], None]) -> None:
        with self._lock:
            if self._dropped:
                return
            if not self._counts:
                self._waiting.append(action)
                return
        action()

    def count(self) -> None:
        """The pause is long enough: do what was asked, in order."""
        with self._lock:
            if self._counts or self._dropped:
                return
            self._counts = True
            waiting, self._waiting = self._waiting, []
        for action in waiting:
            action()

    def drop(self) -> None:
        """Speech went on before the pause counted: nothing asked is done (the stretch goes on, to be scored again)."""
        with self._lock:
            if not self._counts:
                self._dropped = True
                self._waiting.clear()


def input_level(block: Audio) -> float:
    """0-1 loudness for the screen's meter: -50 dBFS and below is 0, full scale is 1."""
    if len(block) == 0:
        return 0.0
    rms = float(np.sqrt(np.mean(np.square(block, dtype=np.float64))))
    if rms <= 0:
        return 0.0
    return min(1.0, max(0.0, (20 * math.log10(rms) + 50) / 50))


class Listener(Generic[T]):
    def __init__(
        self,
        source: AudioSource,
        detector: SpeechDetector,
        understand: Callable[[Audio], T],
        on_utterance: Callable[[Utterance[T]], None],
        on_status: Callable[[MicLevel], None] = lambda level: None,
        settings: ListenerSettings | None = None,
        executor: Executor | None = None,
        clock: Callable[[], float] = time.monotonic,
        turn_complete: Callable[[T], TurnText] | None = None,
        echo: EchoCanceller | None = None,
        far_end: FarEnd | None = None,
        short_words: Scoring | None = None,
        on_short_word: Callable[[ShortHeard], None] | None = None,
        second_opinion: Scoring | None = None,
        stop_spotter: Scoring | None = None,
        host_hold: HostHold | None = None,
    ) -> None:
        """`turn_complete` is the text signal (what the words say about the turn, a `TurnText`):
        without it every turn waits out the hangover ceiling.
        `echo` and `far_end` together keep the microphone open while the Host speaks. `short_words`
        scores a short utterance over the Host as a stop, repeat, next or skip word (the short path,
        `ShortPath`), on each of the canceller's signals of it in turn (`ShortPath.views`); one it takes
        goes to `on_short_word` at once, and nowhere else. `second_opinion` scores a signal the first scoring
        ranked "stop" on but could not take (`ShortPath.wants_second_opinion`); `stop_spotter` scores it first, and
        the second opinion is asked when the spotter did not take it (`ShortPath.spotted`); when neither takes it
        alone, both near their floors together take it (`ShortPath.both_verdict`). `host_hold` holds the Host's voice
        while base is asked after the spotter came near on "stop", or tiny.en after it came near on "wait", and lets it
        play on when no "stop" is taken (`ShortPath.hold_from`, `ShortPath.wait_hold_from`)."""
        self.source = source
        self.echo = echo if far_end is not None else None
        self.far_end = far_end if echo is not None else None
        self.detector = detector
        self.understand = understand
        self.turn_complete = turn_complete
        self.on_utterance = on_utterance
        self.on_status = on_status
        self.settings = settings or ListenerSettings()
        self._own_executor = executor is None
        self._executor_closed = False
        self.executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="understand")
        self.short_words = short_words if on_short_word is not None else None
        self.on_short_word = on_short_word
        self.second_opinion = second_opinion
        self.stop_spotter = stop_spotter
        self.host_hold = host_hold
        # Its own worker, so a stop word never queues behind the understanding of earlier words.
        self.short_executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="short words")
        self.clock = clock
        self.collector = UtteranceCollector(self.settings.segmenter, source.sample_rate)
        # What Silero heard of the same blocks (the canceller's gated, suppressed signal), for the short path.
        self._detected = RecentAudio(DETECTED_SECONDS, source.sample_rate)
        self._words = RecentAudio(DETECTED_SECONDS, source.sample_rate)  # ... and the words, for a stretch never collected
        self._played = RecentAudio(DETECTED_SECONDS, source.sample_rate)  # ... and the far end over the same blocks
        self._heard = RecentAudio(DETECTED_SECONDS, source.sample_rate)  # ... and the microphone itself
        self._unstarted = self.settings.short_path.unstarted(self.settings.speech_threshold)
        self._lock = threading.Lock()
        self._muted = False
        self._speaking = False
        self._tail_left = 0.0
        self._echo_trusted = False  # the canceller was trusted with the microphone over the Host at the last block
        self._untrusted_report_at = UNTRUSTED_REPORT_SECONDS  # the Host's seconds at which to say how the canceller stands
        self._drain_wanted = False
        self._device_lost = False
        self._early: Future[T] | None = None
        self._early_abandoned = threading.Event()  # set when the early run's result is no longer wanted
        self._judged: tuple[Future[T], TurnText | None] | None = None  # the text signal of the early result
        self._status: MicLevel | None = None
        self._emit_lock = threading.RLock()
        self._since_level = 0.0
        self._thinking = 0  # utterances handed over but not yet understood
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._host: HostTalk | None = None  # the Host's latest talk
        self._began_at: float | None = None  # when the utterance being collected began
        # The short path: each pause of an utterance has its own number; a verdict counts only while its
        # pause lasts (speech resuming, or the utterance ending, moves the number on).
        self._pause_id = 0
        self._short_asked = False  # the current pause has been scored
        # Where the latest stretch of speech began, in the utterance's seconds: its start, or the end of the
        # latest pause long enough to be scored ("Wait." after a murmur that Silero joined to it).
        self._stretch_from = 0.0
        self._short_taken: tuple[int, ShortWord] | None = None  # the pause whose words the short path took, and the word
        # Where the utterance went on after a stop word the short path took, in its samples (None: it did not).
        self._after_stop_from: int | None = None
        # Where speech last went on after a scored pause, in the utterance's samples, and that pause's number: a stop
        # verdict that comes after it (the scoring slower than the pause) is taken as if it had come in time.
        self._went_on: tuple[int, int] | None = None
        # The current pause's scoring: the scores it acted on (or the last stretch's) and its verdict.
        self._short_future: Future[ScoredWord] | None = None
        self._pause_gate: PauseGate | None = None  # the current pause's scoring, if scored ahead of the pause counting
        self._early_held: Audio | None = None  # the early understanding, waiting for that scoring
        rest_after = self.settings.rest_after_gate_seconds
        self._gate_silence = DigitalSilence(rest_after) if rest_after is not None else None

    # --- controls (any thread) ---

    @property
    def muted(self) -> bool:
        return self._muted

    def set_muted(self, muted: bool) -> None:
        with self._lock:
            self._muted = muted
        self._report_idle()

    def toggle_mute(self) -> bool:
        self.set_muted(not self._muted)
        return self._muted

    @property
    def hears_over_host(self) -> bool:
        """The microphone stays open while the Host speaks (an echo canceller is fed what it plays)."""
        return self.echo is not None

    @property
    def host_talk(self) -> HostTalk | None:
        return self._host

    @property
    def busy(self) -> bool:
        """An utterance is being heard or understood: work that can wait (lines made ahead) waits, so that the
        understanding has both cores."""
        with self._lock:
            thinking = self._thinking > 0
        return thinking or self.collector.collecting or self._early is not None

    def begin_speaking(self) -> None:
        """The Host starts talking: shut the microphone, unless the echo is cancelled (and the canceller
        has settled)."""
        with self._lock:
            self._speaking = True
            self._host = HostTalk(self.clock())
        self._emit(MicLevel(MicStatus.SPEAKING))

    def end_speaking(self) -> None:
        """The Host stopped: throw away what was captured meanwhile, then keep shut for the tail (with
        the echo cancelled there is nothing to throw away: the canceller follows the room's tail)."""
        with self._lock:
            self._speaking = False
            if self._host is not None and self._host.stopped_at is None:
                self._host = HostTalk(self._host.started_at, self.clock())
            self._tail_left = self.settings.speaking_tail_seconds
            # With a canceller the capture must stay in step with the far end: nothing is drained.
            self._drain_wanted = self.echo is None
        if self.echo is not None and self.echo.settled:
            self._report_idle()
        elif self._device_lost:  # no blocks will run the tail out: show the loss again now
            self._report_idle()

    # --- the loop ---

    def start(self) -> None:
        """Open the microphone (NoMicrophoneError at once if there is none) and listen on a thread."""
        self.source.start()
        if self.far_end is not None:
            self.far_end.reset()  # what was played before the microphone opened can never be heard
        if self._own_executor and self._executor_closed:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="understand")
            self.short_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="short words")
            self._executor_closed = False
        self._stop.clear()
        self._report_idle()
        self._thread = threading.Thread(target=self._run, name="listener", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self.source.stop()
        if self._own_executor:
            self.executor.shutdown(wait=False, cancel_futures=True)
            self.short_executor.shutdown(wait=False, cancel_futures=True)
            self._executor_closed = True

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._drain_wanted:
                self._drain_wanted = False
                self.source.drain()
            try:
                block = self.source.read(self.settings.read_timeout)
            except DeviceLostError:
                self._wait_for_device()
                continue
            if block is None:
                continue
            try:
                # When the device says when the block was captured, the far end is matched to it by time.
                self.feed(block, getattr(self.source, "last_block_time", None))
            except Exception as error:  # one bad block must not end listening for the night
                log.exception("a block of audio could not be heard; listening goes on")
                self.collector.reset()
                self.detector.reset()
                self._emit(MicLevel(MicStatus.LISTENING, detail=f"Missed some audio ({error})."))

    def _wait_for_device(self) -> None:
        self.collector.reset()
        self.detector.reset()
        self._discard_early()
        self._device_lost = True
        self._report_idle()
        log.warning("the microphone was lost; looking for it every %.1f s", self.settings.retry_seconds)
        while not self._stop.wait(self.settings.retry_seconds):
            try:
                self.source.reopen()
            except AudioUnavailableError:
                continue
            log.info("the microphone is back")
            self._device_lost = False
            self._report_idle()
            return

    def feed(self, block: Audio, captured_at: float | None = None) -> None:
        """One block of audio through turn-taking, VAD and the segmenter (the loop's whole step).
        `captured_at`: the device's stream time of its first sample, if known (for the echo canceller)."""
        seconds = len(block) / self.source.sample_rate
        with self._lock:
            speaking, muted = self._speaking, self._muted
            in_tail = not speaking and self._tail_left > 1e-9  # (sums of block lengths are inexact)
            if in_tail:
                self._tail_left -= seconds
            tail_over = in_tail and self._tail_left <= 1e-9
        detect, gated = block, False
        if self.echo is not None and self.far_end is not None:
            # Every block goes through the canceller, muted or not: it follows the room all night.
            far = self.far_end.take(len(block), captured_at)
            cancelled = self.echo.process(block, far, self.far_end.quiet_seconds())
            # What was played and what the microphone heard are kept open or shut: the words just after it opens
            # are judged against them (`_own_voice`).
            self._played.add(far)
            self._heard.add(cancelled.heard)
            trusted = self.echo.settled
            if trusted != self._echo_trusted:
                self._echo_trusted = trusted
                log.info(ECHO_TRUSTED if trusted else ECHO_NOT_TRUSTED)
            self._report_untrusted(trusted)
            if trusted:
                detect, block = cancelled.detect, cancelled.words
                gated = cancelled.far_active
                speaking = in_tail = False  # the microphone stays open
        if speaking or in_tail or muted:
            self._forget_recent()
            if self.collector.collecting or self._early is not None:
                self.collector.reset()
                self._discard_early()
            self.detector.reset()
            if self._unstarted is not None:
                self._unstarted.reset()
            if not speaking and (not in_tail or tail_over):
                self._report_idle()
            return

        self._drop_taken()
        silence = self._gate_silence
        hearing = silence.add(seconds, gated and not np.any(detect)) if silence is not None else SilenceStep.HEAR
        probability = 0.0  # the gate's silence: nothing to hear
        if hearing is SilenceStep.HEAR:
            probability = self.detector.probability(detect)
        elif hearing is SilenceStep.REST and silence is not None:
            self.detector.reset()
            self.detector.probability(np.zeros(round(silence.rest_seconds * self.source.sample_rate), dtype=np.float32))
        is_speech = probability >= self.settings.speech_threshold
        paused = self.collector.segmenter.silence_run if self.collector.collecting else 0.0
        self._detected.add(detect)
        self._words.add(block)
        step = self.collector.add(block, is_speech)
        event = step.event
        self._watch_unstarted(seconds, probability)
        gate = self._pause_gate
        if gate is not None and gate.waiting and self.collector.collecting:
            if is_speech:
                gate.drop()  # (before the pause moves on: a verdict dropped is never taken as one that came late)
            elif self.settings.short_path.pause_counts(self.collector.segmenter.silence_run):
                gate.count()
        if is_speech and self._short_asked:
            self._speech_went_on(seconds, paused)
            self._next_pause()  # speech again: the scored pause is over
        if event is SegmentEvent.SPEECH_STARTED:
            self._stretch_from = 0.0
            self._after_stop_from = None
        elif is_speech and self.settings.short_path.pause_counts(paused):
            self._stretch_from = self.collector.segmenter.utterance_seconds - seconds
        if event is SegmentEvent.SPEECH_STARTED:
            self._since_level = 0.0
            kept = self.collector.segmenter.utterance_seconds + self.settings.segmenter.pre_roll_seconds
            self._began_at = self.clock() - kept
            self._emit_unless_speaking(MicLevel(MicStatus.HEARING, level=input_level(block)))
        elif event is SegmentEvent.SILENCE_STARTED and step.audio is not None:
            self._discard_early()
            if self._stop_taken():
                pass  # nothing of a stop word goes on to the whole understanding, unless the utterance goes on
            elif self._short_future is not None and not self._short_future.done():
                # The short words' verdict first: on 2 cores the two would slow each other down.
                self._early_held = step.audio
            else:
                self._start_early(step.audio)
        elif event is SegmentEvent.SPEECH_RESUMED:
            self._discard_early()
        elif event in (SegmentEvent.SPEECH_ENDED, SegmentEvent.TOO_LONG) and step.audio is not None:
            self._finish(step.audio, cut=event is SegmentEvent.TOO_LONG)
            return
        if self._early_held is not None and (self._short_future is None or self._short_future.done()):
            held, self._early_held = self._early_held, None
            if not self._stop_taken():
                self._start_early(held)
        if self._turn_over():
            self._finish(self.collector.finish(), cut=False)
            return
        self._score_short(step.audio)
        if self.collector.collecting:
            self._since_level += seconds
            if self._since_level >= self.settings.level_every_seconds:
                self._since_level = 0.0
                self._emit_unless_speaking(MicLevel(MicStatus.HEARING, level=input_level(block)))

    def _score_short(self, audio: Audio | None) -> None:
        """A short utterance over the Host, now in a short pause: score the short words on it."""
        segmenter = self.collector.segmenter
        if self.short_words is None or self._short_asked or not self.collector.collecting:
            return
        now = self.clock()
        speech = segmenter.utterance_seconds - segmenter.silence_run - self._stretch_from
        if not self.settings.short_path.should_score(self._host, now, speech, segmenter.silence_run, ahead=True):
            return
        host = self._host
        assert host is not None  # should_score: the Host is talking
        audio = audio if audio is not None else self.collector.so_far()
        began_at = self._began_at if self._began_at is not None else now - segmenter.utterance_seconds
        rule, whole = self.settings.short_path, None
        if self._stretch_from > 0:  # the latest stretch only, with a little of the pause before it
            if rule.score_whole_too(segmenter.utterance_seconds - segmenter.silence_run, speech):
                whole = audio  # "Stop, ... please.": the phrase whole, should the stretch not be taken
            lead = self.settings.segmenter.pre_roll_seconds
            audio = audio[-round((segmenter.utterance_seconds - self._stretch_from + lead) * self.source.sample_rate) :]
            began_at = now - (segmenter.utterance_seconds - self._stretch_from)
        if self._own_voice(audio):
            self._short_asked = True  # not scored; the whole utterance is judged again when it ends
            return
        views = rule.views_of(
            ShortViews(audio, self._detected.last(len(audio))),
            ShortViews(whole, self._detected.last(len(whole))) if whole is not None else None,
        )
        ended_at = now - segmenter.silence_run
        alone = self._stretch_from == 0  # the stretch is the utterance so far: nothing was said before it
        counts = rule.pause_counts(segmenter.silence_run)
        self._short_future = self._ask_short_path(
            self.short_words, views, began_at, ended_at, now, host, takes_utterance=True, alone=alone, counts=counts
        )

    def _watch_unstarted(self, seconds: float, probability: float) -> None:
        """Over the Host, a stretch too short to start an utterance, now in a short pause: score it too."""
        if self._unstarted is None or self.short_words is None:
            return
        if self.collector.collecting:
            self._unstarted.reset()  # the segmenter's utterance: its stretches are scored by `_score_short`
            return
        speech = self._unstarted.process(seconds, probability)
        if speech is None:
            return
        now, rule, host = self.clock(), self.settings.short_path, self._host
        pause = rule.pause_seconds
        if host is None or not rule.should_score(host, now, speech, pause):
            return
        wanted = round((speech + pause + self.settings.segmenter.pre_roll_seconds) * self.source.sample_rate)
        samples = min(wanted, len(self._words))
        kept = samples / self.source.sample_rate  # (less of the pre-roll just after the microphone opened)
        words, detect = self._words.last(samples), self._detected.last(samples)
        if words is None or self._own_voice(words):
            return
        views = rule.views_of(ShortViews(words, detect), None)
        self._ask_short_path(self.short_words, views, now - kept, now - pause, now, host, takes_utterance=False)

    def _ask_short_path(
        self, score: Scoring, views: list[tuple[Audio, Audio | None]], began_at: float, ended_at: float, now: float,
        host: HostTalk, takes_utterance: bool, alone: bool = True, counts: bool = True,
    ) -> Future[ScoredWord]:  # fmt: skip
        """Score `views` with `score` on the short path's worker. A word taken goes to `on_short_word`.
        `takes_utterance`: the words are the utterance being collected, and nothing of it goes on to the whole
        understanding once a word is taken (a stretch that never started an utterance has none); but a stop word
        taken on a stretch after other words (`alone` False, and not on the whole utterance scored as a phrase)
        silences the Host and leaves the utterance to the whole understanding: "... where were you at ten?" heard as
        "Wait, wait." must not lose "Abel, ..." (a card message among its words is taken: `meant_after_stop`).
        A verdict that comes after speech went on (the pause's number moved): repeat, next and skip are dropped
        ("Next ... round, please.", "Wait ... for the statements", "Wait" of "Thwaite's answers": the whole
        understanding's to judge); a stop still silences the Host, as it would have had the scoring been quicker than
        the pause, and what went on goes on to the whole understanding as after a stop taken in time
        (`_speech_went_on`). Live, "Stop, ... please." and "Wait, wait." were scored as their second word began,
        and the Host read on until the whole phrase was scored, 0.55-0.69 s after it ended (session 42).
        `counts`: the pause is already long enough to end the stretch; if not (scored ahead), the hold and the verdict
        wait for it in a `PauseGate`, and are dropped if speech goes on first."""
        self._short_asked = True
        gate = PauseGate(counts)
        self._pause_gate = gate
        pause = self._pause_id
        hold = self.host_hold
        held_at: float | None = None  # when the Host was held for this scoring (doubt always runs before decide)

        def doubt() -> None:  # a word the spotter came near on is being judged: the Host holds until the verdict
            nonlocal held_at
            assert hold is not None  # only asked for with a hold
            held_at = self.clock()
            hold.hold()

        def decide(done: Future[ScoredWord]) -> None:
            try:
                act(done)
            finally:
                if hold is not None and held_at is not None:
                    hold.release()  # after a stop taken, nothing is left to play on
                    # (the speaker holds only what is queued: in the Host's tail, or between sentences, nothing)
                    log.debug("the Host asked to hold %.2f s while a word over it was judged", self.clock() - held_at)

        def act(done: Future[ScoredWord]) -> None:
            try:
                scored = done.result()
            except Exception:  # the whole understanding still hears the utterance
                log.exception("the short words could not be scored")
                return
            scores, word = scored.scores, scored.word
            log.debug("short words %s in %.2f s: %s", [(w.value, round(s, 2)) for w, s in scores.ranked()], scores.seconds, word)
            if word is None or self.on_short_word is None:
                return
            heard = ShortHeard(word, scores, began_at, ended_at, now, self.clock(), host)
            whole_taken = takes_utterance and (word is not ShortWord.STOP or alone or scored.whole)
            with self._lock:
                if pause != self._pause_id:  # speech went on, or the utterance was already handed on
                    if word is not ShortWord.STOP or self._pause_id != pause + 1:
                        return
                    went_on = self._went_on
                    if whole_taken and went_on is not None and went_on[0] == pause:
                        self._after_stop_from = went_on[1]
                    log.debug("a stop word's verdict came %.2f s after its pause began: taken", self.clock() - ended_at)
                elif whole_taken:
                    self._short_taken = (pause, word)
            self.on_short_word(heard)

        on_doubt = (lambda: gate.run(doubt)) if hold is not None else None
        future = self.short_executor.submit(
            self.settings.short_path.take, views, score, self.second_opinion, self.stop_spotter, on_doubt,
            lambda: gate.wanted,
        )  # fmt: skip
        future.add_done_callback(lambda done: gate.run(lambda: decide(done)))
        return future

    def _own_voice(self, words: Audio) -> bool:
        """Whether `words`, just heard, are the Host's own voice let through by the canceller: coherent with what
        was played over them (`echo_coherence` at least `own_voice_coherence`), or so far under the microphone
        (`own_voice_left_db`, or just over what the canceller leaves of the Host these days) that they are what the
        canceller left of the Host, not a player over it."""
        ceiling, floor = self.settings.own_voice_coherence, self._own_voice_floor_db()
        if self.echo is None or self.far_end is None or (ceiling is None and floor is None):
            return False
        extra = round(self.settings.own_voice_lag_seconds * self.source.sample_rate)
        count = min(len(words), len(self._played) - extra)  # the latest words, with the far end before them
        if self.far_end.quiet_seconds() * self.source.sample_rate >= count + extra:
            return False  # the Host was silent over them (most utterances): nothing of it to find
        played = self._played.last(count + extra)
        if count <= 0 or played is None:
            return False
        words = words[-count:]
        coherence = echo_coherence(words, played) if ceiling is not None else 0.0
        left_db = self._left_db(words) if floor is not None else None
        coherent = ceiling is not None and coherence >= ceiling
        faint = floor is not None and left_db is not None and left_db < floor
        if not (coherent or faint):
            return False
        log.info(
            "%.2f s of the Host's own voice let through (coherence %.2f with what it played, %s under the "
            "microphone): dropped", count / self.source.sample_rate, coherence,
            "?" if left_db is None else f"{-left_db:.0f} dB",
        )  # fmt: skip
        return True

    def _own_voice_floor_db(self) -> float | None:
        """Words left under the microphone by less than this (dB) are the canceller's residue of the Host: the fixed
        floor, raised to just over the residue while the canceller takes out little (`own_voice_over_residue_db`)."""
        floor, over = self.settings.own_voice_left_db, self.settings.own_voice_over_residue_db
        if over is None or self.echo is None or not self.echo.erle_measured:
            return floor
        residue = over - self.echo.erle_db
        return residue if floor is None else max(floor, residue)

    def _left_db(self, words: Audio) -> float | None:
        """How loud `words` (the canceller's output) are against the microphone over them, dB (None: silence)."""
        heard = self._heard.last(len(words))
        if heard is None:
            return None
        power = float(np.mean(np.square(heard, dtype=np.float64)))
        left = float(np.mean(np.square(words, dtype=np.float64)))
        if power <= 1e-12 or left <= 1e-14:
            return None
        return 10 * math.log10(left / power)

    def _report_untrusted(self, trusted: bool) -> None:
        """Every `UNTRUSTED_REPORT_SECONDS` of the Host's voice the canceller is not trusted over, say how it stands: a
        live run once kept the microphone shut over the Host for five minutes, and the log could not say why."""
        assert self.echo is not None
        host_seconds = self.echo.far_seconds
        if not trusted and host_seconds < self._untrusted_report_at:
            return
        self._untrusted_report_at = host_seconds + UNTRUSTED_REPORT_SECONDS
        if trusted:
            return
        lag = self.echo.delay_watch.lag
        log.info(
            "still not trusted after %.0f s of the Host: %.1f dB of its echo taken out (the 10-s median), the echo %s",
            host_seconds, self.echo.erle_db, "not found yet" if lag is None else f"{1000 * lag / SAMPLE_RATE:.0f} ms late",
        )  # fmt: skip

    def _forget_recent(self) -> None:
        """The microphone is shut: the words it hears once open again must never be joined to those before (tune
        night 45: a stretch scored just after the canceller was trusted again reached back over the shut seconds to the
        Host's echo before a move, and was taken as "Hold on.")."""
        for recent in (self._detected, self._words):  # (what was played, and the microphone itself, are kept)
            recent.clear()

    def _next_pause(self) -> None:
        with self._lock:
            self._pause_id += 1
            self._short_asked = False

    def _taken_by_short_path(self, stop_too: bool = True) -> bool:
        """Whether the short path took the words of the current pause (asked once: it forgets them).
        `stop_too`: a stop word counts as well (else it is left for `_speech_went_on`)."""
        with self._lock:
            taken = self._short_taken
            if taken is None or (not stop_too and taken[1] is ShortWord.STOP):
                return False
            self._short_taken = None
            return taken[0] == self._pause_id

    def _stop_taken(self) -> bool:
        """The short path took the words of the current pause as a stop word."""
        with self._lock:
            return self._short_taken == (self._pause_id, ShortWord.STOP)

    def _speech_went_on(self, block_seconds: float, paused: float) -> None:
        """Speech again in a scored pause: where it went on is kept, and if the short path took a stop word there, the
        Host stays silent and the utterance goes on whole to the whole understanding, with what was said after the
        word beside it (`Utterance.after_stop`). A name can sound like a stop word ("Thwaite, ... where were you?"
        heard as "Wait."), and the table may go on after one ("Stop. Read exhibit four.")."""
        # From a little into the pause before the block that went on (at most the pre-roll an utterance has).
        back = min(paused, self.settings.segmenter.pre_roll_seconds) + block_seconds
        went_on_from = max(0, self.collector.samples - round(back * self.source.sample_rate))
        with self._lock:
            self._went_on = (self._pause_id, went_on_from)
        if self._taken_by_short_path():
            self._after_stop_from = went_on_from

    def _forget_utterance(self) -> None:
        """Nothing of the utterance goes to the whole understanding: the short path acted on its words, or they
        were the Host's own voice."""
        self._discard_early()
        self._began_at = None
        self._after_stop_from = None
        self._next_pause()

    def _drop_taken(self) -> None:
        """The short path took the utterance being collected as repeat, next or skip: drop it (what follows is a
        new one). A stop word's utterance is kept until it ends, or goes on (`_speech_went_on`)."""
        if self._taken_by_short_path(stop_too=False):
            self.collector.reset()
            self._forget_utterance()

    def _finish(self, audio: Audio, cut: bool) -> None:
        if self._taken_by_short_path():
            self._forget_utterance()
            return
        if self._own_voice(audio):
            self._forget_utterance()
            self._report_idle()
            return
        self._next_pause()
        ended_at = self.clock()
        began_at, self._began_at = self._began_at, None
        host = self._host if self.echo is not None else None
        early, self._early = self._early, None
        self._early_held = None
        future = early if early is not None and not early.cancelled() else None
        if future is not None and self._understand_again(future, began_at, ended_at):
            self._abandon_early(future)
            future = None
        if future is None:
            future = self.executor.submit(self.understand, audio)
        after_from, self._after_stop_from = self._after_stop_from, None
        after_stop = self.executor.submit(self.understand, audio[after_from:]) if after_from is not None else None
        with self._lock:
            self._thinking += 1
        self._emit_unless_speaking(MicLevel(MicStatus.THINKING))

        def deliver(done: Future[T]) -> None:
            with self._lock:
                self._thinking -= 1
            try:
                result = done.result()
            except Exception as error:  # a failed recognition loses one utterance, never the loop
                log.exception("an utterance of %.1f s could not be understood", len(audio) / self.source.sample_rate)
                self._emit(MicLevel(MicStatus.LISTENING, detail=f"Could not make that out ({error})."))
                return
            if after_stop is not None:  # understood after the whole (one worker): delivered with it
                after_stop.add_done_callback(lambda after: hand_on(result, after))
            else:
                hand_on(result, None)

        def hand_on(result: T, after: Future[T] | None) -> None:
            after_result = None
            if after is not None and not after.cancelled() and after.exception() is None:
                after_result = after.result()
            utterance = Utterance(audio, result, early is future, ended_at, self.clock(), cut, began_at, host, after_result)
            log.debug(
                "utterance of %.2f s understood %.2f s after it ended (%s%s)",
                len(audio) / self.source.sample_rate,
                utterance.wait_seconds,
                "early start" if utterance.early else "started at the end",
                ", cut at the length limit" if cut else "",
            )
            self.on_utterance(utterance)
            self._report_idle()

        future.add_done_callback(deliver)

    def _understand_again(self, early: Future[T], began_at: float | None, ended_at: float) -> bool:
        """The utterance was said over the Host and its early words were not a whole message: what Silero lost
        of it after the early start may still be in the audio (`ListenerSettings.understand_again_over_host`)."""
        if not self.settings.understand_again_over_host or self.echo is None or not self.echo.settled:
            return False
        whole = self._judged is not None and self._judged[0] is early and self._judged[1] in _WHOLE_TURNS
        return not whole and self.settings.barge_in.over_host(
            began_at if began_at is not None else ended_at, ended_at, self._host
        )

    def _turn_over(self) -> bool:
        """In a pause with the early result ready: does `EndOfTurn` say the turn is over?"""
        early, segmenter = self._early, self.collector.segmenter
        if early is None or self.turn_complete is None or not segmenter.early_signalled or not early.done():
            return False
        if self._judged is None or self._judged[0] is not early:
            self._judged = (early, self._judge(early))
        over_host = False
        if self.echo is not None and self._judged[1] is TurnText.STOP_WORDS:
            now = self.clock()
            began_at = self._began_at if self._began_at is not None else now - segmenter.utterance_seconds
            over_host = self.settings.barge_in.over_host(began_at, now, self._host)
        return self.settings.end_of_turn.ended(segmenter.silence_run, self._judged[1], over_host=over_host)

    def _judge(self, early: Future[T]) -> TurnText | None:
        """The text signal for a finished early result; None when there is nothing to judge."""
        if early.cancelled() or early.exception() is not None or self.turn_complete is None:
            return None  # the hangover ceiling decides
        try:
            return self.turn_complete(early.result())
        except Exception:  # a judge that fails leaves the turn to the ceiling, never loses it
            return None

    def _start_early(self, audio: Audio) -> None:
        """Understand the utterance so far on the worker, in case the pause ends the turn."""
        self._early_abandoned = abandoned = threading.Event()
        if isinstance(self.understand, StoppableUnderstanding):
            self._early = self.executor.submit(self.understand.run, audio, abandoned.is_set)
        else:
            self._early = self.executor.submit(self.understand, audio)

    def _abandon_early(self, early: Future[T]) -> None:
        """The early run's result is no longer wanted: still queued, it never runs; running, it stops at its next step
        and its result is ignored."""
        early.cancel()
        self._early_abandoned.set()

    def _discard_early(self) -> None:
        self._early_held = None
        early, self._early = self._early, None
        if early is not None:
            self._abandon_early(early)

    def _report_idle(self) -> None:
        with self._lock:
            speaking, muted, thinking = self._speaking, self._muted, self._thinking
        if speaking:
            self._emit(MicLevel(MicStatus.SPEAKING))
        elif self._device_lost:
            self._emit(MicLevel(MicStatus.UNAVAILABLE, detail=MICROPHONE_LOST))
        elif muted:
            self._emit(MicLevel(MicStatus.MUTED))
        elif thinking:
            self._emit(MicLevel(MicStatus.THINKING))
        elif self.collector.collecting:
            self._emit(MicLevel(MicStatus.HEARING))
        else:
            self._emit(MicLevel(MicStatus.LISTENING))

    def _emit_unless_speaking(self, level: MicLevel) -> None:
        """While the Host speaks the status stays SPEAKING (the screen follows the Host's sentences by it)."""
        with self._lock:
            speaking = self._speaking
        if not speaking:
            self._emit(level)

    def _emit(self, level: MicLevel) -> None:
        with self._emit_lock:  # several threads report; keep the order they decided in
            if self._status == level:
                return
            self._status = level
            self.on_status(level)
