"""The near-voice gate: the loud voice stays, the quieter room is turned down (timings and levels, no model)."""

from __future__ import annotations

import numpy as np

from voice_host.ears.near_voice import NearVoiceGate
from voice_host.ears.sound import SAMPLE_RATE


def _level_db(audio: np.ndarray) -> float:
    return float(10 * np.log10(np.mean(np.square(audio, dtype=np.float64)) + 1e-12))


def _noise(seconds: float, level_db: float, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).standard_normal(int(seconds * SAMPLE_RATE))
    return (noise * 10 ** (level_db / 20)).astype(np.float32)


def test_the_quieter_talk_is_turned_down_and_the_near_voice_kept() -> None:
    near, room = _noise(1.0, -20.0, 1), _noise(1.0, -32.0, 2)  # the room 12 dB under the player
    gated = NearVoiceGate().apply(np.concatenate([near, room]))
    inner = slice(int(0.1 * SAMPLE_RATE), int(0.9 * SAMPLE_RATE))  # away from the edge and its ramp
    assert abs(_level_db(gated[:SAMPLE_RATE][inner]) - _level_db(near[inner])) < 0.1
    assert _level_db(gated[SAMPLE_RATE:][inner]) < _level_db(room[inner]) - 29.0


def test_a_voice_within_the_margin_is_kept() -> None:
    near, also_near = _noise(1.0, -20.0, 3), _noise(1.0, -25.0, 4)  # 5 dB quieter: inside 8 dB
    gated = NearVoiceGate().apply(np.concatenate([near, also_near]))
    inner = slice(int(1.1 * SAMPLE_RATE), int(1.9 * SAMPLE_RATE))
    assert abs(_level_db(gated[inner]) - _level_db(np.concatenate([near, also_near])[inner])) < 0.1


def test_the_margin_is_a_setting() -> None:
    near, quieter = _noise(1.0, -20.0, 5), _noise(1.0, -25.0, 6)
    gated = NearVoiceGate(within_db=3.0).apply(np.concatenate([near, quieter]))
    inner = slice(int(1.1 * SAMPLE_RATE), int(1.9 * SAMPLE_RATE))
    assert _level_db(gated[inner]) < _level_db(quieter[int(0.1 * SAMPLE_RATE) : int(0.9 * SAMPLE_RATE)]) - 29.0


def test_the_gain_is_ramped_not_switched() -> None:
    audio = np.concatenate([np.full(SAMPLE_RATE, 0.1, np.float32), np.full(SAMPLE_RATE, 0.001, np.float32)])
    gain = NearVoiceGate().apply(audio) / audio
    assert gain[0 : SAMPLE_RATE // 2].min() > 0.99 and gain[-SAMPLE_RATE // 2 :].max() < 0.04  # -30 dB
    assert np.abs(np.diff(gain)).max() < 1 / 100  # the change spread over 10 ms, not one sample


def test_empty_and_short_audio_pass_through() -> None:
    assert len(NearVoiceGate().apply(np.zeros(0, np.float32))) == 0
    short = np.full(100, 0.1, np.float32)  # shorter than one frame
    assert len(NearVoiceGate().apply(short)) == 100


def test_the_gaps_level_tells_another_voice_from_silence() -> None:
    near = _noise(1.0, -20.0, 7)
    room = NearVoiceGate().gap_level_db(np.concatenate([near, _noise(1.0, -35.0, 8)]))
    alone = NearVoiceGate().gap_level_db(np.concatenate([near, _noise(1.0, -90.0, 9)]))
    assert -17.0 < room < -13.0  # the other voice, 15 dB under the player
    assert alone < -60.0
    # Nothing the gate would turn down: no gaps at all.
    assert NearVoiceGate().gap_level_db(near) == float("-inf")
