"""Where an utterance is heard: a laptop in a room, or in a kitchen with the party going on.

- room: a pyroomacoustics shoebox (image sources), RT60 0.2-0.8 s, the laptop's microphone on a table
  0.5-2.5 m from the talker, with the laptop's own hiss 30-40 dB down.
- kitchen: the same rooms, plus one to three other talkers (other utterances of the same split, from
  other places in the room) at 5-15 dB SNR, and household noise or music at 10-20 dB: an extractor
  fan, a running tap, clattering crockery, or a carol played on a synthetic piano. Made here with
  numpy, nothing recorded or downloaded.

Everything is seeded by the utterance's id. Rooms come from a pool of `ROOM_COUNT` seeded rooms whose
impulse responses are computed when first needed (the image-source method takes up to 4 s for RT60
0.8 s) and kept in memory, and on disk when a cache folder is given.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from voice_host.ears.sound import SAMPLE_RATE

ROOM_COUNT = 12
TALKER_SPOTS = 3  # where the one speaking to the laptop may sit, per room
OTHER_SPOTS = 3  # where the other talkers stand


def seed_of(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).encode()).digest()[:8], "little")


@dataclass(frozen=True)
class Room:
    index: int
    size: tuple[float, float, float]  # metres
    rt60: float  # seconds
    mic: tuple[float, float, float]
    talkers: tuple[tuple[float, float, float], ...]  # the player addressing the laptop, at several distances
    distances: tuple[float, ...]  # talker to microphone, metres
    others: tuple[tuple[float, float, float], ...]  # other people in the room
    noise: tuple[float, float, float]  # the fan, the tap, the speaker playing music

    @property
    def sources(self) -> tuple[tuple[float, float, float], ...]:
        return (*self.talkers, *self.others, self.noise)


def _inside(point: np.ndarray, size: tuple[float, float, float], margin: float = 0.3) -> bool:
    return bool(all(margin <= point[i] <= size[i] - margin for i in range(3)))


def room(index: int) -> Room:
    """The index-th room of the pool (seeded): a kitchen-diner or living room, a laptop on its table."""
    rng = np.random.default_rng(seed_of("room", str(index)))
    size = (float(rng.uniform(3.5, 7.0)), float(rng.uniform(3.0, 5.5)), float(rng.uniform(2.3, 3.0)))
    rt60 = float(rng.uniform(0.2, 0.8))
    mic = np.array([rng.uniform(1.2, size[0] - 1.2), rng.uniform(1.2, size[1] - 1.2), rng.uniform(0.75, 0.95)])
    talkers: list[tuple[float, float, float]] = []
    distances: list[float] = []
    # Spread the talker's distances over the whole 0.5-2.5 m range, then find a spot inside the room.
    for slot in range(TALKER_SPOTS):
        low = 0.5 + slot * 2.0 / TALKER_SPOTS
        for _ in range(200):
            distance = rng.uniform(low, low + 2.0 / TALKER_SPOTS)
            angle = rng.uniform(0, 2 * np.pi)
            height = rng.uniform(1.1, 1.7)  # seated or standing mouth height
            horizontal = np.sqrt(max(distance**2 - (height - mic[2]) ** 2, 0.01))
            point = mic + np.array([horizontal * np.cos(angle), horizontal * np.sin(angle), height - mic[2]])
            if _inside(point, size):
                talkers.append((float(point[0]), float(point[1]), float(point[2])))
                distances.append(float(np.linalg.norm(point - mic)))
                break
        else:  # a tiny room: put the talker half a metre away
            point = mic + np.array([0.35, 0.0, 0.35])
            talkers.append((float(point[0]), float(point[1]), float(point[2])))
            distances.append(float(np.linalg.norm(point - mic)))

    def anywhere(height: tuple[float, float]) -> tuple[float, float, float]:
        for _ in range(200):
            point = np.array([rng.uniform(0.3, size[0] - 0.3), rng.uniform(0.3, size[1] - 0.3), rng.uniform(*height)])
            if np.linalg.norm(point - mic) > 1.0:
                return (float(point[0]), float(point[1]), float(point[2]))
        return (size[0] - 0.4, size[1] - 0.4, height[0])

    others = tuple(anywhere((1.2, 1.8)) for _ in range(OTHER_SPOTS))
    noise = anywhere((0.3, 2.0))
    return Room(index, size, rt60, (float(mic[0]), float(mic[1]), float(mic[2])), tuple(talkers), tuple(distances), others, noise)


class RoomImpulses:
    """Impulse responses from a room's sources to its microphone, each computed once when first needed."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self._cache_dir = cache_dir
        self._known: dict[tuple[int, int], np.ndarray] = {}

    def of(self, index: int, source: int) -> np.ndarray:
        key = (index, source)
        if key not in self._known:
            self._known[key] = self._load_or_compute(room(index), source)
        return self._known[key]

    def _load_or_compute(self, spec: Room, source: int) -> np.ndarray:
        path = self._cache_dir / "rooms" / f"room{spec.index:02d}-{source}.npy" if self._cache_dir is not None else None
        if path is not None and path.exists():
            return np.asarray(np.load(path), dtype=np.float32)
        impulse = compute_impulse(spec, source)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            np.save(path, impulse)
        return impulse


def compute_impulse(spec: Room, source: int) -> np.ndarray:
    """pyroomacoustics' image-source method, wall absorption from Sabine's formula for the room's RT60."""
    import pyroomacoustics as pra

    absorption, max_order = pra.inverse_sabine(spec.rt60, list(spec.size))
    shoebox = pra.ShoeBox(
        list(spec.size), fs=SAMPLE_RATE, materials=pra.Material(absorption), max_order=max_order, air_absorption=False
    )
    shoebox.add_source(list(spec.sources[source]))
    shoebox.add_microphone(list(spec.mic))
    shoebox.compute_rir()
    return np.asarray(shoebox.rir[0][0], dtype=np.float32)


def convolve(audio: np.ndarray, impulse: np.ndarray) -> np.ndarray:
    """The source as the microphone hears it (the impulse's leading silence, the flight time, kept)."""
    size = len(audio) + len(impulse) - 1
    n = 1 << (size - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(audio, n) * np.fft.rfft(impulse, n), n)[: len(audio) + int(0.3 * SAMPLE_RATE)]
    return out.astype(np.float32)


def active_rms(audio: np.ndarray) -> float:
    """RMS over the samples that are speech, not the silence around it."""
    active = audio[np.abs(audio) > 0.02 * (np.max(np.abs(audio)) + 1e-9)]
    return float(np.sqrt(np.mean((active if len(active) else audio) ** 2)) + 1e-9)


def at_snr(reference: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """The noise scaled so that reference / noise is snr_db (RMS of the reference's speech, of all the noise)."""
    noise_rms = float(np.sqrt(np.mean(noise**2)) + 1e-9)
    return (noise * (active_rms(reference) / (noise_rms * 10 ** (snr_db / 20)))).astype(np.float32)


def _fit(audio: np.ndarray, length: int, rng: np.random.Generator) -> np.ndarray:
    """Loop a sound to the length and start it somewhere random: it goes on all the way through."""
    if len(audio) == 0:
        return np.zeros(length, dtype=np.float32)
    reps = int(np.ceil((length + len(audio)) / len(audio))) + 1
    looped = np.tile(audio, reps)
    offset = int(rng.integers(0, len(audio)))
    return looped[offset : offset + length].astype(np.float32)


# -- household noise and music, synthesised -----------------------------------------------------------
def _lowpass(signal: np.ndarray, cutoff_hz: float) -> np.ndarray:
    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(len(signal), 1 / SAMPLE_RATE)
    spectrum[freqs > cutoff_hz] *= 0.05
    return np.fft.irfft(spectrum, len(signal)).astype(np.float32)


def _band(signal: np.ndarray, low: float, high: float) -> np.ndarray:
    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(len(signal), 1 / SAMPLE_RATE)
    spectrum[(freqs < low) | (freqs > high)] *= 0.03
    return np.fft.irfft(spectrum, len(signal)).astype(np.float32)


def extractor_fan(rng: np.random.Generator, length: int) -> np.ndarray:
    t = np.arange(length) / SAMPLE_RATE
    hum = sum(np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3)) / k for k, f in enumerate((100.0, 200.0, 300.0, 150.0), 1))
    rush = _lowpass(rng.standard_normal(length), float(rng.uniform(600, 1500)))
    return (0.4 * hum / 2 + rush).astype(np.float32)


def running_tap(rng: np.random.Generator, length: int) -> np.ndarray:
    t = np.arange(length) / SAMPLE_RATE
    water = _band(rng.standard_normal(length), 900.0, 5000.0)
    flutter = 1 + 0.3 * np.sin(2 * np.pi * rng.uniform(3, 9) * t) * rng.uniform(0.5, 1.0)
    return (water * flutter).astype(np.float32)


def crockery(rng: np.random.Generator, length: int) -> np.ndarray:
    """Plates and cutlery: short ringing clinks at random moments."""
    out = np.zeros(length, dtype=np.float32)
    clinks = int(rng.integers(3, 9) * length / SAMPLE_RATE / 2) + 1
    for _ in range(clinks):
        start = int(rng.integers(0, max(length - 1, 1)))
        dur = int(SAMPLE_RATE * rng.uniform(0.05, 0.25))
        t = np.arange(dur) / SAMPLE_RATE
        tone = sum(np.sin(2 * np.pi * rng.uniform(1800, 6500) * t) for _ in range(3))
        clink = tone * np.exp(-t * rng.uniform(15, 40)) * rng.uniform(0.3, 1.0)
        end = min(length, start + dur)
        out[start:end] += clink[: end - start].astype(np.float32)
    return (out + 0.02 * rng.standard_normal(length)).astype(np.float32)


# A carol's tune (semitones from the key note) to play on a synthetic piano, with chords below.
_TUNES = (
    (7, 7, 9, 7, 12, 11, 7, 7, 9, 7, 14, 12),  # a birthday-shaped phrase
    (4, 4, 4, 4, 4, 4, 4, 7, 0, 2, 4),  # bells jingling
    (0, 0, 0, -5, 2, 2, -5, 4, 4, 2, 2, 0),  # an old carol's opening
    (7, 9, 7, 4, 7, 9, 7, 4, 14, 14, 11, 12, 12, 7),  # a silent night's lilt
)


def piano_music(rng: np.random.Generator, length: int) -> np.ndarray:
    out = np.zeros(length, dtype=np.float32)
    tune = _TUNES[int(rng.integers(0, len(_TUNES)))]
    key = float(rng.uniform(220.0, 330.0))
    beat = float(rng.uniform(0.3, 0.55))
    position = 0
    step = 0
    while position < length:
        semitone = tune[step % len(tune)]
        dur = int(SAMPLE_RATE * beat * (2 if step % len(tune) == len(tune) - 1 else 1))
        t = np.arange(dur) / SAMPLE_RATE
        note = np.zeros(dur)
        for freq, level in ((key * 2 ** (semitone / 12), 1.0), (key / 2 * 2 ** ((semitone % 12) / 12), 0.5)):
            for harmonic in range(1, 6):
                note += level / harmonic**1.5 * np.sin(2 * np.pi * freq * harmonic * t)
        note *= np.exp(-t * 3.0) * (1 - np.exp(-t * 200))
        end = min(length, position + dur)
        out[position:end] += note[: end - position].astype(np.float32)
        position += dur
        step += 1
    return out


HOUSEHOLD: dict[str, Callable[[np.random.Generator, int], np.ndarray]] = {
    "fan": extractor_fan,
    "tap": running_tap,
    "crockery": crockery,
    "music": piano_music,
}


@dataclass(frozen=True)
class Placement:
    """What was done to an utterance (for the bench's report and for reproducing one by hand)."""

    room: int
    rt60: float
    distance: float
    talkers: int = 0
    talker_snr: float | None = None
    noise: str | None = None
    noise_snr: float | None = None


def in_room(
    audio: np.ndarray, key: str, impulses: RoomImpulses, others: list[np.ndarray] | None = None
) -> tuple[np.ndarray, Placement]:
    """The utterance heard by a laptop in a room; with `others` (other talkers' audio), a kitchen."""
    kitchen = others is not None
    rng = np.random.default_rng(seed_of(key, "kitchen" if kitchen else "room"))
    index = int(rng.integers(0, ROOM_COUNT))
    spot = int(rng.integers(0, TALKER_SPOTS))
    spec = room(index)
    speech = convolve(audio, impulses.of(index, spot))
    length = len(speech)
    placement = Placement(index, spec.rt60, spec.distances[spot])
    mixed = speech.copy()
    if kitchen:
        assert others is not None
        count = int(rng.integers(1, min(3, len(others)) + 1)) if others else 0
        babble = np.zeros(length, dtype=np.float32)
        for n in range(count):
            voice = _fit(others[n], length, rng)
            babble += convolve(voice, impulses.of(index, TALKER_SPOTS + n % OTHER_SPOTS))[:length]
        talker_snr = float(rng.uniform(5.0, 15.0))
        if count:
            mixed += at_snr(speech, babble, talker_snr)
        noise_name = sorted(HOUSEHOLD)[int(rng.integers(0, len(HOUSEHOLD)))]
        source = HOUSEHOLD[noise_name](rng, length)
        noise = convolve(source, impulses.of(index, len(spec.sources) - 1))[:length]
        noise_snr = float(rng.uniform(10.0, 20.0))
        mixed += at_snr(speech, noise, noise_snr)
        placement = Placement(index, spec.rt60, spec.distances[spot], count, talker_snr, noise_name, noise_snr)
    hiss = _lowpass(rng.standard_normal(length), 6000.0)
    mixed += at_snr(speech, hiss, float(rng.uniform(30.0, 40.0)))
    peak = float(np.max(np.abs(mixed)))
    scale = 0.7 / peak if peak > 0 else 1.0  # the laptop's gain control: the loudest moment at -3 dB
    return (mixed * scale).astype(np.float32), placement
