"""The table screen with its real voice side, through a virtual microphone and a null speaker.

A private PulseAudio daemon (the fixture from test_virtual_mic) gives a microphone fed from a FIFO and
a speaker that plays into nothing. The screen loads whisper, Silero and piper in its worker thread,
reads the opening aloud (each sentence highlighted as it starts), stops on Esc, and hears a spoken
command through the session into the game.
"""

from __future__ import annotations

import asyncio
import queue
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from textual.message import Message

from audio_fixtures.pulse import RATE, PulseDaemon
from engine.game import Game
from engine.replies import PartKind
from tests.conftest_speech import Render, speech_fixture
from tests.test_virtual_mic import STEP
from voice_host.ears.asr import Recognizer
from voice_host.ears.audio import rescan_devices
from voice_host.loop.casefiles import read_case_dir
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.screen.app import LOADING, TableApp
from voice_host.screen.driver import TableDriver
from voice_host.screen.voice import LockedClassifier, SentenceStarted, Understood, VoiceReady, open_table_voice

FROST_FAIR = Path(__file__).parent / "cases" / "frost-fair"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


pytestmark = pytest.mark.skipif(
    shutil.which("pulseaudio") is None or shutil.which("pactl") is None,
    reason="PulseAudio is not installed (Debian: pulseaudio pulseaudio-utils libportaudio2)",
)


@speech_fixture()
def virtual_mic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private PulseAudio daemon (mic: a FIFO; speaker: a null sink) with this process pointed at it."""
    daemon = PulseDaemon(tmp_path_factory.mktemp("pa"))
    try:
        fifo = daemon.start()
        monkeypatch.setenv("HOME", str(daemon.home))
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(daemon.runtime))
        monkeypatch.setenv("PULSE_SERVER", daemon.server)
        rescan_devices()  # PortAudio restarts to see the daemon's "pulse" device
        yield fifo
    finally:
        daemon.stop()
        monkeypatch.undo()
        rescan_devices()


class Microphone(threading.Thread):
    """Feeds the FIFO at real-time pace: silence, and whatever is handed to `say`."""

    def __init__(self, fifo: Path) -> None:
        super().__init__(name="fifo-mic", daemon=True)
        self.fifo = fifo
        self.queue: queue.Queue[bytes] = queue.Queue()
        self.done = threading.Event()

    def say(self, audio: np.ndarray) -> None:
        pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes()
        step = int(STEP * RATE) * 2
        for start in range(0, len(pcm), step):
            self.queue.put(pcm[start : start + step].ljust(step, b"\0"))

    def run(self) -> None:
        step = int(STEP * RATE) * 2
        start = time.monotonic()
        sent = 0
        with open(self.fifo, "wb", buffering=0) as pipe:
            while not self.done.is_set():
                try:
                    chunk = self.queue.get_nowait()
                except queue.Empty:
                    chunk = bytes(step)
                pipe.write(chunk)
                sent += 1
                # Real-time pacing of the fake microphone (the audio clock), not thread synchronisation.
                delay = start + sent * STEP - time.monotonic()
                if delay > 0:
                    time.sleep(delay)


class WatchedApp(TableApp):
    """The table screen, with events the test can await as the voice side reports."""

    def __init__(self, driver: TableDriver, load_voice: Callable[[Callable[[Message], object]], None]) -> None:
        super().__init__(driver, mic=LOADING, load_voice=load_voice)
        self.ready = asyncio.Event()
        self.sentence = asyncio.Event()
        self.understood = asyncio.Event()
        self.listening = asyncio.Event()

    def on_voice_ready(self, event: VoiceReady) -> None:
        self.ready.set()

    def on_sentence_started(self, event: SentenceStarted) -> None:
        self.sentence.set()

    def on_understood(self, event: Understood) -> None:
        self.understood.set()

    def show_mic(self, level: MicLevel) -> None:
        super().show_mic(level)
        if level.status is MicStatus.LISTENING:
            self.listening.set()


@pytest.mark.anyio
async def test_the_screen_speaks_highlights_stops_and_hears_through_real_devices(
    virtual_mic: Path,
    render_speech: Render,
    base_recognizer: Recognizer,  # the game's own model: tiny.en sometimes loops on "Read exhibit three."
) -> None:
    microphone = Microphone(virtual_mic)
    microphone.start()  # the pipe source needs a writer before the capture opens, and until it closes
    game = Game(read_case_dir(FROST_FAIR))
    game.start()
    game.handle("Ann, Bob")  # seated already, so the spoken line is a command in round 1
    driver = TableDriver(game)
    classifier = LockedClassifier(game, driver.lock)

    def load(post: Callable[[Message], object]) -> None:
        open_table_voice(game.case, classifier, post, recognizer=base_recognizer, input_device="pulse", output_device="pulse")

    app = WatchedApp(driver, load)
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            await asyncio.wait_for(app.ready.wait(), timeout=120)
            # What was on screen is read aloud, each sentence highlighted as it starts.
            await asyncio.wait_for(app.sentence.wait(), timeout=60)
            assert app.current is not None
            assert any(view.speaking is not None for view in app.current.parts.values())
            # Esc: the Host stops, the highlight goes, the microphone opens again.
            app.listening.clear()
            await pilot.press("escape")
            await asyncio.wait_for(app.listening.wait(), timeout=30)
            assert all(view.speaking is None for view in app.current.parts.values())

            microphone.say(np.concatenate([render_speech("Read exhibit three.", pad=0.3), np.zeros(RATE, np.float32)]))
            await asyncio.wait_for(app.understood.wait(), timeout=60)
            await pilot.pause()
            assert "taken as: command: read E3" in str(app.heard.plain)
            assert app.current is not None
            assert [part.exhibit for part in app.current.reply.parts if part.kind is PartKind.EXHIBIT] == [3]
    finally:
        microphone.done.set()
        microphone.join(timeout=10)
