"""The synthetic talkers: piper joe-medium at several settings and espeak-ng's English voices.

Each voice belongs to one split. `test` voices are never used for `tune` lines, so the figures on
`test` are on voices nothing was tuned on. `Renderer.render(..., seed=...)` is reproducible: espeak-ng
has no randomness, and piper's noise (sampled inside its ONNX graph) follows onnxruntime's seed,
which is read when the graph is loaded, so a seeded render loads the voice afresh (about 0.3 s).
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import av
import numpy as np

from audio_fixtures.corpus import Split
from voice_host.ears.sound import SAMPLE_RATE, Audio


class VoiceFamily(Enum):
    PIPER = "piper"
    ESPEAK = "espeak-ng"
    KLATT = "espeak-ng klatt"  # espeak-ng's formant (klatt) variants: the most robotic


@dataclass(frozen=True)
class Voice:
    name: str
    engine: str  # "piper" or "espeak"
    length_scale: float = 1.0
    noise_scale: float = 0.667
    noise_w: float = 0.8
    espeak_voice: str = ""
    speed: int = 165  # espeak-ng words a minute
    pitch: int = 50
    split: Split = Split.TUNE

    @property
    def family(self) -> VoiceFamily:
        if self.engine == "piper":
            return VoiceFamily.PIPER
        return VoiceFamily.KLATT if "klatt" in self.espeak_voice else VoiceFamily.ESPEAK


_TEST = Split.TEST
VOICES: tuple[Voice, ...] = (
    # tune: the eight the first fixtures were rendered with, and three more for the corpus's tune lines
    Voice("piper-a", "piper", 1.0, 0.667, 0.8),
    Voice("piper-fast", "piper", 0.85, 0.5, 0.6),
    Voice("piper-slow", "piper", 1.2, 0.8, 1.0),
    Voice("piper-b", "piper", 1.05, 0.9, 0.9),
    Voice("piper-c", "piper", 0.95, 0.4, 0.5),
    Voice("espeak-gb", "espeak", espeak_voice="en-gb+m3", speed=160, pitch=45),
    Voice("espeak-us", "espeak", espeak_voice="en-us+f2", speed=170, pitch=60),
    Voice("espeak-rp", "espeak", espeak_voice="en-gb-x-rp+m1", speed=150, pitch=40),
    Voice("espeak-us-klatt2", "espeak", espeak_voice="en-us+klatt2", speed=150, pitch=50),
    Voice("espeak-scotland-m3", "espeak", espeak_voice="en-gb-scotland+m3", speed=170, pitch=45),
    Voice("espeak-029-f2", "espeak", espeak_voice="en-029+f2", speed=160, pitch=55),
    # test: settings and voices tune never has
    Voice("piper-t1", "piper", 0.9, 0.75, 0.7, split=_TEST),
    Voice("piper-t2", "piper", 1.15, 0.55, 0.95, split=_TEST),
    Voice("piper-t3", "piper", 1.0, 0.85, 0.4, split=_TEST),
    Voice("piper-t4", "piper", 0.8, 0.667, 1.1, split=_TEST),
    Voice("espeak-us-m4", "espeak", espeak_voice="en-us+m4", speed=180, pitch=40, split=_TEST),
    Voice("espeak-gb-m5", "espeak", espeak_voice="en-gb+m5", speed=145, pitch=50, split=_TEST),
    Voice("espeak-scotland-m6", "espeak", espeak_voice="en-gb-scotland+m6", speed=155, pitch=45, split=_TEST),
    Voice("espeak-lancaster-f1", "espeak", espeak_voice="en-gb-x-gbclan+f1", speed=165, pitch=60, split=_TEST),
    Voice("espeak-westmids-m7", "espeak", espeak_voice="en-gb-x-gbcwmd+m7", speed=150, pitch=45, split=_TEST),
    Voice("espeak-029-m2", "espeak", espeak_voice="en-029+m2", speed=170, pitch=50, split=_TEST),
    Voice("espeak-nyc-f3", "espeak", espeak_voice="en-us-nyc+f3", speed=175, pitch=60, split=_TEST),
    Voice("espeak-gb-f4", "espeak", espeak_voice="en-gb+f4", speed=190, pitch=55, split=_TEST),
    Voice("espeak-rp-f5", "espeak", espeak_voice="en-gb-x-rp+f5", speed=200, pitch=65, split=_TEST),
    Voice("espeak-us-klatt", "espeak", espeak_voice="en-us+klatt", speed=160, pitch=50, split=_TEST),
    Voice("espeak-gb-klatt4", "espeak", espeak_voice="en-gb+klatt4", speed=140, pitch=45, split=_TEST),
)
VOICE_BY_NAME = {voice.name: voice for voice in VOICES}


def voices(split: Split) -> tuple[Voice, ...]:
    return tuple(voice for voice in VOICES if voice.split is split)


def resample(audio: Audio, rate: int) -> Audio:
    """To 16 kHz mono float32 with PyAV's resampler (libswresample)."""
    pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
    frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format="s16", layout="mono")
    frame.sample_rate = rate
    resampler = av.AudioResampler(format="s16", layout="mono", rate=SAMPLE_RATE)
    chunks = [f.to_ndarray() for f in resampler.resample(frame)]
    chunks += [f.to_ndarray() for f in resampler.resample(None)]
    return (np.concatenate(chunks, axis=1).reshape(-1).astype(np.float32) / 32768.0).astype(np.float32)


def write_flac(path: Path, audio: Audio) -> None:
    pcm = (np.clip(audio, -1, 1) * 32767).astype(np.int16)
    with av.open(str(path), "w", format="flac") as container:
        stream = container.add_stream("flac", rate=SAMPLE_RATE, layout="mono")
        frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = SAMPLE_RATE
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode(None):
            container.mux(packet)


def pad(audio: Audio, seconds: tuple[float, float]) -> Audio:
    """Silence either side, as a VAD would cut it, so every file starts and ends quiet."""
    before = np.zeros(int(SAMPLE_RATE * seconds[0]), dtype=np.float32)
    after = np.zeros(int(SAMPLE_RATE * seconds[1]), dtype=np.float32)
    return np.concatenate([before, audio, after]).astype(np.float32)


class Renderer:
    def __init__(self) -> None:
        from models import piper_voice_files

        self._files = piper_voice_files()
        self._piper: object | None = None

    def _load_piper(self, seed: int | None) -> object:
        from piper import PiperVoice

        if seed is not None:
            import onnxruntime

            onnxruntime.set_seed(seed)  # read when the graph's random nodes are created
            return PiperVoice.load(str(self._files.model), config_path=str(self._files.config))
        if self._piper is None:
            self._piper = PiperVoice.load(str(self._files.model), config_path=str(self._files.config))
        return self._piper

    def render(self, text: str, voice: Voice, seed: int | None = None, ssml: bool = False) -> Audio:
        """The text in the voice, 16 kHz mono; with a seed, the same samples on every call.

        `ssml`: the text is SSML (espeak-ng only: `<break time="500ms"/>` is a pause the voice makes).
        """
        if voice.engine == "piper":
            assert not ssml, "piper reads no SSML"
            from piper import PiperVoice, SynthesisConfig

            piper = self._load_piper(seed)
            assert isinstance(piper, PiperVoice)
            config = SynthesisConfig(length_scale=voice.length_scale, noise_scale=voice.noise_scale, noise_w_scale=voice.noise_w)
            chunks = list(piper.synthesize(text, syn_config=config))
            audio = np.concatenate([c.audio_float_array for c in chunks]).astype(np.float32)
            return resample(audio, chunks[0].sample_rate)
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out.wav"
            command = ["espeak-ng", "-v", voice.espeak_voice, "-s", str(voice.speed), "-p", str(voice.pitch)]
            command += ["-m"] if ssml else []
            subprocess.run([*command, "-w", str(out), text], check=True)
            from faster_whisper.audio import decode_audio

            return np.asarray(decode_audio(str(out), sampling_rate=SAMPLE_RATE), dtype=np.float32)
