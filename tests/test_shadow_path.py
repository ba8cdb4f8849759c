"""The shadow echo path: it learns the room apart from speex and follows a move of the echo's delay at once
(synthetic speech-like echoes; no sound card, no model)."""

from __future__ import annotations

import numpy as np

from voice_host.ears.echo import FRAME, EchoCanceller
from voice_host.ears.shadow_path import ShadowPath
from voice_host.ears.sound import BLOCK_SAMPLES, SAMPLE_RATE, Audio


def far_voice(seconds: float, seed: int = 7) -> Audio:
    """Noise in syllable bursts with pauses between words: the Host as a canceller sees it."""
    rng = np.random.default_rng(seed)
    count = int(seconds * SAMPLE_RATE)
    time = np.arange(count) / SAMPLE_RATE
    syllables = np.sin(2 * np.pi * 3 * time) > 0
    words = np.sin(2 * np.pi * 0.4 * time) > -0.6  # a pause now and then
    return (rng.standard_normal(count) * 0.1 * syllables * words).astype(np.float32)


def room(seed: int = 3, decay_samples: float = 500.0, tail: int = 2400) -> Audio:
    """45 ms to the microphone, then a decaying tail, -10 dB (by default RT60 0.2 s: 60 dB in 6.9 decays)."""
    rng = np.random.default_rng(seed)
    response = np.zeros(720 + tail)
    response[720] = 0.316
    response[721:] = rng.standard_normal(tail - 1) * np.exp(-np.arange(tail - 1) / decay_samples) * 0.06
    return response.astype(np.float32)


def heard(far: Audio, moves: tuple[tuple[float, int], ...] = (), response: Audio | None = None) -> Audio:
    """The echo of `far`, its delay moved at each (second, samples): later for silence put in, sooner for dropped."""
    sounded = far.copy()
    for at_seconds, shift in moves:
        at = int(at_seconds * SAMPLE_RATE)
        if shift > 0:
            sounded = np.concatenate([sounded[:at], np.zeros(shift, np.float32), sounded[at:]])[: len(far)]
        else:
            sounded = np.concatenate([sounded[:at], sounded[at - shift :], np.zeros(-shift, np.float32)])
    return np.convolve(sounded, room() if response is None else response)[: len(far)].astype(np.float32)


def run(shadow: ShadowPath, mic: Audio, far: Audio) -> tuple[Audio, list[tuple[float, int]]]:
    """The residual, and each move followed: (second found, samples)."""
    out, followed = [], []
    for at in range(0, len(mic), FRAME):
        before = shadow.shifted
        out.append(shadow.process(mic[at : at + FRAME], far[at : at + FRAME]))
        if shadow.shifted != before:
            followed.append(((at + FRAME) / SAMPLE_RATE, shadow.shifted - before))
    return np.concatenate(out), followed


def left_db(residual: Audio, mic: Audio, start: float, end: float) -> float:
    span = slice(int(start * SAMPLE_RATE), int(end * SAMPLE_RATE))
    return float(
        10 * np.log10(np.sum(np.square(residual[span], dtype=np.float64)) / np.sum(np.square(mic[span], dtype=np.float64)))
    )


def test_it_learns_the_room_from_a_few_seconds_of_the_host() -> None:
    far = far_voice(10.0)
    mic = heard(far)
    residual, followed = run(ShadowPath(), mic, far)
    assert followed == []
    assert left_db(residual, mic, 7.0, 10.0) < -20


def test_it_follows_an_echo_come_later_at_once_and_cancels_it_again() -> None:
    far = far_voice(12.0)
    mic = heard(far, ((8.0, 480),))  # an underrun: 30 ms of silence put in
    shadow = ShadowPath()
    residual, followed = run(shadow, mic, far)
    assert len(followed) == 1
    found_at, shift = followed[0]
    assert abs(shift - 480) <= 2 and 8.0 < found_at < 8.4
    assert abs(shadow.moved_samples_ago / SAMPLE_RATE - (found_at - 8.0 - 0.045)) < 0.15  # when it began, roughly
    assert left_db(residual, mic, found_at + 0.2, 12.0) < -20


def test_it_follows_an_echo_come_sooner_unless_told_not_to() -> None:
    far = far_voice(12.0)
    mic = heard(far, ((8.0, -320),))  # catching up: 20 ms dropped
    residual, followed = run(ShadowPath(), mic, far)
    assert [round(shift / 10) for _, shift in followed] == [-32]
    assert left_db(residual, mic, followed[0][0] + 0.2, 12.0) < -20
    _, followed = run(ShadowPath(sooner=False), mic, far)
    assert followed == []  # left to `DelayWatch`


def voiced(seconds: float, seed: int = 7) -> Audio:
    """Pitch pulses through three formants, in syllables with pauses between words: closer to the Host's voice than
    `far_voice`'s noise (the room's response is learnt less evenly over its spectrum)."""
    rng = np.random.default_rng(seed)
    count = int(seconds * SAMPLE_RATE)
    time = np.arange(count) / SAMPLE_RATE
    phase = np.cumsum((120 + 20 * np.sin(2 * np.pi * 0.7 * time)) / SAMPLE_RATE)
    source = (np.diff(np.floor(phase), prepend=0) > 0) + 0.05 * rng.standard_normal(count)
    ring = np.arange(800) / SAMPLE_RATE  # each formant a decaying resonance
    formants = np.zeros(len(ring))
    for rank, (hz, width) in enumerate(((700, 100), (1200, 120), (2600, 200))):
        formants += np.exp(-np.pi * width * ring) * np.sin(2 * np.pi * hz * ring) / (rank + 1)
    voice = np.convolve(source, formants)[:count]
    voice *= np.clip(np.sin(2 * np.pi * 3 * time) + 0.3, 0, None) * (np.sin(2 * np.pi * 0.4 * time) > -0.6)
    return (0.1 * voice / np.std(voice)).astype(np.float32)


def test_a_move_in_a_ringing_room_is_found_from_where_it_began() -> None:
    # RT60 0.57 s: after the move the room still rings with what sounded before it at the old delay, and the whole
    # estimate shifted leaves too much of the microphone until that has died down (tune night 77: found 0.49 s late).
    ringing = room(decay_samples=1320.0, tail=9000)
    ringing[721:] *= 0.11
    far = voiced(12.0)
    mic = heard(far, ((8.1, -560),), ringing)  # catching up: 35 ms dropped
    _, followed = run(ShadowPath(), mic, far)
    assert [round(shift / 10) for _, shift in followed] == [-56]
    assert followed[0][0] < 8.28
    _, followed = run(ShadowPath(onset_aware=False), mic, far)
    assert followed[0][0] > 8.32  # the whole estimate shifted fits only once the ringing has died down


def test_a_player_talking_over_the_host_is_no_move() -> None:
    far = far_voice(14.0)
    player = far_voice(14.0, seed=11) * 2.0  # about 6 dB over the echo
    player[: 6 * SAMPLE_RATE] = 0.0
    mic = (heard(far) + player).astype(np.float32)
    _, followed = run(ShadowPath(), mic, far)
    assert followed == []


def trust_over_time(canceller: EchoCanceller, mic: Audio, far: Audio) -> tuple[list[bool], Audio]:
    """Whether the canceller is trusted after each block, and what it leaves for Whisper."""
    trusted, words = [], []
    for at in range(0, len(mic) - BLOCK_SAMPLES + 1, BLOCK_SAMPLES):
        words.append(canceller.process(mic[at : at + BLOCK_SAMPLES], far[at : at + BLOCK_SAMPLES]).words)
        trusted.append(canceller.settled)
    return trusted, np.concatenate(words)[FRAME:]  # (the canceller's output is 10 ms late)


def block_at(seconds: float) -> int:
    return int(seconds * SAMPLE_RATE) // BLOCK_SAMPLES


def test_a_move_found_by_the_shadow_shuts_the_microphone_at_once() -> None:
    far = far_voice(18.0)
    mic = heard(far, ((12.0, 480),))
    trusted, _ = trust_over_time(EchoCanceller(settle_seconds=5.0, follow_speex=False), mic, far)
    assert trusted[block_at(11.9)]
    shut = block_at(12.0) + trusted[block_at(12.0) :].index(False)
    assert shut < block_at(12.6)  # found within about half a second (`DelayWatch` takes about one)
    assert not any(trusted[shut:])  # speex learns the room anew: not within these seconds


def test_speex_follows_a_move_the_shadow_found() -> None:
    far = far_voice(18.0)
    mic = heard(far, ((12.0, 480),))
    canceller = EchoCanceller(settle_seconds=5.0, trust_again_seconds=0.5)
    trusted, out = trust_over_time(canceller, mic, far)
    assert trusted[block_at(11.9)]
    shut = block_at(12.0) + trusted[block_at(12.0) :].index(False)
    assert shut < block_at(12.6)  # found within about half a second (`DelayWatch` takes about one)
    back = shut + trusted[shut:].index(True)
    assert back < block_at(16.0)  # speex's far end moved with the echo: it fits again without learning the room anew
    assert all(trusted[back:])
    assert left_db(out, mic[: len(out)], back * BLOCK_SAMPLES / SAMPLE_RATE, 17.5) < -20


def first_trusted_after_a_move(restart_erle_after_move: bool = True) -> float:
    """Seconds into the Host at which the canceller is trusted again after an underrun at 12 s that speex learns anew."""
    far = far_voice(30.0)
    trusted, _ = trust_over_time(
        EchoCanceller(settle_seconds=5.0, follow_speex=False, restart_erle_after_move=restart_erle_after_move),
        heard(far, ((12.0, 480),)),
        far,
    )
    shut = block_at(12.0) + trusted[block_at(12.0) :].index(False)
    return (shut + trusted[shut:].index(True)) * BLOCK_SAMPLES / SAMPLE_RATE


def test_when_trusted_again_after_a_move_what_it_took_out_before_the_move_is_forgotten() -> None:
    # The seconds just after the move, when it took out next to nothing, would hold the 10-s median down for ten more.
    assert first_trusted_after_a_move() < first_trusted_after_a_move(restart_erle_after_move=False) - 2.0


def test_without_following_a_move_the_canceller_is_not_trusted_until_it_has_learnt_again() -> None:
    far = far_voice(18.0)
    mic = heard(far, ((12.0, 480),))
    trusted, _ = trust_over_time(EchoCanceller(settle_seconds=5.0, follow_moves=False), mic, far)
    assert trusted[block_at(11.5)] and trusted[block_at(12.5)]  # `DelayWatch` has not found it yet
    assert not any(trusted[block_at(13.5) :])  # speex learns the room anew: not within these seconds
