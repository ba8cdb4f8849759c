"""Shared, session-scoped speech fixtures: piper renders test speech, whisper loads once.

`speech_fixture` makes a fixture that loads a model, opens a sound device or starts PulseAudio: every
test that uses one, directly or through another fixture, is in the slow `speech` lane (conftest.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import pytest

from models.locate import WhisperModelName
from voice_host.ears.asr import RecognitionOptions, Recognizer
from voice_host.ears.sound import SAMPLE_RATE, Audio
from voice_host.mouth.tts import HOST, Synthesizer, VoiceMap, VoiceSettings

Render = Callable[..., Audio]
FixtureScope = Literal["session", "package", "module", "class", "function"]

#: The names of the fixtures made with `speech_fixture` (in any test module). A test is matched by the
#: names it uses, parametrized arguments included: give a speech fixture a name nothing else uses.
SPEECH_FIXTURES: set[str] = set()


def speech_fixture(scope: FixtureScope = "function") -> Callable[[Callable[..., Any]], Any]:
    """`pytest.fixture`, for a fixture whose users belong in the slow `speech` lane."""

    def register(function: Callable[..., Any]) -> Any:
        SPEECH_FIXTURES.add(function.__name__)
        return pytest.fixture(scope=scope)(function)

    return register


@speech_fixture(scope="session")
def synthesizer() -> Synthesizer:
    """The bundled piper voice with the default role voices (loaded once)."""
    return Synthesizer()


@speech_fixture(scope="session")
def steady_synthesizer() -> Synthesizer:
    """The bundled voice with piper's random variation off: the same text always renders the same audio."""
    return Synthesizer(VoiceMap(host=VoiceSettings(noise_scale=0.0, noise_w_scale=0.0)))


@pytest.fixture(scope="session")
def render_speech(steady_synthesizer: Synthesizer) -> Render:
    """render_speech(text, pad=0.3) -> 16 kHz mono float32 (repeatable), with silence either side."""

    def render(text: str, role: str = HOST, pad: float = 0.3) -> Audio:
        audio = steady_synthesizer.render(text, role=role, rate=SAMPLE_RATE)
        silence = np.zeros(int(pad * SAMPLE_RATE), dtype=np.float32)
        return np.concatenate([silence, audio, silence])

    return render


@speech_fixture(scope="session")
def base_recognizer() -> Recognizer:
    """faster-whisper base with the project's own options: what the game hears with (loaded once per session)."""
    return Recognizer(RecognitionOptions())


@speech_fixture(scope="session")
def tiny_recognizer() -> Recognizer:
    """faster-whisper tiny.en, beam 5, the project's options otherwise (loaded once per session)."""
    return Recognizer(RecognitionOptions(model=WhisperModelName.TINY_EN))
