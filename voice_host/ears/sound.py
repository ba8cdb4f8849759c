"""The sound format the whole voice side agrees on: defined here once, imported everywhere."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Audio = npt.NDArray[np.float32]  # mono samples, full scale at +-1.0

SAMPLE_RATE = 16_000  # what Silero and Whisper take: the microphone is opened at it, or converted to it
SILERO_WINDOW = 512  # samples per Silero step at SAMPLE_RATE (the model's fixed input)
BLOCK_SAMPLES = SILERO_WINDOW  # 32 ms: every block read from the microphone is one Silero step
PLAYBACK_RATE = 22_050  # piper's rate: every voice is resampled to it, so one output stream plays them all
# The speaker's block at PLAYBACK_RATE (23 ms). The device holds two (PortAudio through PulseAudio): what still
# sounds after `Player.stop`. 1024 held 0.1 s; at 512 live stops came 45 ms sooner, and the speaker ran dry about
# once a run (never at 1024) without moving the echo's delay more often (session 42).
SPEAKER_BLOCK_SAMPLES = 512
