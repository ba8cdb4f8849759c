"""The short path's scorer: the stop, repeat, next and skip words scored as a closed set on the audio."""

from __future__ import annotations

import pytest

from tests.conftest_speech import Render, speech_fixture
from voice_host.ears.short_words import ShortWord, ShortWordScorer
from voice_host.loop.barge_in import ShortPath


@speech_fixture(scope="session")
def short_scorer() -> ShortWordScorer:
    return ShortWordScorer()


@pytest.mark.parametrize(
    ("said", "word"),
    [("Stop.", ShortWord.STOP), ("Hold on.", ShortWord.STOP), ("Say that again.", ShortWord.REPEAT),
     ("Next one.", ShortWord.NEXT), ("Skip it.", ShortWord.SKIP)],
)  # fmt: skip
def test_each_short_word_is_scored_as_its_kind(
    short_scorer: ShortWordScorer, render_speech: Render, said: str, word: ShortWord
) -> None:
    scores = short_scorer.score(render_speech(said, pad=0.1))
    assert scores.ranked()[0][0] is word
    assert ShortPath().verdict(scores) is word
    assert scores.audio_seconds > 0 and scores.seconds > 0


@pytest.mark.parametrize("said", ["Read exhibit seven.", "Yes, go ahead.", "Who's got the pen?"])
def test_other_words_are_no_short_word(short_scorer: ShortWordScorer, render_speech: Render, said: str) -> None:
    assert ShortPath().verdict(short_scorer.score(render_speech(said, pad=0.1))) is None
