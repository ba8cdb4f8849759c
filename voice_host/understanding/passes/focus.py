"""The focus pass: only the loudest speaker's words kept (the one talking to the laptop, not the room)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from voice_host.understanding.normalise import Correction, CorrectionKind
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, has_game_words, unusable
from voice_host.understanding.settings import DEFAULT_SETTINGS
from voice_host.understanding.understand import recognition_confidence

if TYPE_CHECKING:
    from collections.abc import Sequence

    from voice_host.ears.asr import HeardWord


def loudest_speaker_text(words: Sequence[HeardWord], within_db: float = DEFAULT_SETTINGS.focus_within_db) -> str:
    """The words said loudly enough to be the nearest voice: the one talking to the laptop."""
    if not words:
        return ""
    top = max(word.level_db for word in words)
    return " ".join(word.text for word in words if word.level_db >= top - within_db)


@dataclass(frozen=True)
class FocusPass:
    """Time the first pass's words, measure how loud each was, and keep only the loudest speaker's.

    With other people talking, Whisper writes their words too ("Okay, next, read, the
    experiment."); the person talking to the laptop is the nearest and loudest voice. Used only
    when the whole transcript gave the Host nothing to act on though the game's words are in it;
    what it finds is a repair.
    """

    name: PassName = PassName.FOCUS

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        return unusable(heard) and heard.rejected is None and has_game_words(heard, hearing.matcher)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        loud = ears.recognizer.time_words(hearing.audio, hearing.first_transcript)
        hearing.runs.append(PassRun(self.name, (loud,)))
        kept = loudest_speaker_text(loud.words, ears.settings.focus_within_db) if loud.rejected is None else ""
        if not kept:
            return
        repair = Correction(CorrectionKind.FOCUS, loud.raw_text, kept, ears.settings.repairs.focus)
        recognition = recognition_confidence(loud.avg_logprob, loud.no_speech_prob)
        focused = ears.understander.understand(kept, hearing.classifier, recognition, hearing.seats, repairs=(repair,))
        if not unusable(focused):
            hearing.heard = replace(focused, transcript=loud.raw_text)
