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
    far, echo = synthetic_echo(10.0)  # speex's 0.6 s filter takes a few seconds to find the room
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


def push_timed(far: FarEnd, audio: Audio, rate: int, first_at: float, block: int = 1024) -> None:
    """`audio` pushed in the Player's blocks, each saying when it sounds."""
    for at in range(0, len(audio), block):
        far.push(audio[at : at + block], rate, first_at + at / rate)


def test_the_far_end_is_matched_to_the_microphone_by_time_not_count() -> None:
    far = FarEnd()
    push_timed(far, ramp(SAMPLE_RATE), SAMPLE_RATE, first_at=100.0)
    # The microphone's block was captured 0.25 s after the far end began: it gets what sounded then,
    # though nothing was taken before it.
    taken = far.take(BLOCK_SAMPLES, heard_at=100.25)
    assert np.array_equal(taken, ramp(BLOCK_SAMPLES, 4000))
    assert far.matched_by_time
    # The next block follows on, whatever its own time says within the stream times' jitter.
    following = far.take(BLOCK_SAMPLES, heard_at=100.25 + BLOCK_SAMPLES / SAMPLE_RATE + 0.007)
    assert np.array_equal(following, ramp(BLOCK_SAMPLES, 4000 + BLOCK_SAMPLES))


def first_sample(block: Audio) -> int:
    return int(round(float(block[0]) * 100_000))


def test_the_far_end_ignores_jitter_and_follows_a_lasting_change_of_offset() -> None:
    far = FarEnd(realign_seconds=0.02, votes=16)
    push_timed(far, ramp(8 * SAMPLE_RATE), SAMPLE_RATE, first_at=10.0)
    step = BLOCK_SAMPLES / SAMPLE_RATE
    jitter = np.random.default_rng(1).uniform(-0.015, 0.015, 40)
    starts = [first_sample(far.take(BLOCK_SAMPLES, 10.5 + n * step + jitter[n])) for n in range(40)]
    assert abs(starts[0] - 8000) <= 240  # where the first block's time says
    assert starts == [starts[0] + n * BLOCK_SAMPLES for n in range(40)]  # then 15 ms of jitter moves nothing
    # An underrun: from now on the far end sounds 100 ms later than counting says (1600 samples back).
    later = [first_sample(far.take(BLOCK_SAMPLES, 10.5 + n * step - 0.1)) for n in range(40, 80)]
    counted = [starts[0] + n * BLOCK_SAMPLES for n in range(40, 80)]
    assert later[:7] == counted[:7]  # not at the first blocks that say so
    assert later[-1] == 8000 + 79 * BLOCK_SAMPLES - 1600  # but once most of the last 16 agree


def test_the_far_end_moves_on_when_behind_but_stays_a_little_ahead() -> None:
    """Behind what sounds, the echo would come sooner than the canceller learnt it: the far end moves on at once.
    A little ahead, the echo comes later, which the canceller follows: the far end stays, and the canceller's
    delay is not moved again by stream times that flip back and forth."""
    step = BLOCK_SAMPLES / SAMPLE_RATE

    def starts_when_times_say(shift_seconds: float) -> list[int]:
        far = FarEnd(realign_seconds=0.02, ahead_seconds=0.06, votes=16)
        push_timed(far, ramp(8 * SAMPLE_RATE), SAMPLE_RATE, first_at=10.0)
        first = first_sample(far.take(BLOCK_SAMPLES, 10.5))
        return [first_sample(far.take(BLOCK_SAMPLES, 10.5 + n * step + shift_seconds)) - first for n in range(1, 40)]

    counted = [n * BLOCK_SAMPLES for n in range(1, 40)]
    # The times say the blocks sound 40 ms sooner than counted: what is handed on is 40 ms ahead. It stays.
    assert starts_when_times_say(-0.04) == counted
    # 40 ms later than counted: behind. Once most of the last 16 agree, it moves on by 640 samples.
    behind = starts_when_times_say(0.04)
    assert behind[:7] == counted[:7]
    assert behind[-1] == counted[-1] + 640
    # 100 ms ahead (beyond what the canceller follows): it moves back.
    assert starts_when_times_say(-0.1)[-1] == counted[-1] - 1600


def test_the_far_end_converts_the_players_rate_in_time() -> None:
    far = FarEnd()
    rate = 22_050
    click = np.zeros(rate, dtype=np.float32)
    click[rate // 2] = 1.0  # sounds at 5.5 s
    push_timed(far, click, rate, first_at=5.0)
    taken = far.take(SAMPLE_RATE // 2, heard_at=5.25)
    # The click 0.25 s into this block: sample 4000.
    assert abs(int(np.argmax(np.abs(taken))) - 4000) <= 1


def test_the_gate_drops_a_faint_residue_of_the_echo_and_passes_a_player() -> None:
    from voice_host.ears.echo import ResidualGate

    rng = np.random.default_rng(3)
    echo = (rng.standard_normal(FRAME * 200) * 0.1).astype(np.float32)
    gate = ResidualGate(floor_db=-25.0, hold_seconds=0.2)
    frames = range(0, len(echo), FRAME)
    residue = [gate.passes(echo[at : at + FRAME], echo[at : at + FRAME] * 0.01) for at in frames]  # 40 dB down
    assert not any(residue)
    player = [gate.passes(echo[at : at + FRAME] * 1.4, echo[at : at + FRAME] * 0.5) for at in frames]  # 6 dB down
    assert all(player)
    # Once the player stops, it stays open for the hold (20 frames), then shuts.
    after = [gate.passes(echo[at : at + FRAME], echo[at : at + FRAME] * 0.01) for at in frames[:40]]
    assert all(after[:19]) and not any(after[21:])


def test_the_canceller_hands_silero_silence_where_only_a_residue_of_the_host_is_left() -> None:
    class Leaves:  # a canceller that leaves 1% of the echo (-40 dB)
        def process(self, mic: Audio, far: Audio) -> Audio:
            return (mic * 0.01).astype(np.float32)

    rng = np.random.default_rng(4)
    block = (rng.standard_normal(BLOCK_SAMPLES) * 0.1).astype(np.float32)
    gated = EchoCanceller(Leaves(), Keep(), gate_db=-25.0)
    ungated = EchoCanceller(Leaves(), Keep(), gate_db=None)
    for _ in range(5):
        out, raw = gated.process(block, block), ungated.process(block, block)
    assert not out.detect.any() and raw.detect.any()
    assert np.array_equal(out.words, raw.words)  # Whisper's signal is never gated


def test_a_canceller_that_takes_nothing_out_is_not_trusted_with_the_microphone() -> None:
    rng = np.random.default_rng(5)
    working = EchoCanceller(Subtract(), Subtract(), settle_seconds=1.0)
    useless = EchoCanceller(Keep(), Keep(), settle_seconds=1.0)  # as when the far end is not what was heard
    for _ in range(3 * SAMPLE_RATE // BLOCK_SAMPLES):
        played = (rng.standard_normal(BLOCK_SAMPLES) * 0.1).astype(np.float32)
        heard = (played + rng.standard_normal(BLOCK_SAMPLES) * 0.001).astype(np.float32)
        working.process(heard, played)
        useless.process(heard, played)
    assert working.settled and working.erle_db > 30
    assert not useless.settled and abs(useless.erle_db) < 1


def test_underruns_move_the_echo_s_delay_within_its_bounds_and_keep_the_length() -> None:
    from audio_fixtures.echo import MOST_SHIFTED_SECONDS, SHIFT_SECONDS, with_underruns

    played = ramp(10 * 60 * SAMPLE_RATE, start=1)  # every sample told apart (none is 0)
    sounded, shifts = with_underruns(played, per_minute=4, key="night-0")
    assert len(sounded) == len(played) and 20 <= len(shifts) <= 60
    assert sounded.tolist() == with_underruns(played, per_minute=4, key="night-0")[0].tolist()  # seeded
    lag = 0.0
    for shift in shifts:
        assert 0 < abs(shift.seconds) <= SHIFT_SECONDS[1] + 1e-4  # (catching up may drop less than an underrun put in)
        assert shift.seconds < 0 or shift.seconds >= SHIFT_SECONDS[0] - 1e-4
        lag += shift.seconds
        assert -1e-9 <= lag <= MOST_SHIFTED_SECONDS + 1e-9
    # What sounds at a moment is what was played that long before: the delay the shifts add up to by then.
    for moment in (90.0, 300.0, 550.0):
        before = sum(s.seconds for s in shifts if s.at_seconds < moment - 0.1)
        at = round(moment * SAMPLE_RATE)
        assert sounded[at] == played[at - round(before * SAMPLE_RATE)]


def test_echo_coherence_tells_the_host_s_voice_let_through_from_a_player_s() -> None:
    from voice_host.ears.echo import echo_coherence

    rng = np.random.default_rng(1)
    played = rng.standard_normal(2 * SAMPLE_RATE).astype(np.float32)
    room = np.zeros(2000)
    room[800] = 1.0  # 50 ms late, then a reverberant tail (a laptop's speaker is near its microphone: weaker)
    room[900:] = rng.standard_normal(1100) * np.exp(-np.arange(1100) / 300) * 0.05
    echo = np.convolve(played, room)[: len(played)].astype(np.float32)
    player = rng.standard_normal(len(played)).astype(np.float32)
    extra = round(0.3 * SAMPLE_RATE)  # the far end reaches this far before the words
    let_through = echo_coherence(echo[extra:], played)
    assert let_through > 0.5
    assert echo_coherence(player[extra:], played) < 0.02
    assert echo_coherence((player + 0.1 * echo)[extra:].astype(np.float32), played) < 0.05  # a player over what a canceller left
    assert echo_coherence(echo[extra:], np.zeros_like(played)) == 0.0  # the Host was silent
    assert echo_coherence(echo[-500:], played[-800:]) == 0.0  # too short to tell (two frames at least)


def test_the_echo_stream_chunk_by_chunk_is_the_whole_convolution() -> None:
    from audio_fixtures.echo import EchoStream, echo_path

    path = echo_path("virtual-mic")
    stream = EchoStream(path, scale=0.5, chunk=320)
    played = np.random.default_rng(3).standard_normal(320 * 200)  # longer than the room's response: the tails overlap
    heard = np.concatenate([stream.step(played[at : at + 320]) for at in range(0, len(played), 320)])
    whole = np.convolve(played, stream.impulse)[: len(played)]
    assert np.allclose(heard, whole, atol=1e-9)
    assert stream.impulse[: round(path.delay_seconds * SAMPLE_RATE)].tolist() == [0.0] * round(path.delay_seconds * SAMPLE_RATE)
