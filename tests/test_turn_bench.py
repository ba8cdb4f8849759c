"""bench/turn.py's replay of the listener's one worker: what a run no longer wanted costs the runs after it."""

from __future__ import annotations

import math

from bench.turn import PauseResult, Policy, Trace, turn_end
from voice_host.understanding.understand import Heard


def pause(start: float, resumed: float | None, understand: float, passes: tuple[float, ...]) -> PauseResult:
    ceiling = None if resumed is not None else start + 1.0
    heard = Heard("", "", (), 0.0, None, False)
    return PauseResult(start, start, resumed, ceiling, understand, heard, None, 0.0, passes)


def test_a_pause_s_run_stops_at_the_end_of_the_pass_going_on() -> None:
    three = pause(0.0, None, 2.0, (0.5, 0.5, 1.0))
    assert math.isclose(three.runs_for(0.2, 2.0), 0.5)  # in the first pass: it ends
    assert math.isclose(three.runs_for(0.7, 2.0), 1.0)  # in the second
    assert math.isclose(three.runs_for(0.2, 4.0), 1.0)  # the passes scaled to an idle machine's estimate
    assert pause(0.0, None, 2.0, ()).runs_for(0.2, 2.0) == 2.0  # a trace without the passes: to its end


def test_the_whole_utterance_waits_only_for_the_pass_going_on_when_speech_came_back() -> None:
    # "Papa, your lantern was still lit at 11." understood in 2.4 s from its pause, "why?" 0.4 s into it; then the
    # whole line, understood in 0.5 s, ends the turn at its own pause.
    trace = Trace([pause(1.0, 1.4, 2.4, (0.6, 0.6, 1.2)), pause(2.0, None, 0.5, (0.5,))])
    ends = Policy("stops", lambda p: 0.0 if p.resumed is None else None, gap=0.1)
    runs_on = Policy("runs on", ends.wait, gap=0.1, stops=False)
    stopped, left = turn_end(trace, ends), turn_end(trace, runs_on)
    first, second = (p.signalled(0.1) for p in trace.pauses)  # when each pause is handed over (audio time)
    assert first is not None and second is not None and first + 0.6 < second
    assert stopped is not None and math.isclose(stopped[0], second + 0.5)  # the first run stopped after its first pass
    assert left is not None and math.isclose(left[0], first + 2.4 + 0.5)  # it ran its 2.4 s and held the worker
