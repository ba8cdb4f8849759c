"""Devices: the microphone (capture into a queue) and the speaker (interruptible playback).

Capture runs in PortAudio's own callback thread and only copies blocks into a queue, so nothing here
ever blocks the screen. Playback is a persistent output stream fed from a buffer: `stop()` empties the
buffer and the Host falls silent at the next block, mid-sentence.

Faults are plain sentences for the table: `NoMicrophoneError` / `NoSpeakerError` (play by typing
instead), `DeviceLostError` (the listener pauses and retries; the game keeps its state).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import logging
import os
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import soxr

from voice_host.ears.echo import FarEnd
from voice_host.ears.sound import BLOCK_SAMPLES, PLAYBACK_RATE, SAMPLE_RATE, SPEAKER_BLOCK_SAMPLES, Audio

log = logging.getLogger(__name__)


class AudioUnavailableError(Exception):
    """Sound cannot be used; the message is a plain sentence to show the table."""


class NoMicrophoneError(AudioUnavailableError):
    pass


class NoSpeakerError(AudioUnavailableError):
    pass


class DeviceLostError(AudioUnavailableError):
    pass


NO_MICROPHONE = "No microphone found: type your questions instead."
NO_SPEAKER = "No speaker found: the Host's words stay on the screen."
NO_PORTAUDIO = "The sound system (PortAudio) is not installed: play by typing instead."
MICROPHONE_LOST = "The microphone was lost: waiting for it to come back. Typing still works."
SPEAKER_LOST = "The speaker was lost: the Host's words stay on the screen. Typing still works."


def sounddevice_module() -> ModuleType:
    """sounddevice, or AudioUnavailableError when the PortAudio library is missing."""
    try:
        import sounddevice
    except OSError:  # sounddevice raises OSError when libportaudio cannot be found
        raise AudioUnavailableError(NO_PORTAUDIO) from None
    module: ModuleType = sounddevice
    return module


_open_streams: set[int] = set()  # ids of our open streams: a rescan would break them
_streams_lock = threading.Lock()
_abandoned: list[Any] = []  # streams whose close never returned (their device died); kept from the GC


def _opened(owner: object) -> None:
    with _streams_lock:
        _open_streams.add(id(owner))


def _closed(owner: object) -> None:
    with _streams_lock:
        _open_streams.discard(id(owner))


def rescan_devices() -> bool:
    """PortAudio lists devices only when it starts: restart it so a re-plugged device is seen.

    Skipped (False) while any of our streams is open, since a restart would break it, or after a stream
    was abandoned on a dead device.
    """
    with _streams_lock:
        if _open_streams or _abandoned:  # an abandoned stream would block PortAudio's shutdown for ever
            return False
        sd = sounddevice_module()
        sd._terminate()
        sd._initialize()
        return True


def _close_stream(stream: Any, timeout: float = 1.0) -> None:
    """Abort and close a stream, giving up after `timeout`: on a dead device (a PulseAudio server gone)
    PortAudio's abort can block for ever, and the loop must go on to look for the device again."""

    def close() -> None:
        try:
            stream.abort()
            stream.close()
        except Exception:  # a lost device may fail to close; it is gone either way
            log.debug("a lost stream did not close cleanly", exc_info=True)

    closer = threading.Thread(target=close, name="close-stream", daemon=True)
    closer.start()
    closer.join(timeout)
    if closer.is_alive():
        log.warning("a stream on a dead device would not close in %.1f s; it is abandoned", timeout)
        with _streams_lock:
            _abandoned.append(stream)
        # sounddevice shuts PortAudio down at exit, which would wait on this stream for ever too.
        atexit.unregister(sounddevice_module()._exit_handler)


def _usable_rate(kind: str, device: int | str | None, wanted: int) -> int | None:
    """The rate to open a device at: `wanted` if it takes it, else its own default rate (we convert).

    Through PulseAudio or PipeWire any rate works; a laptop's microphone or speaker opened directly
    (ALSA hw, some USB devices) often takes only 44.1 or 48 kHz. None: the device takes neither.
    """
    sd = sounddevice_module()
    check = sd.check_input_settings if kind == "input" else sd.check_output_settings
    try:
        check(device=device, channels=1, dtype="float32", samplerate=wanted)
        return wanted
    except (sd.PortAudioError, ValueError):
        pass
    try:
        own = int(round(float(sd.query_devices(device, kind)["default_samplerate"])))
        check(device=device, channels=1, dtype="float32", samplerate=own)
        return own
    except (sd.PortAudioError, ValueError, KeyError, TypeError):
        return None


def check_microphone(device: int | str | None = None, sample_rate: int = SAMPLE_RATE) -> int:
    """The rate to open the microphone at (`sample_rate`, or its own); NoMicrophoneError if none works."""
    rate = _usable_rate("input", device, sample_rate)
    if rate is None:
        raise NoMicrophoneError(NO_MICROPHONE)
    return rate


def check_speaker(device: int | str | None = None, sample_rate: int = PLAYBACK_RATE) -> int:
    """The rate to open the speaker at (`sample_rate`, or its own); NoSpeakerError if none works."""
    rate = _usable_rate("output", device, sample_rate)
    if rate is None:
        raise NoSpeakerError(NO_SPEAKER)
    return rate


def stream_time(time_info: Any, name: str) -> float | None:
    """One of a PortAudio callback's stream times (`inputBufferAdcTime`, `outputBufferDacTime`), or a stream's
    own clock (`time`), or None when it is not known (a host API that leaves it at 0)."""
    return float(getattr(time_info, name, 0.0)) or None


@dataclass
class DeviceClock:
    """When the speaker's blocks sound, from PortAudio's stream times, checked.

    A block's device time (`outputBufferDacTime`) is the stream's current time plus what the sound server
    holds. Through PulseAudio's ALSA plugin the microphone's held amount came back as garbage in about one
    live run in four (`CaptureClock`); the speaker's never has, but a device time more than `most_apart`
    seconds from the current time would be such garbage: then the block's time is counted on from the last
    one (`seconds` per block) and pulled a little towards the current time plus its usual distance, so it
    follows the real clock without the callbacks' jitter.
    """

    most_apart: float = 2.0
    pull: float = 0.05  # how much of the gap to the current time a counted block takes up
    # The device time minus the current time while they were sound; until then a guess that errs towards the
    # echo coming after the far end (the canceller can follow that; an echo come first it cannot).
    usual_apart: float = 0.0
    untrusted_blocks: int = 0  # blocks whose device time was garbage
    _last: float | None = field(default=None, repr=False)  # the last block's time, as given

    def restart(self) -> None:
        """The stream was opened again: count from its next block."""
        self._last = None
        self.untrusted_blocks = 0

    def time_of(self, current: float | None, device: float | None, seconds: float) -> float | None:
        """The time of a block of `seconds` whose callback says `current` and `device` (None: unknown)."""
        if current is None or device is None:
            self._last = device
            return device
        if abs(device - current) <= self.most_apart:
            self.usual_apart = device - current
            self._last = device
            return device
        if self.untrusted_blocks == 0:
            log.info(
                "the sound server's stream times are off by %.0f s (its current time %.3f); counting this stream's blocks",
                device - current,
                current,
            )
        self.untrusted_blocks += 1
        measured = current + self.usual_apart
        counted = measured if self._last is None else self._last + seconds
        self._last = counted + self.pull * (measured - counted)
        return self._last


@dataclass
class CaptureClock:
    """When each microphone block's first sample was captured, placed by when the blocks arrive.

    PortAudio's own answer (`inputBufferAdcTime`: the stream's current time less what the sound server says
    it holds) went wrong live through PulseAudio's ALSA plugin: in most runs it wandered up to 3 s from the
    truth for the first 10-20 s while the blocks came at a steady pace, and in about one run in four it
    jumped 2**60 ns away and ran at twice real time all night, so the echo canceller never found the Host's
    voice (session 42). The blocks are a better clock: each is `seconds` of sound after the one before, and
    none arrives (its callback's current time) before it was captured and its own length has passed. So the
    stream's start is placed by the blocks that came soonest, the lowest "arrived at, less the sound before
    it" of the last `window_blocks` (a window, to follow sound lost or a device clock that drifts), and each
    block is counted from there. `margin` errs early: the canceller can follow an echo that comes after the
    far end, not one that comes before it.
    """

    window_blocks: int = 32
    margin: float = 0.02
    _elapsed: float = field(default=0.0, repr=False)  # seconds of sound before the next block
    _starts: deque[float] = field(default_factory=deque, repr=False)  # where recent blocks place the start

    def restart(self) -> None:
        """The stream was opened again: its next block is its first."""
        self._elapsed = 0.0
        self._starts.clear()

    def time_of(self, current: float | None, device: float | None, seconds: float) -> float | None:
        """The capture time of a block of `seconds` whose callback says `current` and `device` (None: unknown);
        the device's own time only when there is no current time to place the blocks by."""
        if current is None:
            return device
        elapsed = self._elapsed
        self._elapsed += seconds
        self._starts.append(current - elapsed)
        if len(self._starts) > self.window_blocks:
            self._starts.popleft()
        return min(self._starts) + elapsed - seconds - self.margin


class Rechunker:
    """Audio at one rate in, fixed-size blocks at another out (soxr's streaming resampler), each with the
    stream time of its first sample when the input's is known."""

    def __init__(self, in_rate: int, out_rate: int, block_size: int) -> None:
        self._resampler = soxr.ResampleStream(in_rate, out_rate, 1, dtype="float32")
        self._pending = np.zeros(0, dtype=np.float32)
        self.block_size = block_size
        self.in_rate, self.out_rate = in_rate, out_rate
        self._fed = 0  # input samples so far
        self._given = 0  # output samples handed out as blocks so far

    def blocks(self, audio: Audio, at: float | None = None) -> list[tuple[Audio, float | None]]:
        """`at`: the stream time of `audio`'s first sample (soxr keeps output in step with input)."""
        fed_before = self._fed
        self._fed += len(audio)
        converted = self._resampler.resample_chunk(np.asarray(audio, dtype=np.float32))
        self._pending = np.concatenate([self._pending, converted])
        count = len(self._pending) // self.block_size
        out: list[tuple[Audio, float | None]] = []
        for i in range(count):
            block = self._pending[i * self.block_size : (i + 1) * self.block_size].copy()
            when = None if at is None else at + (self._given * self.in_rate / self.out_rate - fed_before) / self.in_rate
            out.append((block, when))
            self._given += self.block_size
        self._pending = self._pending[count * self.block_size :]
        return out


class Capture:
    """The microphone: 16 kHz mono float32 blocks, queued by PortAudio's thread, read by the listener.

    A microphone that will not open at 16 kHz is opened at its own rate and converted (`Rechunker`).
    `read()` raises DeviceLostError when the stream dies or no block has come for `lost_after`
    seconds; `reopen()` then tries to get the device back.
    """

    def __init__(
        self,
        device: int | str | None = None,
        sample_rate: int = SAMPLE_RATE,
        block_size: int = BLOCK_SAMPLES,
        max_queued_seconds: float = 10.0,
        lost_after: float = 2.0,
    ) -> None:
        self.device = device
        self.sample_rate = sample_rate
        self.block_size = block_size
        self.lost_after = lost_after
        self.overflows = 0  # blocks PortAudio dropped because we read too slowly
        self.dropped = 0  # blocks we dropped because the queue was full
        self._queue: queue.Queue[tuple[Audio, float | None]] = queue.Queue(
            maxsize=max(1, int(max_queued_seconds * sample_rate / block_size))
        )
        # When the first sample of the block `read` last returned was captured, on the streams' clock (None:
        # unknown; `CaptureClock`): the echo canceller matches it to what the speaker played then (`FarEnd`).
        self.last_block_time: float | None = None
        self.clock = CaptureClock()
        self._stream: Any = None
        self._failed = threading.Event()
        self._last_block = 0.0
        self.device_rate = sample_rate  # the rate the device was opened at
        self._rechunker: Rechunker | None = None

    @property
    def block_seconds(self) -> float:
        return self.block_size / self.sample_rate

    def start(self) -> None:
        sd = sounddevice_module()
        self.device_rate = check_microphone(self.device, self.sample_rate)
        converting = self.device_rate != self.sample_rate
        self._rechunker = Rechunker(self.device_rate, self.sample_rate, self.block_size) if converting else None
        self.clock.restart()
        self._failed.clear()
        try:
            self._stream = sd.InputStream(
                device=self.device,
                channels=1,
                samplerate=self.device_rate,
                blocksize=round(self.block_size * self.device_rate / self.sample_rate),
                dtype="float32",
                callback=self._on_block,
                finished_callback=self._on_finished,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError):
            self._stream = None
            raise NoMicrophoneError(NO_MICROPHONE) from None
        _opened(self)
        self._last_block = time.monotonic()

    def _on_block(self, indata: Any, frames: int, time_info: Any, status: Any) -> None:
        if status.input_overflow:
            self.overflows += 1
        block = np.array(indata[:, 0], dtype=np.float32)
        at = self.clock.time_of(
            stream_time(time_info, "currentTime"), stream_time(time_info, "inputBufferAdcTime"), frames / self.device_rate
        )
        if self._rechunker is None:
            self._queue_block((block, at))
        else:
            for timed in self._rechunker.blocks(block, at):
                self._queue_block(timed)

    def _queue_block(self, block: tuple[Audio, float | None]) -> None:
        try:
            self._queue.put_nowait(block)
        except queue.Full:
            # The reader stalled: keep the newest audio, drop the oldest.
            self.dropped += 1
            try:
                self._queue.get_nowait()
            except queue.Empty:
                pass
            self._queue.put_nowait(block)

    def _on_finished(self) -> None:
        if self._stream is not None:  # not a stop() we asked for
            self._failed.set()

    def read(self, timeout: float = 0.5) -> Audio | None:
        """The next block, or None if none came within timeout (then check again)."""
        try:
            block, self.last_block_time = self._queue.get(timeout=timeout)
        except queue.Empty:
            if self._stream is None:
                raise DeviceLostError(MICROPHONE_LOST) from None
            if self._failed.is_set() or time.monotonic() - self._last_block > self.lost_after:
                raise DeviceLostError(MICROPHONE_LOST) from None
            return None
        self._last_block = time.monotonic()
        return block

    def drain(self) -> int:
        """Throw away every queued block (e.g. audio captured while the Host was speaking)."""
        count = 0
        while True:
            try:
                self._queue.get_nowait()
            except queue.Empty:
                return count
            count += 1

    def stop(self) -> None:
        stream, self._stream = self._stream, None
        _closed(self)
        if stream is not None:
            _close_stream(stream)

    def reopen(self) -> None:
        """Try to get the microphone back after a loss; NoMicrophoneError if it is still gone."""
        self.stop()
        self.drain()
        try:
            self.start()
        except NoMicrophoneError:
            if not rescan_devices():
                raise
            self.start()

    def __enter__(self) -> Capture:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Player:
    """The speaker: a persistent output stream fed from a buffer; `stop()` silences it at once.

    Audio is queued at `sample_rate` (piper's); a speaker that will not open at that rate is opened
    at its own and each piece is converted as it is queued. With a `far_end`, every block handed to
    the device (silence too) is also handed to it: the echo canceller's reference.
    """

    def __init__(
        self,
        device: int | str | None = None,
        sample_rate: int = PLAYBACK_RATE,
        block_size: int = SPEAKER_BLOCK_SAMPLES,
        stall_seconds: float = 2.0,
        far_end: FarEnd | None = None,
    ) -> None:
        self.device = device
        self.far_end = far_end
        self.sample_rate = sample_rate
        self.block_size = block_size
        self.stall_seconds = stall_seconds  # audio queued but none taken this long: the speaker is gone
        self.lost = False
        self.underflows = 0  # callbacks the device had run dry before (PortAudio's output underflow)
        self._underflows_told = 0
        self._taken_at = time.monotonic()  # when the device last took audio (or audio was queued on an idle player)
        self._buffer: deque[tuple[Audio, Callable[[], None] | None]] = deque()
        self._offset = 0  # samples of _buffer[0] already played
        self._lock = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._stream: Any = None
        self.device_rate = sample_rate  # the rate the device was opened at
        # The stream time the last sample handed to the device reaches the speaker (None: not known). The
        # device holds two blocks more than the queue: the Host has not stopped until that has sounded.
        self.sounds_until: float | None = None
        self.most_sounding_seconds = 1.0  # a device clock gone wrong never holds the Host longer than this
        self.clock = DeviceClock(usual_apart=0.1)  # a speaker's block sounds after its callback
        # `hold()`: silence with nothing dropped, since this monotonic time (None: not held). A hold nobody
        # releases never silences the Host longer than `most_held_seconds`.
        self._held_since: float | None = None
        self.most_held_seconds = 2.0
        self.back_after_hold_seconds = 0.15  # played on from a little before the hold: the syllable it cut, again

    def start(self) -> None:
        sd = sounddevice_module()
        self.device_rate = check_speaker(self.device, self.sample_rate)
        self.clock.restart()
        try:
            self._stream = sd.OutputStream(
                device=self.device,
                channels=1,
                samplerate=self.device_rate,
                blocksize=round(self.block_size * self.device_rate / self.sample_rate),  # the same length at any rate
                dtype="float32",
                callback=self._fill,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError):
            self._stream = None
            raise NoSpeakerError(NO_SPEAKER) from None
        _opened(self)

    def _fill(self, outdata: Any, frames: int, time_info: Any, status: Any) -> None:
        if getattr(status, "output_underflow", False):
            self.underflows += 1
        out = outdata[:, 0]
        written = 0
        with self._lock:
            if self._held_since is not None and time.monotonic() - self._held_since >= self.most_held_seconds:
                self._held_since = None
            if self._held_since is not None:
                self._taken_at = time.monotonic()  # held, not stalled
            while written < frames and self._buffer and self._held_since is None:
                head, on_start = self._buffer[0]
                if self._offset == 0 and on_start is not None:
                    self._buffer[0] = (head, None)
                    on_start()  # quick by contract: the screen hands it to its own thread
                take = min(frames - written, len(head) - self._offset)
                out[written : written + take] = head[self._offset : self._offset + take]
                written += take
                self._offset += take
                if self._offset >= len(head):
                    self._buffer.popleft()
                    self._offset = 0
            sounds_at = self.clock.time_of(
                stream_time(time_info, "currentTime"), stream_time(time_info, "outputBufferDacTime"), frames / self.device_rate
            )
            if written:
                self._taken_at = time.monotonic()
                self.sounds_until = None if sounds_at is None else sounds_at + written / self.device_rate
            if not self._buffer:
                self._idle.set()
        out[written:] = 0.0
        if self.far_end is not None:
            self.far_end.push(out, self.device_rate, sounds_at)

    def play(self, audio: Audio, on_start: Callable[[], None] | None = None) -> None:
        """Queue audio (at this player's sample rate) after whatever is still playing.

        `on_start` is called (from the audio thread; keep it quick) when this audio begins to sound.
        """
        if len(audio) == 0:
            return
        if self.check_lost() and not self._restart():
            return  # still no speaker: the words stay on the screen
        audio = np.asarray(audio, dtype=np.float32)
        if self.underflows != self._underflows_told:  # (told here, off the audio thread)
            self._underflows_told = self.underflows
            log.debug("the speaker has run dry %d times", self.underflows)
        if self.device_rate != self.sample_rate:
            audio = soxr.resample(audio, self.sample_rate, self.device_rate).astype(np.float32)
        with self._lock:
            if not self._buffer:
                self._taken_at = time.monotonic()  # the stall is counted from here
            self._buffer.append((audio, on_start))
            self._idle.clear()

    def _restart(self) -> bool:
        """After a loss, try the speaker again (it may be back)."""
        stream, self._stream = self._stream, None
        _closed(self)
        if stream is not None:
            _close_stream(stream)
        try:
            self.start()
        except AudioUnavailableError:
            return False
        self.lost = False
        return True

    def stop(self) -> None:
        """Silence now: drop everything queued, including the rest of the current sentence."""
        with self._lock:
            self._buffer.clear()
            self._offset = 0
            self._held_since = None
            self._idle.set()

    def hold(self) -> None:
        """Silence now, dropping nothing: what is queued plays on from where it was at `release()` (or after
        `most_held_seconds`). For a word over the Host that may be "stop" while the short path makes sure. With
        nothing queued (the Host's last words still ringing in the room, or its next sentence not yet made) there is
        nothing to hold, and what comes next is not held back: a stop taken still silences it."""
        with self._lock:
            if self._held_since is None and self._buffer:
                self._held_since = time.monotonic()

    def release(self) -> None:
        """Play on after `hold()`, from `back_after_hold_seconds` before where it was (within its sentence)."""
        with self._lock:
            if self._held_since is not None and self._buffer:
                self._offset = max(0, self._offset - round(self.back_after_hold_seconds * self.device_rate))
            self._held_since = None

    @property
    def held(self) -> bool:
        with self._lock:
            return self._held_since is not None and time.monotonic() - self._held_since < self.most_held_seconds

    @property
    def playing(self) -> bool:
        return not self._idle.is_set()

    def check_lost(self) -> bool:
        """Whether the speaker is gone: its stream died (a PulseAudio server killed ends it at once), or
        audio queued has not been taken for `stall_seconds` (unplugged). Then the queue is dropped and
        `lost` is set, until a later `play` gets the speaker back."""
        if self.lost or self._stream is None:
            return self.lost
        dead = not self._stream.active
        stalled = self.playing and time.monotonic() - self._taken_at >= self.stall_seconds
        if dead or stalled:
            log.warning("the speaker was lost (%s)", "its stream ended" if dead else "it stopped taking audio")
            self.lost = True
            self.stop()
        return self.lost

    def wait(self, timeout: float | None = None) -> bool:
        """Block until everything queued has played (or stop(), or the speaker is lost); False on timeout.

        Played means sounded: after the queue empties, what the device still holds is waited for too
        (`sounding_seconds`), so the microphone's tail after the Host starts from its last sound.
        The Host must not wait for ever to finish a sentence on a speaker that has gone (`check_lost`).
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            step = self.stall_seconds / 4
            if deadline is not None:
                step = max(0.0, min(step, deadline - time.monotonic()))
            if self._idle.wait(step) or self.check_lost():
                break
            if deadline is not None and time.monotonic() >= deadline:
                return False
        if not self.lost and self._stream is not None and self._idle.is_set():
            left = self.sounding_seconds(stream_time(self._stream, "time"))
            if deadline is not None:
                left = min(left, max(0.0, deadline - time.monotonic()))
            time.sleep(left)
        return True

    def sounding_seconds(self, now: float | None) -> float:
        """How long what was handed to the device goes on sounding after `now` (the stream's clock): 0 when
        either time is unknown, at most `most_sounding_seconds`."""
        if now is None or self.sounds_until is None:
            return 0.0
        return min(self.most_sounding_seconds, max(0.0, self.sounds_until - now))

    def close(self) -> None:
        self.stop()
        stream, self._stream = self._stream, None
        _closed(self)
        if stream is not None:
            _close_stream(stream)


@contextlib.contextmanager
def native_stderr_to(path: Path, limit: int = 1_000_000) -> Iterator[io.TextIOWrapper]:
    """Send what C libraries write to file descriptor 2 (ALSA and PortAudio complain there when a
    device is missing or lost) into a file, so it cannot scribble over a full-screen app.

    Yields the terminal that descriptor 2 was before (a duplicate of it, open for the duration): a
    full-screen app draws there, so only the libraries' complaints go to the file. At most `limit`
    bytes are kept: a stream left on a dead PulseAudio server can repeat one assertion for ever, and
    that must not fill the disk."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sys.stderr.flush()
    saved = os.dup(2)
    encoding = getattr(sys.__stderr__, "encoding", None) or "utf-8"
    terminal = open(os.dup(2), "w", encoding=encoding, errors="backslashreplace")  # closed in finally
    read_end, write_end = os.pipe()
    os.dup2(write_end, 2)
    os.close(write_end)

    def keep() -> None:
        kept = 0
        with open(path, "ab") as log:
            while chunk := os.read(read_end, 65536):
                if kept < limit:
                    log.write(chunk[: limit - kept])
                    log.flush()
                    kept += min(len(chunk), limit - kept)
        os.close(read_end)

    keeper = threading.Thread(target=keep, name="native-stderr", daemon=True)
    keeper.start()
    try:
        yield terminal
    finally:
        sys.stderr.flush()
        terminal.close()
        os.dup2(saved, 2)  # the pipe's last writer goes: the keeper reads to the end and stops
        os.close(saved)
        keeper.join(timeout=2)


def describe_devices() -> list[str]:
    """One line per audio device: index, name, inputs/outputs, default marks."""
    sd = sounddevice_module()
    devices = sd.query_devices()
    default_in, default_out = sd.default.device
    lines = []
    for device in devices:
        marks = []
        if device["index"] == default_in:
            marks.append("default input")
        if device["index"] == default_out:
            marks.append("default output")
        hostapi = sd.query_hostapis(device["hostapi"])["name"]
        lines.append(
            f"{device['index']:>3}  {device['name']}  ({hostapi}; in {device['max_input_channels']}, "
            f"out {device['max_output_channels']}, {device['default_samplerate']:.0f} Hz)"
            + (f"  [{', '.join(marks)}]" if marks else "")
        )
    return lines


def run_devices(args: argparse.Namespace) -> int:
    """`third-carol devices`: list the audio devices, and say plainly if voice play is not possible."""
    try:
        lines = describe_devices()
    except AudioUnavailableError as error:
        print(error)
        return 1
    if not lines:
        print("No audio devices found: play by typing (third-carol --no-voice).")
        return 0
    print("Audio devices:")
    for line in lines:
        print(line)
    for check in (check_microphone, check_speaker):
        try:
            check()
        except AudioUnavailableError as error:
            print(error)
    return 0
