"""Keep the nearest voice: turn down every moment quieter than the person talking to the laptop.

At a table the player speaking to the Host is the nearest and loudest voice; the rest of the room is
quieter. Whisper writes every voice it hears, so "Next, please." with three people chatting behind it
comes out as "Keld, read, read, give up.". `NearVoiceGate.apply` measures the level of the audio in
short frames and turns every frame more than `within_db` below the loudest moments down by
`quieter_db`, so a second decode hears mostly the near voice. It cannot separate voices that overlap;
it removes the other talkers from the gaps between the near voice's words, which is where Whisper
picks them up. A plain level gate in numpy: a spectral noise reducer (noisereduce) removes steady
noise, not talk.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from voice_host.ears.sound import SAMPLE_RATE, Audio

Float = TypeVar("Float", bound=np.floating[Any])


@dataclass(frozen=True)
class NearVoiceGate:
    """A level gate keyed to the loudest moments of one utterance (measured on the party fixtures)."""

    within_db: float = 8.0  # frames this close to the loudest are kept (chosen among 4-12 dB: docs/benchmarks.md)
    quieter_db: float = 30.0  # how far the other frames are turned down (not to silence: no hard edges)
    frame_seconds: float = 0.02
    smooth_frames: int = 5  # levels averaged over 0.1 s, so the gaps inside a word stay open
    loudest_percentile: float = 95.0  # "the loudest moments": robust to a single click or bang
    ramp_seconds: float = 0.01  # gain changes are ramped over this long, so no clicks

    def frame_levels(self, audio: Audio) -> npt.NDArray[np.float64]:
        """Each frame's level in dB of full scale, smoothed over `smooth_frames`."""
        hop = int(self.frame_seconds * SAMPLE_RATE)
        count = len(audio) // hop
        if count == 0:
            return np.zeros(0, dtype=np.float64)
        frames = np.asarray(audio[: count * hop], dtype=np.float64).reshape(count, hop)
        levels = 10.0 * np.log10(np.mean(np.square(frames), axis=1) + 1e-12)
        return _moving_average(levels, self.smooth_frames)

    def kept_frames(self, audio: Audio) -> npt.NDArray[np.bool_]:
        """Which frames are the near voice: within `within_db` of the loudest moments."""
        levels = self.frame_levels(audio)
        if len(levels) == 0:
            return np.zeros(0, dtype=bool)
        loudest = float(np.percentile(levels, self.loudest_percentile))
        return levels >= loudest - self.within_db

    def gap_level_db(self, audio: Audio) -> float:
        """How loud what the gate would turn down is: the median level of those frames, in dB below the
        loudest moments (-inf when it would turn none down).

        Another voice in the gaps between the near voice's words sits 5-20 dB down; the gaps of one
        voice alone are silence, or in a room the same voice's reverberation dying away, far lower.
        """
        levels = self.frame_levels(np.asarray(audio, dtype=np.float32).reshape(-1))
        if len(levels) == 0:
            return -math.inf
        loudest = float(np.percentile(levels, self.loudest_percentile))
        quieter = levels[levels < loudest - self.within_db]
        return float(np.median(quieter)) - loudest if len(quieter) else -math.inf

    def apply(self, audio: Audio) -> Audio:
        """The audio with everything but the near voice turned down by `quieter_db`."""
        audio = np.asarray(audio, dtype=np.float32).reshape(-1)
        hop = int(self.frame_seconds * SAMPLE_RATE)
        if len(audio) < hop:
            return audio  # not one frame to measure
        kept = np.repeat(self.kept_frames(audio), hop)
        kept = np.concatenate([kept, np.zeros(len(audio) - len(kept), dtype=bool)])  # a last part frame
        gain = np.where(kept, 1.0, 10.0 ** (-self.quieter_db / 20.0)).astype(np.float32)
        gain = _moving_average(gain, int(self.ramp_seconds * SAMPLE_RATE))
        return (audio * gain).astype(np.float32)


def _moving_average(values: npt.NDArray[Float], width: int) -> npt.NDArray[Float]:
    """A centred moving average, the same length, with the ends held (not pulled toward zero)."""
    width = max(1, min(width, len(values)))
    padded = np.pad(values, (width // 2, width - 1 - width // 2), mode="edge")
    return np.convolve(padded, np.ones(width) / width, mode="valid").astype(values.dtype)
