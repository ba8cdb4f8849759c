"""Echo cancellation: the far-end hand-over, the 10 ms framing, and the two real cancellers on a
synthetic echo (no sound card, no model)."""

from __future__ import annotations

import numpy as np

from voice_host.ears.echo import FRAME, EchoCanceller, FarEnd, SpeexFrames, WebRtcFrames
from voice_host.ears.sound import BLOCK_SAMPLES, SAMPLE_RATE, Audio


class Keep:
    def process(self, mic: Audio, far: Audio) -> Audio:
        return mic


class Subtract:
    """A perfect canceller for an echo path that is the far end itself."""

    def process(self, mic: Audio, far: Audio) -> Audio:
        return (mic - far).astype(np.float32)


def ramp(count: int, start: int = 0) -> Audio:
    return (np.arange(start, start + count, dtype=np.float32) / 100_000).astype(np.float32)


def test_the_far_end_gives_back_what_was_pushed_then_silence() -> None:
    far = FarEnd()
    far.push(ramp(300), SAMPLE_RATE)
    first = far.take(200)
    second = far.take(200)
    assert np.array_equal(first, ramp(200))
    assert np.array_equal(second[:100], ramp(100, 200)) and not second[100:].any()


def test_the_far_end_converts_the_players_rate() -> None:
    far = FarEnd()
    tone = np.sin(2 * np.pi * 440 * np.arange(22_050) / 22_050).astype(np.float32)
    far.push(tone, 22_050)
    taken = far.take(SAMPLE_RATE)
    # soxr keeps a little back for its filter; what came out is the tone at 16 kHz.
    assert len(taken) == SAMPLE_RATE
    middle = taken[4000:12000]
    spectrum = np.abs(np.fft.rfft(middle))
    assert abs(np.argmax(spectrum) * SAMPLE_RATE / len(middle) - 440) < 3


def test_a_far_end_that_piled_up_keeps_only_the_newest() -> None:
    far = FarEnd(max_lag_seconds=0.01)  # 160 samples of slack
    far.push(ramp(2000), SAMPLE_RATE)
    taken = far.take(100)
    # 2000 pushed, 100 wanted, 160 of slack: the oldest 1740 were dropped.
    assert np.array_equal(taken, ramp(100, 1740))


def test_the_far_end_says_how_long_it_has_been_quiet() -> None:
    far = FarEnd()
    far.push(np.full(1600, 0.5, dtype=np.float32), SAMPLE_RATE)
    far.take(1600)
    assert far.quiet_seconds() == 0.0
    far.take(8000)
    assert far.quiet_seconds() == 0.5


def test_blocks_come_out_whole_and_ten_ms_late() -> None:
    canceller = EchoCanceller(Keep(), Keep(), passthrough_after_seconds=10.0)
    mic = ramp(BLOCK_SAMPLES * 5)
    quiet = np.zeros(BLOCK_SAMPLES, np.float32)
    out = [canceller.process(mic[i : i + BLOCK_SAMPLES], quiet) for i in range(0, len(mic), BLOCK_SAMPLES)]
    detect = np.concatenate([o.detect for o in out])
    assert all(len(o.detect) == BLOCK_SAMPLES == len(o.words) for o in out)
    assert not detect[:FRAME].any()
    assert np.array_equal(detect[FRAME:], mic[: len(mic) - FRAME])


def test_the_echo_is_taken_out_while_the_host_sounds_and_the_raw_microphone_passes_after() -> None:
    canceller = EchoCanceller(Subtract(), Keep(), passthrough_after_seconds=1.0)
    block = np.full(BLOCK_SAMPLES, 0.25, dtype=np.float32)
    for _ in range(3):
        sounding = canceller.process(block, block, far_quiet_seconds=0.0)
    assert sounding.far_active and not sounding.detect.any() and sounding.words.any()
    quiet = canceller.process(block, np.zeros(BLOCK_SAMPLES, np.float32), far_quiet_seconds=1.5)
    assert not quiet.far_active and np.array_equal(quiet.detect, quiet.words) and quiet.detect.any()


def synthetic_echo(seconds: float = 6.0) -> tuple[Audio, Audio]:
    """Speech-like far end (noise in syllable bursts) and its echo: 40 ms late, a decaying tail, -10 dB."""
    rng = np.random.default_rng(7)
    count = int(seconds * SAMPLE_RATE)
    envelope = (np.sin(2 * np.pi * 3 * np.arange(count) / SAMPLE_RATE) > 0).astype(np.float32)
    far = (rng.standard_normal(count) * 0.1 * envelope).astype(np.float32)
    tail = np.exp(-np.arange(1600) / 300.0) * rng.standard_normal(1600) * 0.3
    tail[0] = 1.0
    delayed = np.concatenate([np.zeros(640), far])[:count]
    echo = np.convolve(delayed, tail)[:count] * 0.316
    return far, echo.astype(np.float32)


def residual_db(frames: WebRtcFrames | SpeexFrames) -> float:
    far, echo = synthetic_echo()
    out = np.concatenate([frames.process(echo[i : i + FRAME], far[i : i + FRAME]) for i in range(0, len(far), FRAME)])
    late = slice(len(far) // 2, None)  # after it has adapted
    return float(10 * np.log10(np.sum(out[late] ** 2) / np.sum(echo[late] ** 2)))


def test_webrtc_takes_the_echo_out() -> None:
    assert residual_db(WebRtcFrames()) < -10


def test_speex_takes_the_echo_out() -> None:
    assert residual_db(SpeexFrames()) < -10


def test_speex_with_its_suppressor_takes_out_more() -> None:
    assert residual_db(SpeexFrames(suppress=True)) < residual_db(SpeexFrames()) - 3


def test_a_far_end_nobody_takes_from_stays_small() -> None:
    far = FarEnd()
    for _ in range(1000):
        far.push(np.zeros(1024, np.float32), 22_050)
    assert len(far._pushed) <= 256
