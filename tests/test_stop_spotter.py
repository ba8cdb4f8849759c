"""The stop spotter: speech embeddings and a logistic regression, a third opinion on "stop" over the Host."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest_speech import Render, speech_fixture
from voice_host.ears.short_words import ShortWord
from voice_host.ears.sound import SAMPLE_RATE, Audio
from voice_host.ears.stop_spotter import (
    EMBEDDINGS,
    WAIT_WEIGHTS_FILE,
    WEIGHTS_FILE,
    SpeechEmbedder,
    SpotterWeights,
    StopSpotter,
    pooled,
)


@speech_fixture(scope="module")
def spotter() -> StopSpotter:
    return StopSpotter()


def test_a_stop_word_looks_more_like_stop_than_table_talk(spotter: StopSpotter, render_speech: Render) -> None:
    # Clean, not over the Host's echo as it learnt: not sure enough to act on, but in the right order by far.
    stops = [spotter.score(render_speech(said, pad=0.1)).best[ShortWord.STOP] for said in ("Stop.", "Stop!")]
    talk = [
        spotter.score(render_speech(said, pad=0.1)).best[ShortWord.STOP] for said in ("Read exhibit seven.", "Who's got the pen?")
    ]
    assert min(stops) > max(talk) + 3.0


def test_a_wait_looks_more_like_wait_than_stop_or_table_talk(spotter: StopSpotter, render_speech: Render) -> None:
    waits = [spotter.score(render_speech(said, pad=0.1)).wait for said in ("Wait.", "Hold on.")]
    others = [spotter.score(render_speech(said, pad=0.1)).wait for said in ("Stop.", "Read exhibit seven.")]
    assert min(waits) > max(others)


def test_a_short_word_is_embedded_in_a_full_window(spotter: StopSpotter, render_speech: Render) -> None:
    embeddings = spotter.embedder.embed(render_speech("Stop.", pad=0.1))  # under a second: silence before it
    assert embeddings.shape == (EMBEDDINGS, 96) and np.all(np.isfinite(embeddings))


def test_the_weights_survive_a_save_and_load(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    weights = SpotterWeights(rng.standard_normal(192), rng.random(192) + 0.5, rng.standard_normal(192), bias=-1.5)
    weights.save(tmp_path / "spotter.npz")
    loaded = SpotterWeights.load(tmp_path / "spotter.npz")
    features = pooled(rng.standard_normal((EMBEDDINGS, 96)))
    assert loaded.log_odds(features) == weights.log_odds(features)


@pytest.mark.parametrize("path", [WEIGHTS_FILE, WAIT_WEIGHTS_FILE], ids=["stop", "wait"])
def test_the_shipped_weights_fit_the_pooled_embeddings(path: Path) -> None:
    weights = SpotterWeights.load(path)
    assert weights.mean.shape == weights.scale.shape == weights.weights.shape == (2 * 96,)
    assert np.all(weights.scale > 0)


class FixedEmbedder(SpeechEmbedder):
    """Gives the same embeddings for any audio (no ONNX session)."""

    def __init__(self, embeddings: np.ndarray) -> None:
        self.embeddings = embeddings

    def embed(self, audio: Audio) -> np.ndarray:
        return self.embeddings


def test_the_spotter_scores_stop_and_wait_from_one_embedding() -> None:
    rng = np.random.default_rng(5)
    embeddings = rng.standard_normal((EMBEDDINGS, 96))
    stop = SpotterWeights(rng.standard_normal(192), rng.random(192) + 0.5, rng.standard_normal(192), bias=-1.0)
    wait = SpotterWeights(rng.standard_normal(192), rng.random(192) + 0.5, rng.standard_normal(192), bias=0.5)
    scored = StopSpotter(stop, FixedEmbedder(embeddings), wait).score(np.zeros(SAMPLE_RATE, dtype=np.float32))
    assert scored.best == {ShortWord.STOP: stop.log_odds(pooled(embeddings))}
    assert scored.wait == wait.log_odds(pooled(embeddings))


def test_the_spotter_learns_from_no_test_voice_and_no_test_words() -> None:
    from audio_fixtures.corpus import Split, lines
    from audio_fixtures.fixtures import load_fixtures
    from audio_fixtures.voices import voices
    from bench.stop_spotter import jobs

    test_voices = voices(Split.TEST)
    test_variants = {voice.espeak_voice.split("+")[1] for voice in test_voices if voice.engine == "espeak"}
    tune_fixtures = {fixture.id for fixture in load_fixtures(Split.TUNE)}
    test_said = {line.said for line in lines(Split.TEST)} - {line.said for line in lines(Split.TUNE)}
    found = jobs()
    assert sum(job.stop for job in found) > 300 and sum(not job.stop for job in found) > 200
    for job in found:
        if job.voice is None:
            assert job.fixture_id in tune_fixtures
        else:
            assert job.voice not in test_voices and job.voice.espeak_voice.split("+")[-1] not in test_variants
        assert job.said not in test_said


def test_each_regression_learns_its_own_words_against_the_rest_and_never_the_other_word() -> None:
    from bench.stop_spotter import Word, word_of

    names = np.array(["v: Stop.", "v: Stop, please.", "v: Wait.", "v: Hold on.", "v: Top.", "fixture: Read E3."])
    labels = np.array([True, True, True, True, False, False])
    learnt, own = word_of(names, labels, Word.STOP)
    assert learnt.tolist() == [True, True, False, False, True, True] and own[learnt].tolist() == [True, True, False, False]
    learnt, own = word_of(names, labels, Word.WAIT)
    assert learnt.tolist() == [False, False, True, True, True, True] and own[learnt].tolist() == [True, True, False, False]


def test_the_fit_scores_what_it_learnt_as_stop_above_the_rest() -> None:
    from bench.stop_spotter import fit

    rng = np.random.default_rng(1)
    stop = rng.normal(1.0, 1.0, size=(60, 192))
    other = rng.normal(-1.0, 1.0, size=(90, 192))
    weights = fit(np.vstack([stop, other]), np.array([True] * 60 + [False] * 90), l2=30.0)
    unseen_stop, unseen_other = rng.normal(1.0, 1.0, size=192), rng.normal(-1.0, 1.0, size=192)
    assert weights.log_odds(unseen_stop) > 0 > weights.log_odds(unseen_other)


def test_the_barge_in_probe_speaks_in_variants_no_split_has_and_the_spotter_never_learnt() -> None:
    from audio_fixtures.voices import VOICES
    from bench.barge_in import probe_voices
    from bench.stop_spotter import extra_voices

    probe = {voice.espeak_voice.split("+")[-1].lower() for voice in probe_voices()}
    used = {voice.espeak_voice.split("+")[-1].lower() for voice in (*VOICES, *extra_voices()) if voice.engine == "espeak"}
    assert len(probe) == len(probe_voices()) >= 12
    assert not probe & used
