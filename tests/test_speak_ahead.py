"""Lines made ahead wait while the ears are busy (voice_host/screen/voice_io.py `while_not_busy`)."""

from __future__ import annotations

import threading

from voice_host.mouth.tts import HOST, SpeechLine
from voice_host.screen.voice_io import while_not_busy

LINES = [SpeechLine(HOST, f"Line {n}.", part_index=n) for n in range(3)]


def test_with_the_ears_quiet_every_line_comes_at_once() -> None:
    asked: list[int] = []

    def busy() -> bool:
        asked.append(1)
        return False

    assert list(while_not_busy(LINES, busy, threading.Event())) == LINES
    assert len(asked) == 3


def test_a_line_waits_until_the_ears_are_no_longer_busy() -> None:
    answers = [True, True, False, False, True, False]
    asked: list[bool] = []

    def busy() -> bool:
        asked.append(answers[len(asked)])
        return asked[-1]

    lines = while_not_busy(LINES, busy, threading.Event(), poll_seconds=0.001)
    assert next(lines) == LINES[0] and len(asked) == 3  # asked again until the ears were quiet
    assert list(lines) == LINES[1:] and len(asked) == 6


def test_no_line_comes_after_stop_even_while_waiting() -> None:
    stop = threading.Event()
    lines = while_not_busy(LINES, lambda: True, stop, poll_seconds=0.001)
    stop.set()
    assert list(lines) == []


def test_stop_set_between_lines_ends_them() -> None:
    stop = threading.Event()
    lines = while_not_busy(LINES, lambda: False, stop)
    assert next(lines) == LINES[0]
    stop.set()
    assert list(lines) == []
