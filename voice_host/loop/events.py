"""What the voice side tells the screen: the microphone's status and what was heard.

The screen only reads these; it never reaches into audio code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class MicStatus(Enum):
    LISTENING = "listening"  # waiting for speech
    HEARING = "hearing"  # speech in progress (a level goes with it)
    THINKING = "thinking"  # transcribing / deciding
    SPEAKING = "speaking"  # the Host is talking; the microphone is ignored
    MUTED = "muted"  # the table turned the microphone off
    UNAVAILABLE = "unavailable"  # no microphone (typed play only) or the device was lost
    OFF = "off"  # typed play was chosen (--no-voice): no microphone was looked for


@dataclass(frozen=True)
class MicLevel:
    status: MicStatus
    level: float = 0.0  # 0-1 input level, while HEARING
    detail: str = ""  # a plain sentence for the table, e.g. "No microphone found: type instead."


@dataclass(frozen=True)
class HeardUtterance:
    """The last utterance: what was transcribed and what it was taken as (never a topic or a FILE line)."""

    transcript: str  # raw, as whisper heard it
    text: str  # after normalising and name correction
    taken_as: str  # e.g. "question to Abel Thwaite", "confrontation of Joel Blamire with E7"
    needs_confirmation: bool = False
