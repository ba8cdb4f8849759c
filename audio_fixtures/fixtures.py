"""The spoken fixtures: what a table would really say, what must come out, and the conditions.

Two splits (`Split`): `tune` may shape rules, thresholds and cues; `test` is only ever measured.
- tune: the first 155 fixtures (manifest.tsv, clean renders committed as FLAC in clean/, all tuned on)
  and the corpus's tune lines in the tune voices;
- test: the corpus's test lines (other phrasings, other texts) in voices tune never has.
The corpus's lines are listed in corpus.tsv (with the SHA-256 of each clean render) and rendered by
`python -m audio_fixtures.render` into rendered/ (not committed; the bench renders what is missing).

Conditions are derived from the clean audio, seeded by the fixture id: "room" and "kitchen" by
`acoustics.in_room` (pyroomacoustics rooms, other talkers, household noise); "party" is the earlier
synthetic condition (a noise-tail reverberation plus three other voices at 10 dB), kept for the
figures measured with it.
"""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np

from audio_fixtures.corpus import Family, Split, family_of
from voice_host.ears.sound import SAMPLE_RATE, Audio

FIXTURE_DIR = Path(__file__).resolve().parent
MANIFEST = FIXTURE_DIR / "manifest.tsv"  # the first fixtures (tune)
CLEAN_DIR = FIXTURE_DIR / "clean"
CORPUS_MANIFEST = FIXTURE_DIR / "corpus.tsv"  # the corpus's lines, both splits
RENDER_DIR = FIXTURE_DIR / "rendered"


class Condition(Enum):
    CLEAN = "clean"
    ROOM = "room"  # a pyroomacoustics room, RT60 0.2-0.8 s, the laptop 0.5-2.5 m away
    KITCHEN = "kitchen"  # the room, other talkers at 5-15 dB SNR, household noise or music at 10-20 dB
    PARTY = "party"  # the earlier synthetic condition: noise-tail reverberation plus other voices at 10 dB


@dataclass(frozen=True)
class Fixture:
    """One utterance and what the pipeline must take it as (against a fresh game in round 1)."""

    id: str
    said: str  # the words as a person means them (the reference for word error rate)
    spoken: str  # the text given to the synthesiser (may spell a name as it was mispronounced)
    voice: str
    kind: str  # engine MessageKind value
    suspect: str | None  # suspect key
    exhibits: tuple[int, ...]
    command: str | None  # engine Command value, or "repeat"
    tags: tuple[str, ...] = ()
    split: Split = Split.TUNE
    sha256: str = ""  # of the clean render's samples (corpus lines), to notice a render that differs

    @property
    def rendered(self) -> bool:
        """A corpus line, rendered on demand (the first fixtures' audio is committed)."""
        return bool(self.sha256) or self.id.startswith(("tune-", "test-"))

    @property
    def path(self) -> Path:
        return (RENDER_DIR if self.rendered else CLEAN_DIR) / f"{self.id}.flac"

    @property
    def family(self) -> Family:
        return family_of(self.kind)


_COLUMNS = ("id", "said", "spoken", "voice", "kind", "suspect", "exhibits", "command", "tags")
_CORPUS_COLUMNS = (*_COLUMNS, "split", "sha256")


def write_manifest(fixtures: list[Fixture], path: Path = MANIFEST, *, with_split: bool = False) -> None:
    """The manifest as TSV; the corpus manifest also carries each fixture's split and render hash."""
    columns = _CORPUS_COLUMNS if with_split else _COLUMNS
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(columns)
        for f in fixtures:
            row = [
                f.id,
                f.said,
                f.spoken,
                f.voice,
                f.kind,
                f.suspect or "",
                " ".join(str(n) for n in f.exhibits),
                f.command or "",
                " ".join(f.tags),
            ]
            writer.writerow([*row, f.split.value, f.sha256] if with_split else row)


def load_manifest(path: Path = MANIFEST) -> list[Fixture]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle, delimiter="\t"))
    return [
        Fixture(
            id=row["id"],
            said=row["said"],
            spoken=row["spoken"],
            voice=row["voice"],
            kind=row["kind"],
            suspect=row["suspect"] or None,
            exhibits=tuple(int(n) for n in row["exhibits"].split()),
            command=row["command"] or None,
            tags=tuple(row["tags"].split()),
            split=Split(row.get("split") or Split.TUNE.value),
            sha256=row.get("sha256") or "",
        )
        for row in rows
    ]


def write_corpus_manifest(fixtures: list[Fixture], path: Path = CORPUS_MANIFEST) -> None:
    write_manifest(fixtures, path, with_split=True)


def load_fixtures(split: Split) -> list[Fixture]:
    """Every fixture of one split: for tune the first fixtures, then the corpus's tune lines."""
    first = load_manifest() if split is Split.TUNE else []
    corpus = [f for f in load_manifest(CORPUS_MANIFEST) if f.split is split] if CORPUS_MANIFEST.exists() else []
    return first + corpus


def read_sample_list(path: Path) -> list[str]:
    """A sample list's utterance ids, in order (bench/samples/*.txt: one id a line, `#` for comments).

    A measured sample kept by id stays measurable as the splits grow (`bench/voice.py --same-as`).
    """
    lines = (line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]


def read_audio(path: Path) -> Audio:
    """Decode any file PyAV reads (FLAC, WAV) to 16 kHz mono float32, as faster-whisper does."""
    from faster_whisper.audio import decode_audio

    return np.asarray(decode_audio(str(path), sampling_rate=SAMPLE_RATE), dtype=np.float32)


def write_wav(path: Path, audio: Audio) -> None:
    """16-bit PCM WAV, 16 kHz mono (what `third-carol hear` is given)."""
    import wave

    pcm = (np.clip(audio, -1.0, 1.0) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as handle:
        handle.setnchannels(1)
        handle.setsampwidth(2)
        handle.setframerate(SAMPLE_RATE)
        handle.writeframes(pcm.tobytes())


def _seed(*parts: str) -> int:
    return int.from_bytes(hashlib.sha256("|".join(parts).encode()).digest()[:8], "little")


def _room_impulse(rng: np.random.Generator, rt60: float) -> Audio:
    """A synthetic room: a direct path, then exponentially decaying noise (RT60 seconds)."""
    length = int(SAMPLE_RATE * rt60)
    t = np.arange(length) / SAMPLE_RATE
    tail = rng.standard_normal(length) * np.exp(-6.9 * t / rt60)
    tail[: int(0.005 * SAMPLE_RATE)] = 0.0  # early reflections start after ~5 ms
    impulse = 0.35 * tail / np.sqrt(np.sum(tail**2))
    impulse[0] = 1.0
    return np.asarray(impulse, dtype=np.float32)


def _convolve(audio: Audio, impulse: Audio) -> Audio:
    size = len(audio) + len(impulse) - 1
    n = 1 << (size - 1).bit_length()
    out = np.fft.irfft(np.fft.rfft(audio, n) * np.fft.rfft(impulse, n), n)[: len(audio)]
    return out.astype(np.float32)


def _rms(audio: Audio) -> float:
    active = audio[np.abs(audio) > 0.02 * (np.max(np.abs(audio)) + 1e-9)]
    return float(np.sqrt(np.mean((active if len(active) else audio) ** 2)) + 1e-9)


def _mix_at_snr(speech: Audio, noise: Audio, snr_db: float) -> Audio:
    gain = _rms(speech) / (_rms(noise) * 10 ** (snr_db / 20))
    mixed = speech + gain * noise
    peak = float(np.max(np.abs(mixed)))
    return (mixed / peak * 0.9 if peak > 0.99 else mixed).astype(np.float32)


def degrade(audio: Audio, condition: Condition, key: str, babble_sources: list[Audio] | None = None) -> Audio:
    """The utterance in the earlier synthetic party; deterministic in (key, condition) and the babble."""
    if condition is Condition.CLEAN:
        return audio
    if condition is not Condition.PARTY:
        raise ValueError(f"{condition.value} is made by acoustics.in_room")
    rng = np.random.default_rng(_seed(key, condition.value))
    rt60 = 0.45
    wet = _convolve(audio, _room_impulse(rng, rt60))
    if not babble_sources:
        raise ValueError("party needs other voices to mix in")
    babble = np.zeros(len(wet), dtype=np.float32)
    picks = rng.choice(len(babble_sources), size=min(3, len(babble_sources)), replace=False)
    for pick in picks:
        other = babble_sources[int(pick)]
        # Other people talk all the way through: loop each voice, start it somewhere random.
        reps = int(np.ceil((len(wet) + len(other)) / max(len(other), 1))) + 1
        looped = np.tile(other, reps)
        offset = int(rng.integers(0, len(other)))
        babble += _convolve(looped[offset : offset + len(wet)], _room_impulse(rng, rt60))
    return _mix_at_snr(wet, babble, 10.0)


class FixtureAudio:
    """Clean fixtures and their derived conditions, cached in memory (and optionally on disk).

    `fixtures` is the whole split: other talkers in the kitchen and the party are chosen from it by
    position, so what one fixture sounds like never depends on which others a run picks.
    A corpus line's clean audio is rendered when its file is missing (`audio_fixtures.render`).
    """

    def __init__(self, fixtures: list[Fixture], cache_dir: Path | None = None) -> None:
        from audio_fixtures.acoustics import RoomImpulses

        self.fixtures = fixtures
        self._by_id = {f.id: f for f in fixtures}
        self._clean: dict[str, Audio] = {}
        self._cache_dir = cache_dir
        self._impulses = RoomImpulses(cache_dir)
        self._renderer: object | None = None
        self.placements: dict[tuple[str, Condition], object] = {}  # acoustics.Placement of each room/kitchen render

    def clean(self, fixture_id: str) -> Audio:
        if fixture_id not in self._clean:
            fixture = self._by_id[fixture_id]
            if fixture.rendered and not fixture.path.exists():
                from audio_fixtures.render import render_fixture

                self._renderer = render_fixture(fixture, self._renderer)
            self._clean[fixture_id] = read_audio(fixture.path)
        return self._clean[fixture_id]

    def _others_for(self, fixture_id: str) -> list[Audio]:
        # Other voices: utterances at fixed steps along the split (different words, often other voices).
        ids = [f.id for f in self.fixtures]
        index = ids.index(fixture_id)
        others = [ids[(index + step) % len(ids)] for step in (3, 7, 11, 17, 23)]
        return [self.clean(other) for other in others if other != fixture_id]

    def audio(self, fixture_id: str, condition: Condition) -> Audio:
        if condition is Condition.CLEAN:
            return self.clean(fixture_id)
        cached = self._cache_dir / condition.value / f"{fixture_id}.npy" if self._cache_dir is not None else None
        if cached is not None and cached.exists():
            return np.asarray(np.load(cached), dtype=np.float32)
        if condition is Condition.PARTY:
            out = degrade(self.clean(fixture_id), condition, fixture_id, self._others_for(fixture_id))
        else:
            from audio_fixtures.acoustics import in_room

            others = self._others_for(fixture_id) if condition is Condition.KITCHEN else None
            out, placement = in_room(self.clean(fixture_id), fixture_id, self._impulses, others)
            self.placements[(fixture_id, condition)] = placement
        if cached is not None:
            cached.parent.mkdir(parents=True, exist_ok=True)
            np.save(cached, out)
        return out


def expected_json(fixture: Fixture, suspect_names: dict[str, str]) -> dict[str, object]:
    """What `third-carol hear --json` must print for this fixture (the intent keys only)."""
    return {
        "kind": fixture.kind,
        "suspect": suspect_names[fixture.suspect] if fixture.suspect else None,
        "exhibits": list(fixture.exhibits),
        "command": fixture.command,
    }


def dump(obj: object) -> str:
    return json.dumps(obj, sort_keys=True)
