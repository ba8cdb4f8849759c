"""The voice loop with fake audio: early transcription, turn-taking, mute, device loss, the Host's mouth."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from engine.replies import PartKind, Reply, ReplyPart
from voice_host.ears.audio import DeviceLostError, NoMicrophoneError
from voice_host.ears.echo import GATE_DB, EchoCanceller, FarEnd
from voice_host.ears.short_words import ShortView, ShortWord, ShortWordScores
from voice_host.ears.sound import SAMPLE_RATE, Audio
from voice_host.ears.turn import EndOfTurn, TurnText
from voice_host.ears.vad import SegmenterSettings
from voice_host.loop.barge_in import ShortPath
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.loop.listener import (
    ECHO_TRUSTED,
    UNTRUSTED_REPORT_SECONDS,
    InlineExecutor,
    Listener,
    ListenerSettings,
    PauseGate,
    ShortHeard,
    StoppableUnderstanding,
    Utterance,
)
from voice_host.mouth.host_voice import HostVoice
from voice_host.mouth.tts import SpeechLine, SpokenSentence

RATE = SAMPLE_RATE
BLOCK = 800  # 50 ms
SETTINGS = ListenerSettings(
    segmenter=SegmenterSettings(speech_seconds=0.1, early_seconds=0.2, silence_seconds=0.5, pre_roll_seconds=0.1),
    speaking_tail_seconds=0.3,
    retry_seconds=0.0,
    read_timeout=0.01,
)


def block(value: float) -> Audio:
    """A 50 ms block; the fake detector calls it speech when value > 0.05."""
    return np.full(BLOCK, value, dtype=np.float32)


def speech(value: float, blocks: int) -> list[Audio]:
    return [block(value) for _ in range(blocks)]


def silence(blocks: int) -> list[Audio]:
    return [block(0.0) for _ in range(blocks)]


class FakeDetector:
    def __init__(self) -> None:
        self.resets = 0
        self.heard: list[int] = []  # the length of each chunk it was asked about

    def probability(self, chunk: Audio) -> float:
        self.heard.append(len(chunk))
        return 1.0 if float(np.max(np.abs(chunk), initial=0.0)) > 0.05 else 0.0

    def reset(self) -> None:
        self.resets += 1


LOST = object()


class FakeSource:
    """Scripted blocks; LOST raises DeviceLostError; reopen fails `reopen_failures` times first."""

    sample_rate = RATE

    def __init__(self, script: Sequence[object], reopen_failures: int = 0) -> None:
        self.items: queue.Queue[object] = queue.Queue()
        for item in script:
            self.items.put(item)
        self.reopen_failures = reopen_failures
        self.reopens = 0
        self.started = False
        self.drained = 0

    def start(self) -> None:
        self.started = True

    def read(self, timeout: float = 0.5) -> Audio | None:
        try:
            item = self.items.get(timeout=timeout)
        except queue.Empty:
            return None
        if item is LOST:
            raise DeviceLostError("lost")
        assert isinstance(item, np.ndarray)
        return item

    def drain(self) -> int:
        self.drained += 1
        return 0

    def stop(self) -> None:
        self.started = False

    def reopen(self) -> None:
        self.reopens += 1
        if self.reopens <= self.reopen_failures:
            raise NoMicrophoneError("still gone")


class Harness:
    def __init__(self, script: Sequence[object] | None = None, reopen_failures: int = 0) -> None:
        self.source = FakeSource(script or [], reopen_failures)
        self.detector = FakeDetector()
        self.understood: list[Audio] = []
        self.utterances: list[Utterance[str]] = []
        self.statuses: list[MicLevel] = []
        self.got_utterance = threading.Event()
        self.listener: Listener[str] = Listener(
            self.source,
            self.detector,
            self.understand,
            self.deliver,
            self.statuses.append,
            SETTINGS,
            executor=InlineExecutor(),
        )

    def understand(self, audio: Audio) -> str:
        self.understood.append(audio)
        return f"heard {len(audio)} samples"

    def deliver(self, utterance: Utterance[str]) -> None:
        self.utterances.append(utterance)
        self.got_utterance.set()

    def feed(self, blocks: list[Audio]) -> None:
        for b in blocks:
            self.listener.feed(b)

    def kinds(self) -> list[MicStatus]:
        """Status changes in order (level updates within HEARING collapsed)."""
        kinds: list[MicStatus] = []
        for status in self.statuses:
            if not kinds or kinds[-1] is not status.status:
                kinds.append(status.status)
        return kinds


def test_an_utterance_is_understood_early_and_delivered_once() -> None:
    h = Harness()
    h.feed(silence(4) + speech(0.5, 6) + silence(12))
    assert len(h.utterances) == 1
    utterance = h.utterances[0]
    assert utterance.early
    assert len(h.understood) == 1  # the early run was used; nothing was transcribed twice
    assert utterance.result == f"heard {len(h.understood[0])} samples"
    values = set(np.round(np.unique(utterance.audio).astype(np.float64), 3).tolist())
    assert values == {0.0, 0.5}
    # The whole speech is in it, with the pre-roll before and the hangover after.
    assert int(np.sum(utterance.audio == 0.5)) == 6 * BLOCK
    assert h.kinds() == [MicStatus.HEARING, MicStatus.THINKING, MicStatus.LISTENING]


def test_speech_resuming_throws_the_early_result_away() -> None:
    h = Harness()
    h.feed(speech(0.5, 4) + silence(5) + speech(0.7, 4) + silence(12))
    assert len(h.utterances) == 1
    assert len(h.understood) == 2  # the stale early run, then the fresh one
    stale, fresh = h.understood
    assert 0.7 not in stale and 0.7 in fresh
    assert h.utterances[0].result == f"heard {len(fresh)} samples"
    assert 0.5 in h.utterances[0].audio and 0.7 in h.utterances[0].audio


class StoppableHarness(Harness):
    """Its understanding can stop part way: each run's `abandoned` is kept, to ask afterwards."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Callable[[], bool]] = []
        self.listener = Listener(
            self.source, self.detector, StoppableUnderstanding(self.stoppable), self.deliver, self.statuses.append,
            SETTINGS, executor=InlineExecutor(),
        )  # fmt: skip

    def stoppable(self, audio: Audio, abandoned: Callable[[], bool]) -> str:
        self.asked.append(abandoned)
        return self.understand(audio)


def test_an_early_run_is_told_to_stop_when_speech_goes_on() -> None:
    h = StoppableHarness()
    h.feed(speech(0.5, 4) + silence(5))  # the pause: the early run starts
    assert len(h.asked) == 1 and not h.asked[0]()
    h.feed(speech(0.7, 4) + silence(12))  # speech goes on: the early run is no longer wanted
    assert len(h.asked) == 2
    stale, fresh = h.asked
    assert stale() and not fresh()
    assert h.utterances[0].result == f"heard {len(h.understood[1])} samples"


def test_an_early_run_that_is_taken_is_never_told_to_stop() -> None:
    h = StoppableHarness()
    h.feed(silence(4) + speech(0.5, 6) + silence(12))
    assert len(h.asked) == 1 and not h.asked[0]()
    assert h.utterances[0].early


def test_without_an_early_start_the_utterance_is_understood_at_the_end() -> None:
    h = Harness()
    settings = SegmenterSettings(speech_seconds=0.1, early_seconds=0.5, silence_seconds=0.5)
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append,
        ListenerSettings(segmenter=settings), executor=InlineExecutor(),
    )  # fmt: skip
    h.feed(speech(0.5, 4) + silence(12))
    assert len(h.utterances) == 1 and not h.utterances[0].early
    assert len(h.understood) == 1


def test_two_utterances_in_a_row_are_separate() -> None:
    h = Harness()
    h.feed(speech(0.3, 4) + silence(12) + speech(0.6, 4) + silence(12))
    assert [0.3 in u.audio for u in h.utterances] == [True, False]
    assert [0.6 in u.audio for u in h.utterances] == [False, True]


class HeldExecutor(Executor):
    """Keeps each job until `release()` runs them all (an understanding still under way)."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Future[Any], Callable[[], Any]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.jobs.append((future, lambda: fn(*args, **kwargs)))
        return future

    def release(self) -> None:
        while self.jobs:
            future, job = self.jobs.pop(0)
            future.set_result(job())


def test_the_ears_are_busy_while_an_utterance_is_heard_and_understood() -> None:
    h = Harness()
    held = HeldExecutor()
    h.listener = Listener(h.source, h.detector, h.understand, h.deliver, h.statuses.append, SETTINGS, executor=held)
    h.feed(silence(4))
    assert not h.listener.busy
    h.feed(speech(0.5, 6))
    assert h.listener.busy  # heard
    h.feed(silence(12))
    assert not h.utterances and h.listener.busy  # over, and not yet understood
    held.release()
    assert len(h.utterances) == 1 and not h.listener.busy


def test_the_microphone_is_shut_while_the_host_speaks_and_for_the_tail() -> None:
    h = Harness()
    h.listener.begin_speaking()
    h.feed(speech(0.9, 20))  # the Host's own voice
    h.listener.end_speaking()
    h.feed(speech(0.8, 6))  # 0.3 s: the tail, still the Host's echo
    assert h.utterances == [] and h.understood == []
    h.feed(silence(2) + speech(0.4, 5) + silence(12))
    assert len(h.utterances) == 1
    heard = set(np.round(np.unique(h.utterances[0].audio).astype(np.float64), 3).tolist())
    assert heard == {0.0, 0.4}  # nothing of the Host, nothing of the tail
    assert h.kinds()[0] is MicStatus.SPEAKING
    assert MicStatus.LISTENING in h.kinds()


def test_the_host_starting_to_speak_drops_a_half_utterance() -> None:
    h = Harness()
    h.feed(speech(0.5, 6) + silence(5))  # early transcription started
    assert len(h.understood) == 1
    h.listener.begin_speaking()
    h.feed(silence(12))
    h.listener.end_speaking()
    h.feed(silence(12))
    assert h.utterances == []


def test_a_block_long_tail_is_counted_in_audio_time() -> None:
    h = Harness()
    h.listener.begin_speaking()
    h.listener.end_speaking()
    h.feed(speech(0.8, 5))  # 0.25 s of tail: ignored
    h.feed(speech(0.5, 4) + silence(12))  # the last 0.05 s of tail eats one block
    assert len(h.utterances) == 1
    assert int(np.sum(h.utterances[0].audio == 0.5)) == 3 * BLOCK


def test_mute_ignores_the_microphone_until_unmuted() -> None:
    h = Harness()
    assert h.listener.toggle_mute() is True
    h.feed(speech(0.5, 6) + silence(12))
    assert h.utterances == [] and h.kinds() == [MicStatus.MUTED]
    assert h.listener.toggle_mute() is False
    assert h.kinds()[-1] is MicStatus.LISTENING
    h.feed(speech(0.5, 6) + silence(12))
    assert len(h.utterances) == 1


def test_muting_mid_utterance_drops_it() -> None:
    h = Harness()
    h.feed(speech(0.5, 6))
    h.listener.set_muted(True)
    h.feed(silence(12))
    h.listener.set_muted(False)
    h.feed(silence(12))
    assert h.utterances == []


def test_hearing_reports_a_level() -> None:
    h = Harness()
    h.feed(speech(0.5, 10))
    levels = [s.level for s in h.statuses if s.status is MicStatus.HEARING]
    assert levels and all(0.5 < level <= 1.0 for level in levels)


def logged_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """The error lines logged with a traceback: "message: the exception"."""
    return [f"{r.getMessage()}: {r.exc_info[1]}" for r in caplog.records if r.levelno >= logging.ERROR and r.exc_info]


def test_a_failed_recognition_loses_one_utterance_not_the_loop(caplog: pytest.LogCaptureFixture) -> None:
    h = Harness()
    calls = iter([RuntimeError("model crashed"), None])

    def flaky(audio: Audio) -> str:
        error = next(calls)
        if error is not None:
            raise error
        return "ok"

    h.listener.understand = flaky
    h.feed(speech(0.5, 4) + silence(12) + speech(0.5, 4) + silence(12))
    assert [u.result for u in h.utterances] == ["ok"]
    assert any("model crashed" in s.detail for s in h.statuses)
    assert logged_errors(caplog) == ["an utterance of 0.7 s could not be understood: model crashed"]


def test_the_loop_runs_on_its_own_thread() -> None:
    h = Harness(speech(0.5, 6) + silence(12))
    h.listener.start()
    try:
        assert h.got_utterance.wait(timeout=10)
    finally:
        h.listener.stop()
    assert len(h.utterances) == 1 and not h.source.started


def test_a_lost_microphone_pauses_then_resumes_when_it_returns() -> None:
    script: list[object] = [*speech(0.5, 4), LOST, *silence(2), *speech(0.6, 5), *silence(12)]
    h = Harness(script, reopen_failures=2)
    h.listener.start()
    try:
        assert h.got_utterance.wait(timeout=10)
    finally:
        h.listener.stop()
    assert h.source.reopens == 3
    # The half utterance before the loss is dropped; the one after it comes through whole.
    assert len(h.utterances) == 1
    assert 0.5 not in h.utterances[0].audio and 0.6 in h.utterances[0].audio
    lost = [s for s in h.statuses if s.status is MicStatus.UNAVAILABLE]
    assert lost and "microphone was lost" in lost[0].detail
    after = h.kinds()[h.kinds().index(MicStatus.UNAVAILABLE) + 1 :]
    assert after[0] is MicStatus.LISTENING


# --- the Host's mouth ---

REPLY = Reply(
    (
        ReplyPart(PartKind.NARRATION, "One. Two. Three."),
        ReplyPart(PartKind.LEDGER, "[L] t:2"),
    )
)


class FakeSynthesizer:
    def stream(self, reply: Reply) -> Iterator[SpokenSentence]:
        for part in reply.spoken_parts:
            for n, text in enumerate(part.text.split(". ")):
                yield SpokenSentence(SpeechLine("host", text, 0), np.full(100, n + 1, dtype=np.float32), RATE)


class FakePlayer:
    """Records what is played; wait() blocks until stop() (with `hold=True`), like a real speaker still playing."""

    sample_rate = RATE

    def __init__(self, hold: bool = False) -> None:
        self.lost = False
        self.played: list[float] = []
        self.first_play = threading.Event()
        self.stops = 0
        self.holds = self.releases = 0  # the voice held while a stop word is judged (`HostVoice.hold`)
        self._done = threading.Event()
        if not hold:
            self._done.set()

    def play(self, audio: Audio, on_start: Callable[[], None] | None = None) -> None:
        self.played.append(float(audio[0]))
        if on_start is not None:
            on_start()  # a real player calls it when the audio begins to sound
        self.first_play.set()

    def stop(self) -> None:
        self.stops += 1
        self._done.set()

    def hold(self) -> None:
        self.holds += 1

    def release(self) -> None:
        self.releases += 1

    def wait(self, timeout: float | None = None) -> bool:
        return self._done.wait(timeout)


class GatedSynthesizer(FakeSynthesizer):
    """Makes the first sentence, then waits for the gate before making the rest."""

    def __init__(self) -> None:
        self.gate = threading.Event()

    def stream(self, reply: Reply) -> Iterator[SpokenSentence]:
        for index, sentence in enumerate(super().stream(reply)):
            if index == 1:
                self.gate.wait(timeout=10)
            yield sentence


def test_the_host_speaks_every_sentence_and_shuts_the_microphone_meanwhile() -> None:
    h = Harness()
    player = FakePlayer()
    first_audio: list[float] = []
    sentences: list[SpeechLine] = []
    voice = HostVoice(
        FakeSynthesizer(),
        player,
        h.listener,
        on_first_audio=lambda reply, s: first_audio.append(s),
        on_sentence=lambda reply, line: sentences.append(line),
    )
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert player.played == [1.0, 2.0, 3.0]
    assert len(first_audio) == 1 and first_audio[0] >= 0
    assert [line.text for line in sentences] == ["One", "Two", "Three."]
    assert h.kinds()[0] is MicStatus.SPEAKING
    h.feed(speech(0.5, 6))  # the tail after speaking is still shut
    assert h.understood == []


def test_stop_silences_the_host_mid_reply() -> None:
    player = FakePlayer(hold=True)
    synthesizer = GatedSynthesizer()
    voice = HostVoice(synthesizer, player)
    voice.say(REPLY)
    assert player.first_play.wait(timeout=10)
    voice.stop()
    synthesizer.gate.set()
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert player.played == [1.0]  # the rest of the reply is never played
    assert player.stops >= 1


class QueueingPlayer(FakePlayer):
    """Keeps what is queued until stop(); `before_play` runs as a sentence is handed over."""

    def __init__(self) -> None:
        super().__init__()
        self.queued: list[float] = []
        self.before_play: Callable[[], None] = lambda: None

    def play(self, audio: Audio, on_start: Callable[[], None] | None = None) -> None:
        self.before_play()
        self.queued.append(float(audio[0]))
        super().play(audio, on_start)

    def stop(self) -> None:
        self.queued.clear()
        super().stop()


def test_the_voice_holds_and_releases_its_speaker() -> None:
    player = FakePlayer()
    voice = HostVoice(FakeSynthesizer(), player)
    voice.hold()
    assert (player.holds, player.releases, player.stops) == (1, 0, 0)  # held: nothing dropped
    voice.release()
    assert (player.holds, player.releases, player.stops) == (1, 1, 0)
    voice.close()


def test_a_stop_that_comes_as_a_sentence_is_handed_over_leaves_nothing_of_it_playing() -> None:
    player = QueueingPlayer()
    voice = HostVoice(FakeSynthesizer(), player)

    def stop_on_the_second() -> None:
        if len(player.played) == 1:
            voice.stop()  # the table typed just as the Host handed its second sentence to the speaker

    player.before_play = stop_on_the_second
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)
    assert player.played == [1.0, 2.0]  # the third is never made into sound
    assert player.queued == []  # and the second, queued after the stop, is not left to play
    voice.close()


def test_a_reply_said_before_a_stop_is_never_spoken() -> None:
    player = FakePlayer(hold=True)
    synthesizer = GatedSynthesizer()
    voice = HostVoice(synthesizer, player)
    voice.say(REPLY)
    assert player.first_play.wait(timeout=10)
    voice.say(Reply((ReplyPart(PartKind.NARRATION, "Four. Five."),)))  # queued behind the first
    voice.stop()
    synthesizer.gate.set()
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert player.played == [1.0]


class LosingPlayer(FakePlayer):
    """A speaker that goes away (its sound server killed) as the second sentence is handed to it."""

    def play(self, audio: Audio, on_start: Callable[[], None] | None = None) -> None:
        if len(self.played) == 1:
            self.lost = True  # as Player.play finds a dead stream: the sentence is dropped
            return
        super().play(audio, on_start)


def test_a_speaker_lost_mid_reply_ends_the_reply_opens_the_ears_and_is_told_once() -> None:
    h = Harness()
    player = LosingPlayer(hold=True)  # a wait() on it would never return
    made: list[str] = []

    class CountingSynthesizer(FakeSynthesizer):
        def stream(self, reply: Reply) -> Iterator[SpokenSentence]:
            for sentence in super().stream(reply):
                made.append(sentence.line.text)
                yield sentence

    told: list[bool] = []
    voice = HostVoice(CountingSynthesizer(), player, h.listener, on_speaker_lost=lambda: told.append(True))
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)  # promptly: not after the whole reply, nor waiting on the speaker
    assert made == ["One", "Two"]  # the rest is never made into sound
    assert h.kinds()[0] is MicStatus.SPEAKING and not h.listener._speaking  # the ears are open again
    voice.say(REPLY)  # still no speaker: the next reply is dropped at its first sentence, told once only
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert told == [True]


def test_repeat_says_the_last_reply_again() -> None:
    player = FakePlayer()
    voice = HostVoice(FakeSynthesizer(), player)
    assert voice.repeat() is False
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)
    assert voice.repeat() is True
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert player.played == [1.0, 2.0, 3.0] * 2


def test_after_each_reply_the_mouth_says_it_has_finished() -> None:
    finished: list[list[float]] = []
    player = FakePlayer()
    voice = HostVoice(FakeSynthesizer(), player, after_talk=lambda: finished.append(list(player.played)))
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert finished == [[1.0, 2.0, 3.0]]  # once, after the whole reply was played


def test_settling_the_heap_puts_what_lives_out_of_the_collector_s_sight() -> None:
    import gc

    from voice_host.screen.voice_io import settle_heap

    kept = [[n] for n in range(1000)]  # long-lived objects the collector would scan at every full collection
    before = gc.get_freeze_count()
    try:
        settle_heap()
        assert gc.get_freeze_count() >= before + len(kept)
        frozen = {id(x) for x in kept}
        assert not any(id(x) in frozen for x in gc.get_objects(generation=2))  # a full collection no longer scans them
    finally:
        gc.unfreeze()


def test_a_ledger_only_reply_says_nothing() -> None:
    player = FakePlayer()
    h = Harness()
    voice = HostVoice(FakeSynthesizer(), player, h.listener)
    voice.say(Reply((ReplyPart(PartKind.LEDGER, "[L] t:3"),)))
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert player.played == [] and h.statuses == [] and voice.last_spoken is None


@pytest.mark.parametrize(("value", "expected"), [(0.0, 0.0), (1.0, 1.0), (0.00001, 0.0)])
def test_input_level_bounds(value: float, expected: float) -> None:
    from voice_host.loop.listener import input_level

    assert input_level(block(value)) == pytest.approx(expected)


# --- opening the devices ---


def _no_device(self: object) -> None:
    raise NoMicrophoneError("No microphone found: type your questions instead.")


def _no_speaker(self: object) -> None:
    from voice_host.ears.audio import NO_SPEAKER, NoSpeakerError

    raise NoSpeakerError(NO_SPEAKER)


@pytest.mark.speech  # open_voice loads piper and Silero and asks the sound system
def test_no_microphone_and_no_speaker_means_typed_play(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.ears import audio
    from voice_host.ears.audio import AudioUnavailableError
    from voice_host.screen.voice_io import open_voice

    monkeypatch.setattr(audio.Capture, "start", _no_device)
    monkeypatch.setattr(audio.Player, "start", _no_speaker)
    statuses: list[MicLevel] = []
    with pytest.raises(AudioUnavailableError) as caught:
        open_voice(lambda a: a, lambda u: None, statuses.append, ("thwaite",))
    assert "No microphone found" in str(caught.value) and "No speaker found" in str(caught.value)
    assert statuses[-1].status is MicStatus.UNAVAILABLE


@pytest.mark.speech  # open_voice loads piper and Silero and asks the sound system
def test_no_microphone_still_speaks(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.ears import audio
    from voice_host.screen.voice_io import open_voice

    monkeypatch.setattr(audio.Capture, "start", _no_device)
    monkeypatch.setattr(audio.Player, "start", lambda self: None)
    statuses: list[MicLevel] = []
    voice = open_voice(lambda a: a, lambda u: None, statuses.append, ("thwaite", "ruddock"))
    try:
        assert voice.listener is None and voice.voice is not None
        assert voice.problems == ("No microphone found: type your questions instead.",)
        assert statuses == [MicLevel(MicStatus.UNAVAILABLE, detail=voice.problems[0])]
        assert voice.toggle_mute() is True  # nothing to unmute
    finally:
        voice.close()


class PiecedSynthesizer:
    """One line said in two pieces (a long first sentence split at its first clause)."""

    def stream(self, reply: Reply) -> Iterator[SpokenSentence]:
        line = SpeechLine("host", "One, two three four.", 0)
        yield SpokenSentence(line, np.full(10, 1.0, np.float32), RATE, piece=0)
        yield SpokenSentence(line, np.full(10, 2.0, np.float32), RATE, piece=1)


def test_a_line_in_two_pieces_is_announced_once() -> None:
    player = FakePlayer()
    sentences: list[SpeechLine] = []
    voice = HostVoice(PiecedSynthesizer(), player, on_sentence=lambda reply, line: sentences.append(line))
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert player.played == [1.0, 2.0]
    assert [line.text for line in sentences] == ["One, two three four."]


@pytest.mark.speech  # open_voice loads piper and Silero and asks the sound system
def test_the_mouth_opens_first_and_the_ears_join_shut_while_it_speaks(monkeypatch: pytest.MonkeyPatch) -> None:
    from voice_host.ears import audio
    from voice_host.screen.voice_io import VoiceIO, open_voice

    order: list[str] = []
    playing = threading.Event()
    original_play = audio.Player.play

    def play(self: audio.Player, samples: Audio, on_start: Callable[[], None] | None = None) -> None:
        original_play(self, samples, on_start)  # no sound card drains it: the Host "speaks" until stopped
        playing.set()

    def quiet_read(self: audio.Capture, timeout: float = 0.5) -> Audio | None:
        threading.Event().wait(timeout)  # a microphone with nothing to say: read times out
        return None

    monkeypatch.setattr(audio.Player, "start", lambda self: order.append("speaker"))
    monkeypatch.setattr(audio.Player, "play", play)
    monkeypatch.setattr(audio.Capture, "start", lambda self: order.append("microphone"))
    monkeypatch.setattr(audio.Capture, "read", quiet_read)
    statuses: list[MicLevel] = []

    def speaker_ready(io: VoiceIO[Audio]) -> None:
        order.append("speaker ready")
        io.say(REPLY)  # the opening, while the ears still load

    def prepare() -> None:
        assert playing.wait(timeout=30)
        order.append("ears loaded")

    io = open_voice(
        lambda a: a, lambda u: None, statuses.append, ("thwaite",),
        on_speaker_ready=speaker_ready, prepare_ears=prepare,
    )  # fmt: skip
    try:
        assert order == ["speaker", "speaker ready", "ears loaded", "microphone"]
        assert io.listener is not None and io.problems == ()
        # The Host is still talking: the microphone joined shut.
        assert statuses[-1].status is MicStatus.SPEAKING
        io.stop()
        assert io.voice is not None and io.voice.wait_idle(timeout=10)
    finally:
        io.close()


def test_a_feed_only_source_drives_the_listener_by_hand() -> None:
    from voice_host.loop.listener import FeedOnlySource

    found: list[Utterance[Audio]] = []
    listener: Listener[Audio] = Listener(
        FeedOnlySource(RATE), FakeDetector(), lambda audio: audio, found.append, settings=SETTINGS, executor=InlineExecutor()
    )
    for b in speech(0.5, 4) + silence(12):
        listener.feed(b)
    assert len(found) == 1 and 0.5 in found[0].audio


def test_a_stopped_listener_can_start_again() -> None:
    h = Harness(speech(0.5, 6) + silence(12))
    h.listener = Listener(h.source, h.detector, h.understand, h.deliver, h.statuses.append, SETTINGS)  # its own worker
    h.listener.start()
    try:
        assert h.got_utterance.wait(timeout=10)
    finally:
        h.listener.stop()
    h.got_utterance.clear()
    for item in speech(0.6, 6) + silence(12):
        h.source.items.put(item)
    h.listener.start()
    try:
        assert h.got_utterance.wait(timeout=10)
    finally:
        h.listener.stop()
    assert [0.6 in u.audio for u in h.utterances] == [False, True]


class BrokenSynthesizer:
    def __init__(self) -> None:
        self.calls = 0

    def stream(self, reply: Reply) -> Iterator[SpokenSentence]:
        self.calls += 1
        if self.calls == 1:
            raise RuntimeError("piper crashed")
        yield from FakeSynthesizer().stream(reply)


def test_a_failing_voice_loses_one_reply_not_the_mouth(caplog: pytest.LogCaptureFixture) -> None:
    h = Harness()
    player = FakePlayer()
    voice = HostVoice(BrokenSynthesizer(), player, h.listener)
    voice.say(REPLY)
    voice.say(REPLY)
    assert voice.wait_idle(timeout=10)
    voice.close()
    assert [str(error) for error in voice.failures] == ["piper crashed"]
    assert logged_errors(caplog) == ["a reply could not be spoken; it stays on the screen: piper crashed"]
    assert player.played == [1.0, 2.0, 3.0]
    h.feed(silence(7))  # the tail runs out: the microphone is open again
    assert h.kinds()[-1] is MicStatus.LISTENING


def test_an_error_on_one_block_does_not_end_listening(caplog: pytest.LogCaptureFixture) -> None:
    h = Harness(speech(0.9, 1) + speech(0.5, 6) + silence(12))
    failing = iter([True])

    class OnceBroken(FakeDetector):
        def probability(self, chunk: Audio) -> float:
            if next(failing, False):
                raise RuntimeError("onnx hiccup")
            return super().probability(chunk)

    h.listener.detector = OnceBroken()
    h.listener.start()
    try:
        assert h.got_utterance.wait(timeout=10)
    finally:
        h.listener.stop()
    assert any("onnx hiccup" in s.detail for s in h.statuses)
    assert logged_errors(caplog) == ["a block of audio could not be heard; listening goes on: onnx hiccup"]
    assert 0.5 in h.utterances[0].audio and 0.9 not in h.utterances[0].audio


class TurnHarness(Harness):
    """Speech at 0.5 is heard as "Abel,", with 0.7 after it as "Abel, where were you?"."""

    def __init__(self) -> None:
        super().__init__()
        self.listener = Listener(
            self.source, self.detector, self.understand, self.deliver, self.statuses.append, SETTINGS,
            executor=InlineExecutor(), turn_complete=lambda text: TurnText.WHOLE if text.endswith("?") else TurnText.UNFINISHED,
        )  # fmt: skip

    def understand(self, audio: Audio) -> str:
        self.understood.append(audio)
        return "Abel, where were you?" if bool(np.any(audio == np.float32(0.7))) else "Abel,"


def test_a_whole_message_ends_the_turn_as_soon_as_it_is_understood() -> None:
    h = TurnHarness()
    h.feed(speech(0.5, 2) + speech(0.7, 4) + silence(4))  # 0.2 s of pause: early run, complete
    assert [u.result for u in h.utterances] == ["Abel, where were you?"]
    assert h.utterances[0].early and len(h.understood) == 1
    h.feed(silence(12))
    assert len(h.utterances) == 1  # the hangover ceiling does not end it a second time


def test_a_comma_pause_waits_for_the_question() -> None:
    h = TurnHarness()
    # "Abel," then 0.45 s of pause (shorter than the 0.5 s ceiling), then the question.
    h.feed(speech(0.5, 4) + silence(9))
    assert h.utterances == []  # "Abel," is not a whole message: no answer yet
    h.feed(speech(0.7, 4) + silence(4))
    assert [u.result for u in h.utterances] == ["Abel, where were you?"]
    assert 0.5 in h.utterances[0].audio and 0.7 in h.utterances[0].audio


def test_an_unfinished_turn_still_ends_at_the_hangover_ceiling() -> None:
    h = TurnHarness()
    h.feed(speech(0.5, 4) + silence(9))
    assert h.utterances == []
    h.feed(silence(1))  # 0.5 s: the ceiling
    assert [u.result for u in h.utterances] == ["Abel,"]


class HoldHarness(Harness):
    """Speech at 0.5 is heard as "Next." (a whole message that may go on), with 0.7 after it as "Next round,
    please."; understanding starts after 0.1 s of pause, "Next." is held 0.5 s, the ceiling is 1.0 s."""

    def __init__(self) -> None:
        super().__init__()
        settings = ListenerSettings(
            segmenter=SegmenterSettings(speech_seconds=0.1, early_seconds=0.1, silence_seconds=1.0, pre_roll_seconds=0.1),
            end_of_turn=EndOfTurn(complete_seconds=0.2, hold_seconds=0.5),
        )
        self.listener = Listener(
            self.source, self.detector, self.understand, self.deliver, self.statuses.append, settings,
            executor=InlineExecutor(), turn_complete=self.judge,
        )  # fmt: skip

    def understand(self, audio: Audio) -> str:
        self.understood.append(audio)
        return "Next round, please." if bool(np.any(audio == np.float32(0.7))) else "Next."

    @staticmethod
    def judge(text: str) -> TurnText:
        return TurnText.WHOLE if text.endswith("please.") else TurnText.MAY_GO_ON


def test_a_message_that_may_go_on_is_held_before_the_turn_ends() -> None:
    h = HoldHarness()
    h.feed(speech(0.5, 4) + silence(9))  # 0.45 s of pause: understood at 0.1 s, but held
    assert h.utterances == [] and len(h.understood) == 1
    h.feed(silence(1))  # 0.5 s: the hold, well before the 1.0 s ceiling
    assert [u.result for u in h.utterances] == ["Next."]
    assert h.utterances[0].early


def test_words_within_the_hold_make_one_turn() -> None:
    h = HoldHarness()
    h.feed(speech(0.5, 4) + silence(8) + speech(0.7, 4) + silence(4))  # the rest after 0.4 s; then 0.2 s
    assert [u.result for u in h.utterances] == ["Next round, please."]
    assert 0.5 in h.utterances[0].audio and 0.7 in h.utterances[0].audio


def test_a_failing_text_signal_leaves_the_turn_to_the_ceiling() -> None:
    h = Harness()

    def broken(result: str) -> TurnText:
        raise RuntimeError("no judge")

    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, SETTINGS,
        executor=InlineExecutor(), turn_complete=broken,
    )  # fmt: skip
    h.feed(speech(0.5, 4) + silence(9))
    assert h.utterances == []
    h.feed(silence(1))
    assert len(h.utterances) == 1


# --- the microphone open over the Host (echo cancelling) -----------------------------------------------


class Subtract:
    """A perfect canceller for an echo path that is the far end itself (a frame at a time)."""

    def process(self, mic: Audio, far: Audio) -> Audio:
        return (mic - far).astype(np.float32)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def echo_harness(settle_seconds: float = 0.0) -> tuple[Harness, FarEnd, Clock]:
    h = Harness()
    far_end = FarEnd()
    clock = Clock()
    echo = EchoCanceller(Subtract(), Subtract(), passthrough_after_seconds=1.0, settle_seconds=settle_seconds)
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, SETTINGS, executor=InlineExecutor(),
        clock=clock, echo=echo, far_end=far_end,
    )  # fmt: skip
    return h, far_end, clock


def feed_with_far_end(h: Harness, far_end: FarEnd, clock: Clock, mic: list[Audio], played: list[Audio]) -> None:
    """Each microphone block with what the speaker played over it (the Player pushes as it plays)."""
    for heard, sounded in zip(mic, played, strict=True):
        far_end.push(sounded, SAMPLE_RATE)
        h.listener.feed(heard)
        clock.now += BLOCK / SAMPLE_RATE


def test_with_the_echo_cancelled_the_host_alone_is_never_heard() -> None:
    h, far_end, clock = echo_harness()
    h.listener.begin_speaking()
    host = speech(0.9, 40)
    feed_with_far_end(h, far_end, clock, host, host)  # the microphone hears exactly what was played
    h.listener.end_speaking()
    feed_with_far_end(h, far_end, clock, silence(30), silence(30))
    assert h.utterances == [] and h.understood == []
    assert h.listener.hears_over_host
    assert h.source.drained == 0  # nothing captured over the Host is thrown away unheard


def test_a_player_over_the_host_is_heard_with_when_and_over_what() -> None:
    h, far_end, clock = echo_harness()
    h.listener.begin_speaking()
    host = speech(0.3, 30)
    player = [b + (0.5 if 10 <= i < 16 else 0.0) for i, b in enumerate(host)]  # the player's words at 0.5 s
    feed_with_far_end(h, far_end, clock, [b.astype(np.float32) for b in player], host)
    assert len(h.utterances) == 1
    utterance = h.utterances[0]
    assert utterance.host is not None and utterance.host.started_at == 100.0 and utterance.host.stopped_at is None
    assert utterance.began_at is not None and 100.3 < utterance.began_at < 100.5  # 0.5 s, less the pre-roll
    # Whisper hears the player's words without the Host's voice under them.
    assert float(np.max(utterance.audio)) == pytest.approx(0.5, abs=1e-3)
    # While the Host talks the status stays SPEAKING (the screen follows the Host's sentences by it).
    assert set(h.kinds()) == {MicStatus.SPEAKING}


def test_without_a_far_end_the_microphone_is_shut_as_before() -> None:
    h = Harness()
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, SETTINGS, executor=InlineExecutor(),
        echo=EchoCanceller(Subtract(), Subtract()),
    )  # fmt: skip
    assert not h.listener.hears_over_host
    h.listener.begin_speaking()
    h.feed(speech(0.9, 20))
    assert h.understood == []


def test_until_the_canceller_has_heard_enough_of_the_host_the_microphone_is_shut_over_it() -> None:
    h, far_end, clock = echo_harness(settle_seconds=1.0)
    h.listener.begin_speaking()
    host = speech(0.3, 30)  # 1.5 s of the Host
    player = [(b + (0.5 if 5 <= i < 11 else 0.0)).astype(np.float32) for i, b in enumerate(host)]
    feed_with_far_end(h, far_end, clock, player, host)
    assert h.utterances == []  # said in the first second: not heard (the canceller was still learning)
    more = speech(0.3, 30)
    player = [(b + (0.5 if 10 <= i < 16 else 0.0)).astype(np.float32) for i, b in enumerate(more)]
    feed_with_far_end(h, far_end, clock, player, more)
    assert len(h.utterances) == 1  # said once it had settled: heard


def test_the_log_says_when_the_microphone_opens_over_the_host(caplog: pytest.LogCaptureFixture) -> None:
    h, far_end, clock = echo_harness(settle_seconds=1.0)
    h.listener.begin_speaking()
    with caplog.at_level(logging.INFO, logger="voice_host.loop.listener"):
        host = speech(0.3, 60)  # 3 s of the Host: the canceller settles after the first
        feed_with_far_end(h, far_end, clock, [b.astype(np.float32) for b in host], host)
    # Shut from the start (the canceller learning), so only the opening is news; bench/live_turn.py reads it.
    assert [r.getMessage() for r in caplog.records if "the echo is" in r.getMessage()] == [ECHO_TRUSTED]


class Keep:
    """A canceller that takes nothing out: as when the far end is not what reached the microphone."""

    def process(self, mic: Audio, far: Audio) -> Audio:
        return mic


def test_the_log_says_how_the_canceller_stands_while_it_is_not_trusted(caplog: pytest.LogCaptureFixture) -> None:
    lines = {}
    for name, canceller in (("takes nothing out", Keep), ("works", Subtract)):
        h, far_end, clock = echo_harness(settle_seconds=1.0)
        h.listener.echo = EchoCanceller(canceller(), canceller(), settle_seconds=1.0)
        h.listener.begin_speaking()
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="voice_host.loop.listener"):
            host = noise(round(UNTRUSTED_REPORT_SECONDS * RATE / BLOCK) + 40, seed=8)  # 2 s more than a report's worth
            feed_with_far_end(h, far_end, clock, host, host)
        lines[name] = [r.getMessage() for r in caplog.records if r.getMessage().startswith("still not trusted")]
    assert lines["works"] == []
    assert len(lines["takes nothing out"]) == 1 and "0.0 dB of its echo taken out" in lines["takes nothing out"][0]


def test_over_the_gates_silence_silero_rests_once_then_is_not_run_until_something_passes() -> None:
    h, far_end, clock = echo_harness()
    h.listener.begin_speaking()
    host = speech(0.3, 20)  # 1 s of the Host, cancelled to digital silence
    feed_with_far_end(h, far_end, clock, host, host)
    # Heard as usual until 0.3 s of it (the sixth block), then started afresh on 0.5 s of silence and left to rest.
    assert h.detector.heard == [BLOCK] * 5 + [SAMPLE_RATE // 2]
    assert h.detector.resets == 1
    more = speech(0.3, 30)
    player = [(b + (0.5 if 10 <= i < 16 else 0.0)).astype(np.float32) for i, b in enumerate(more)]
    feed_with_far_end(h, far_end, clock, player, more)
    assert len(h.utterances) == 1  # the player over the Host is heard from the rested state
    assert h.detector.resets == 2  # and rested again once the gate had been shut 0.3 s after their words


def test_without_the_host_silence_is_heard_as_always() -> None:
    h, far_end, clock = echo_harness()
    feed_with_far_end(h, far_end, clock, silence(30), silence(30))  # nothing played for 1.5 s: the raw microphone
    heard, resets = len(h.detector.heard), h.detector.resets
    feed_with_far_end(h, far_end, clock, silence(20), silence(20))
    assert h.detector.heard[heard:] == [BLOCK] * 20 and h.detector.resets == resets


def stop_word_harness() -> tuple[Harness, FarEnd, Clock]:
    """Everything is heard as "Stop." (a lone stop word); understanding starts after 0.2 s of pause, a word
    that may go on is held 0.45 s, the ceiling is 0.5 s."""
    h, far_end, clock = echo_harness()
    settings = replace(SETTINGS, end_of_turn=EndOfTurn(complete_seconds=0.2, hold_seconds=0.45))
    h.listener = Listener(
        h.source, h.detector, lambda audio: "Stop.", h.deliver, h.statuses.append, settings, executor=InlineExecutor(),
        clock=clock, echo=EchoCanceller(Subtract(), Subtract(), passthrough_after_seconds=1.0, settle_seconds=0.0),
        far_end=far_end, turn_complete=lambda text: TurnText.STOP_WORDS,
    )  # fmt: skip
    return h, far_end, clock


def test_a_lone_stop_word_over_the_host_ends_the_turn_as_soon_as_it_is_understood() -> None:
    h, far_end, clock = stop_word_harness()
    h.listener.begin_speaking()
    feed_with_far_end(h, far_end, clock, speech(0.5, 6) + silence(5), silence(11))  # 0.2 s of pause after the word
    assert [u.result for u in h.utterances] == ["Stop."]


def test_a_lone_stop_word_to_a_silent_host_is_held() -> None:
    h, far_end, clock = stop_word_harness()
    feed_with_far_end(h, far_end, clock, speech(0.5, 6) + silence(5), silence(11))
    assert h.utterances == []  # may be "Thwaite," before its question
    feed_with_far_end(h, far_end, clock, silence(6), silence(6))
    assert [u.result for u in h.utterances] == ["Stop."]


# --- the short path over the Host -------------------------------------------------------------------------


def fake_short_words(audio: Audio) -> ShortWordScores:
    """Speech at 0.6 is a clear "Stop."; anything else fits no short word."""
    stop = -0.2 if bool(np.any(audio == np.float32(0.6))) else -6.0
    best = {ShortWord.STOP: stop, ShortWord.REPEAT: -5.0, ShortWord.NEXT: -5.0, ShortWord.SKIP: -7.0}
    return ShortWordScores(best, {word: word.value for word in best}, seconds=0.01, audio_seconds=len(audio) / RATE)


class ManualExecutor(InlineExecutor):
    """Holds each job until `run_all` (a verdict that comes late)."""

    def __init__(self) -> None:
        self.waiting: list[tuple[Future[Any], Callable[..., Any], tuple[Any, ...]]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.waiting.append((future, fn, args))
        return future

    def run_all(self) -> None:
        waiting, self.waiting = self.waiting, []
        for future, fn, args in waiting:
            future.set_result(fn(*args))


SHORT_SETTINGS = replace(
    SETTINGS,
    short_path=ShortPath(pause_seconds=0.1, max_speech_seconds=0.6, max_phrase_seconds=0.8, stop_floor=-1.0, margin=1.0),
)


def short_harness(
    executor: Executor | None = None, settings: ListenerSettings = SHORT_SETTINGS
) -> tuple[Harness, FarEnd, Clock, list[ShortHeard]]:
    h, far_end, clock = echo_harness()
    taken: list[ShortHeard] = []
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, settings,
        executor=executor or InlineExecutor(), clock=clock,
        echo=EchoCanceller(Subtract(), Subtract(), passthrough_after_seconds=1.0, settle_seconds=0.0),
        far_end=far_end, short_words=fake_short_words, on_short_word=taken.append,
    )  # fmt: skip
    h.listener.begin_speaking()
    return h, far_end, clock, taken


def over_quiet_host(h: Harness, far_end: FarEnd, clock: Clock, blocks: list[Audio]) -> None:
    feed_with_far_end(h, far_end, clock, blocks, silence(len(blocks)))


class RecordedHold:
    """The Host's voice as the listener holds and releases it, in order with the words taken."""

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def hold(self) -> None:
        self.events.append("hold")

    def release(self) -> None:
        self.events.append("release")


def unsure_short_words(audio: Audio) -> ShortWordScores:
    """Speech at 0.7 or 0.8 ranks "stop" first, under its floor: the other opinions are asked (the spotter comes
    near, and base takes a stop at 0.7)."""
    near = bool(np.any((audio == np.float32(0.7)) | (audio == np.float32(0.8))))
    best = {ShortWord.STOP: -3.0 if near else -6.0, ShortWord.REPEAT: -5.0, ShortWord.NEXT: -5.0, ShortWord.SKIP: -7.0}
    return ShortWordScores(best, {word: word.value for word in best}, seconds=0.01, audio_seconds=len(audio) / RATE)


def spotter_comes_near(audio: Audio) -> ShortWordScores:
    return ShortWordScores(
        {ShortWord.STOP: 1.0}, {ShortWord.STOP: "(stop spotted)"}, seconds=0.02, audio_seconds=len(audio) / RATE
    )


def base_hears_stop_at_0_7(audio: Audio) -> ShortWordScores:
    stop = -1.0 if bool(np.any(audio == np.float32(0.7))) else -9.0
    return ShortWordScores({ShortWord.STOP: stop}, {ShortWord.STOP: "stop"}, seconds=0.2, audio_seconds=len(audio) / RATE)


def held_harness(events: list[str], settings: ListenerSettings = SHORT_SETTINGS) -> tuple[Harness, FarEnd, Clock]:
    h, far_end, clock = echo_harness()
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, settings, executor=InlineExecutor(),
        clock=clock, echo=EchoCanceller(Subtract(), Subtract(), passthrough_after_seconds=1.0, settle_seconds=0.0),
        far_end=far_end, short_words=unsure_short_words, on_short_word=lambda heard: events.append(heard.word.value),
        second_opinion=base_hears_stop_at_0_7, stop_spotter=spotter_comes_near, host_hold=RecordedHold(events),
    )  # fmt: skip
    h.listener.begin_speaking()
    return h, far_end, clock


def test_the_host_is_held_while_a_doubtful_stop_is_judged_and_stopped_before_it_is_released() -> None:
    events: list[str] = []
    h, far_end, clock = held_harness(events)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.7, 6) + silence(3))
    assert events == ["hold", "stop", "release"]  # silent from the doubt; nothing plays on after the stop


def test_the_host_plays_on_after_a_hold_when_the_word_was_not_stop() -> None:
    events: list[str] = []
    h, far_end, clock = held_harness(events)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.8, 6) + silence(3))
    assert events == ["hold", "release"]


def test_without_a_hold_the_host_reads_on_while_a_stop_is_judged() -> None:
    events: list[str] = []
    settings = replace(SHORT_SETTINGS, short_path=replace(SHORT_SETTINGS.short_path, hold_from=None))
    h, far_end, clock = held_harness(events, settings)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.7, 6) + silence(3))
    assert events == ["stop"]


def test_a_short_stop_over_the_host_acts_after_a_short_pause_and_goes_nowhere_else() -> None:
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 6))
    over_quiet_host(h, far_end, clock, silence(1))
    assert taken == []  # (the canceller's 10 ms lag carries the word into this block)
    over_quiet_host(h, far_end, clock, silence(2))  # 0.1 s of pause
    assert [t.word for t in taken] == [ShortWord.STOP]
    assert taken[0].asked_at - taken[0].ended_at == pytest.approx(0.05)  # scored a block into the pause ...
    assert taken[0].decided_at - taken[0].ended_at == pytest.approx(0.1)  # ... and taken once 0.1 s of it counted
    over_quiet_host(h, far_end, clock, silence(20))
    assert h.utterances == [] and h.understood == []  # the whole understanding never hears it


def test_a_stretch_scored_ahead_of_its_pause_counting_is_dropped_when_speech_goes_on_and_scored_again() -> None:
    # "Stop ... ping the bell" with a one-block gap: the verdict on "Stop" is never acted on; the stretch goes on.
    record, scored = recording(fake_short_words)
    h, far_end, clock, taken = short_harness()
    h.listener.short_words = record
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 4) + silence(1))
    over_quiet_host(h, far_end, clock, silence(1))
    assert len(scored) == 1 and taken == []  # scored a block into the pause; the verdict waits for it to count
    over_quiet_host(h, far_end, clock, speech(0.5, 8))
    assert taken == []  # speech went on first: dropped
    over_quiet_host(h, far_end, clock, silence(20))
    assert len(scored) == 1 and taken == []  # the stretch went on past a short word's length: never scored again
    assert len(h.utterances) == 1 and 0.6 in h.utterances[0].audio and 0.5 in h.utterances[0].audio  # heard whole
    assert h.utterances[0].after_stop is None


def test_a_hold_asked_ahead_of_the_pause_counting_waits_for_it() -> None:
    events: list[str] = []
    h, far_end, clock = held_harness(events)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.7, 6) + silence(1))
    over_quiet_host(h, far_end, clock, silence(1))  # the canceller's lag: the first block of the pause
    assert events == []  # judged already, and held back until the pause counts
    over_quiet_host(h, far_end, clock, silence(1))
    assert events == ["hold", "stop", "release"]


def test_a_hold_asked_ahead_of_the_pause_counting_is_never_made_when_speech_goes_on() -> None:
    events: list[str] = []
    h, far_end, clock = held_harness(events)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.7, 6) + silence(2) + speech(0.5, 20) + silence(12))
    assert events == []  # no stutter of the Host for a gap inside the table's words


def test_without_scoring_ahead_a_stretch_is_scored_once_its_pause_counts() -> None:
    settings = replace(SHORT_SETTINGS, short_path=replace(SHORT_SETTINGS.short_path, scored_from_seconds=None))
    h, far_end, clock, taken = short_harness(settings=settings)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 6) + silence(3))
    assert [t.word for t in taken] == [ShortWord.STOP]
    assert taken[0].asked_at - taken[0].ended_at == pytest.approx(0.1)


def test_an_utterance_that_goes_on_after_a_stop_is_heard_whole_with_what_followed_beside_it() -> None:
    # "Thwaite, ... where were you?" with the name taken for "Wait.": the Host stops, and the question is not lost.
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3) + speech(0.5, 20) + silence(12))
    assert [t.word for t in taken] == [ShortWord.STOP] and len(h.utterances) == 1
    whole, after = h.utterances[0].audio, h.understood[-1]
    assert h.understood[-2] is whole and 0.6 in whole and 0.5 in whole  # the whole, the word included
    assert np.array_equal(after, whole[-len(after) :]) and 0.6 not in after  # then what followed the word ...
    lead = int(np.argmax(after == np.float32(0.5)))
    assert 0 < lead <= 2 * BLOCK + 160  # ... with a little of the pause before it (the pre-roll; the canceller's lag)
    assert h.utterances[0].after_stop == f"heard {len(after)} samples"


def test_an_utterance_that_ends_after_a_stop_goes_nowhere_else() -> None:
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(20) + speech(0.5, 20) + silence(12))
    assert [t.word for t in taken] == [ShortWord.STOP] and len(h.utterances) == 1
    assert h.understood and all(0.6 not in audio for audio in h.understood)  # the stop word went nowhere else
    assert 0.5 in h.utterances[0].audio and h.utterances[0].after_stop is None


def test_a_stop_kept_for_an_utterance_thrown_away_never_takes_the_next_one() -> None:
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3))
    assert [t.word for t in taken] == [ShortWord.STOP]
    h.listener.set_muted(True)  # the utterance is thrown away in its pause
    over_quiet_host(h, far_end, clock, silence(2))
    h.listener.set_muted(False)
    over_quiet_host(h, far_end, clock, speech(0.5, 6) + silence(3) + speech(0.5, 10) + silence(12))
    assert len(h.utterances) == 1 and 0.5 in h.utterances[0].audio and h.utterances[0].after_stop is None


def next_word(audio: Audio) -> ShortWordScores:
    """Speech at 0.6 is a clear "Next."."""
    scores = fake_short_words(audio)
    return replace(scores, best={**scores.best, ShortWord.STOP: -6.0, ShortWord.NEXT: scores.best[ShortWord.STOP]})


def test_words_after_a_next_are_a_new_utterance() -> None:
    h, far_end, clock, taken = short_harness()
    h.listener.short_words = next_word
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3) + speech(0.5, 20) + silence(12))
    assert [t.word for t in taken] == [ShortWord.NEXT] and len(h.utterances) == 1
    assert 0.6 not in h.utterances[0].audio and 0.5 in h.utterances[0].audio
    assert h.utterances[0].after_stop is None


def test_other_short_words_over_the_host_go_the_usual_way() -> None:
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, speech(0.5, 6) + silence(12))
    assert taken == [] and len(h.utterances) == 1


def test_a_long_utterance_over_the_host_is_not_scored_as_a_short_word() -> None:
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 16) + silence(12))  # 0.8 s: over the 0.6 s limit
    assert taken == [] and len(h.utterances) == 1


def late_verdict_harness(
    settings: ListenerSettings = SHORT_SETTINGS,
) -> tuple[Harness, FarEnd, Clock, list[ShortHeard], ManualExecutor]:
    """The short path's verdicts held until `run_all` (scored slower than the pause); understanding as ever."""
    h, far_end, clock, taken = short_harness(settings=settings)
    executor = ManualExecutor()
    h.listener.short_executor = executor
    return h, far_end, clock, taken, executor


def test_a_stop_whose_verdict_comes_after_speech_resumed_still_silences_the_host_and_keeps_what_went_on() -> None:
    # Live, "Stop, ... please." was scored as "please" began: the Host must stop then, not when the phrase is scored.
    # "Thwaite, ... where were you?" heard as "Wait.": the question goes on whole, as after a stop taken in time.
    h, far_end, clock, taken, executor = late_verdict_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3) + speech(0.5, 2))
    assert taken == [] and len(executor.waiting) == 1  # "Stop," being scored as speech goes on
    executor.run_all()
    assert [t.word for t in taken] == [ShortWord.STOP]
    over_quiet_host(h, far_end, clock, speech(0.5, 18) + silence(12))
    assert len(h.utterances) == 1
    whole, after = h.utterances[0].audio, h.understood[-1]
    assert 0.6 in whole and 0.5 in whole and np.array_equal(after, whole[-len(after) :]) and 0.6 not in after
    assert h.utterances[0].after_stop == f"heard {len(after)} samples"


def test_a_stop_whose_verdict_comes_after_its_utterance_was_handed_on_still_silences_the_host() -> None:
    h, far_end, clock, taken, executor = late_verdict_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(20))  # scored slower than the turn took to end
    assert len(h.utterances) == 1 and taken == []
    executor.run_all()
    assert [t.word for t in taken] == [ShortWord.STOP] and h.utterances[0].after_stop is None


def test_a_stop_whose_verdict_comes_two_stretches_late_is_dropped() -> None:
    h, far_end, clock, taken, executor = late_verdict_harness()
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3) + speech(0.5, 4) + silence(3) + speech(0.5, 2))
    assert len(executor.waiting) == 2  # "Stop," and the stretch after it, both being scored
    executor.run_all()
    assert taken == []


def test_a_next_whose_verdict_comes_after_speech_resumed_is_not_acted_on() -> None:
    h, far_end, clock, taken, executor = late_verdict_harness()
    h.listener.short_words = next_word
    over_quiet_host(h, far_end, clock, speech(0.6, 4) + silence(2) + speech(0.5, 2))  # "Next ... round, please."
    executor.run_all()
    assert taken == []


def test_without_the_host_talking_a_short_word_goes_the_usual_way() -> None:
    h, far_end, clock, taken = short_harness()
    h.listener.end_speaking()
    over_quiet_host(h, far_end, clock, silence(10) + speech(0.6, 6) + silence(12))
    assert taken == [] and len(h.utterances) == 1


# The segmenter starts an utterance after 0.2 s of speech (four blocks); the short path scores a stretch of
# 0.1 s (two) that never started one.
UNSTARTED_SETTINGS = replace(
    SHORT_SETTINGS,
    segmenter=replace(SETTINGS.segmenter, speech_seconds=0.2),
    short_path=replace(SHORT_SETTINGS.short_path, unstarted_seconds=0.1),
)


def test_a_word_too_short_to_start_an_utterance_over_the_host_is_still_taken_as_a_stop() -> None:
    h, far_end, clock, taken = short_harness(settings=UNSTARTED_SETTINGS)
    # Two blocks of "Stop." (the canceller's 10 ms lag carries it into a third): too short to start an utterance.
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 2) + silence(2))
    assert taken == []
    over_quiet_host(h, far_end, clock, silence(1))  # 0.1 s of pause
    assert [t.word for t in taken] == [ShortWord.STOP]
    assert taken[0].asked_at - taken[0].ended_at == pytest.approx(0.1)
    over_quiet_host(h, far_end, clock, silence(20))
    assert h.utterances == [] and h.understood == []  # no utterance started: the whole understanding hears nothing


class FaintDetector(FakeDetector):
    """Silero on a word it never calls speech with confidence (espeak's klatt voices over the Host: 0.2-0.4)."""

    def probability(self, chunk: Audio) -> float:
        return 0.3 * super().probability(chunk)


def test_a_word_silero_hears_only_faintly_over_the_host_is_still_taken_as_a_stop() -> None:
    for faint_from, words in ((0.2, [ShortWord.STOP]), (None, [])):
        settings = replace(UNSTARTED_SETTINGS, short_path=replace(UNSTARTED_SETTINGS.short_path, faint_from=faint_from))
        h, far_end, clock, taken = short_harness(settings=settings)
        h.listener.detector = FaintDetector()
        over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 6) + silence(3))
        assert [t.word for t in taken] == words
        over_quiet_host(h, far_end, clock, silence(20))
        assert h.utterances == [] and h.understood == []  # never an utterance: Silero never called it speech


def test_a_verdict_on_a_short_stretch_that_comes_after_speech_resumed_acts_only_if_it_is_a_stop() -> None:
    for scoring, words in ((fake_short_words, [ShortWord.STOP]), (next_word, [])):
        h, far_end, clock, taken, executor = late_verdict_harness(UNSTARTED_SETTINGS)
        h.listener.short_words = scoring
        over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 2) + silence(3))
        assert len(executor.waiting) == 1  # being scored
        over_quiet_host(h, far_end, clock, speech(0.5, 1))  # "Wait ... Thwaite's answers"
        executor.run_all()
        assert [t.word for t in taken] == words
        over_quiet_host(h, far_end, clock, speech(0.5, 8) + silence(12))
        assert len(h.utterances) == 1 and h.utterances[0].after_stop is None  # what went on is heard as ever


def test_a_short_word_is_not_scored_unstarted_when_that_is_off_or_the_host_is_silent() -> None:
    off = replace(UNSTARTED_SETTINGS, short_path=replace(UNSTARTED_SETTINGS.short_path, unstarted_seconds=None))
    h, far_end, clock, taken = short_harness(settings=off)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 2) + silence(20))
    assert taken == []
    h, far_end, clock, taken = short_harness(settings=UNSTARTED_SETTINGS)
    h.listener.end_speaking()
    over_quiet_host(h, far_end, clock, silence(10) + speech(0.6, 2) + silence(20))
    assert taken == []


def recording(scorer: Callable[[Audio], ShortWordScores]) -> tuple[Callable[[Audio], ShortWordScores], list[Audio]]:
    """A short-word scorer that keeps every stretch it was given, and that list."""
    scored: list[Audio] = []

    def record(audio: Audio) -> ShortWordScores:
        scored.append(audio)
        return scorer(audio)

    return record, scored


def test_a_stretch_scored_after_the_microphone_opens_again_holds_nothing_from_before_it_shut() -> None:
    record, scored = recording(fake_short_words)
    h, far_end, clock, _ = short_harness(settings=UNSTARTED_SETTINGS)
    h.listener.short_words = record
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.03, 4))  # heard just before it shut (not speech)
    h.listener.set_muted(True)  # shut, as over the Host while the canceller is not trusted
    over_quiet_host(h, far_end, clock, silence(6))
    h.listener.set_muted(False)
    over_quiet_host(h, far_end, clock, speech(0.6, 2) + silence(3))  # a word too short to start an utterance
    assert len(scored) == 1
    assert not np.any(np.isclose(scored[0], 0.03))  # the stretch with a little less pre-roll, not the shut seconds glued


def test_a_stop_after_a_pause_in_a_longer_utterance_is_scored_on_its_own_stretch() -> None:
    # Silero joined a murmur (1 s at 0.5) and "Stop." (0.3 s at 0.6) with a 0.15 s pause between.
    h, far_end, clock, taken = short_harness()
    h.listener.short_words, scored = recording(fake_short_words)
    over_quiet_host(h, far_end, clock, speech(0.5, 20) + silence(3) + speech(0.6, 6) + silence(3))
    assert [t.word for t in taken] == [ShortWord.STOP]
    assert 0.5 not in scored[-1] and 0.6 in scored[-1]


def test_a_stop_taken_after_other_words_leaves_the_utterance_to_the_whole_understanding() -> None:
    # "Abel, ... where were you at ten?" with its last stretch heard as "Wait, wait.": the Host stops, and the
    # words before the stretch are not lost.
    h, far_end, clock, taken = short_harness()
    over_quiet_host(h, far_end, clock, speech(0.5, 10) + silence(3) + speech(0.6, 6) + silence(12))
    assert [t.word for t in taken] == [ShortWord.STOP] and len(h.utterances) == 1
    assert 0.5 in h.utterances[0].audio and 0.6 in h.utterances[0].audio
    assert h.utterances[0].after_stop is None  # nothing went on after it


def stop_please(audio: Audio) -> ShortWordScores:
    """Speech at 0.6 then 0.7 is "Stop, ... please." (a clear phrase only whole); any one stretch fits nothing."""
    whole = bool(np.any(audio == np.float32(0.6))) and bool(np.any(audio == np.float32(0.7)))
    best = {ShortWord.STOP: -0.3 if whole else -6.0, ShortWord.REPEAT: -5.0, ShortWord.NEXT: -5.0, ShortWord.SKIP: -7.0}
    phrases = {word: word.value for word in best} | {ShortWord.STOP: "Stop, please."}
    return ShortWordScores(best, phrases, seconds=0.01, audio_seconds=len(audio) / RATE)


def test_a_phrase_with_a_pause_inside_is_taken_whole_when_its_stretches_are_not() -> None:
    h, far_end, clock, taken = short_harness()
    h.listener.short_words, scored = recording(stop_please)
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3) + speech(0.7, 4) + silence(3))
    assert [t.word for t in taken] == [ShortWord.STOP]
    assert taken[0].scores.phrase[ShortWord.STOP] == "Stop, please."
    assert 0.6 not in scored[-2] and 0.7 in scored[-2]  # the last stretch first, then the whole
    over_quiet_host(h, far_end, clock, silence(20))
    assert h.utterances == []


def test_a_long_utterance_is_not_scored_whole() -> None:
    h, far_end, clock, taken = short_harness()
    h.listener.short_words, scored = recording(stop_please)
    # 0.8 s of speech, a pause, then "please.": over SHORT_SETTINGS' 0.6 s phrase limit.
    over_quiet_host(h, far_end, clock, speech(0.6, 16) + silence(3) + speech(0.7, 4) + silence(3))
    assert taken == [] and all(0.6 not in audio for audio in scored)


def clipped_stop(audio: Audio) -> ShortWordScores:
    """Speech at 0.8 is a clipped "Stop" (tiny.en ranks stop first, under the floor); anything else fits nothing."""
    stop = -3.5 if bool(np.any(audio == np.float32(0.8))) else -7.5
    best = {ShortWord.STOP: stop, ShortWord.REPEAT: -6.5, ShortWord.NEXT: -6.5, ShortWord.SKIP: -7.0}
    return ShortWordScores(best, {word: word.value for word in best}, seconds=0.01, audio_seconds=len(audio) / RATE)


def first_word_stop(audio: Audio) -> ShortWordScores:
    """The second opinion: the first word is clearly "stop"."""
    return ShortWordScores({ShortWord.STOP: -0.5}, {ShortWord.STOP: "Stop"}, seconds=0.01, audio_seconds=len(audio) / RATE)


@pytest.mark.parametrize("second", [True, False])
def test_a_stop_under_the_floor_is_taken_on_a_second_opinion(second: bool) -> None:
    h, far_end, clock, taken = short_harness()
    asked: list[Audio] = []

    def opinion(audio: Audio) -> ShortWordScores:
        asked.append(audio)
        return first_word_stop(audio)

    h.listener.short_words = clipped_stop
    h.listener.second_opinion = opinion if second else None
    over_quiet_host(h, far_end, clock, speech(0.8, 6) + silence(3) + speech(0.5, 6) + silence(3))
    if second:
        assert [t.word for t in taken] == [ShortWord.STOP] and len(asked) == 1  # only the clipped stop was asked about
        assert taken[0].scores.phrase[ShortWord.STOP] == "Stop"
    else:
        assert taken == []


def base_unsure(audio: Audio) -> ShortWordScores:
    """The second opinion: the first word is not clearly "stop"."""
    return ShortWordScores({ShortWord.STOP: -7.0}, {ShortWord.STOP: "So"}, seconds=0.01, audio_seconds=len(audio) / RATE)


def spotted_stop(audio: Audio) -> ShortWordScores:
    """The stop spotter: the speech embedding looks like "stop"."""
    return ShortWordScores(
        {ShortWord.STOP: 4.0}, {ShortWord.STOP: "(stop spotted)"}, seconds=0.01, audio_seconds=len(audio) / RATE
    )


@pytest.mark.parametrize("spotter", [True, False])
def test_a_stop_neither_whisper_takes_is_taken_on_the_spotters_word(spotter: bool) -> None:
    h, far_end, clock, taken = short_harness()
    h.listener.short_words = clipped_stop
    h.listener.second_opinion = base_unsure
    h.listener.stop_spotter = spotted_stop if spotter else None
    over_quiet_host(h, far_end, clock, speech(0.8, 6) + silence(3) + speech(0.5, 6) + silence(3))
    if spotter:
        assert [t.word for t in taken] == [ShortWord.STOP] and taken[0].scores.phrase[ShortWord.STOP] == "(stop spotted)"
    else:
        assert taken == []


class Halve:
    """A canceller whose output is half the microphone's (a suppressor that takes half of every word)."""

    def process(self, mic: Audio, far: Audio) -> Audio:
        return (mic / 2).astype(np.float32)


def heard_only_suppressed(audio: Audio) -> ShortWordScores:
    """A stop only the suppressor's signal gives (speech at 0.3: the detector's half of 0.6)."""
    stop = -0.2 if bool(np.any(audio == np.float32(0.3))) else -6.0
    best = {ShortWord.STOP: stop, ShortWord.REPEAT: -5.0, ShortWord.NEXT: -5.0, ShortWord.SKIP: -7.0}
    return ShortWordScores(best, {word: word.value for word in best}, seconds=0.01, audio_seconds=len(audio) / RATE)


@pytest.mark.parametrize("views", [(ShortView.GATED, ShortView.SUPPRESSED), (ShortView.WORDS,)])
def test_a_word_the_first_signal_misses_is_scored_on_the_next(views: tuple[ShortView, ...]) -> None:
    h, far_end, clock, taken = short_harness()
    settings = replace(SHORT_SETTINGS, short_path=replace(SHORT_SETTINGS.short_path, views=views))
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, settings,
        executor=InlineExecutor(), clock=clock,
        echo=EchoCanceller(Halve(), Subtract(), passthrough_after_seconds=1.0, settle_seconds=0.0, gate_db=None),
        far_end=far_end, short_words=heard_only_suppressed, on_short_word=taken.append,
    )  # fmt: skip
    h.listener.begin_speaking()
    h.listener.short_words, scored = recording(heard_only_suppressed)
    over_quiet_host(h, far_end, clock, silence(4) + speech(0.6, 6) + silence(3))
    if views == (ShortView.WORDS,):
        assert taken == [] and len(scored) == 1 and 0.6 in scored[0]
    else:
        assert [t.word for t in taken] == [ShortWord.STOP]
        # The linear canceller's words (silenced where the gate was shut: here never), then the suppressor's.
        assert len(scored) == 2 and 0.6 in scored[0] and 0.3 in scored[1]


def test_the_early_understanding_waits_for_the_short_words_verdict() -> None:
    # On 2 cores the two would slow each other down: the stop word's verdict comes first.
    executor = ManualExecutor()
    # The early result is taken at the end (no text signal here would make it understood again over the Host).
    h, far_end, clock, taken = short_harness(executor, replace(SHORT_SETTINGS, understand_again_over_host=False))
    over_quiet_host(h, far_end, clock, speech(0.5, 6) + silence(5))  # 0.25 s of pause: both are due
    assert len(executor.waiting) == 1 and executor.waiting[0][1] is not h.understand  # the short words' scoring
    executor.run_all()  # not a short word
    over_quiet_host(h, far_end, clock, silence(1))
    assert [fn for _, fn, _ in executor.waiting] == [h.understand]
    executor.run_all()
    over_quiet_host(h, far_end, clock, silence(12))
    assert taken == [] and len(h.utterances) == 1 and h.utterances[0].early


def test_a_short_word_taken_stops_the_host_before_the_screen_hears_of_it() -> None:
    from voice_host.screen.voice_io import stop_first

    events: list[str] = []

    class Voice:
        def stop(self) -> None:
            events.append("stopped")

    h, far_end, clock, _ = short_harness()
    h.listener.on_short_word = stop_first(Voice(), lambda heard: events.append(f"told {heard.word.value}"))  # type: ignore[arg-type]
    over_quiet_host(h, far_end, clock, speech(0.6, 6) + silence(3))
    assert events == ["stopped", "told stop"]


# --- the Host's own voice let through (the echo's delay moved) --------------------------------------------


def noise(blocks: int, seed: int) -> list[Audio]:
    """Speech-like to the fake detector, and to the coherence (every frequency, unlike a constant)."""
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(BLOCK) * 0.3).astype(np.float32) for _ in range(blocks)]


def moved_echo(played: list[Audio], samples: int = 160) -> list[Audio]:
    """What the microphone hears when the echo comes `samples` later than the canceller expects."""
    joined = np.concatenate(played)
    late = np.concatenate([np.zeros(samples, dtype=np.float32), joined])[: len(joined)]
    return [late[at : at + BLOCK] for at in range(0, len(late), BLOCK)]


OWN_VOICE = ListenerSettings().own_voice_coherence  # the app's


def own_voice_harness(
    settings: ListenerSettings,
    short_words: Callable[[Audio], ShortWordScores] | None = None,
    canceller: Callable[[], Any] = Subtract,
    gate_db: float | None = GATE_DB,
) -> tuple[Harness, FarEnd, Clock, list[ShortHeard]]:
    """A canceller trusted whatever it takes out: as in the moments before it finds that the echo's delay moved."""
    h, far_end, clock = echo_harness()
    taken: list[ShortHeard] = []
    h.listener = Listener(
        h.source, h.detector, h.understand, h.deliver, h.statuses.append, settings, executor=InlineExecutor(),
        clock=clock, far_end=far_end,
        echo=EchoCanceller(canceller(), canceller(), settle_seconds=0.0, gate_db=gate_db, trusted_erle_db=None),
        short_words=short_words, on_short_word=taken.append if short_words is not None else None,
    )  # fmt: skip
    h.listener.begin_speaking()
    return h, far_end, clock, taken


def test_the_host_s_own_voice_let_through_is_not_handed_on() -> None:
    for coherence, handed_on in ((None, 1), (OWN_VOICE, 0)):  # without the check, the setup does let it through
        h, far_end, clock, _ = own_voice_harness(replace(SHORT_SETTINGS, own_voice_coherence=coherence))
        host = noise(16, seed=3) + silence(20)  # 0.8 s of the Host's words, then a pause
        feed_with_far_end(h, far_end, clock, moved_echo(host), host)
        assert len(h.utterances) == handed_on, coherence


def test_a_player_over_the_host_is_handed_on_whatever_the_host_says() -> None:
    h, far_end, clock, _ = own_voice_harness(SHORT_SETTINGS)
    host = noise(40, seed=3)
    player = [b + (w if 10 <= i < 20 else 0.0) for i, (b, w) in enumerate(zip(host, noise(40, seed=4), strict=True))]
    feed_with_far_end(h, far_end, clock, [b.astype(np.float32) for b in player], host)
    assert len(h.utterances) == 1


def always_stop(audio: Audio) -> ShortWordScores:
    best = {ShortWord.STOP: -0.1, ShortWord.REPEAT: -5.0, ShortWord.NEXT: -5.0, ShortWord.SKIP: -7.0}
    return ShortWordScores(best, {word: word.value for word in best}, seconds=0.01, audio_seconds=len(audio) / RATE)


def test_the_host_s_own_voice_let_through_is_never_taken_for_a_short_word() -> None:
    for coherence, words in ((None, [ShortWord.STOP]), (OWN_VOICE, [])):
        h, far_end, clock, taken = own_voice_harness(replace(SHORT_SETTINGS, own_voice_coherence=coherence), always_stop)
        host = noise(6, seed=5) + silence(4)  # 0.3 s of the Host's voice, then the short pause
        feed_with_far_end(h, far_end, clock, moved_echo(host), host)
        assert [t.word for t in taken] == words, coherence


def test_the_host_s_own_voice_just_after_the_microphone_opens_again_is_never_taken_for_a_short_word() -> None:
    settings = replace(SHORT_SETTINGS, own_voice_left_db=None, own_voice_over_residue_db=None)  # coherence alone
    h, far_end, clock, taken = own_voice_harness(settings, always_stop)
    before, host = noise(20, seed=6), noise(2, seed=5) + silence(4)
    h.listener.set_muted(True)  # shut while the Host talks (as while the canceller is not trusted)
    feed_with_far_end(h, far_end, clock, before, before)
    h.listener.set_muted(False)
    # Open again: 0.1 s of the Host let through at once, then the short pause. What was played before the microphone
    # opened is where the echo's lag is found: without it the words are judged on next to nothing.
    feed_with_far_end(h, far_end, clock, moved_echo(before + host)[len(before) :], host)
    assert taken == []


class Residue:
    """A canceller that leaves a faint residue of the Host, nothing like what was played (as when it is
    learning the room again): about 24 dB under the microphone."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(7)

    def process(self, mic: Audio, far: Audio) -> Audio:
        level = float(np.sqrt(np.mean(np.square(mic))))
        return (self.rng.standard_normal(len(mic)) * 0.06 * level).astype(np.float32)


def test_a_faint_residue_of_the_host_is_not_handed_on() -> None:
    for left_db, handed_on in ((None, 1), (ListenerSettings().own_voice_left_db, 0)):
        settings = replace(SETTINGS, own_voice_left_db=left_db)
        h, far_end, clock, _ = own_voice_harness(settings, canceller=Residue, gate_db=None)
        host = [(b / 0.3 * 0.5).astype(np.float32) for b in noise(16, seed=3)] + silence(20)
        feed_with_far_end(h, far_end, clock, host, host)
        assert len(h.utterances) == handed_on, left_db


class WeakCanceller:
    """Takes out what was played but leaves a residue of the Host 12 dB under it, nothing like what was played: speex
    learning the room again after a move of the echo's delay. A player's words pass whole."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(11)

    def process(self, mic: Audio, far: Audio) -> Audio:
        level = float(np.sqrt(np.mean(np.square(far))))
        return (mic - far + self.rng.standard_normal(len(mic)) * 0.25 * level).astype(np.float32)


def weak_canceller_night(player_blocks: range | None) -> list[list[Utterance[Any]]]:
    """1.6 s of the Host through `WeakCanceller`, a player over blocks `player_blocks` (twice the Host's level): what
    was handed on with the fixed floor alone, and with the floor raised over the residue."""
    handed_on: list[list[Utterance[Any]]] = []
    for over in (None, ListenerSettings().own_voice_over_residue_db):
        settings = replace(SETTINGS, own_voice_over_residue_db=over)
        h, far_end, clock, _ = own_voice_harness(settings, canceller=WeakCanceller, gate_db=None)
        host = noise(32, seed=3) + silence(20)
        player = noise(32, seed=4) + silence(20)
        mic = [
            (b + 2 * w if player_blocks is not None and i in player_blocks else b)
            for i, (b, w) in enumerate(zip(host, player, strict=True))
        ]
        feed_with_far_end(h, far_end, clock, mic, host)
        handed_on.append(h.utterances)
    return handed_on


def test_the_residue_of_a_canceller_taking_out_little_is_not_handed_on() -> None:
    floor_alone, over_residue = weak_canceller_night(None)
    assert len(floor_alone) == 1  # 12 dB under the microphone passes the fixed floor (-20 dB) ...
    assert over_residue == []  # ... but not the floor raised to just over what the canceller leaves


def test_a_player_over_a_canceller_taking_out_little_is_handed_on() -> None:
    floor_alone, over_residue = weak_canceller_night(range(10, 20))
    assert len(floor_alone) == 1 and len(over_residue) == 1


# --- words Silero loses over the Host -------------------------------------------------------------------


class LosesTheRest:
    """A suppressor that takes the player's later words out with the echo (samples near 0.7), as speex's
    suppressor and the residual-echo gate can over the Host; the linear output keeps them."""

    def process(self, mic: Audio, far: Audio) -> Audio:
        left = (mic - far).astype(np.float32)
        return np.where(np.abs(left - 0.7) < 0.01, np.float32(0), left).astype(np.float32)


class OverTheHostHarness(Harness):
    """Early, "Read" (0.5) is heard as a turn that may go on; the whole words (0.5 then 0.7) as a whole message."""

    def __init__(self, again: bool) -> None:
        super().__init__()
        settings = replace(
            SETTINGS,
            segmenter=SegmenterSettings(speech_seconds=0.1, early_seconds=0.1, silence_seconds=1.0, pre_roll_seconds=0.1),
            end_of_turn=EndOfTurn(complete_seconds=0.2, hold_seconds=0.5),
            understand_again_over_host=again,
        )
        self.far_end, self.clock = FarEnd(), Clock()
        echo = EchoCanceller(LosesTheRest(), Subtract(), settle_seconds=0.0, trusted_erle_db=None)
        self.listener = Listener(
            self.source, self.detector, self.understand, self.deliver, self.statuses.append, settings,
            executor=InlineExecutor(), clock=self.clock, echo=echo, far_end=self.far_end, turn_complete=self.judge,
        )  # fmt: skip

    def understand(self, audio: Audio) -> str:
        self.understood.append(audio)
        return "Read exhibit 15." if bool(np.any(np.abs(audio - 0.7) < 0.01)) else "Read"

    @staticmethod
    def judge(text: str) -> TurnText:
        return TurnText.WHOLE if text.endswith(".") else TurnText.MAY_GO_ON


def test_over_the_host_words_silero_lost_after_the_early_start_are_understood() -> None:
    for again, heard in ((False, "Read"), (True, "Read exhibit 15.")):  # as before, the early result was taken
        h = OverTheHostHarness(again)
        h.listener.begin_speaking()
        host = noise(40, seed=3)
        # "Read", a pause long enough for the early start, then the rest: lost to Silero, kept in the words.
        player = speech(0.5, 6) + silence(4) + speech(0.7, 6) + silence(24)
        feed_with_far_end(h, h.far_end, h.clock, [(b + p).astype(np.float32) for b, p in zip(host, player, strict=True)], host)
        assert [u.result for u in h.utterances] == [heard], again
        assert h.utterances[0].early is not again  # understood again: not the early result


def test_over_the_host_an_early_run_understood_again_is_told_to_stop() -> None:
    h = OverTheHostHarness(again=True)
    asked: list[Callable[[], bool]] = []

    def stoppable(audio: Audio, abandoned: Callable[[], bool]) -> str:
        asked.append(abandoned)
        return h.understand(audio)

    h.listener.understand = StoppableUnderstanding(stoppable)
    h.listener.begin_speaking()
    host = noise(40, seed=3)
    player = speech(0.5, 6) + silence(4) + speech(0.7, 6) + silence(24)  # "Read", then the rest Silero lost
    feed_with_far_end(h, h.far_end, h.clock, [(b + p).astype(np.float32) for b, p in zip(host, player, strict=True)], host)
    assert [u.result for u in h.utterances] == ["Read exhibit 15."]
    assert [run() for run in asked] == [True, False]  # the early run ("Read") stops; the whole one is taken


def test_over_the_host_a_whole_early_message_is_not_understood_again() -> None:
    h = OverTheHostHarness(again=True)
    h.listener.begin_speaking()
    host = noise(40, seed=3)
    player = speech(0.7, 1) + speech(0.5, 6) + silence(33)  # whole at once ("." from the 0.7 kept in the words)
    feed_with_far_end(h, h.far_end, h.clock, [(b + p).astype(np.float32) for b, p in zip(host, player, strict=True)], host)
    assert [u.result for u in h.utterances] == ["Read exhibit 15."]
    assert h.utterances[0].early and len(h.understood) == 1


def test_a_pause_gate_does_what_was_asked_once_the_pause_counts_and_nothing_once_dropped() -> None:
    done: list[str] = []
    gate = PauseGate(counts=False)
    gate.run(lambda: done.append("hold"))
    gate.run(lambda: done.append("stop"))
    assert done == [] and gate.waiting and gate.wanted
    gate.count()
    assert done == ["hold", "stop"] and not gate.waiting
    gate.run(lambda: done.append("release"))  # asked after it counted: at once
    gate.drop()  # too late to drop
    assert done == ["hold", "stop", "release"] and gate.wanted
    dropped = PauseGate(counts=False)
    dropped.run(lambda: done.append("never"))
    dropped.drop()
    dropped.count()
    dropped.run(lambda: done.append("never"))
    assert "never" not in done and not dropped.wanted and not dropped.waiting
    counted = PauseGate(counts=True)
    counted.run(lambda: done.append("now"))
    assert done[-1] == "now"
