"""The Host speaking: replies said sentence by sentence, in order, on the mouth's own thread.

`HostVoice` speaks through a player, tells the ears (the listener) when it starts and stops so the
Host never hears itself, can be stopped mid-sentence, and can repeat the last reply.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Protocol

from engine.replies import Reply
from voice_host.ears.sound import Audio
from voice_host.mouth.tts import SpeechLine, SpokenSentence

log = logging.getLogger(__name__)


class AudioSink(Protocol):
    """What the Host speaks into: `Player`, or a fake in tests."""

    sample_rate: int
    lost: bool  # the device went away (set by play or wait); a later play tries it again

    def play(self, audio: Audio, on_start: Callable[[], None] | None = None) -> None: ...

    def stop(self) -> None: ...

    def hold(self) -> None: ...

    def release(self) -> None: ...

    def wait(self, timeout: float | None = None) -> bool: ...


class SentenceMaker(Protocol):
    """What makes the sound of a reply: `Synthesizer`, or a fake in tests."""

    def stream(self, reply: Reply) -> Iterable[SpokenSentence]: ...


class Ears(Protocol):
    """What the mouth shuts while it talks: the `Listener` (the mouth never imports the loop)."""

    def begin_speaking(self) -> None: ...

    def end_speaking(self) -> None: ...


class HostVoice:
    """Speaks replies in order on its own thread; `stop()` silences it mid-sentence; `repeat()` again."""

    def __init__(
        self,
        synthesizer: SentenceMaker,
        player: AudioSink,
        listener: Ears | None = None,
        on_first_audio: Callable[[Reply, float], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_sentence: Callable[[Reply, SpeechLine], None] | None = None,
        on_speaker_lost: Callable[[], None] | None = None,
        after_talk: Callable[[], None] | None = None,
    ) -> None:
        self.synthesizer = synthesizer
        self.after_talk = after_talk  # called on the mouth's thread when a reply has been said (or stopped)
        self.on_speaker_lost = on_speaker_lost  # told once per loss; the reply being said is dropped
        self._told_lost = False
        self.on_sentence = on_sentence
        self.player = player
        self.listener = listener
        self.on_first_audio = on_first_audio
        self.clock = clock
        self.last_spoken: Reply | None = None
        self.failures: list[Exception] = []  # replies that could not be spoken (they stay on screen)
        # Each reply with the generation it was said in; stop() bumps the generation, and nothing of an
        # older one is played (a reply taken off the queue as stop() came is dropped too).
        self._jobs: queue.Queue[tuple[Reply, int] | None] = queue.Queue()
        self._generation = 0
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
            self._jobs.put((reply, self._generation))

    def repeat(self) -> bool:
        """Say the last spoken reply again; False when nothing has been said yet."""
        if self.last_spoken is None:
            return False
        self.say(self.last_spoken)
        return True

    def stop(self) -> None:
        """Silence now: the current sentence stops mid-word and queued replies are dropped."""
        with self._lock:
            self._generation += 1  # the replies queued before are skipped as the mouth reaches them
        self.player.stop()

    def hold(self) -> None:
        """Silence the sentence being said where it is, dropping nothing, until `release()`: a word said over
        the Host may be "stop", and the short path is still making sure (`ShortPath.hold_from`)."""
        self.player.hold()

    def release(self) -> None:
        """Say on from where `hold()` left off (nothing, if the Host was stopped meanwhile)."""
        self.player.release()

    def wait_idle(self, timeout: float | None = None) -> bool:
        return self._idle.wait(timeout)

    def close(self) -> None:
        self.stop()
        self._jobs.put(None)
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            reply, generation = job
            try:
                if self._current(generation):
                    self._speak(reply, generation)
            except Exception as error:  # a voice that fails loses this reply's sound, never the mouth
                log.exception("a reply could not be spoken; it stays on the screen")
                self.failures.append(error)
            with self._lock:
                if self._jobs.empty():
                    self._idle.set()

    def _current(self, generation: int) -> bool:
        with self._lock:
            return generation == self._generation

    def _announcer(self, reply: Reply, line: SpeechLine) -> Callable[[], None] | None:
        on_sentence = self.on_sentence
        if on_sentence is None:
            return None
        return lambda: on_sentence(reply, line)

    def attach_listener(self, listener: Ears) -> None:
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
            for sentence in self.synthesizer.stream(reply):
                if not self._current(generation):
                    break
                self.player.play(sentence.audio, self._announcer(reply, sentence.line) if sentence.piece == 0 else None)
                if self.player.lost:
                    break  # no speaker: making the rest into sound would only keep the ears shut
                self._told_lost = False
                if not self._current(generation):
                    # stop() came as this sentence was queued (the mouth is the player's only feeder).
                    self.player.stop()
                    break
                if first:
                    log.debug("first sound of a reply %.2f s after it was handed over", self.clock() - started)
                    if self.on_first_audio is not None:
                        self.on_first_audio(reply, self.clock() - started)
                first = False
            if self._current(generation) and not self.player.lost:
                self.player.wait()
            if self.player.lost and not self._told_lost:
                self._told_lost = True
                log.warning("the speaker was lost; replies stay on the screen")
                if self.on_speaker_lost is not None:
                    self.on_speaker_lost()
        finally:
            with self._lock:
                self._speaking = False
                if self.listener is not None:
                    self.listener.end_speaking()
            if self.after_talk is not None:
                self.after_talk()
