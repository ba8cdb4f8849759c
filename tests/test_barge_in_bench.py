"""bench/barge_in.py's accounting: when, in a pause's scoring time, the Host was held."""

from __future__ import annotations

from dataclasses import replace

from bench.barge_in import Short, hold_asked_after
from voice_host.ears.short_words import ShortWord, ShortWordScores
from voice_host.loop.barge_in import ShortPath

HOLDS_FROM_HALF = ShortPath(hold_from=0.5)


def scoring(stop: float, seconds: float, before: float, spotter: bool = False) -> Short:
    scores = ShortWordScores({ShortWord.STOP: stop}, {ShortWord.STOP: "Stop."}, seconds, 1.0)
    return Short(1.0, 0.97, scores, None, seconds, before_seconds=before, spotter=spotter)


def test_a_hold_is_timed_from_the_spotter_scoring_that_asked_for_it_not_the_last_scoring() -> None:
    # Scored ahead of the pause counting: the listener makes the hold once the pause counts, after every scoring ran.
    tiny, spotter, base = scoring(-3.5, 0.10, 0.0), scoring(1.0, 0.02, 0.10, spotter=True), scoring(-6.0, 0.15, 0.12)
    assert hold_asked_after([tiny, spotter, base], HOLDS_FROM_HALF) is spotter
    early = scoring(1.0, 0.02, 0.0, spotter=True)  # the spotter first (ShortPath.spotter_first)
    after_it = [replace(tiny, before_seconds=0.02), replace(base, before_seconds=0.12)]
    assert hold_asked_after([early, *after_it], HOLDS_FROM_HALF) is early


def test_a_spotter_scoring_under_the_hold_did_not_ask_for_it() -> None:
    far, near = scoring(-1.0, 0.02, 0.0, spotter=True), scoring(0.7, 0.02, 0.12, spotter=True)
    tiny = scoring(-3.5, 0.10, 0.02)
    assert hold_asked_after([far, tiny, near], HOLDS_FROM_HALF) is near  # the second view's spotter came near
    assert hold_asked_after([far, tiny], HOLDS_FROM_HALF) is tiny  # none did: the last scoring, as before


def test_a_hold_for_a_wait_is_timed_from_the_spotter_scoring_that_asked_for_it() -> None:
    from voice_host.ears.stop_spotter import SpottedScores

    wait_like = SpottedScores({ShortWord.STOP: -2.0}, {ShortWord.STOP: "(stop spotted)"}, 0.02, 1.0, wait=2.0)
    early = Short(1.0, 0.97, wait_like, None, 0.02, before_seconds=0.0, spotter=True)
    tiny = scoring(-1.5, 0.10, 0.02)
    assert hold_asked_after([early, tiny], replace(HOLDS_FROM_HALF, wait_hold_from=1.5)) is early
    assert hold_asked_after([early, tiny], replace(HOLDS_FROM_HALF, wait_hold_from=None)) is tiny  # no hold: the last
