"""bench/live_turn.py's room: what it says when, and what it measures, fed the speaker's monitor chunk by chunk."""

from __future__ import annotations

import math
from datetime import datetime

import numpy as np
import pytest

from audio_fixtures.pulse import RATE
from bench.live_turn import CHUNK, NOT_READ, QUIET_BEFORE_LINE, Line, Room, shut_spans
from voice_host.loop.listener import ECHO_NOT_TRUSTED, ECHO_TRUSTED

QUIET = np.zeros(CHUNK)
HOST = np.full(CHUNK, 0.1)  # the Host sounding at the speaker
WAIT = round(QUIET_BEFORE_LINE * RATE / CHUNK)  # chunks of quiet before the room speaks


def _feed(room: Room, chunk: np.ndarray, chunks: int) -> list[np.ndarray]:
    return [room.step(chunk) for _ in range(chunks)]


def test_a_question_is_said_after_the_host_is_quiet_and_timed_to_its_answer() -> None:
    room = Room([Line("q", "Joel, where were you?", np.full(2 * CHUNK, 0.5))], [])
    room.started = True
    said = _feed(room, QUIET, WAIT + 1)  # the words begin in the chunk the quiet is long enough, and take two
    assert [float(np.max(mic)) > 0.4 for mic in said[-3:]] == [False, True, True]
    _feed(room, QUIET, 25)  # half a second
    room.step(HOST)
    assert [a.line.id for a in room.answers] == ["q"]
    assert room.answers[0].seconds == pytest.approx(0.5)  # from the words' end to the Host's first sound
    assert room.done


def test_the_last_question_is_answered_before_the_stop_trials_begin_and_a_stop_is_timed_to_the_host_s_last_sound() -> None:
    room = Room([Line("q", "Next question?", np.full(CHUNK, 0.5))], [Line("stop-0", "Stop.", np.full(2 * CHUNK, 0.5))])
    room.started = True
    _feed(room, QUIET, WAIT + 10)
    room.step(HOST)  # the answer to the last question, not a stop trial's
    assert [a.line.id for a in room.answers] == ["q"] and room.stopped == []
    _feed(room, QUIET, WAIT)
    assert room.to_send == ("Read E1", "Enter")  # an exhibit asked for, to say the stop word over
    room.to_send = None
    said = _feed(room, HOST, 101)  # 2 s of the Host reading, and the stop word (two chunks) over its last
    assert [float(np.max(mic)) > 0.4 for mic in said[-3:]] == [False, True, True]
    _feed(room, HOST, 10)  # the Host reads on 0.2 s after the word
    _feed(room, QUIET, 50)  # then a second of quiet: it stopped
    assert [s.line.id for s in room.stopped] == ["stop-0"]
    assert room.stopped[0].seconds == pytest.approx(0.2, abs=2 / RATE)  # to its last sample
    assert room.done


def test_a_stop_trial_whose_exhibit_is_never_read_is_skipped() -> None:
    room = Room([], [Line("stop-0", "Stop.", np.full(2 * CHUNK, 0.5))])
    room.started = True
    _feed(room, QUIET, WAIT)
    assert room.to_send == ("Read E1", "Enter")
    room.to_send = None
    _feed(room, QUIET, round(NOT_READ * RATE / CHUNK) + 1)  # the Host never reads it
    assert [line.id for line in room.unread] == ["stop-0"] and room.stopped == []
    assert room.to_send == ("Escape",) and room.done


def test_the_app_s_log_says_when_the_microphone_was_shut_over_the_host() -> None:
    log = f"""2026-12-06 04:38:00,000 INFO    listener voice_host.loop.listener: {ECHO_TRUSTED}
2026-12-06 04:38:39,990 INFO    listener voice_host.ears.echo: the echo's delay moved 0.19 s ago: followed
2026-12-06 04:38:40,010 INFO    listener voice_host.loop.listener: {ECHO_NOT_TRUSTED}
2026-12-06 04:38:52,500 INFO    listener voice_host.loop.listener: {ECHO_TRUSTED}
2026-12-06 04:39:03,359 DEBUG   short words_0 voice_host.loop.listener: short words [('stop', -1.02)] in 0.04 s: ShortWord.STOP
2026-12-06 04:39:26,234 INFO    listener voice_host.loop.listener: {ECHO_NOT_TRUSTED}
"""

    def at(clock: str) -> float:
        return datetime.strptime(f"2026-12-06 {clock}", "%Y-%m-%d %H:%M:%S,%f").timestamp()

    assert shut_spans(log) == [(at("04:38:40,010"), at("04:38:52,500")), (at("04:39:26,234"), math.inf)]
    # Shut before it ever opened (the canceller still learning the room at the night's start): not counted.
    assert shut_spans(f"2026-12-06 04:30:00,000 INFO    listener x: {ECHO_NOT_TRUSTED}\n") == []
