"""Echo cancellation: the microphone stays open while the Host speaks, and the Host's own voice is taken out.

`FarEnd` is what the speaker played, sample for sample: the `Player` pushes every block it hands the
device (silence included, so the two streams keep step) and the listener takes as many samples as each
microphone block has, converted to 16 kHz. `EchoCanceller` turns a microphone block and its far-end
block into two signals (docs/benchmarks.md "Echo cancellation" and "Barge-in" have the measurements):

- `detect`, for Silero: libspeexdsp's echo canceller with its residual-echo suppressor after it (the
  Debian package libspeexdsp1, through ctypes): it says *when* a player speaks over the Host;
- `words`, for Whisper: speex's linear canceller alone: it leaves the player's voice whole, so Whisper
  hears *what* was said (a suppressor cuts into words spoken over the Host).

The short path's stop words are scored on both (voice_host/ears/short_words.py `ShortViews`): the words
silenced where `detect` was gated shut, then `detect` itself, since each keeps words the other loses.

WebRTC's AEC3 (`WebRtcFrames`, from the `livekit` wheel) cancels more and sooner, but as the detector it
let Silero miss most short stop words said over the Host (bench/barge_in.py): it is kept as an option.

Both adapt all the time (the room does not change when the Host stops), in 10 ms frames; a block comes
out 10 ms after it went in. They are trusted only once they have heard 10 s of the Host (`settled`): at
the night's first words the listener keeps the microphone shut over the Host, as without a canceller.
While nothing has been played for a while the raw microphone is handed on unchanged, so what the table
says to a silent Host is heard exactly as before.

When the echo's delay moves (a sound server under load), `ShadowPath` (voice_host/ears/shadow_path.py), a second
estimate of the echo, finds it within a tenth of a second or so, and the canceller is at once no longer trusted: the
microphone is shut over the Host until speex takes the echo out again, as when `DelayWatch` finds a move, a second or
more later, while speex's residue could pass for a player. (`follow_speex` also moves speex's far end with the echo,
so that trust comes back sooner: not the default, docs/benchmarks.md "The echo's delay found at once".)
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

from voice_host.ears.shadow_path import ShadowPath
from voice_host.ears.sound import SAMPLE_RATE, Audio

log = logging.getLogger(__name__)
#: How every log line of a move of the echo's delay begins (bench/live_turn.py counts them).
DELAY_MOVED = "the echo's delay moved"

FRAME = SAMPLE_RATE // 100  # 10 ms: WebRTC's frame, used for both cancellers
# How much of the room speex's filter covers, from the first sample played: the echo's delay plus its
# reverberation (a 0.3 s filter let a room with RT60 0.75 s through: docs/benchmarks.md "Barge-in").
TAIL_SECONDS = 0.6
MOST_FOLLOWED = SAMPLE_RATE // 10  # the echo come this much later than where speex learnt the room, at most, is followed
GATE_DB = -25.0  # `ResidualGate`: what is left for Silero this far under the last second's loudest is dropped


class EchoUnavailableError(Exception):
    """No echo canceller can run here (a library is missing): the microphone is shut while the Host talks."""


class FarEnd:
    """What the speaker played, handed from the audio thread to the listener.

    `push` (the player's audio thread) only appends; `take` (the listener's thread) converts to 16 kHz and
    returns the samples played over one microphone block, silence where nothing was played.

    The two are matched by time when both devices say when their blocks sound (PortAudio's stream times,
    one clock for both streams: an output block's `outputBufferDacTime`, a microphone block's
    `inputBufferAdcTime`): a sound server resamples and buffers each stream its own way, so counting
    samples lets the offset between them wander (an underrun shifts it by the silence played). The stream
    times jitter by tens of milliseconds (a callback served late), so the far end moves only when the
    median of the last `votes` blocks' offsets says it is behind what sounds by more than `realign_seconds`
    (the echo would come sooner than where the canceller learnt it, which it cannot follow), or ahead by
    more than `ahead_seconds` (an echo come later the canceller follows: speex's far end is delayed with
    the move the shadow finds, up to `MOST_FOLLOWED`). Every move of the far end is a move of the echo's
    delay to the canceller, and the microphone is shut over the Host until it cancels again: live, the
    offsets flipped between about +20 and -20 ms under load, and each flip moved the echo (session 46,
    docs/benchmarks.md "The far end moved back only past 60 ms"). Without times (files, benchmarks) they
    are matched by count, and
    when more than `max_lag_seconds` piles up (the microphone opened late, or stalled) the oldest is
    dropped, so the echo stays within the canceller's reach.
    """

    def __init__(
        self,
        max_lag_seconds: float = 0.12,
        sample_rate: int = SAMPLE_RATE,
        realign_seconds: float = 0.02,
        votes: int = 16,
        ahead_seconds: float = 0.06,
    ) -> None:
        self.sample_rate = sample_rate
        self.max_lag_seconds = max_lag_seconds
        self.realign_seconds = realign_seconds  # behind what sounds by more: moved on at once
        self.ahead_seconds = ahead_seconds  # ahead of what sounds by more: moved back
        self.votes = votes
        self._lock = threading.Lock()
        self._pushed: deque[tuple[Audio, int, float | None]] = deque()
        self._resampler: Any = None
        self._rate = 0
        # The far end as one 16 kHz stream: `_converted[0]` is its sample `_start`; the current rate's
        # input began at stream sample `_origin` and `_fed` of its samples went in since.
        self._converted = np.zeros(0, dtype=np.float32)
        self._start = 0
        self._origin = 0
        self._fed = 0
        self._anchor: tuple[float, float] | None = None  # (stream sample, stream time) of the newest timed block
        self._next: int | None = None  # matching by time: the stream sample the next microphone block starts at
        self._offsets: deque[float] = deque(maxlen=votes)  # where time says recent blocks start minus `_next`
        self.loud_until = 0  # samples taken so far at which the last audible far-end sample was taken
        self.taken = 0  # samples taken so far

    def push(self, audio: Audio, rate: int, sounds_at: float | None = None) -> None:
        """Audio handed to the speaker at `rate` (called from the audio thread: copy, append, return);
        `sounds_at` is the stream time its first sample reaches the speaker, when the device says."""
        with self._lock:
            self._pushed.append((np.array(audio, dtype=np.float32), rate, sounds_at))
            if len(self._pushed) > 256:  # nobody is taking (the microphone is closed): keep only the newest
                self._pushed.popleft()

    def reset(self) -> None:
        """Forget what was played so far (the microphone (re)opens now)."""
        with self._lock:
            self._pushed.clear()
        self._converted = np.zeros(0, dtype=np.float32)
        self._resampler, self._rate = None, 0
        self._start = self._origin = self._fed = 0
        self._anchor, self._next = None, None
        self._offsets.clear()

    def take(self, count: int, heard_at: float | None = None) -> Audio:
        """The `count` samples played over a microphone block, at 16 kHz (the listener's thread only);
        `heard_at` is the stream time the block's first sample was captured, when the device says."""
        with self._lock:
            pushed = list(self._pushed)
            self._pushed.clear()
        self._converted = np.concatenate([self._converted, *(self._convert(*block) for block in pushed)])
        if heard_at is None or self._anchor is None:
            out = self._take_by_count(count)
        else:
            out = self._take_by_time(count, heard_at)
        if float(np.max(np.abs(out), initial=0.0)) > 1e-4:
            self.loud_until = self.taken + count
        self.taken += count
        return out

    def _convert(self, audio: Audio, rate: int, sounds_at: float | None) -> Audio:
        if rate != self._rate:  # (re)started, or a new device rate: its stream starts where we are
            self._rate, self._fed = rate, 0
            self._origin = self._start + len(self._converted)
            same = rate == self.sample_rate
            self._resampler = None if same else soxr.ResampleStream(rate, self.sample_rate, 1, dtype="float32")
        if sounds_at is not None:
            self._anchor = (self._origin + self._fed * self.sample_rate / rate, sounds_at)
        self._fed += len(audio)
        if self._resampler is None:
            return audio
        return np.asarray(self._resampler.resample_chunk(audio), dtype=np.float32)

    def _take_by_count(self, count: int) -> Audio:
        excess = len(self._converted) - count - int(self.max_lag_seconds * self.sample_rate)
        if excess > 0:
            self._drop(excess)
        out = np.zeros(count, dtype=np.float32)
        have = min(count, len(self._converted))
        out[:have] = self._converted[:have]
        self._drop(have)
        return out

    def _take_by_time(self, count: int, heard_at: float) -> Audio:
        assert self._anchor is not None
        at, sounded_at = self._anchor
        wanted = at + (heard_at - sounded_at) * self.sample_rate  # the stream sample sounding at `heard_at`
        if self._next is None:
            self._next = round(wanted)
        self._offsets.append(wanted - self._next)
        if len(self._offsets) == self.votes:
            offset = float(np.median(self._offsets))  # > 0: what is handed on sounded that long ago (behind)
            if offset > self.realign_seconds * self.sample_rate or -offset > self.ahead_seconds * self.sample_rate:
                log.debug(
                    "the far end moved %+.0f ms to where the stream times say (microphone at %.3f, far end anchored at %.3f)",
                    1000 * offset / self.sample_rate,
                    heard_at,
                    sounded_at,
                )
                self._next += round(offset)
                self._offsets.clear()
        out = np.zeros(count, dtype=np.float32)
        first = self._next - self._start
        lo, hi = max(0, first), min(len(self._converted), first + count)
        if hi > lo:
            out[lo - first : hi - first] = self._converted[lo:hi]
        self._next += count
        # Keep what was played before the next block for a while, in case the offset steps back.
        self._drop(min(len(self._converted), self._next - self._start - self.sample_rate))
        return out

    def _drop(self, count: int) -> None:
        if count > 0:
            self._converted = self._converted[count:]
            self._start += count

    @property
    def matched_by_time(self) -> bool:
        """The last blocks were matched to the microphone by the devices' stream times (not by count)."""
        return self._next is not None

    def quiet_seconds(self) -> float:
        """How long the far end has been silent, as of the last sample taken."""
        return (self.taken - self.loud_until) / self.sample_rate


def echo_coherence(heard: Audio, played: Audio, frame: int = 256, band_hz: tuple[float, float] = (200.0, 4000.0)) -> float:
    """How much of `heard` (the canceller's linear output over some words) is the Host's own voice: the
    magnitude-squared coherence of `heard` and the far end at their best lag, averaged over the speech band.
    `played` is the far end over the same samples and `len(played) - len(heard)` samples before them (the
    echo's delay is searched within that). A player's voice has none of the far end in it (near 0, plus what
    little echo the canceller left); the Host's voice the canceller failed to take out (the echo's delay
    moved) is the far end through a filter (near 1). 0 when either is too short or the far end is silent."""
    extra = len(played) - len(heard)
    if extra < 0 or len(heard) < 2 * frame:
        return 0.0
    heard64, played64 = np.asarray(heard, dtype=np.float64), np.asarray(played, dtype=np.float64)
    # The lag: GCC-PHAT's peak, `heard[n]` against `played[n + lag]`.
    size = 1 << (len(played) + len(heard)).bit_length()
    spectrum = np.fft.rfft(played64, size) * np.conj(np.fft.rfft(heard64, size))
    spectrum /= np.abs(spectrum) + 1e-12
    lag = int(np.argmax(np.fft.irfft(spectrum, size)[: extra + 1]))
    aligned = played64[lag : lag + len(heard)]
    # Welch's coherence: half-overlapping Hann frames, cross- and auto-spectra summed over them.
    hop = frame // 2
    starts = range(0, len(heard) - frame + 1, hop)
    window = np.hanning(frame)
    near = np.fft.rfft(np.stack([heard64[at : at + frame] for at in starts]) * window, axis=1)
    far = np.fft.rfft(np.stack([aligned[at : at + frame] for at in starts]) * window, axis=1)
    cross = np.abs(np.sum(near * np.conj(far), axis=0)) ** 2
    power = np.sum(np.abs(near) ** 2, axis=0) * np.sum(np.abs(far) ** 2, axis=0)
    hz = np.fft.rfftfreq(frame, 1 / SAMPLE_RATE)
    band = (hz >= band_hz[0]) & (hz <= band_hz[1])
    if float(np.sum(np.abs(far[:, band]) ** 2)) < 1e-9 * frame * len(starts):
        return 0.0  # the Host was silent: nothing of it can be in the words
    return float(np.mean(cross[band] / (power[band] + 1e-20)))


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

    def __init__(self, tail_seconds: float = TAIL_SECONDS, suppress: bool = False) -> None:
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
        self.linear = np.zeros(FRAME, dtype=np.float32)  # the last frame's linear output (before the suppressor)
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
        self.linear = from_pcm16(self._out)
        if self._pre is None:
            return self.linear
        self._lib.speex_preprocess_run(self._pre, self._out.ctypes.data)
        return from_pcm16(self._out)

    def linear_output(self) -> FrameCanceller:
        """The linear output of the frame this canceller (with its suppressor) has just processed, as a
        canceller of its own: one filter gives both signals (a second one would cost as much again)."""
        return _LinearOf(self)

    def __del__(self) -> None:
        state, self._state = getattr(self, "_state", None), None
        if state:
            self._lib.speex_echo_state_destroy(state)


class _LinearOf:
    """The linear output of a `SpeexFrames` that has just processed the same frame (`linear_output`)."""

    def __init__(self, speex: SpeexFrames) -> None:
        self._speex = speex

    def process(self, mic: Audio, far: Audio) -> Audio:
        return self._speex.linear


@dataclass(frozen=True)
class Cancelled:
    """One microphone block with the Host taken out: `detect` for Silero, `words` for Whisper."""

    detect: Audio
    words: Audio
    far_active: bool  # the Host was (or had just been) sounding: the block was cancelled, not passed on
    heard: Audio  # the microphone itself, as late as the other two (the Host's voice left in)


class ResidualGate:
    """What Silero hears over the Host is passed only when it is not far below how loud the microphone
    has been this last second (the Host's echo, or a player): a player speaks 6 dB either side of the
    echo, what the canceller leaves of the echo is 30 dB and more below it. Silero finds speech in any
    speech-like sound however quiet, so a faint residue of the Host's voice would otherwise be a player.
    Once open it stays open `hold_seconds`, so a player's quieter syllables are not cut out."""

    def __init__(self, floor_db: float = GATE_DB, window_seconds: float = 1.0, hold_seconds: float = 0.2) -> None:
        self.floor = 10 ** (floor_db / 10)
        self._levels = np.zeros(max(1, round(window_seconds * SAMPLE_RATE / FRAME)))  # frame powers, a ring
        self._at = 0
        self.hold_frames = max(1, round(hold_seconds * SAMPLE_RATE / FRAME))
        self._held = 0

    def passes(self, mic: Audio, cancelled: Audio) -> bool:
        """One 10 ms frame: the microphone, and what the canceller left of it for Silero."""
        self._levels[self._at] = float(np.mean(np.square(mic, dtype=np.float64)))
        self._at = (self._at + 1) % len(self._levels)
        if float(np.mean(np.square(cancelled, dtype=np.float64))) >= self.floor * float(self._levels.max()):
            self._held = self.hold_frames
        passed = self._held > 0
        self._held = max(0, self._held - 1)
        return passed


class DelayWatch:
    """Says when the echo's delay has moved: the lag between the far end and the microphone, found every
    `every_seconds` by the peak of their phase-weighted cross-correlation (GCC-PHAT) over the last second.
    Through a sound server under load the Host's stream underruns and the echo shifts by tens of
    milliseconds; the canceller's filter is then wrong until it has learnt the room again. The lag is
    found to the sample where the Host sounds (a player talking over it does not move the peak)."""

    def __init__(
        self, window_seconds: float = 1.0, max_lag_seconds: float = 0.5, every_seconds: float = 0.25, moved_seconds: float = 0.002
    ) -> None:
        self.window = round(window_seconds * SAMPLE_RATE)
        self.max_lag = round(max_lag_seconds * SAMPLE_RATE)
        self.every = round(every_seconds * SAMPLE_RATE)
        self.moved = round(moved_seconds * SAMPLE_RATE)
        self._size = 1 << (self.window + self.max_lag).bit_length()
        self._mic: list[Audio] = [np.zeros(self.window, dtype=np.float32)]
        self._far: list[Audio] = [np.zeros(self.window + self.max_lag, dtype=np.float32)]
        self._since = 0
        self.lag: int | None = None  # samples the microphone hears the far end late, once found twice alike
        self.found = 0  # how many times the lag has been found so far
        self._candidate: int | None = None

    def add(self, mic: Audio, far: Audio) -> bool:
        """One frame of each; True when the lag has just moved (not when it is first found)."""
        self._mic.append(mic)
        self._far.append(far)
        self._since += len(mic)
        if self._since < self.every:
            return False
        self._since = 0
        heard = np.concatenate(self._mic)[-self.window :]
        played = np.concatenate(self._far)[-(self.window + self.max_lag) :]
        self._mic, self._far = [heard], [played]
        heard, played = heard - np.mean(heard), played - np.mean(played)  # a constant says nothing of a delay
        if float(np.sqrt(np.mean(np.square(played[-self.window :], dtype=np.float64)))) < 1e-3:
            return False  # the Host is (nearly) silent: nothing to find
        spectrum = np.conj(np.fft.rfft(heard, self._size)) * np.fft.rfft(played, self._size)
        spectrum /= np.abs(spectrum) + 1e-12
        correlation = np.fft.irfft(spectrum, self._size)[: self.max_lag + 1]
        peak = int(np.argmax(correlation))
        edge = peak <= 2 or peak >= self.max_lag - 2  # where a step or a constant puts it, not an echo
        if edge or correlation[peak] < 20 * float(np.mean(np.abs(correlation))):
            self._candidate = None  # no clear peak
            return False
        lag = self.max_lag - peak
        agreed = self._candidate is not None and abs(lag - self._candidate) <= self.moved
        self._candidate = lag
        if not agreed:
            return False
        moved = self.lag is not None and abs(lag - self.lag) > self.moved
        self.lag = lag
        self.found += 1
        return moved


class EchoCanceller:
    """Microphone blocks of any length in, the same blocks with the echo taken out (10 ms later)."""

    def __init__(
        self,
        detector: FrameCanceller | None = None,
        keeper: FrameCanceller | None = None,
        passthrough_after_seconds: float = 1.0,
        settle_seconds: float = 10.0,
        gate_db: float | None = GATE_DB,
        trusted_erle_db: float | None = 10.0,
        follow_moves: bool = True,
        trust_again_seconds: float = 1.0,
        follow_speex: bool = True,
        restart_erle_after_move: bool = True,
    ) -> None:
        """`gate_db`: the `ResidualGate`'s floor in front of Silero (None: no gate). `follow_moves`: a second estimate
        of the echo (`ShadowPath`) finds a move of its delay at once and shuts the microphone over the Host (False: only
        `DelayWatch` finds moves, about a second later). `trust_again_seconds`: after a move, the microphone is shut
        until this much of the Host has been cancelled again (the median taking out `trusted_erle_db`). `follow_speex`:
        speex's far end moves with a move the shadow found (an echo come later), so that its filter fits again without
        learning the room anew: trust comes back in about a second, not 5-17 s. `restart_erle_after_move`: when trust
        comes back after a move, the 10-s median of what it takes out starts again from the Host heard since the move
        (else the seconds just after the move hold it under `trusted_erle_db` for up to 10 s more). Both off: the
        microphone was shut over the Host for about 60% of a night with four moves a minute (session 39)."""
        if detector is None and keeper is None:  # one speex filter gives both signals
            speex = SpeexFrames(TAIL_SECONDS, suppress=True)
            detector, keeper = speex, speex.linear_output()
        self.detector = detector if detector is not None else SpeexFrames(TAIL_SECONDS, suppress=True)
        self.keeper = keeper if keeper is not None else SpeexFrames(TAIL_SECONDS)
        self.gate = ResidualGate(gate_db) if gate_db is not None else None  # in front of Silero, over the Host
        self.passthrough_after_seconds = passthrough_after_seconds  # the far end quiet this long: raw microphone
        # Until the cancellers have heard this much of the Host they have not found the room (and the two
        # devices' streams are still settling): the listener keeps the microphone shut over the Host.
        self.settle_seconds = settle_seconds
        self.far_seconds = 0.0  # seconds of the Host's voice heard so far
        # Trusted only while it works: the median, over the last 10 s of the Host sounding, of how much of
        # each frame it took out (a player talking over the Host for a few seconds does not move a median).
        # A far end that is not what reached the microphone (a sound server that dropped or shifted what was
        # played, under load) cancels nothing: then the microphone is shut over the Host, as without one.
        # (None: trusted once settled, whatever it takes out.)
        self.trusted_erle_db = trusted_erle_db
        self._erle: deque[float] = deque(maxlen=10 * SAMPLE_RATE // FRAME)
        # When the echo's delay moves the filter is wrong at once, long before a 10 s median shows it: it
        # is not trusted again until it takes the echo out again (the median over the last `trust_again_seconds` of the
        # Host since the move).
        self.delay_watch = DelayWatch()
        self._since_move: deque[float] | None = None
        self._trust_again_frames = max(1, round(trust_again_seconds * SAMPLE_RATE / FRAME))
        self.follow_speex = follow_speex
        self.restart_erle_after_move = restart_erle_after_move
        self.shadow = ShadowPath() if follow_moves else None
        self._shadow_shifted = 0
        self._shadow_shift_at_lag = 0  # the shadow's `shifted` when `DelayWatch` last found the lag (moved or not)
        # The far end speex hears is delayed by as much as the echo came later than where it learnt the room
        # (`_speex_learnt_at`, in the shadow's `shifted`), so its filter fits again at once. An echo come sooner than
        # that it must learn again.
        self._speex_delay = 0
        self._speex_learnt_at = 0
        self._far_line = np.zeros(MOST_FOLLOWED, dtype=np.float32)  # the far end just played, for the delay
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
        if self.shadow is not None and whole:
            self.shadow.process(self._mic[:whole], self._far[:whole])
            self._follow_shadow()
        for at in range(0, whole, FRAME):
            near, played = self._mic[at : at + FRAME], self._far[at : at + FRAME]
            self._raw.append(near)
            speex_far = self._delayed(played) if self.follow_speex else played
            detect = self.detector.process(near, speex_far)
            if self.gate is not None and not self.gate.passes(near, detect):
                detect = np.zeros(FRAME, dtype=np.float32)
            self._detect.append(detect)
            words = self.keeper.process(near, speex_far)
            self._words.append(words)
            self._follow_erle(near, played, words)
            lag_before, found_before = self.delay_watch.lag, self.delay_watch.found
            if self.delay_watch.add(near, played):
                # speex left alone, the move is learnt again from here, as ever: the shadow only shut the microphone sooner
                if self.follow_speex and self._shadow_followed(lag_before):
                    log.info("%s (now %d samples): followed already", DELAY_MOVED, self.delay_watch.lag)
                else:
                    log.info("%s (now %d samples): learning the room again", DELAY_MOVED, self.delay_watch.lag)
                    self._since_move = deque(maxlen=self._trust_again_frames)
            if self.delay_watch.found != found_before and self.shadow is not None:
                self._shadow_shift_at_lag = self.shadow.shifted
        self._mic, self._far = self._mic[whole:], self._far[whole:]
        raw, detect, words = (self._take(queue, len(mic)) for queue in (self._raw, self._detect, self._words))
        if len(far) and float(np.max(np.abs(far))) > 1e-4:
            self.far_seconds += len(far) / SAMPLE_RATE
        if far_quiet_seconds >= self.passthrough_after_seconds:
            return Cancelled(raw, raw, far_active=False, heard=raw)
        return Cancelled(detect, words, far_active=True, heard=raw)

    def _follow_shadow(self) -> None:
        """A move the shadow found: not trusted until speex cancels again (with `follow_speex`, its far end moved with
        the echo)."""
        assert self.shadow is not None
        if self.shadow.shifted != self._shadow_shifted:
            self._shadow_shifted = self.shadow.shifted
            log.info("%s %.2f s ago: followed", DELAY_MOVED, self.shadow.moved_samples_ago / SAMPLE_RATE)
            self._since_move = deque(maxlen=self._trust_again_frames)
        if not self.follow_speex:
            return
        later = self.shadow.shifted - self._speex_learnt_at
        if later < 0 or later > MOST_FOLLOWED:
            self._speex_learnt_at, later = self.shadow.shifted, 0  # it learns the room here again
        self._speex_delay = later

    def _delayed(self, played: Audio) -> Audio:
        """`played` as speex hears it: `_speex_delay` samples later."""
        line = np.concatenate([self._far_line, played])
        self._far_line = line[len(played) :]
        end = len(line) - self._speex_delay
        return line[end - len(played) : end]

    def _shadow_followed(self, lag_before: int | None) -> bool:
        """Whether the shadow has already followed the move `DelayWatch` has just found: it moved its estimate by as
        much (within 2 ms) since the lag was last found."""
        shadow, lag = self.shadow, self.delay_watch.lag
        if shadow is None or lag is None or lag_before is None:
            return False
        return abs((lag - lag_before) - (shadow.shifted - self._shadow_shift_at_lag)) <= SAMPLE_RATE // 500

    def _follow_erle(self, mic: Audio, far: Audio, words: Audio) -> None:
        if float(np.max(np.abs(far))) <= 1e-4:
            return
        heard = float(np.mean(np.square(mic, dtype=np.float64)))
        if heard > 1e-10:
            left = float(np.mean(np.square(words, dtype=np.float64)))
            erle = 10 * np.log10(heard / max(left, 1e-12))
            self._erle.append(erle)
            if self._since_move is not None:
                self._since_move.append(erle)
                full = len(self._since_move) == self._since_move.maxlen
                if full and self.trusted_erle_db is not None and np.median(self._since_move) >= self.trusted_erle_db:
                    if self.restart_erle_after_move:  # what it took out before the move says nothing of it now
                        self._erle.clear()
                        self._erle.extend(self._since_move)
                    self._since_move = None  # it takes the echo out again

    @property
    def erle_db(self) -> float:
        """How much of the Host's echo it takes out these days (median over the last 10 s of the Host, dB)."""
        return float(np.median(self._erle)) if self._erle else 0.0

    @property
    def erle_measured(self) -> bool:
        """`erle_db` says something: it has heard a second of the Host at least."""
        return len(self._erle) >= SAMPLE_RATE // FRAME

    @property
    def settled(self) -> bool:
        """The cancellers have heard enough of the Host, and take enough of it out, to be trusted with the
        microphone over it."""
        if self.far_seconds < self.settle_seconds:
            return False
        if self.trusted_erle_db is None:
            return True
        if self._since_move is not None:  # the delay moved: not until `trust_again_seconds` of the Host are cancelled
            return False
        return not self.erle_measured or self.erle_db >= self.trusted_erle_db  # no evidence yet: trusted

    @staticmethod
    def _take(queue: list[Audio], count: int) -> Audio:
        joined = np.concatenate(queue)
        queue.clear()
        queue.append(joined[count:])
        return joined[:count]
