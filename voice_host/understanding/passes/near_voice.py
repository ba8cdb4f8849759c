"""The near-voice pass: Whisper again on the audio with every moment quieter than the nearest voice turned down."""

from __future__ import annotations

from dataclasses import dataclass

from voice_host.understanding.normalise import Correction, CorrectionKind
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, unusable


@dataclass(frozen=True)
class NearVoicePass:
    """Hear it again with only the nearest voice loud, and take what that finds if it is usable.

    It hears in the party some utterances the other passes could not, and loses none they could
    (the figures: docs/benchmarks.md, "Voice understanding"); it costs a decode (the encoder too:
    the audio is new), only for an utterance the Host could not act on that Whisper was not sure of,
    and whose gaps hold something the gate would take out (`near_voice_gaps_above_db`).
    """

    name: PassName = PassName.NEAR_VOICE

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        settings = ears.settings
        unsure = hearing.first_transcript.avg_logprob < settings.near_voice_below_logprob
        if not (unusable(heard) and heard.rejected is None and unsure):
            return False
        # Only when the gate has another voice to take out of the gaps: else it hears the same again.
        return ears.near_voice.gap_level_db(hearing.audio) > settings.near_voice_gaps_above_db

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        near = ears.recognizer.transcribe(ears.near_voice.apply(hearing.audio), initial_prompt=ears.vocabulary.prompt)
        hearing.runs.append(PassRun(self.name, (near,)))
        if near.rejected is not None:
            return
        repair = Correction(CorrectionKind.FOCUS, heard.transcript, near.text, ears.settings.repairs.focus)
        found = hearing.understand(ears, near, repairs=(repair,))
        if not unusable(found):
            hearing.heard = found
