"""Real time through a virtual microphone: PulseAudio's pipe source -> sounddevice -> the voice loop.

The test starts its own PulseAudio daemon (HOME and XDG_RUNTIME_DIR in a temporary folder), loads a
pipe source, writes a piper-rendered utterance into its FIFO at real-time pace, and checks that our
Capture + Silero + segmenter + whisper heard the words. It stops the daemon by its pid.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from audio_fixtures.echo import EchoPath, EchoStream
from audio_fixtures.pulse import PulseDaemon
from tests.conftest_speech import Render, speech_fixture
from voice_host.ears.asr import Recognizer, Transcript
from voice_host.ears.audio import Capture, rescan_devices
from voice_host.ears.sound import SAMPLE_RATE
from voice_host.ears.turn import TurnText
from voice_host.ears.vad import SileroVad
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.loop.listener import Listener, ListenerSettings, Utterance
from voice_host.mouth.tts import Synthesizer

RATE = SAMPLE_RATE
STEP = 0.1  # seconds of audio written per step (3,200 bytes)

pytestmark = pytest.mark.skipif(
    shutil.which("pulseaudio") is None or shutil.which("pactl") is None,
    reason="PulseAudio is not installed (Debian: pulseaudio pulseaudio-utils libportaudio2)",
)


@speech_fixture()
def pulse(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[PulseDaemon]:
    """A running private PulseAudio daemon, with this process pointed at it."""
    daemon = PulseDaemon(tmp_path_factory.mktemp("pa"))
    try:
        daemon.start()
        # This process talks to the private daemon; PortAudio restarts to see its "pulse" device.
        monkeypatch.setenv("HOME", str(daemon.home))
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(daemon.runtime))
        monkeypatch.setenv("PULSE_SERVER", daemon.server)
        rescan_devices()
        yield daemon
    finally:
        daemon.stop()
        monkeypatch.undo()
        rescan_devices()


@pytest.fixture
def virtual_mic(pulse: PulseDaemon) -> Path:
    """The FIFO behind the private daemon's default source."""
    return pulse.fifo


class RealTimeWriter(threading.Thread):
    """Writes audio into the FIFO at real-time pace, then zeros until told to stop."""

    def __init__(self, fifo: Path, audio: np.ndarray) -> None:
        super().__init__(name="fifo-writer", daemon=True)
        self.fifo = fifo
        self.pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        self.done = threading.Event()

    def run(self) -> None:
        try:
            self._write()
        except BrokenPipeError:  # the daemon went away (a lost device): nothing more to write
            pass

    def _write(self) -> None:
        step = int(STEP * RATE) * 2
        start = time.monotonic()
        sent = 0
        with open(self.fifo, "wb", buffering=0) as pipe:
            while not self.done.is_set():
                chunk = self.pcm[sent * step : (sent + 1) * step]
                pipe.write(chunk + bytes(step - len(chunk)))  # zeros once the audio has run out
                sent += 1
                # Real-time pacing of the fake microphone (the audio clock), not thread synchronisation.
                delay = start + sent * STEP - time.monotonic()
                if delay > 0:
                    time.sleep(delay)


def any_words(transcript: Transcript) -> TurnText:
    """The text signal of these tests: any words heard end the turn after the short pause."""
    return TurnText.WHOLE if transcript.text else TurnText.UNFINISHED


def test_speech_through_a_virtual_microphone_is_heard(
    virtual_mic: Path, render_speech: Render, tiny_recognizer: Recognizer
) -> None:
    said = render_speech("Read exhibit seven.", pad=0.0)
    audio = np.concatenate([np.zeros(RATE, np.float32), said, np.zeros(int(1.5 * RATE), np.float32)])
    heard: list[Utterance[Transcript]] = []
    got = threading.Event()

    def deliver(utterance: Utterance[Transcript]) -> None:
        heard.append(utterance)
        got.set()

    capture = Capture(device="pulse", lost_after=5.0)
    listener: Listener[Transcript] = Listener(capture, SileroVad(), tiny_recognizer.transcribe, deliver, turn_complete=any_words)
    writer = RealTimeWriter(virtual_mic, audio)
    writer.start()
    listener.start()
    try:
        assert got.wait(timeout=30), "no utterance was heard through the virtual microphone"
    finally:
        listener.stop()  # closes the stream while the writer still feeds zeros (else closing hangs)
        writer.done.set()
        writer.join(timeout=10)
    transcript = heard[0].result
    words = "".join(c if c.isalnum() else " " for c in transcript.text.lower()).split()
    assert words == ["read", "exhibit", "7"], transcript
    # The utterance is about as long as what was said plus pre-roll and the short end-of-turn pause
    # (the words were a whole message), not the whole stream nor the hangover ceiling.
    assert len(said) / RATE < heard[0].audio.size / RATE < len(said) / RATE + 1.0
    assert capture.dropped == 0


def test_the_player_plays_through_pulse_and_stops_mid_sentence(virtual_mic: Path) -> None:
    from voice_host.ears.audio import Player

    player = Player(device="pulse")
    player.start()
    try:
        started = threading.Event()
        second = threading.Event()
        tone = (0.2 * np.sin(np.arange(player.sample_rate * 5) * 2 * np.pi * 440 / player.sample_rate)).astype(np.float32)
        player.play(tone, on_start=started.set)
        player.play(tone, on_start=second.set)
        assert started.wait(timeout=10), "playback never began"
        assert player.playing
        player.stop()  # ten seconds queued: stop must cut it short
        assert player.wait(timeout=2)
        assert not player.playing and not second.is_set()
        short = np.zeros(player.sample_rate // 10, dtype=np.float32)
        player.play(short)
        assert player.wait(timeout=10)  # a short sound plays out by itself
        # ... and it has sounded, not only been handed to the device: PortAudio's stream clock (which waiting
        # reads) and its callbacks' times (which say when a block sounds) are one clock.
        assert player.sounds_until is not None
        assert 0.0 <= player._stream.time - player.sounds_until < 0.2
    finally:
        player.close()


# Losing a PulseAudio server under an open stream can leave PortAudio's ALSA thread spinning in a process
# that opened a device before (it prints the same assertion for ever); a fresh process does not. So the
# device-loss case runs in a Python process of its own, which ends with it.
ISOLATED = "THIRD_CAROL_DEVICE_LOSS_TEST"


@pytest.mark.speech  # PulseAudio and the models, in a process of its own
def test_a_lost_microphone_pauses_the_loop_and_it_resumes_when_the_device_returns(tmp_path: Path) -> None:
    case = "test_device_loss_in_this_process"
    with (tmp_path / "stderr.log").open("wb") as noise:
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", f"{__file__}::{case}"],
            env={**os.environ, ISOLATED: "1"},
            stdout=subprocess.PIPE,
            stderr=noise,
            text=True,
            timeout=240,
            check=False,
        )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "1 passed" in result.stdout


@pytest.mark.skipif(not os.environ.get(ISOLATED), reason="runs in its own process, started by the test above")
def test_device_loss_in_this_process(pulse: PulseDaemon, render_speech: Render, tiny_recognizer: Recognizer) -> None:
    statuses: list[MicLevel] = []
    lost, back, got = threading.Event(), threading.Event(), threading.Event()
    heard: list[Utterance[Transcript]] = []

    def on_status(level: MicLevel) -> None:
        statuses.append(level)
        if level.status is MicStatus.UNAVAILABLE:
            lost.set()
        elif lost.is_set() and level.status is MicStatus.LISTENING:
            back.set()

    def deliver(utterance: Utterance[Transcript]) -> None:
        heard.append(utterance)
        got.set()

    capture = Capture(device="pulse", lost_after=1.0)
    settings = ListenerSettings(retry_seconds=0.2)
    listener: Listener[Transcript] = Listener(capture, SileroVad(), tiny_recognizer.transcribe, deliver, on_status, settings)
    silence = RealTimeWriter(pulse.fifo, np.zeros(RATE, np.float32))
    silence.start()
    listener.start()
    writers = [silence]
    try:
        pulse.stop()  # the microphone goes away mid-game
        assert lost.wait(timeout=15), "the loss was never noticed"
        assert not back.is_set()
        fifo = pulse.start()  # and comes back
        said = render_speech("Read exhibit seven.", pad=0.0)
        audio = np.concatenate([np.zeros(RATE, np.float32), said, np.zeros(int(1.5 * RATE), np.float32)])
        writers.append(RealTimeWriter(fifo, audio))
        writers[-1].start()
        assert back.wait(timeout=15), "the loop never came back"
        assert got.wait(timeout=30), "nothing was heard after the microphone returned"
    finally:
        listener.stop()
        for writer in writers:
            writer.done.set()
            writer.join(timeout=10)
    lost_status = next(s for s in statuses if s.status is MicStatus.UNAVAILABLE)
    assert "microphone was lost" in lost_status.detail
    words = "".join(c if c.isalnum() else " " for c in heard[0].result.text.lower()).split()
    assert words == ["read", "exhibit", "7"], heard[0].result


def test_devices_lists_the_virtual_microphone(pulse: PulseDaemon, capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from voice_host.ears.audio import run_devices

    assert run_devices(argparse.Namespace()) == 0
    out = capsys.readouterr().out
    assert out.startswith("Audio devices:")
    pulse_lines = [line for line in out.splitlines() if line.split()[1:2] == ["pulse"]]
    assert len(pulse_lines) == 1, out
    inputs = int(pulse_lines[0].split("in ")[1].split(",")[0])
    outputs = int(pulse_lines[0].split("out ")[1].split(",")[0])
    assert inputs > 0 and outputs > 0
    assert "No microphone found" not in out and "No speaker found" not in out


class EchoRoom(threading.Thread):
    """The room between the Host's speaker and the microphone, in real time: what the daemon's sink plays
    (its monitor, read by `parec`, paced by the daemon's own clock) goes through a simulated echo path
    into the pipe source, and a player's words are added once the Host has sounded `player_after`
    seconds. The microphone hears the Host as a laptop would: resampled, buffered and delayed by the
    sound server, which is why the canceller matches far end and microphone by stream time."""

    CHUNK = 320  # 20 ms

    def __init__(self, pulse: PulseDaemon, path: EchoPath, scale: float, player: np.ndarray, player_after: float) -> None:
        super().__init__(name="echo-room", daemon=True)
        self.pulse = pulse
        self.echo = EchoStream(path, scale, self.CHUNK)
        self.player = player
        self.player_after = round(player_after * RATE)
        self.opened = threading.Event()
        self.done = threading.Event()
        self.host_samples = 0  # the Host's samples heard so far
        self.player_at: int | None = None  # microphone sample where the player began
        self.written = 0

    def run(self) -> None:
        parec = subprocess.Popen(
            ["parec", "--device=vsink.monitor", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1",
             "--latency-msec=20"],
            env=self.pulse.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        assert parec.stdout is not None
        try:
            with open(self.pulse.fifo, "wb", buffering=0) as pipe:
                self.opened.set()
                while not self.done.is_set():
                    data = parec.stdout.read(self.CHUNK * 2)  # as fast as the sink plays: real time
                    if len(data) < self.CHUNK * 2:
                        return
                    played = np.frombuffer(data, "<i2").astype(np.float64) / 32768
                    mic = self.echo.step(played)
                    sounding = int(np.count_nonzero(np.abs(played) > 1e-4))
                    self.host_samples += sounding
                    if self.player_at is None and self.host_samples >= self.player_after:
                        self.player_at = self.written
                    if self.player_at is not None:
                        offset = self.written - self.player_at
                        words = self.player[offset : offset + self.CHUNK]
                        mic[: len(words)] += words
                    pipe.write((np.clip(mic, -1, 1) * 32767).astype("<i2").tobytes())
                    self.written += self.CHUNK
        except BrokenPipeError:  # the daemon went away
            pass
        finally:
            self.opened.set()
            parec.terminate()
            parec.wait(timeout=10)


class CountingCapture(Capture):
    """The microphone, telling when it has handed over `count_from_now(n)` more blocks."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.counted = threading.Event()
        self._left: int | None = None

    def count_from_now(self, blocks: int) -> None:
        self._left = blocks

    def read(self, timeout: float = 0.5) -> np.ndarray | None:
        block = super().read(timeout)
        if block is not None and self._left is not None:
            self._left -= 1
            if self._left <= 0:
                self.counted.set()
        return block


def carries(heard: np.ndarray, words: np.ndarray) -> float:
    """How plainly `heard` (an utterance the listener handed on) carries the player's `words`: the cosine
    of the two at their best alignment, the words' silence either side left out (about 1: the words as
    said and little else; near 0: another voice, such as the Host's)."""
    loud = np.flatnonzero(np.abs(words) > 0.05 * np.max(np.abs(words)))
    words = np.asarray(words[loud[0] : loud[-1] + 1], dtype=np.float64)
    heard = np.asarray(heard, dtype=np.float64)
    size = 1 << (len(heard) + len(words)).bit_length()
    corr = np.fft.irfft(np.fft.rfft(heard, size) * np.conj(np.fft.rfft(words, size)), size)
    return float(np.max(np.abs(corr)) / (np.linalg.norm(words) * np.linalg.norm(heard) + 1e-12))


NARRATION = (
    "Good evening, and welcome to Hollin Fold. The snow has closed the road and the telephone is dead. "
    "Mr Blamire was found in the library at a quarter past ten, and the fire was still burning. "
    "Six of you were in the house that night, and one of you is not telling the truth. "
    "Ask the suspects where they were, and what they saw, and read the exhibits when you are ready. "
    "The butler says he went down the back stair at ten. The cook says the kitchen door was locked. "
    "Miss Ruddock heard the clock strike, and then a door close somewhere above her."
)


def test_the_host_is_not_heard_through_an_echo_path_and_a_player_over_it_is(
    pulse: PulseDaemon, steady_synthesizer: Synthesizer, base_recognizer: Recognizer
) -> None:
    from audio_fixtures.acoustics import active_rms, convolve
    from audio_fixtures.echo import echo_path
    from audio_fixtures.fixtures import FixtureAudio, load_manifest
    from voice_host.ears.audio import Player
    from voice_host.ears.echo import EchoCanceller, FarEnd
    from voice_host.ears.sound import PLAYBACK_RATE
    from voice_host.loop.listener import InlineExecutor

    narration = steady_synthesizer.render(NARRATION, rate=PLAYBACK_RATE)
    assert len(narration) / PLAYBACK_RATE > 25
    path = echo_path("virtual-mic")  # room 5 (RT60 0.64 s), 46 ms, -10.7 dB
    at16k = steady_synthesizer.render(NARRATION, rate=RATE)
    scale = 10 ** (path.gain_db / 20) * active_rms(at16k) / active_rms(convolve(at16k, path.impulse))
    # "The housekeeper, why was the yard door open?" in espeak-ng's American voice, unlike the Host's: one Whisper
    # base hears word for word alone, so words lost over the Host are the loop's doing, not the voice's. (The
    # espeak commands, "Read exhibit 2." and the like, are misheard by the first pass even alone: "Revenge with it
    # too.".)
    fixture = next(f for f in load_manifest() if f.id == "u032")
    words = FixtureAudio([fixture]).clean(fixture.id)
    echo_level = active_rms(at16k) * 10 ** (path.gain_db / 20)
    player = (words * (echo_level / active_rms(words))).astype(np.float64)  # as loud as the Host's echo
    moment = 12.0 + random.Random(15).uniform(0.0, 8.0)  # seconds of the Host: after the canceller has settled
    room = EchoRoom(pulse, path, scale, player, moment)
    room.start()
    assert room.opened.wait(timeout=30)  # the pipe source needs its writer before the microphone opens

    heard: list[Utterance[Transcript]] = []
    far_end = FarEnd()
    echo = EchoCanceller()
    moves: list[int] = []
    trusted_when_player_began: list[bool] = []
    watch_add = echo.delay_watch.add

    def watch(mic: np.ndarray, far: np.ndarray) -> bool:  # every 10 ms: counts the echo's delay moving
        moved = watch_add(mic, far)
        moves.extend([echo.delay_watch.lag or 0] if moved else [])
        if room.player_at is not None and not trusted_when_player_began:
            trusted_when_player_began.append(echo.settled)
        return moved

    echo.delay_watch.add = watch  # type: ignore[method-assign]
    speaker = Player(device="pulse", far_end=far_end)
    capture = CountingCapture(device="pulse", lost_after=5.0)
    listener: Listener[Transcript] = Listener(
        capture, SileroVad(), base_recognizer.transcribe, heard.append, executor=InlineExecutor(),
        turn_complete=any_words, echo=echo, far_end=far_end,
    )  # fmt: skip
    speaker.start()
    listener.start()
    try:
        listener.begin_speaking()
        speaker.play(narration)
        assert speaker.wait(timeout=120), "the narration never finished"
        listener.end_speaking()
        capture.count_from_now(round(3.0 * RATE / capture.block_size))  # 3 s more of the microphone
        assert capture.counted.wait(timeout=60)
    finally:
        listener.stop()  # before the room stops writing (else closing the stream hangs)
        speaker.close()
        room.done.set()
        room.join(timeout=10)
    assert room.player_at is not None, "the player never spoke"
    assert capture.last_block_time is not None and far_end.matched_by_time, "the far end was not matched by time"
    said = ["".join(c if c.isalnum() else " " for c in h.result.text.lower()).split() for h in heard]
    player_words = ["the", "housekeeper", "why", "was", "the", "yard", "door", "open"]
    # Never the Host's own voice: every utterance handed on carries the player's words (as sound: the
    # player's words heard wrong are the player's, and are judged below).
    carried = [round(carries(h.audio, words), 2) for h in heard]
    host = listener.host_talk
    # When each began and ended, seconds after the Host's last talk stopped (negative: over it), and whether
    # the canceller was trusted when the player began: what a failure needs to be understood.
    when = [
        (round((h.began_at or h.ended_at) - (host.stopped_at or 0.0), 2), round(h.ended_at - (host.stopped_at or 0.0), 2))
        for h in heard
        if host is not None
    ]
    assert all(c >= 0.3 for c in carried), (said, carried, when, trusted_when_player_began, moves)
    trusted = bool(trusted_when_player_began) and trusted_when_player_began[0]
    if said != [player_words] and (moves or not trusted):
        # Through PulseAudio on a loaded machine the Host's stream underruns and the echo's delay moves
        # (several times in 30 s here), and the canceller takes little out: it is not trusted, and the
        # microphone is shut over the Host meanwhile, as without one (docs/speech.md "Echo cancellation").
        pytest.xfail(
            f"the player was not heard: the canceller {'was' if trusted else 'was not'} trusted when they began "
            f"(ERLE {echo.erle_db:.0f} dB at the end); the echo's delay moved {len(moves)} times ({moves}); {said}"
        )
    assert said == [player_words], f"the player was not heard over the Host: {said}"
