"""The whole voice side as the screen uses it: ears and mouth opened together, in the order that gets
the Host's first word out soonest.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.replies import Reply
from voice_host.ears.audio import AudioUnavailableError
from voice_host.ears.sound import Audio
from voice_host.ears.turn import TurnText
from voice_host.loop.barge_in import HostTalk, Scoring
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.loop.listener import Listener, ShortHeard, Utterance
from voice_host.mouth.host_voice import HostVoice
from voice_host.mouth.tts import SpeechLine

if TYPE_CHECKING:
    from voice_host.mouth.tts import Synthesizer

T = TypeVar("T")
log = logging.getLogger(__name__)


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
        self._speak_ahead: threading.Thread | None = None
        self._stop_speaking_ahead = threading.Event()

    def speak_ahead(self, synthesizer: Synthesizer, lines: Sequence[SpeechLine]) -> None:
        """Make `lines` ahead on a background thread, until made or until close(), each once the ears are not busy.

        The 200-odd lines take one core for about a minute, meant to be made while the Host reads the opening; a table
        that stops the opening (or resumes a night) and asks at once had its questions understood on the other core
        alone: in the rig, 0.88-0.97 s, and 0.55-0.71 s with the lines waiting (docs/benchmarks.md "Lines made ahead
        wait for the ears")."""
        listener = self.listener
        busy: Callable[[], bool] = (lambda: listener.busy) if listener is not None else (lambda: False)
        waiting = while_not_busy(lines, busy, self._stop_speaking_ahead)
        self._speak_ahead = threading.Thread(
            target=_prepare, args=(synthesizer, waiting, self._stop_speaking_ahead), name="speak-ahead", daemon=True
        )
        self._speak_ahead.start()

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

    def host_talk(self) -> HostTalk | None:
        return self.listener.host_talk if self.listener is not None else None

    def close(self) -> None:
        # The speak-ahead thread is inside piper's native code while it makes a line: a process that
        # exits then aborts ("terminate called without an active exception"). Let it finish its line.
        self._stop_speaking_ahead.set()
        if self._speak_ahead is not None:
            self._speak_ahead.join()
        if self.voice is not None:
            self.voice.close()
        if self.listener is not None:
            self.listener.stop()
        if self.player is not None:
            self.player.close()
        gc.unfreeze()  # (`settle_heap`) frozen, the models' native objects would go unfreed at exit, and nanobind says so


def settle_heap() -> None:
    """Collect what has died, then put everything still alive out of the collector's sight (`gc.freeze`), so that its
    next full collection scans only what is made after. Unfrozen, those collections scanned the models, the screen and
    the case every minute or so, holding the interpreter 90-280 ms: live, the speaker's and the microphone's callbacks
    ran late, the sound server under- or overran, and the echo's delay moved (the microphone shut over the Host after
    each; docs/benchmarks.md "Full collections and the echo's delay"). Called once the voice side is open and after
    each reply, when what a reply made is all there is to scan (7-34 ms live). The cost: a frozen object that later
    dies in a cycle is never freed (what lives past a reply mostly lives all night)."""
    gc.collect()
    gc.freeze()


def while_not_busy(
    lines: Iterable[SpeechLine], busy: Callable[[], bool], stop: threading.Event, poll_seconds: float = 0.05
) -> Iterator[SpeechLine]:
    """Each of `lines` once `busy()` is false (asked every `poll_seconds` while it is true); none after `stop` is set."""
    for line in lines:
        while busy():
            if stop.wait(poll_seconds):
                return
        if stop.is_set():
            return
        yield line


def _prepare(synthesizer: Synthesizer, lines: Iterable[SpeechLine], stop: threading.Event) -> None:
    started = time.perf_counter()
    try:
        made = synthesizer.prepare(lines, stop)
    except Exception:  # made ahead or not, every reply is still said
        log.exception("lines could not be made ahead; replies are made as they come")
        return
    log.info("%d opening lines made ahead in %.1f s", made, time.perf_counter() - started)
    settle_heap()


def open_voice(
    understand: Callable[[Audio], T],
    on_utterance: Callable[[Utterance[T]], None],
    on_status: Callable[[MicLevel], None],
    suspect_keys: tuple[str, ...],
    on_sentence: Callable[[Reply, SpeechLine], None] | None = None,
    on_speaker_lost: Callable[[], None] | None = None,
    input_device: int | str | None = None,
    output_device: int | str | None = None,
    on_speaker_ready: Callable[[VoiceIO[T]], None] | None = None,
    prepare_ears: Callable[[], None] | None = None,
    turn_complete: Callable[[T], TurnText] | None = None,
    hear_over_host: bool = True,
    on_short_word: Callable[[ShortHeard], object] | None = None,
    speak_ahead: Sequence[SpeechLine] = (),
) -> VoiceIO[T]:
    """Open the speaker and the microphone, load piper and Silero, and start listening.

    Slow (models load): call it off the UI thread. Raises AudioUnavailableError (a plain sentence)
    only when there is neither a microphone nor a speaker: then the table plays by typing.

    For the first word as soon as possible on 2 cores, the mouth comes first: `on_speaker_ready(io)`
    is called once piper is loaded (the app may say the opening at once; the microphone is not open
    yet), then `prepare_ears()` runs (load whisper there, while the Host talks), then the microphone
    opens, shut until the Host stops. Without them, `understand` must be ready to use.
    `turn_complete` says what an understood utterance's words say about the turn (a whole message ends it at once).
    `speak_ahead`: lines replies often open with (`tts.opening_lines`), made on a background thread once
    the microphone is open, so such a reply's first audio needs no synthesis.
    `hear_over_host` keeps the microphone open while the Host speaks, through the echo canceller
    (docs/speech.md "Echo cancellation"); off, the microphone is shut while the Host speaks.
    With it, `on_short_word` gets a stop, repeat, next or skip word said over the Host, taken by the short
    path (docs/speech.md "Barge-in") once the Host has already been stopped.
    """
    from voice_host.ears.audio import Capture, Player, check_microphone
    from voice_host.ears.echo import EchoCanceller, EchoUnavailableError, FarEnd
    from voice_host.ears.vad import SileroVad
    from voice_host.mouth.tts import Synthesizer, VoiceConfigError, default_voice_map, load_voice_map

    problems: list[str] = []
    player: Player | None = None
    # What the speaker plays, for the echo canceller (only when the microphone stays open over the Host).
    far_end = FarEnd() if hear_over_host else None
    try:
        speaker = Player(device=output_device, far_end=far_end)
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
    synthesizer: Synthesizer | None = None
    if player is not None:
        try:
            voices = load_voice_map(suspect_keys)
        except VoiceConfigError as error:
            problems.append(f"{error} Using the built-in voices.")
            voices = default_voice_map(suspect_keys)
        synthesizer = Synthesizer(voices, output_rate=player.sample_rate)
        synthesizer.preload()
        voice = HostVoice(
            synthesizer, player, None, on_sentence=on_sentence, on_speaker_lost=on_speaker_lost, after_talk=settle_heap
        )
    io: VoiceIO[T] = VoiceIO(None, voice, player, tuple(problems))
    if on_speaker_ready is not None and voice is not None:
        on_speaker_ready(io)
    if prepare_ears is not None:
        prepare_ears()

    echo: EchoCanceller | None = None
    if player is not None and hear_over_host:
        try:
            echo = EchoCanceller()
        except EchoUnavailableError as error:
            log.warning("%s; the microphone is shut while the Host speaks", error)
    short = _short_path(voice, on_short_word) if echo is not None and on_short_word is not None else None
    try:
        ears: Listener[T] = Listener(
            Capture(device=input_device),
            SileroVad(),
            understand,
            on_utterance,
            on_status,
            turn_complete=turn_complete,
            echo=echo,
            far_end=far_end if echo is not None else None,
            short_words=short.score if short else None,
            on_short_word=short.took if short else None,
            second_opinion=short.second_opinion if short else None,
            stop_spotter=short.stop_spotter if short else None,
            host_hold=voice if short else None,
        )
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
    if synthesizer is not None and speak_ahead:
        io.speak_ahead(synthesizer, speak_ahead)
    settle_heap()
    log.info(
        "voice side open: speaker %s, microphone %s%s",
        "yes" if player is not None else "no",
        "yes" if io.listener is not None else "no",
        "".join(f"; {problem}" for problem in problems),
    )
    return io


@dataclass(frozen=True)
class ShortPathOpinions:
    """The short path's scorers over the Host (docs/speech.md "The short path") and what a word taken does."""

    score: Scoring  # its own small Whisper (tiny.en)
    took: Callable[[ShortHeard], None]  # the Host stops at once, on the listener's thread, then the screen is told
    second_opinion: Scoring | None = None  # its own Whisper base, on "stop"
    stop_spotter: Scoring | None = None  # the speech embedding's, on "stop"


def _short_path(voice: HostVoice | None, on_short_word: Callable[[ShortHeard], object]) -> ShortPathOpinions | None:
    """The short path, or None when its Whisper cannot load; without the second or third opinion it goes on
    without it."""
    from models.locate import ModelError
    from voice_host.ears.short_words import ShortWordScorer, second_opinion_scorer
    from voice_host.ears.stop_spotter import StopSpotter

    try:
        scorer = ShortWordScorer()
    except ModelError as error:
        log.warning("%s; stop words over the Host go through the whole understanding", error)
        return None
    second: Scoring | None = None
    try:
        second = second_opinion_scorer().score
    except ModelError as error:
        log.warning("%s; no second opinion on stop words over the Host", error)
    spotter: Scoring | None = None
    try:
        spotter = StopSpotter().score
    except ModelError as error:
        log.warning("%s; no stop spotter over the Host", error)
    return ShortPathOpinions(scorer.score, stop_first(voice, on_short_word), second, spotter)


def stop_first(voice: HostVoice | None, on_short_word: Callable[[ShortHeard], object]) -> Callable[[ShortHeard], None]:
    """A short word taken: the Host stops now, on the listener's thread, then the screen is told (it
    acts on its own thread, a hop later)."""

    def took(heard: ShortHeard) -> None:
        if voice is not None:
            voice.stop()
        on_short_word(heard)

    return took
