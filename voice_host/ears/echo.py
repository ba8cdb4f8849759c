"""Echo cancellation: the microphone stays open while the Host speaks, and the Host's own voice is taken out.

`FarEnd` is what the speaker played, sample for sample: the `Player` pushes every block it hands the
device (silence included, so the two streams keep step) and the listener takes as many samples as each
microphone block has, converted to 16 kHz. `EchoCanceller` turns a microphone block and its far-end
block into two signals (docs/benchmarks.md "Echo cancellation" and "Barge-in" have the measurements):

- `detect`, for Silero: libspeexdsp's echo canceller with its residual-echo suppressor after it (the
  Debian package libspeexdsp1, through ctypes): it says *when* a player speaks over the Host;
- `words`, for Whisper: speex's linear canceller alone: it leaves the player's voice whole, so Whisper
  hears *what* was said (a suppressor cuts into words spoken over the Host).

WebRTC's AEC3 (`WebRtcFrames`, from the `livekit` wheel) cancels more and sooner, but as the detector it
let Silero miss most short stop words said over the Host (bench/barge_in.py): it is kept as an option.

Both adapt all the time (the room does not change when the Host stops), in 10 ms frames; a block comes
out 10 ms after it went in. They are trusted only once they have heard 10 s of the Host (`settled`): at
the night's first words the listener keeps the microphone shut over the Host, as without a canceller.
While nothing has been played for a while the raw microphone is handed on unchanged, so what the table
says to a silent Host is heard exactly as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import threading
from collections import deque
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import soxr

from voice_host.ears.sound import SAMPLE_RATE, Audio

log = logging.getLogger(__name__)

FRAME = SAMPLE_RATE // 100  # 10 ms: WebRTC's frame, used for both cancellers


class EchoUnavailableError(Exception):
    """No echo canceller can run here (a library is missing): the microphone is shut while the Host talks."""


class FarEnd:
    """What the speaker played, handed from the audio thread to the listener.

    `push` (the player's audio thread) only appends; `take` (the listener's thread) converts to 16 kHz and
    returns exactly the samples asked for, silence when the player has pushed nothing yet. The two
    devices run on their own clocks: when more than `max_lag_seconds` piles up (the microphone opened
    late, or stalled) the oldest is dropped, so the echo stays within the cancellers' reach.
    """

    def __init__(self, max_lag_seconds: float = 0.12, sample_rate: int = SAMPLE_RATE) -> None:
        self.sample_rate = sample_rate
        self.max_lag_seconds = max_lag_seconds
        self._lock = threading.Lock()
        self._pushed: deque[tuple[Audio, int]] = deque()
        self._converted = np.zeros(0, dtype=np.float32)
        self._resampler: Any = None
        self._rate = 0
        self.loud_until = 0  # samples taken so far at which the last audible far-end sample was taken
        self.taken = 0  # samples taken so far

    def push(self, audio: Audio, rate: int) -> None:
        """Audio handed to the speaker at `rate` (called from the audio thread: copy, append, return)."""
        with self._lock:
            self._pushed.append((np.array(audio, dtype=np.float32), rate))
            if len(self._pushed) > 256:  # nobody is taking (the microphone is closed): keep only the newest
                self._pushed.popleft()

    def reset(self) -> None:
        """Forget what was played so far (the microphone (re)opens now)."""
        with self._lock:
            self._pushed.clear()
        self._converted = np.zeros(0, dtype=np.float32)

    def take(self, count: int) -> Audio:
        """The next `count` samples played, at 16 kHz (the listener's thread only)."""
        with self._lock:
            pushed = list(self._pushed)
            self._pushed.clear()
        pieces = [self._converted]
        for audio, rate in pushed:
            if rate == self.sample_rate:
                pieces.append(audio)
                continue
            if self._resampler is None or rate != self._rate:
                self._resampler = soxr.ResampleStream(rate, self.sample_rate, 1, dtype="float32")
                self._rate = rate
            pieces.append(np.asarray(self._resampler.resample_chunk(audio), dtype=np.float32))
        converted = np.concatenate(pieces)
        excess = len(converted) - count - int(self.max_lag_seconds * self.sample_rate)
        if excess > 0:
            converted = converted[excess:]
        out = np.zeros(count, dtype=np.float32)
        have = min(count, len(converted))
        out[:have] = converted[:have]
        self._converted = converted[have:]
        if have and float(np.max(np.abs(out[:have]))) > 1e-4:
            self.loud_until = self.taken + have
        self.taken += count
        return out

    def quiet_seconds(self) -> float:
        """How long the far end has been silent, as of the last sample taken."""
        return (self.taken - self.loud_until) / self.sample_rate


class FrameCanceller(Protocol):
    """One 10 ms frame of microphone and of the far end at the same moment in, the microphone with the
    echo taken out back."""

    def process(self, mic: Audio, far: Audio) -> Audio: ...


def to_pcm16(audio: Audio) -> np.ndarray:
    """Float samples as the 16-bit PCM both cancellers take."""
    return np.asarray(np.clip(audio, -1.0, 1.0) * 32767, dtype=np.int16)


def from_pcm16(pcm: np.ndarray) -> Audio:
    """16-bit PCM back to float samples."""
    return (pcm.astype(np.float32) / 32768.0).astype(np.float32)


class WebRtcFrames:
    """WebRTC's audio processing module with echo cancellation (AEC3), as the `livekit` wheel ships it."""

    def __init__(self) -> None:
        try:
            from livekit import rtc
        except ImportError as error:  # pragma: no cover - a dependency of the app
            raise EchoUnavailableError(f"WebRTC's echo canceller is missing ({error}): pip install livekit") from None
        self._rtc = rtc
        self._apm = rtc.AudioProcessingModule(echo_cancellation=True)

    def process(self, mic: Audio, far: Audio) -> Audio:
        reverse = self._rtc.AudioFrame(to_pcm16(far).tobytes(), SAMPLE_RATE, 1, FRAME)
        self._apm.process_reverse_stream(reverse)
        near = self._rtc.AudioFrame(to_pcm16(mic).tobytes(), SAMPLE_RATE, 1, FRAME)
        self._apm.process_stream(near)
        return from_pcm16(np.frombuffer(near.data, dtype=np.int16).copy())


class SpeexFrames:
    """libspeexdsp's echo canceller (the Debian package libspeexdsp1), through ctypes: linear only, or
    with its preprocessor's residual-echo suppressor after it (`suppress`)."""

    ECHO_SET_SAMPLING_RATE = 24
    PREPROCESS_SET_ECHO_STATE = 24

    def __init__(self, tail_seconds: float = 0.3, suppress: bool = False) -> None:
        name = ctypes.util.find_library("speexdsp") or "libspeexdsp.so.1"
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            raise EchoUnavailableError("libspeexdsp is missing: apt-get install libspeexdsp1") from None
        lib.speex_echo_state_init.restype = ctypes.c_void_p
        lib.speex_echo_state_init.argtypes = [ctypes.c_int, ctypes.c_int]
        lib.speex_echo_cancellation.restype = None
        lib.speex_echo_cancellation.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lib.speex_echo_ctl.restype = ctypes.c_int
        lib.speex_echo_ctl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
        lib.speex_echo_state_destroy.restype = None
        lib.speex_echo_state_destroy.argtypes = [ctypes.c_void_p]
        self._lib = lib
        self._state = lib.speex_echo_state_init(FRAME, int(tail_seconds * SAMPLE_RATE))
        rate = ctypes.c_int(SAMPLE_RATE)
        lib.speex_echo_ctl(self._state, self.ECHO_SET_SAMPLING_RATE, ctypes.byref(rate))
        self._out = np.zeros(FRAME, dtype=np.int16)
        self._pre: int | None = None
        if suppress:
            lib.speex_preprocess_state_init.restype = ctypes.c_void_p
            lib.speex_preprocess_state_init.argtypes = [ctypes.c_int, ctypes.c_int]
            lib.speex_preprocess_ctl.restype = ctypes.c_int
            lib.speex_preprocess_ctl.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
            lib.speex_preprocess_run.restype = ctypes.c_int
            lib.speex_preprocess_run.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            self._pre = lib.speex_preprocess_state_init(FRAME, SAMPLE_RATE)
            lib.speex_preprocess_ctl(self._pre, self.PREPROCESS_SET_ECHO_STATE, ctypes.c_void_p(self._state))

    def process(self, mic: Audio, far: Audio) -> Audio:
        near, ref = to_pcm16(mic), to_pcm16(far)
        self._lib.speex_echo_cancellation(self._state, near.ctypes.data, ref.ctypes.data, self._out.ctypes.data)
        if self._pre is not None:
            self._lib.speex_preprocess_run(self._pre, self._out.ctypes.data)
        return from_pcm16(self._out)

    def __del__(self) -> None:
        state, self._state = getattr(self, "_state", None), None
        if state:
            self._lib.speex_echo_state_destroy(state)


@dataclass(frozen=True)
class Cancelled:
    """One microphone block with the Host taken out: `detect` for Silero, `words` for Whisper."""

    detect: Audio
    words: Audio
    far_active: bool  # the Host was (or had just been) sounding: the block was cancelled, not passed on


class EchoCanceller:
    """Microphone blocks of any length in, the same blocks with the echo taken out (10 ms later)."""

    def __init__(
        self,
        detector: FrameCanceller | None = None,
        keeper: FrameCanceller | None = None,
        passthrough_after_seconds: float = 1.0,
        settle_seconds: float = 10.0,
    ) -> None:
        self.detector = detector if detector is not None else SpeexFrames(suppress=True)
        self.keeper = keeper if keeper is not None else SpeexFrames()
        self.passthrough_after_seconds = passthrough_after_seconds  # the far end quiet this long: raw microphone
        # Until the cancellers have heard this much of the Host they have not found the room (and the two
        # devices' streams are still settling): the listener keeps the microphone shut over the Host.
        self.settle_seconds = settle_seconds
        self.far_seconds = 0.0  # seconds of the Host's voice heard so far
        self._mic = np.zeros(0, dtype=np.float32)
        self._far = np.zeros(0, dtype=np.float32)
        self._raw: list[Audio] = [np.zeros(FRAME, dtype=np.float32)]  # the 10 ms the output lags behind
        self._detect: list[Audio] = [np.zeros(FRAME, dtype=np.float32)]
        self._words: list[Audio] = [np.zeros(FRAME, dtype=np.float32)]

    def process(self, mic: Audio, far: Audio, far_quiet_seconds: float = 0.0) -> Cancelled:
        """`far` is what was played over the same samples as `mic`; `far_quiet_seconds` how long it has
        been silent (from `FarEnd.quiet_seconds`)."""
        self._mic = np.concatenate([self._mic, mic.astype(np.float32, copy=False)])
        self._far = np.concatenate([self._far, far.astype(np.float32, copy=False)])
        whole = len(self._mic) // FRAME * FRAME
        for at in range(0, whole, FRAME):
            near, played = self._mic[at : at + FRAME], self._far[at : at + FRAME]
            self._raw.append(near)
            self._detect.append(self.detector.process(near, played))
            self._words.append(self.keeper.process(near, played))
        self._mic, self._far = self._mic[whole:], self._far[whole:]
        raw, detect, words = (self._take(queue, len(mic)) for queue in (self._raw, self._detect, self._words))
        if len(far) and float(np.max(np.abs(far))) > 1e-4:
            self.far_seconds += len(far) / SAMPLE_RATE
        if far_quiet_seconds >= self.passthrough_after_seconds:
            return Cancelled(raw, raw, far_active=False)
        return Cancelled(detect, words, far_active=True)

    @property
    def settled(self) -> bool:
        """The cancellers have heard enough of the Host to be trusted with the microphone over it."""
        return self.far_seconds >= self.settle_seconds

    @staticmethod
    def _take(queue: list[Audio], count: int) -> Audio:
        joined = np.concatenate(queue)
        queue.clear()
        queue.append(joined[count:])
        return joined[:count]
