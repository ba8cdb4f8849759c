"""The Host heard by its own microphone: a simulated echo path from the laptop's speaker to its microphone.

A path is a room's impulse response (pyroomacoustics, one of `acoustics.room`'s rooms, the speaker a few
centimetres from the microphone), delayed by 20-80 ms (the sound card's output and input buffers plus
the flight time) and scaled so the echo is 6-20 dB below what was played. Everything is seeded by a key.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from audio_fixtures.acoustics import ROOM_COUNT, active_rms, convolve, room, seed_of
from voice_host.ears.sound import SAMPLE_RATE, Audio

DELAY_SECONDS = (0.02, 0.08)
GAIN_DB = (-20.0, -6.0)
# A sound server under load: the Host's stream underruns (silence is played, and what follows sounds later)
# or catches up (what was queued is dropped), so the echo's delay moves by 10-40 ms at a time, within 80 ms.
SHIFT_SECONDS = (0.01, 0.04)
MOST_SHIFTED_SECONDS = 0.08


@dataclass(frozen=True)
class EchoPath:
    """How the played signal reaches the microphone."""

    room: int
    rt60: float
    delay_seconds: float  # played sample to its first arrival at the microphone
    gain_db: float  # the echo's level relative to what was played (speech RMS)
    impulse: Audio  # unit-peak room response, the direct path at sample 0

    def apply(self, played: Audio) -> Audio:
        """What the microphone picks up of `played` (same length as `played`)."""
        delay = round(self.delay_seconds * SAMPLE_RATE)
        heard = convolve(np.concatenate([np.zeros(delay, dtype=np.float32), played]), self.impulse)[: len(played)]
        scale = active_rms(played) * 10 ** (self.gain_db / 20) / active_rms(heard)
        return (heard * scale).astype(np.float32)


class EchoStream:
    """An echo path applied to what plays as it plays, `chunk` samples at a time (overlap-add): the microphone's share of
    the speaker in real time (tests/test_virtual_mic.py, bench/live_turn.py). `scale`: the echo's level, times the
    unit-peak response."""

    def __init__(self, path: EchoPath, scale: float, chunk: int) -> None:
        self.impulse = (
            np.concatenate([np.zeros(round(path.delay_seconds * SAMPLE_RATE)), path.impulse]).astype(np.float64) * scale
        )
        self.chunk = chunk
        self.size = 1 << (len(self.impulse) + chunk).bit_length()
        self.response = np.fft.rfft(self.impulse, self.size)
        self.pending = np.zeros(len(self.impulse) + chunk)  # the echo still to come

    def step(self, played: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """One chunk of what played in, the echo the microphone hears over the same chunk out."""
        whole = len(self.impulse) + self.chunk - 1  # the chunk's echo, all of it
        echoed = np.fft.irfft(np.fft.rfft(played, self.size) * self.response, self.size)
        self.pending[:whole] += echoed[:whole]
        heard = self.pending[: self.chunk].copy()
        self.pending = np.concatenate([self.pending[self.chunk :], np.zeros(self.chunk)])
        return heard


@dataclass(frozen=True)
class Shift:
    """The echo's delay moved at `at_seconds` (of what was played) by `seconds` (later when positive)."""

    at_seconds: float
    seconds: float


def with_underruns(played: Audio, per_minute: float, key: str) -> tuple[Audio, list[Shift]]:
    """`played` as a loaded sound server sounds it: at seeded moments (`per_minute` on average) the delay
    moves, by silence put in (an underrun) or samples dropped (catching up). Same length as `played`."""
    rng = np.random.default_rng(seed_of(key, "underruns"))
    pieces: list[Audio] = []
    shifts: list[Shift] = []
    at = lag = 0
    most = round(MOST_SHIFTED_SECONDS * SAMPLE_RATE)
    while at < len(played):
        run = int(rng.exponential(60.0 / per_minute) * SAMPLE_RATE)
        pieces.append(played[at : at + run])
        at += run
        if at >= len(played):
            break
        step = round(rng.uniform(*SHIFT_SECONDS) * SAMPLE_RATE)
        if lag + step > most or (lag > 0 and rng.random() < 0.4):
            step = -min(step, lag)  # catching up: what was queued is dropped
        if step > 0:
            pieces.append(np.zeros(step, dtype=np.float32))
        at -= min(step, 0)
        lag += step
        shifts.append(Shift(at / SAMPLE_RATE, step / SAMPLE_RATE))
    sounded = np.concatenate([*pieces, np.zeros(len(played), dtype=np.float32)])[: len(played)]
    return sounded.astype(np.float32), shifts


_impulses: dict[int, Audio] = {}


def speaker_impulse(index: int) -> Audio:
    """The response from a laptop's speaker 8 cm beside its microphone, in room `index` (kept once made)."""
    if index not in _impulses:
        import pyroomacoustics as pra

        spec = room(index)
        absorption, max_order = pra.inverse_sabine(spec.rt60, list(spec.size))
        shoebox = pra.ShoeBox(
            list(spec.size), fs=SAMPLE_RATE, materials=pra.Material(absorption), max_order=max_order, air_absorption=False
        )
        speaker = [spec.mic[0] + 0.08, spec.mic[1], spec.mic[2]]
        shoebox.add_source(speaker)
        shoebox.add_microphone(list(spec.mic))
        shoebox.compute_rir()
        impulse = np.asarray(shoebox.rir[0][0], dtype=np.float32)
        start = max(0, int(np.argmax(np.abs(impulse))) - 4)  # the delay is set by the path, not the filter
        impulse = impulse[start:]
        _impulses[index] = (impulse / float(np.max(np.abs(impulse)))).astype(np.float32)
    return _impulses[index]


def echo_path(key: str) -> EchoPath:
    """A seeded echo path: room, delay and level drawn from `key`."""
    rng = np.random.default_rng(seed_of(key, "echo"))
    index = int(rng.integers(0, ROOM_COUNT))
    delay = float(rng.uniform(*DELAY_SECONDS))
    gain = float(rng.uniform(*GAIN_DB))
    return EchoPath(index, room(index).rt60, delay, gain, speaker_impulse(index))
