"""The voice loop: microphone -> Silero -> segmenter -> (early) understanding -> the app; and the Host's
mouth, which keeps the microphone shut while it talks.

`Listener` reads blocks from an audio source on its own thread. When a pause after speech reaches
`early_seconds` it starts understanding the utterance at once (on a single worker), and throws that
result away if speech resumes; when the hangover runs out the early result is used, so waiting for
silence and transcribing overlap. `understand` is the app's function from audio to whatever it needs
(a Transcript, or the whole understood message): everything it does overlaps the hangover.

Turn-taking: while the Host speaks, and for a short tail after, blocks are thrown away (the Host never
hears itself). Mute throws them away too. A lost device pauses the loop; it retries until the device
returns, and the game's state, which lives elsewhere, is untouched.

`HostVoice` speaks replies sentence by sentence through a player, tells the listener when it starts
and stops, can be stopped mid-sentence, and can repeat the last reply.

Everything reports `MicLevel` statuses through one callback (called from background threads: a
screen should hand them to its own thread).
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

from engine.replies import Reply
from voice_host.ears.audio import MICROPHONE_LOST, AudioUnavailableError, DeviceLostError
from voice_host.ears.vad import Audio, SegmenterSettings, SegmentEvent, SpeechDetector, UtteranceCollector
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.mouth.tts import SpeechLine, SpokenSentence

T = TypeVar("T")


class AudioSource(Protocol):
    """What the listener reads: `Capture`, or a fake in tests."""

    sample_rate: int

    def start(self) -> None: ...

    def read(self, timeout: float = 0.5) -> Audio | None: ...

    def drain(self) -> int: ...

    def stop(self) -> None: ...

    def reopen(self) -> None: ...


class FeedOnlySource:
    """A source for driving `Listener.feed` by hand (files in `hear`, benchmarks): it gives the sample
    rate and never produces blocks of its own."""

    def __init__(self, sample_rate: int = 16_000) -> None:
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
class ListenerSettings:
    segmenter: SegmenterSettings = field(default_factory=SegmenterSettings)
    speech_threshold: float = 0.5  # Silero probability at or above which a block is speech
    speaking_tail_seconds: float = 0.3  # the microphone stays shut this long after the Host stops
    retry_seconds: float = 1.0  # how often to look for a lost microphone
    read_timeout: float = 0.2
    level_every_seconds: float = 0.1  # HEARING level updates at most this often


@dataclass(frozen=True)
class Utterance(Generic[T]):
    """One finished utterance and what `understand` made of it."""

    audio: Audio
    result: T
    early: bool  # the result came from the early run, started when the pause began
    ended_at: float  # clock time when the end of speech was detected
    ready_at: float  # clock time when the result was ready (>= ended_at)
    cut: bool = False  # the utterance hit the length limit

    @property
    def wait_seconds(self) -> float:
        """End of speech to result: what the table waits for recognition after it stops talking."""
        return self.ready_at - self.ended_at


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
    ) -> None:
        self.source = source
        self.detector = detector
        self.understand = understand
        self.on_utterance = on_utterance
        self.on_status = on_status
        self.settings = settings or ListenerSettings()
        self._own_executor = executor is None
        self._executor_closed = False
        self.executor = executor or ThreadPoolExecutor(max_workers=1, thread_name_prefix="understand")
        self.clock = clock
        self.collector = UtteranceCollector(self.settings.segmenter, source.sample_rate)
        self._lock = threading.Lock()
        self._muted = False
        self._speaking = False
        self._tail_left = 0.0
        self._drain_wanted = False
        self._device_lost = False
        self._early: Future[T] | None = None
        self._status: MicLevel | None = None
        self._emit_lock = threading.RLock()
        self._since_level = 0.0
        self._thinking = 0  # utterances handed over but not yet understood
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

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

    def begin_speaking(self) -> None:
        """The Host starts talking: shut the microphone."""
        with self._lock:
            self._speaking = True
        self._emit(MicLevel(MicStatus.SPEAKING))

    def end_speaking(self) -> None:
        """The Host stopped: throw away what was captured meanwhile, then keep shut for the tail."""
        with self._lock:
            self._speaking = False
            self._tail_left = self.settings.speaking_tail_seconds
            self._drain_wanted = True
        if self._device_lost:  # no blocks will run the tail out: show the loss again now
            self._report_idle()

    # --- the loop ---

    def start(self) -> None:
        """Open the microphone (NoMicrophoneError at once if there is none) and listen on a thread."""
        self.source.start()
        if self._own_executor and self._executor_closed:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="understand")
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
                self.feed(block)
            except Exception as error:  # one bad block must not end listening for the night
                self.collector.reset()
                self.detector.reset()
                self._emit(MicLevel(MicStatus.LISTENING, detail=f"Missed some audio ({error})."))

    def _wait_for_device(self) -> None:
        self.collector.reset()
        self.detector.reset()
        self._discard_early()
        self._device_lost = True
        self._report_idle()
        while not self._stop.wait(self.settings.retry_seconds):
            try:
                self.source.reopen()
            except AudioUnavailableError:
                continue
            self._device_lost = False
            self._report_idle()
            return

    def feed(self, block: Audio) -> None:
        """One block of audio through turn-taking, VAD and the segmenter (the loop's whole step)."""
        seconds = len(block) / self.source.sample_rate
        with self._lock:
            speaking, muted = self._speaking, self._muted
            in_tail = not speaking and self._tail_left > 1e-9  # (sums of block lengths are inexact)
            if in_tail:
                self._tail_left -= seconds
            tail_over = in_tail and self._tail_left <= 1e-9
        if speaking or in_tail or muted:
            if self.collector.collecting or self._early is not None:
                self.collector.reset()
                self._discard_early()
            self.detector.reset()
            if not speaking and (not in_tail or tail_over):
                self._report_idle()
            return

        is_speech = self.detector.probability(block) >= self.settings.speech_threshold
        step = self.collector.add(block, is_speech)
        event = step.event
        if event is SegmentEvent.SPEECH_STARTED:
            self._since_level = 0.0
            self._emit(MicLevel(MicStatus.HEARING, level=input_level(block)))
        elif event is SegmentEvent.SILENCE_STARTED and step.audio is not None:
            self._discard_early()
            self._early = self.executor.submit(self.understand, step.audio)
        elif event is SegmentEvent.SPEECH_RESUMED:
            self._discard_early()
        elif event in (SegmentEvent.SPEECH_ENDED, SegmentEvent.TOO_LONG) and step.audio is not None:
            self._finish(step.audio, cut=event is SegmentEvent.TOO_LONG)
            return
        if self.collector.collecting:
            self._since_level += seconds
            if self._since_level >= self.settings.level_every_seconds:
                self._since_level = 0.0
                self._emit(MicLevel(MicStatus.HEARING, level=input_level(block)))

    def _finish(self, audio: Audio, cut: bool) -> None:
        ended_at = self.clock()
        early, self._early = self._early, None
        future = early if early is not None and not early.cancelled() else None
        if future is None:
            future = self.executor.submit(self.understand, audio)
        with self._lock:
            self._thinking += 1
        self._emit(MicLevel(MicStatus.THINKING))

        def deliver(done: Future[T]) -> None:
            with self._lock:
                self._thinking -= 1
            try:
                result = done.result()
            except Exception as error:  # a failed recognition loses one utterance, never the loop
                self._emit(MicLevel(MicStatus.LISTENING, detail=f"Could not make that out ({error})."))
                return
            self.on_utterance(Utterance(audio, result, early is future, ended_at, self.clock(), cut))
            self._report_idle()

        future.add_done_callback(deliver)

    def _discard_early(self) -> None:
        early, self._early = self._early, None
        if early is not None:
            early.cancel()  # a job already running finishes, and its result is ignored

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

    def _emit(self, level: MicLevel) -> None:
        with self._emit_lock:  # several threads report; keep the order they decided in
            if self._status == level:
                return
            self._status = level
            self.on_status(level)


# --- the Host's mouth ---------------------------------------------------------------------------------


class AudioSink(Protocol):
    """What the Host speaks into: `Player`, or a fake in tests."""

    sample_rate: int

    def play(self, audio: Audio, on_start: Callable[[], None] | None = None) -> None: ...

    def stop(self) -> None: ...

    def wait(self, timeout: float | None = None) -> bool: ...


class SentenceMaker(Protocol):
    def stream(self, reply: Reply) -> Any: ...


class HostVoice:
    """Speaks replies in order on its own thread; `stop()` silences it mid-sentence; `repeat()` again."""

    def __init__(
        self,
        synthesizer: SentenceMaker,
        player: AudioSink,
        listener: Listener[Any] | None = None,
        on_first_audio: Callable[[Reply, float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_sentence: Callable[[SpeechLine], None] | None = None,
    ) -> None:
        self.synthesizer = synthesizer
        self.on_sentence = on_sentence
        self.player = player
        self.listener = listener
        self.on_first_audio = on_first_audio
        self.clock = clock
        self.last_spoken: Reply | None = None
        self.failures: list[Exception] = []  # replies that could not be spoken (they stay on screen)
        self._jobs: queue.Queue[Reply | None] = queue.Queue()
        self._generation = 0  # bumped by stop(): sentences of an older generation are not played
        self._speaking = False  # a reply is being spoken (the listener, if any, is shut)
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._thread = threading.Thread(target=self._run, name="host-voice", daemon=True)
        self._thread.start()

    def say(self, reply: Reply) -> None:
        """Speak a reply after any still being spoken (a reply with nothing to say is skipped)."""
        if not reply.spoken_parts:
            return
        with self._lock:
            self._idle.clear()
            self._jobs.put(reply)

    def repeat(self) -> bool:
        """Say the last spoken reply again; False when nothing has been said yet."""
        if self.last_spoken is None:
            return False
        self.say(self.last_spoken)
        return True

    def stop(self) -> None:
        """Silence now: the current sentence stops mid-word and queued replies are dropped."""
        with self._lock:
            self._generation += 1
            while True:
                try:
                    self._jobs.get_nowait()
                except queue.Empty:
                    break
        self.player.stop()

    def wait_idle(self, timeout: float | None = None) -> bool:
        return self._idle.wait(timeout)

    def close(self) -> None:
        self.stop()
        self._jobs.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            reply = self._jobs.get()
            if reply is None:
                return
            with self._lock:
                generation = self._generation
            try:
                self._speak(reply, generation)
            except Exception as error:  # a voice that fails loses this reply's sound, never the mouth
                self.failures.append(error)
            with self._lock:
                if self._jobs.empty():
                    self._idle.set()

    def _announcer(self, line: SpeechLine) -> Callable[[], None] | None:
        on_sentence = self.on_sentence
        if on_sentence is None:
            return None
        return lambda: on_sentence(line)

    def attach_listener(self, listener: Listener[Any]) -> None:
        """Give the mouth its ears later (they load while the Host reads the opening)."""
        with self._lock:
            self.listener = listener
            if self._speaking:
                listener.begin_speaking()

    def _speak(self, reply: Reply, generation: int) -> None:
        with self._lock:
            self._speaking = True
            if self.listener is not None:
                self.listener.begin_speaking()
        started = self.clock()
        first = True
        try:
            self.last_spoken = reply
            sentence: SpokenSentence
            for sentence in self.synthesizer.stream(reply):
                if self._generation != generation:
                    break
                self.player.play(sentence.audio, self._announcer(sentence.line) if sentence.piece == 0 else None)
                if first and self.on_first_audio is not None:
                    self.on_first_audio(reply, self.clock() - started)
                first = False
            if self._generation == generation:
                self.player.wait()
        finally:
            with self._lock:
                self._speaking = False
                if self.listener is not None:
                    self.listener.end_speaking()


# --- the whole voice side, as the screen uses it ----------------------------------------------------


class VoiceIO(Generic[T]):
    """Ears and mouth together: say / stop / toggle_mute / repeat / close, all returning at once.

    Either half may be missing (no microphone: typed questions, spoken replies; no speaker: spoken
    questions, replies on screen only); `problems` holds the plain sentences saying so.
    """

    def __init__(
        self,
        listener: Listener[T] | None,
        voice: HostVoice | None,
        player: Any = None,
        problems: tuple[str, ...] = (),
    ) -> None:
        self.listener = listener
        self.voice = voice
        self.player = player
        self.problems = problems

    def say(self, reply: Reply) -> None:
        if self.voice is not None:
            self.voice.say(reply)

    def stop(self) -> None:
        if self.voice is not None:
            self.voice.stop()

    def repeat(self) -> bool:
        return self.voice.repeat() if self.voice is not None else False

    def toggle_mute(self) -> bool:
        return self.listener.toggle_mute() if self.listener is not None else True

    def close(self) -> None:
        if self.voice is not None:
            self.voice.close()
        if self.listener is not None:
            self.listener.stop()
        if self.player is not None:
            self.player.close()


def open_voice(
    understand: Callable[[Audio], T],
    on_utterance: Callable[[Utterance[T]], None],
    on_status: Callable[[MicLevel], None],
    suspect_keys: tuple[str, ...],
    on_sentence: Callable[[SpeechLine], None] | None = None,
    input_device: int | str | None = None,
    output_device: int | str | None = None,
    on_speaker_ready: Callable[[VoiceIO[T]], None] | None = None,
    prepare_ears: Callable[[], None] | None = None,
) -> VoiceIO[T]:
    """Open the speaker and the microphone, load piper and Silero, and start listening.

    Slow (models load): call it off the UI thread. Raises AudioUnavailableError (a plain sentence)
    only when there is neither a microphone nor a speaker: then the table plays by typing.

    For the first word as soon as possible on 2 cores, the mouth comes first: `on_speaker_ready(io)`
    is called once piper is loaded (the app may say the opening at once; the microphone is not open
    yet), then `prepare_ears()` runs (load whisper there, while the Host talks), then the microphone
    opens, shut until the Host stops. Without them, `understand` must be ready to use.
    """
    from voice_host.ears.audio import Capture, Player, check_microphone
    from voice_host.ears.vad import SileroVad
    from voice_host.mouth.tts import Synthesizer, VoiceConfigError, default_voice_map, load_voice_map

    problems: list[str] = []
    player: Player | None = None
    try:
        speaker = Player(device=output_device)
        speaker.start()
        player = speaker
    except AudioUnavailableError as error:
        problems.append(str(error))
    if player is None:
        try:
            check_microphone(input_device)
        except AudioUnavailableError as error:
            on_status(MicLevel(MicStatus.UNAVAILABLE, detail=str(error)))
            raise AudioUnavailableError(" ".join([*problems, str(error)])) from None

    voice: HostVoice | None = None
    if player is not None:
        try:
            voices = load_voice_map(suspect_keys)
        except VoiceConfigError as error:
            problems.append(f"{error} Using the built-in voices.")
            voices = default_voice_map(suspect_keys)
        synthesizer = Synthesizer(voices, output_rate=player.sample_rate)
        synthesizer.preload()
        voice = HostVoice(synthesizer, player, None, on_sentence=on_sentence)
    io: VoiceIO[T] = VoiceIO(None, voice, player, tuple(problems))
    if on_speaker_ready is not None and voice is not None:
        on_speaker_ready(io)
    if prepare_ears is not None:
        prepare_ears()

    try:
        ears: Listener[T] = Listener(Capture(device=input_device), SileroVad(), understand, on_utterance, on_status)
        ears.start()
        io.listener = ears
        if voice is not None:
            voice.attach_listener(ears)
    except AudioUnavailableError as error:
        problems.append(str(error))
        on_status(MicLevel(MicStatus.UNAVAILABLE, detail=str(error)))
        if player is None:
            raise AudioUnavailableError(" ".join(problems)) from None
    io.problems = tuple(problems)
    return io
