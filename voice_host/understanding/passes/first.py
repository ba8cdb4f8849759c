"""The first pass: Whisper biased with the case's names, titles and commands in the initial prompt (never numbers)."""

from __future__ import annotations

from dataclasses import dataclass

from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun


@dataclass(frozen=True)
class FirstPass:
    """Whisper on the utterance, with the case's vocabulary as its prompt or without."""

    prompted: bool = True
    name: PassName = PassName.FIRST

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return hearing.first is None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        if self.prompted:
            transcript = ears.recognizer.transcribe(hearing.audio, initial_prompt=ears.vocabulary.prompt)
        else:
            transcript = ears.recognizer.transcribe(hearing.audio, initial_prompt="", hotwords=None)
        hearing.first = transcript
        hearing.heard = hearing.understand(ears, transcript)
        hearing.runs.append(PassRun(self.name, (transcript,)))
