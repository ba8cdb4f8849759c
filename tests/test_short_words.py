"""The short path's scorer: the stop, repeat, next and skip words scored as a closed set on the audio."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest_speech import Render, speech_fixture
from voice_host.ears.short_words import ShortView, ShortViews, ShortWord, ShortWordScorer, gated_words
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


@pytest.mark.parametrize("seconds", [0.58, 0.59, 0.595, 0.60, 0.61])
def test_a_word_scores_alike_at_every_length_near_the_encoder_s_80_frames(
    short_scorer: ShortWordScorer, render_speech: Render, seconds: float
) -> None:
    # 0.59-0.60 s with the short path's 1 s of padding is 80 encoder frames, which CTranslate2 took for mel
    # features and encoded again: "Stop." scored -5.0 there, not -1.4 (voice_host/ears/asr.py `window_frames`).
    said = render_speech("Stop.", pad=0.0)[: int(0.58 * 16_000)]
    audio = np.concatenate([said, np.zeros(int(seconds * 16_000) - len(said), dtype=np.float32)])
    scores = short_scorer.score(audio)
    assert scores.ranked()[0][0] is ShortWord.STOP
    assert scores.best[ShortWord.STOP] > -2.5


@pytest.mark.parametrize("said", ["Read exhibit seven.", "Yes, go ahead.", "Who's got the pen?"])
def test_other_words_are_no_short_word(short_scorer: ShortWordScorer, render_speech: Render, said: str) -> None:
    assert ShortPath().verdict(short_scorer.score(render_speech(said, pad=0.1))) is None


def test_gated_words_keep_only_what_the_gate_let_through_and_a_frame_either_side() -> None:
    words = np.full(1600, 0.5, dtype=np.float32)  # the linear canceller's output: a word and the echo's residue
    detect = np.zeros(1600, dtype=np.float32)
    detect[800:960] = 0.1  # the gate let one 10 ms frame through
    gated = gated_words(words, detect)
    assert np.all(gated[640:1120] == 0.5)  # that frame and one either side
    assert np.all(gated[:630] == 0) and np.all(gated[1130:] == 0)


def test_without_the_detectors_signal_every_view_is_the_words() -> None:
    words = np.full(320, 0.5, dtype=np.float32)
    assert all(ShortViews(words).view(view) is words for view in ShortView)
    assert ShortViews(words, np.zeros(100, dtype=np.float32)).view(ShortView.SUPPRESSED) is words  # not the same samples
    detect = np.full(320, 0.25, dtype=np.float32)
    assert ShortViews(words, detect).view(ShortView.SUPPRESSED) is detect
