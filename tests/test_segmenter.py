"""The end-of-speech segmenter, driven by timings; the collector's audio; Silero on rendered speech."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest_speech import Render
from voice_host.ears.sound import SAMPLE_RATE
from voice_host.ears.vad import (
    DigitalSilence,
    RecentAudio,
    SegmenterSettings,
    SegmentEvent,
    SilenceStep,
    UtteranceCollector,
    VoiceSegmenter,
)

CHUNK = 0.05  # seconds per simulated chunk
SETTINGS = SegmenterSettings(speech_seconds=0.15, early_seconds=0.2, silence_seconds=0.6, pre_roll_seconds=0.3, max_seconds=3.0)


def feed(segmenter: VoiceSegmenter, pattern: str) -> list[tuple[int, SegmentEvent]]:
    """Feed one chunk per character ('s' speech, '.' silence); return the (index, event) of every event."""
    events: list[tuple[int, SegmentEvent]] = []
    for index, mark in enumerate(pattern):
        event = segmenter.process(CHUNK, mark == "s")
        if event is not SegmentEvent.NONE:
            events.append((index, event))
    return events


def test_speech_starts_after_enough_speech_in_a_row() -> None:
    # 0.15 s of speech needed: the third speech chunk starts it.
    assert feed(VoiceSegmenter(SETTINGS), "..sss") == [(4, SegmentEvent.SPEECH_STARTED)]


def test_a_short_blip_is_not_speech() -> None:
    assert feed(VoiceSegmenter(SETTINGS), "ss.ss.s.ss......") == []


def test_silence_starts_early_then_speech_ends_after_the_hangover() -> None:
    events = feed(VoiceSegmenter(SETTINGS), "ssssss" + "." * 14)
    # Started at chunk 2; silence from chunk 6: 0.2 s in at chunk 9, 0.6 s in at chunk 17.
    assert events == [
        (2, SegmentEvent.SPEECH_STARTED),
        (9, SegmentEvent.SILENCE_STARTED),
        (17, SegmentEvent.SPEECH_ENDED),
    ]


def test_a_word_gap_shorter_than_early_seconds_signals_nothing() -> None:
    events = feed(VoiceSegmenter(SETTINGS), "ssss..ssss" + "." * 12)
    assert [event for _, event in events] == [
        SegmentEvent.SPEECH_STARTED,
        SegmentEvent.SILENCE_STARTED,
        SegmentEvent.SPEECH_ENDED,
    ]
    assert events[1][0] == 13  # the pause after the second word, not the gap


def test_speech_resumed_after_an_early_start_then_a_second_early_start() -> None:
    events = feed(VoiceSegmenter(SETTINGS), "ssss" + "...." + "sss" + "." * 12)
    assert [event for _, event in events] == [
        SegmentEvent.SPEECH_STARTED,
        SegmentEvent.SILENCE_STARTED,
        SegmentEvent.SPEECH_RESUMED,
        SegmentEvent.SILENCE_STARTED,
        SegmentEvent.SPEECH_ENDED,
    ]
    assert [index for index, _ in events] == [2, 7, 8, 14, 22]


def test_a_long_pause_under_the_hangover_keeps_one_utterance() -> None:
    # 0.55 s of silence is under the 0.6 s hangover: still one utterance.
    events = feed(VoiceSegmenter(SETTINGS), "ssss" + "." * 11 + "ssss" + "." * 12)
    assert [event for _, event in events].count(SegmentEvent.SPEECH_ENDED) == 1


def test_early_seconds_zero_signals_on_the_first_silent_chunk() -> None:
    settings = SegmenterSettings(speech_seconds=0.1, early_seconds=0.0, silence_seconds=0.3)
    events = feed(VoiceSegmenter(settings), "sss....")
    assert events[:2] == [(1, SegmentEvent.SPEECH_STARTED), (3, SegmentEvent.SILENCE_STARTED)]


def test_an_endless_utterance_is_cut_at_max_seconds() -> None:
    events = feed(VoiceSegmenter(SETTINGS), "s" * 80)
    assert events[0] == (2, SegmentEvent.SPEECH_STARTED)
    assert events[1] == (59, SegmentEvent.TOO_LONG)  # 3.0 s of utterance since it started (0.15 s at chunk 2)
    # Then it starts again from scratch.
    assert events[2] == (62, SegmentEvent.SPEECH_STARTED)


def test_a_second_utterance_after_the_first_ends() -> None:
    events = feed(VoiceSegmenter(SETTINGS), ("sss" + "." * 12) * 2)
    assert [event for _, event in events] == [
        SegmentEvent.SPEECH_STARTED,
        SegmentEvent.SILENCE_STARTED,
        SegmentEvent.SPEECH_ENDED,
    ] * 2


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        SegmenterSettings(early_seconds=0.8, silence_seconds=0.6)


def _chunk(value: float) -> np.ndarray:
    return np.full(int(CHUNK * SAMPLE_RATE), value, dtype=np.float32)


def test_collector_keeps_the_pre_roll_and_the_whole_utterance() -> None:
    collector = UtteranceCollector(SETTINGS)
    # Ten silent chunks numbered 1..10 (as sample values), then speech 0.5, then silence 0.
    steps = [collector.add(_chunk(n / 100), False) for n in range(1, 11)]
    steps += [collector.add(_chunk(0.5), True) for _ in range(5)]
    steps += [collector.add(_chunk(0.0), False) for _ in range(12)]
    early = [s for s in steps if s.event is SegmentEvent.SILENCE_STARTED]
    ended = [s for s in steps if s.event is SegmentEvent.SPEECH_ENDED]
    assert len(early) == 1 and len(ended) == 1
    audio = ended[0].audio
    assert audio is not None
    per_chunk = int(CHUNK * SAMPLE_RATE)
    values = [float(audio[i * per_chunk]) for i in range(len(audio) // per_chunk)]
    # 0.3 s (6 chunks) of pre-roll before the speech: chunks 5..10 of the silence.
    assert values[:6] == pytest.approx([0.05, 0.06, 0.07, 0.08, 0.09, 0.10])
    assert values[6:11] == [0.5] * 5
    assert values[11:] == [0.0] * 12
    # The early audio is the same utterance, cut where the pause was long enough.
    assert early[0].audio is not None
    assert np.array_equal(early[0].audio, audio[: len(early[0].audio)])
    assert len(early[0].audio) == (6 + 5 + 4) * per_chunk


def test_collector_starts_fresh_for_the_next_utterance() -> None:
    collector = UtteranceCollector(SETTINGS)
    for value in (0.1, 0.2):
        ended = None
        for _ in range(4):
            collector.add(_chunk(value), True)
        for _ in range(12):
            step = collector.add(_chunk(0.0), False)
            if step.event is SegmentEvent.SPEECH_ENDED:
                ended = step.audio
        assert ended is not None
        # Only this utterance's speech, never the last one's.
        assert set(np.unique(ended)) <= {0.0, np.float32(value)}


def test_recent_audio_keeps_the_latest_seconds_and_says_when_it_has_too_few() -> None:
    recent = RecentAudio(0.1, sample_rate=100)  # 10 samples
    for value in range(1, 6):
        recent.add(np.full(4, value, dtype=np.float32))
    latest = recent.last(10)
    assert latest is not None and list(latest) == [3, 3, 4, 4, 4, 4, 5, 5, 5, 5]
    assert recent.last(13) is None  # more than was kept (12 samples, whole blocks)


def test_collector_reset_forgets_a_half_utterance() -> None:
    collector = UtteranceCollector(SETTINGS)
    for _ in range(4):
        collector.add(_chunk(0.9), True)
    assert collector.collecting
    collector.reset()
    assert not collector.collecting
    for _ in range(4):
        collector.add(_chunk(0.2), True)
    ended = [collector.add(_chunk(0.0), False) for _ in range(12)][-1]
    assert ended.event is SegmentEvent.SPEECH_ENDED and ended.audio is not None
    assert 0.9 not in set(np.round(ended.audio, 3))


def test_silero_hears_rendered_speech_and_not_silence(render_speech: Render) -> None:
    from voice_host.ears.vad import SileroVad

    vad = SileroVad()
    silence = np.zeros(SAMPLE_RATE, dtype=np.float32)
    quiet = [vad.probability(silence[i : i + 512]) for i in range(0, len(silence), 512)]
    assert max(quiet) < 0.2
    speech = render_speech("Abel, where were you at ten o'clock?", pad=0.0)
    # Blocks of 800 samples (not a multiple of the 512-sample window) are buffered correctly.
    probabilities = [vad.probability(speech[i : i + 800]) for i in range(0, len(speech), 800)]
    assert np.mean(np.array(probabilities) > 0.5) > 0.6
    vad.reset()
    assert vad.probability(np.zeros(100, dtype=np.float32)) == 0.0  # no window complete yet


def rests(silence: DigitalSilence, pattern: str) -> str:
    """Feed one 0.05 s block per character ('0' digital silence, 's' anything else); one letter per step."""
    letter = {SilenceStep.HEAR: "h", SilenceStep.REST: "r", SilenceStep.SKIP: "s"}
    return "".join(letter[silence.add(CHUNK, mark == "0")] for mark in pattern)


def test_the_gates_silence_rests_silero_once_after_a_run_then_skips_it() -> None:
    # h: hear (run the model), r: rest (start it afresh), s: skip (the model rests)
    assert rests(DigitalSilence(rest_after_seconds=0.2), "ss00000ss") == "hhhhhrshh"


def test_a_gap_shorter_than_the_run_never_rests_silero() -> None:
    assert rests(DigitalSilence(rest_after_seconds=0.2), "s000s000s") == "h" * 9


def test_after_sound_the_next_run_rests_silero_again() -> None:
    assert rests(DigitalSilence(rest_after_seconds=0.1), "00s000") == "hrhhrs"


def test_silero_grows_deaf_over_digital_silence_and_hears_again_after_a_rest(render_speech: Render) -> None:
    """Why `DigitalSilence`: Silero's state drifts over long digital silence (the gate's, over the Host)."""
    from voice_host.ears.vad import SileroVad

    vad = SileroVad()
    word = render_speech("Wait.", pad=0.0) * 0.1  # as quiet as a word said over the Host's echo (about -39 dBFS)

    def loudest(before_seconds: float) -> float:
        vad.reset()
        vad.probability(np.zeros(round(before_seconds * SAMPLE_RATE), dtype=np.float32))
        return max(vad.probability(word[i : i + 512]) for i in range(0, len(word), 512))

    assert loudest(60.0) < 0.5 <= loudest(DigitalSilence().rest_seconds)
