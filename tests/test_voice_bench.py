"""bench/voice.py's first audio: the listener's own waits, not numbers of the bench's."""

from __future__ import annotations

import pytest

from bench.voice import first_audio_seconds
from voice_host.ears.turn import EndOfTurn, TurnText
from voice_host.ears.vad import SegmenterSettings

EARLY = SegmenterSettings().early_seconds
TURN = EndOfTurn()


def test_a_whole_message_is_answered_as_soon_as_it_is_understood() -> None:
    assert first_audio_seconds(0.35, 0.05, TurnText.WHOLE) == pytest.approx(EARLY + 0.35 + 0.05)
    # Understood before the short pause is over, it still waits for that pause.
    assert first_audio_seconds(0.01, 0.0, TurnText.WHOLE) == pytest.approx(TURN.complete_seconds)


def test_a_question_and_words_that_may_go_on_are_held() -> None:
    assert first_audio_seconds(0.35, 0.05, TurnText.QUESTION) == pytest.approx(TURN.question_seconds + 0.05)
    assert first_audio_seconds(0.35, 0.0, TurnText.MAY_GO_ON) == pytest.approx(TURN.hold_seconds)
    # Understanding slower than the hold is what the table waits for.
    assert first_audio_seconds(0.9, 0.0, TurnText.QUESTION) == pytest.approx(EARLY + 0.9)


def test_unfinished_words_wait_for_the_segmenter_s_ceiling() -> None:
    assert first_audio_seconds(0.35, 0.05, TurnText.UNFINISHED) == pytest.approx(SegmenterSettings().silence_seconds + 0.05)
