"""Real time through a virtual microphone: PulseAudio's pipe source -> sounddevice -> the voice loop.

The test starts its own PulseAudio daemon (HOME and XDG_RUNTIME_DIR in a temporary folder), loads a
pipe source, writes a piper-rendered utterance into its FIFO at real-time pace, and checks that our
Capture + Silero + segmenter + whisper heard the words. It stops the daemon by its pid.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.conftest_speech import Render
from voice_host.asr import Recognizer, Transcript
from voice_host.audio import Capture, rescan_devices
from voice_host.listener import Listener, Utterance
from voice_host.vad import SileroVad

RATE = 16_000
STEP = 0.1  # seconds of audio written per step (3,200 bytes)

pytestmark = pytest.mark.skipif(
    shutil.which("pulseaudio") is None or shutil.which("pactl") is None,
    reason="PulseAudio is not installed (Debian: pulseaudio pulseaudio-utils libportaudio2)",
)


@pytest.fixture
def virtual_mic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private PulseAudio daemon whose default source is a FIFO; yields the FIFO's path."""
    home = tmp_path_factory.mktemp("pa")
    runtime = home / "run"
    runtime.mkdir(mode=0o700)
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(runtime))
    env.pop("PULSE_SERVER", None)
    started = subprocess.run(
        [
            "pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "--use-pid-file=yes",
            "-L", "module-native-protocol-unix",
            "-L", f"module-null-sink sink_name=vsink rate={RATE} channels=1 format=s16le",
        ],
        env=env, capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert started.returncode == 0, started.stderr
    pid = int((runtime / "pulse" / "pid").read_text().strip())
    fifo = home / "vmic.fifo"
    try:
        for command in (
            ["pactl", "load-module", "module-pipe-source", "source_name=vmic", f"file={fifo}",
             "format=s16le", f"rate={RATE}", "channels=1"],
            ["pactl", "set-default-source", "vmic"],
        ):  # fmt: skip
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=30)
            assert done.returncode == 0, done.stderr
        # This process talks to the private daemon; PortAudio restarts to see its "pulse" device.
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
        monkeypatch.setenv("PULSE_SERVER", f"unix:{runtime / 'pulse' / 'native'}")
        rescan_devices()
        yield fifo
    finally:
        os.kill(pid, signal.SIGTERM)
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)  # waiting for the daemon's exit, not synchronising our own threads
        monkeypatch.undo()
        rescan_devices()


class RealTimeWriter(threading.Thread):
    """Writes audio into the FIFO at real-time pace, then zeros until told to stop."""

    def __init__(self, fifo: Path, audio: np.ndarray) -> None:
        super().__init__(name="fifo-writer", daemon=True)
        self.fifo = fifo
        self.pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        self.done = threading.Event()
        self.finished_audio = threading.Event()

    def run(self) -> None:
        step = int(STEP * RATE) * 2
        zeros = bytes(step)
        start = time.monotonic()
        sent = 0
        with open(self.fifo, "wb", buffering=0) as pipe:
            while not self.done.is_set():
                chunk = self.pcm[sent * step : (sent + 1) * step] or zeros
                if len(chunk) < step:
                    chunk += bytes(step - len(chunk))
                if sent * step >= len(self.pcm):
                    self.finished_audio.set()
                pipe.write(chunk)
                sent += 1
                # Real-time pacing of the fake microphone (the audio clock), not thread synchronisation.
                delay = start + sent * STEP - time.monotonic()
                if delay > 0:
                    time.sleep(delay)


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
    listener: Listener[Transcript] = Listener(capture, SileroVad(), tiny_recognizer.transcribe, deliver)
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
    # The utterance is about as long as what was said plus pre-roll and hangover, not the whole stream.
    assert len(said) / RATE < heard[0].audio.size / RATE < len(said) / RATE + 1.5
    assert capture.dropped == 0


def test_the_player_plays_through_pulse_and_stops_mid_sentence(virtual_mic: Path) -> None:
    from voice_host.audio import Player

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
    finally:
        player.close()
