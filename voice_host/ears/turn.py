"""End of turn: answer as soon as what was said is a whole message, wait while it is not.

Like Home Assistant's assist_pipeline VoiceCommandSegmenter, `EndOfTurn` is pure: it is fed the pause
so far and what is known about the words before it, and says whether the turn is over. The listener
asks it on every block of silence once the early understanding of the utterance is ready.

Two signals:
- the text (`TurnText`): whether the early transcript is a whole card message ("Read E4.", "Confront
  Keld with E7"), a whole question to a suspect, which may still go on ("Martha, where were you?" before
  "... at ten o'clock?"), a whole message that is often only the start of a longer turn ("Next", "We
  accuse Phoebe Marsden", a lone name heard as table talk), or not a whole message ("Abel,", "Confront
  Keld with"); `None` while recognition runs. A lone stop word ("Stop.", "Wait.", "Hold on.") said
  over the Host ends the turn at once;
- the audio: an end-of-turn model's verdict on how the voice stopped (smart-turn), `None` when there is
  no model or it has not answered.

The segmenter's own hangover (`SegmenterSettings.silence_seconds`) stays the ceiling: a turn nobody
could read ends there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class TurnText(Enum):
    """What the words so far say about the turn."""

    UNFINISHED = "unfinished"  # more words must come: wait for them, up to the ceiling
    MAY_GO_ON = "may go on"  # a whole message, but one that often starts a longer turn: wait a while
    QUESTION = "question"  # a whole question to a suspect, which may still go on ("... at ten o'clock?")
    WHOLE = "whole"  # a whole message: answer after the short pause
    # A lone "stop", "wait", "hold on": said over the Host it silences it, so the turn ends as soon as it
    # is understood; said to a silent Host it is a whole message that may go on ("Wait." may be "Thwaite,").
    STOP_WORDS = "stop words"


@dataclass(frozen=True)
class EndOfTurn:
    """When a pause ends the turn, from its length and the two signals."""

    complete_seconds: float = 0.2  # a pause this long ends a turn whose words are a whole message
    hold_seconds: float = 0.7  # ... one whose words may go on must last this long (tune: 0.6 cut 2 of 29)
    # ... and a question to a suspect this long. The price of answering questions sooner: on the tune
    # paused lines 0.7 s cut 1 of the 50 whose first part is whole (clean), 0.6 s cut 4 (as many as
    # before this wait) for answers about 0.03 s sooner idle, and 0.55 s cut 10 once understanding is fast.
    question_seconds: float = 0.7
    doubt_seconds: float = 0.6  # ... and one the voice sounded unfinished on this long
    # Over the Host a lone stop word ends the turn as soon as it is understood (the early pause): held as
    # a word that may go on, it kept the Host talking 0.7 s longer.
    stop_seconds: float = 0.0

    def __post_init__(self) -> None:
        if not 0 <= self.complete_seconds <= min(self.doubt_seconds, self.hold_seconds, self.question_seconds):
            raise ValueError("complete_seconds must lie between 0 and the other waits")
        if self.stop_seconds < 0:
            raise ValueError("stop_seconds must not be negative")

    def wait_seconds(self, text: TurnText | None, audio_complete: bool | None = None, over_host: bool = False) -> float | None:
        """Seconds of pause after which the turn is over; None: only the segmenter's ceiling ends it.

        An unfinished or not yet understood text never ends the turn early: "Abel, ... where were you?"
        is one turn however long the comma lasts, up to the ceiling. `over_host`: the words were said
        while the Host talked.
        """
        if text is None or text is TurnText.UNFINISHED:
            return None
        if text is TurnText.STOP_WORDS:
            if over_host:
                return self.stop_seconds  # the Host is talking: neither the hold nor the voice's doubt
            text = TurnText.MAY_GO_ON
        waits = {TurnText.MAY_GO_ON: self.hold_seconds, TurnText.QUESTION: self.question_seconds}
        wait = waits.get(text, self.complete_seconds)
        return max(wait, self.doubt_seconds) if audio_complete is False else wait

    def ended(
        self, silence_seconds: float, text: TurnText | None, audio_complete: bool | None = None, over_host: bool = False
    ) -> bool:
        """True when the turn is over after `silence_seconds` of pause (before the segmenter's ceiling)."""
        wait = self.wait_seconds(text, audio_complete, over_host)
        return wait is not None and silence_seconds + 1e-9 >= wait
