"""bench/voice.py's first audio: the listener's own waits, not numbers of the bench's."""

from __future__ import annotations

import pytest

from bench.voice import Outcome, Record, first_audio_seconds, pass_time_table
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


def _outcome(seconds: float, pass_seconds: dict[str, float]) -> Outcome:
    return Outcome([], True, False, False, None, seconds, "", "", pass_seconds=pass_seconds)


def test_the_pass_time_table_says_how_often_each_pass_applied_and_its_share() -> None:
    records = [
        Record("tune", "clean", f"u{n}", "v", "piper", "question", False, "", [], outcome, None)
        for n, outcome in enumerate([_outcome(0.4, {"first": 0.4}), _outcome(1.0, {"first": 0.4, "check": 0.6})])
    ]
    rows = pass_time_table(records, ["tune"], ["clean"])
    assert "| tune | clean | first | 100.0% | 0.40 / 0.40 | 57.1% |" in rows  # 0.8 s of the 1.4 s
    assert "| tune | clean | check | 50.0% | 0.60 / 0.60 | 42.9% |" in rows
