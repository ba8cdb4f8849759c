"""The paused lines of the end-of-turn benchmark: labels, kinds, splits and pauses (no audio)."""

from __future__ import annotations

import numpy as np

from audio_fixtures.corpus import Split
from audio_fixtures.paused import PAUSE_RANGE, PAUSED_MANIFEST, _resume_after_break, paused_lines
from audio_fixtures.voices import VOICE_BY_NAME
from voice_host.cli.hear import fresh_game
from voice_host.ears.sound import SAMPLE_RATE
from voice_host.loop.casefiles import load_bundled_case

LINES = paused_lines()


def test_every_line_is_labelled_as_the_engine_classifies_the_whole_of_it() -> None:
    case = load_bundled_case()
    wrong: list[str] = []
    for line in LINES:
        f = line.fixture
        message = fresh_game(case).preview(f.said)
        got = (message.kind.value, message.suspect, message.exhibits, message.command.value if message.command else None)
        if got != (f.kind, f.suspect, f.exhibits, f.command):
            wrong.append(f"{f.said!r}: {got}")
    assert not wrong


def test_a_whole_first_part_is_already_the_message_and_an_open_one_is_not() -> None:
    case = load_bundled_case()
    for line in LINES:
        f = line.fixture
        assert f.said.startswith(line.said_first + " ")
        first = fresh_game(case).preview(line.said_first)
        if line.whole_first:
            assert (first.kind.value, first.suspect) == (f.kind, f.suspect), f.said
        else:
            got = (first.kind.value, first.suspect, first.exhibits, first.command.value if first.command else None)
            assert got != (f.kind, f.suspect, f.exhibits, f.command), f.said


def test_both_kinds_of_pause_are_in_both_splits_and_there_are_enough_to_report() -> None:
    for split in Split:
        mine = [line for line in LINES if line.fixture.split is split]
        assert sum(line.whole_first for line in mine) >= 25
        assert sum(not line.whole_first for line in mine) >= 25


def test_test_lines_use_only_test_voices_and_phrasings_tune_never_has() -> None:
    tune = {line.fixture.said for line in LINES if line.fixture.split is Split.TUNE}
    for line in LINES:
        assert VOICE_BY_NAME[line.fixture.voice].split is line.fixture.split
        if line.fixture.split is Split.TEST:
            assert line.fixture.said not in tune
    assert len({line.fixture.id for line in LINES}) == len(LINES)


def test_pauses_are_within_the_range_and_seeded() -> None:
    assert all(PAUSE_RANGE[0] <= line.pause <= PAUSE_RANGE[1] for line in LINES)
    assert [line.fixture.id for line in paused_lines()] == [line.fixture.id for line in LINES]
    assert [line.pause for line in paused_lines()] == [line.pause for line in LINES]


def test_the_committed_list_is_what_the_generator_makes() -> None:
    rows = PAUSED_MANIFEST.read_text(encoding="utf-8").splitlines()[1:]
    assert [row.split("\t")[0] for row in rows] == [line.fixture.id for line in LINES]


def test_the_break_is_found_where_the_voice_resumes() -> None:
    tone = np.sin(np.arange(int(0.5 * SAMPLE_RATE)) * 0.2).astype(np.float32)
    quiet = np.zeros(int(0.45 * SAMPLE_RATE), dtype=np.float32)
    speech = np.concatenate([tone, quiet, tone])
    assert abs(_resume_after_break(speech, 0.45) - 0.95) < 0.011
