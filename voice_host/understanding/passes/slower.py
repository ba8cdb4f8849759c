"""The slower pass: Whisper again on the utterance played a tenth slower and lower, when what was heard is not yet a
whole card message.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from voice_host.understanding.normalise import Correction, CorrectionKind
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, asks_the_host, whole_message


@dataclass(frozen=True)
class SlowerPass:
    """The transcript is not a whole card message: does Whisper hear one with the utterance played slower?

    Whisper base mishears voices unlike those it learned from (espeak-ng's, at 160-200 words a
    minute) in ways that depend on the voice; the same audio played a tenth slower and lower
    (`slower_playback_rate`, a plain resampling) is another view of it, misheard otherwise. As the
    first view (every utterance heard slower) it gained espeak-ng voices and lost piper ones; as a
    second view, only for what the first left short of a whole message (`whole_message`; a request
    to the Host is whole as it is), it keeps what the first heard right. What the slower view hears
    is understood, and taken when it is a whole message; it is a repair, so a costly one is always
    asked about first. It costs a pass (the encoder on the new audio, and a decode); the encoder
    output of the utterance as said stays kept for the passes after it. Not when the gaps between
    the words hold another voice (`near_voice_gaps_above_db`, the near-voice pass's own measure): in
    the kitchen on tune it ran on 59 of 80 utterances and understood none more.
    """

    name: PassName = PassName.SLOWER

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        settings = ears.settings
        if settings.slower_playback_rate == 1.0 or hearing.first is None:
            return False
        if whole_message(heard.message) or (heard.rejected is None and asks_the_host(heard.text)):
            return False
        # Not when the gaps hold another voice (the near-voice pass's case): played slower, the other
        # talkers are heard slower too.
        return ears.near_voice.gap_level_db(hearing.audio) <= settings.near_voice_gaps_above_db

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        settings = ears.settings
        slower = ears.recognizer.transcribe(
            hearing.audio,
            initial_prompt=ears.vocabulary.prompt,
            beam_size=settings.slower_beam_size,
            playback_rate=settings.slower_playback_rate,
        )
        hearing.runs.append(PassRun(self.name, (slower,)))
        if slower.rejected is not None:
            return
        repair = Correction(CorrectionKind.SLOWER, heard.transcript, slower.raw_text, settings.repairs.slower)
        found = hearing.understand(ears, slower, repairs=(repair,))
        if whole_message(found.message):
            hearing.heard = replace(found, transcript=heard.transcript)
