"""End of turn: answer as soon as what was said is a whole message, wait while it is not.

Like Home Assistant's assist_pipeline VoiceCommandSegmenter, `EndOfTurn` is pure: it is fed the pause
so far and what is known about the words before it, and says whether the turn is over. The listener
asks it on every block of silence once the early understanding of the utterance is ready.

Two signals:
- the text: whether the early transcript is a whole card message ("Next.", "Thwaite, where were you at
  ten?", "Confront Keld with E7") or not ("Abel,", "Confront Keld with"); `None` while recognition runs;
- the audio: an end-of-turn model's verdict on how the voice stopped (smart-turn), `None` when there is
  no model or it has not answered.

The segmenter's own hangover (`SegmenterSettings.silence_seconds`) stays the ceiling: a turn nobody
could read ends there.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EndOfTurn:
    """When a pause ends the turn, from its length and the two signals."""

    complete_seconds: float = 0.2  # a pause this long ends a turn whose words are a whole message
    doubt_seconds: float = 0.6  # ... unless the voice sounded unfinished: then it must last this long

    def __post_init__(self) -> None:
        if not 0 <= self.complete_seconds <= self.doubt_seconds:
            raise ValueError("complete_seconds must lie between 0 and doubt_seconds")

    def ended(self, silence_seconds: float, text_complete: bool | None, audio_complete: bool | None = None) -> bool:
        """True when the turn is over after `silence_seconds` of pause (before the segmenter's ceiling).

        An unfinished or not yet understood text never ends the turn early: "Abel, ... where were you?"
        is one turn however long the comma lasts, up to the ceiling.
        """
        if text_complete is not True:
            return False
        wait = self.doubt_seconds if audio_complete is False else self.complete_seconds
        return silence_seconds + 1e-9 >= wait
