"""Capture's queue and Player's buffer without a sound card (the device paths: test_virtual_mic.py)."""

from __future__ import annotations

import argparse
import time
import types
from pathlib import Path

import numpy as np
import pytest

from voice_host.ears import audio
from voice_host.ears.audio import Capture, CaptureClock, DeviceClock, DeviceLostError, Player
from voice_host.ears.echo import FarEnd

NO_STATUS = types.SimpleNamespace(input_overflow=False)


def _known(at: float | None) -> float:
    assert at is not None
    return at


def test_capture_queues_copies_and_drops_the_oldest_when_full() -> None:
    capture = Capture(block_size=4, sample_rate=16, max_queued_seconds=0.5)  # room for 2 blocks
    capture._stream = object()  # as if started
    capture._last_block = float("inf")
    for value in (1.0, 2.0, 3.0):
        block = np.full((4, 1), value, dtype=np.float32)
        capture._on_block(block, 4, None, NO_STATUS)
        block[:] = -1  # PortAudio reuses its buffer: the queue must hold a copy
    assert capture.dropped == 1
    first = capture.read(timeout=0.01)
    second = capture.read(timeout=0.01)
    assert first is not None and second is not None
    assert first.tolist() == [2.0] * 4 and second.tolist() == [3.0] * 4
    assert capture.read(timeout=0.01) is None  # quiet, but not lost yet


def test_capture_reports_a_lost_stream() -> None:
    capture = Capture(lost_after=0.0)
    with pytest.raises(DeviceLostError, match="microphone was lost"):
        capture.read(timeout=0.01)  # never started / closed
    capture._stream = object()
    capture._last_block = 0.0  # long ago
    with pytest.raises(DeviceLostError):
        capture.read(timeout=0.01)


def test_capture_drain_empties_the_queue() -> None:
    capture = Capture(block_size=4)
    for _ in range(3):
        capture._on_block(np.zeros((4, 1), np.float32), 4, None, NO_STATUS)
    assert capture.drain() == 3 and capture.drain() == 0


def test_sound_stream_times_are_kept_as_the_device_gives_them() -> None:
    clock = DeviceClock()
    assert clock.time_of(100.0, 99.96, 0.032) == 99.96
    assert clock.time_of(100.032, 99.99, 0.032) == 99.99  # jitter of a callback served late is the device's to say
    assert clock.time_of(None, 99.5, 0.032) == 99.5  # no current time to check it by
    assert clock.time_of(100.1, None, 0.032) is None  # the device does not say
    assert clock.untrusted_blocks == 0 and clock.usual_apart == pytest.approx(-0.042)


def test_stream_times_gone_to_garbage_are_counted_on_near_the_real_clock() -> None:
    # Live (session 42): the microphone's times jumped 2**60 ns away and then ran at twice real time.
    clock = DeviceClock()
    block = 0.032
    times = [_known(clock.time_of(100.0 + i * block, 100.0 - 0.04 + i * block, block)) for i in range(10)]
    garbage = [_known(clock.time_of(100.32 + i * block, -1.15e9 + 2 * i * block, block)) for i in range(300)]
    assert times[-1] == pytest.approx(100.248)
    assert clock.untrusted_blocks == 300
    steps = np.diff([times[-1], *garbage])
    assert np.all(np.abs(steps - block) < 0.005)  # counted on, a block at a time
    assert garbage[-1] == pytest.approx(100.32 + 299 * block - 0.04, abs=0.005)  # where the device's time would be


def test_counted_times_follow_the_real_clock_through_late_callbacks() -> None:
    clock = DeviceClock(usual_apart=-0.05)  # garbage from the first block: the guess
    block = 0.032
    late = [0.0, 0.03, 0.0, 0.0, 0.06, 0.0, 0.0, 0.0] * 40  # callbacks served late now and then
    got = [_known(clock.time_of(50.0 + i * block + delay, 1e9, block)) for i, delay in enumerate(late)]
    assert got[0] == pytest.approx(49.95)
    assert np.all(np.abs(np.diff(got) - block) < 0.005)  # the jitter is not passed on
    assert got[-1] - (50.0 + (len(late) - 1) * block - 0.05) == pytest.approx(np.mean(late), abs=0.01)


def test_a_restarted_stream_counts_from_its_next_block() -> None:
    clock = DeviceClock()
    clock.time_of(10.0, 1e9, 0.032)
    clock.restart()
    assert clock.time_of(500.0, 1e9, 0.032) == pytest.approx(500.0)
    assert clock.untrusted_blocks == 1


def test_blocks_are_counted_from_the_ones_that_arrived_soonest() -> None:
    clock = CaptureClock(margin=0.02)
    block = 0.032
    late = [0.0, 0.03, 0.004, 0.011, 0.09, 0.002, 0.0, 0.05] * 8  # callbacks served late now and then
    # A block arrives once it has been captured whole, 8 ms after that at the soonest.
    got = [_known(clock.time_of(100.0 + (i + 1) * block + 0.008 + delay, None, block)) for i, delay in enumerate(late)]
    assert np.allclose(np.diff(got), block)  # the jitter is not passed on
    captured = [100.0 + i * block for i in range(len(late))]
    assert np.allclose(np.subtract(got, captured), 0.008 - 0.02)  # placed by the soonest, a margin early


def test_a_startup_backlog_is_placed_once_the_blocks_come_at_their_pace() -> None:
    clock = CaptureClock(margin=0.0)
    block = 0.032
    # The sound server held a second of sound when the stream opened: its 31 blocks come at once, then each
    # block as soon as it has been captured.
    captured = [50.0 + i * block for i in range(90)]
    arrivals = [51.0 + 0.001 * i for i in range(31)] + [at + block for at in captured[31:]]
    got = [_known(clock.time_of(at, None, block)) for at in arrivals]
    assert got[0] > captured[0] + 0.9  # the backlog is not known yet
    assert np.allclose(got[31:], captured[31:])


def test_the_microphone_s_own_stream_times_are_not_needed() -> None:
    # Live (session 42): `inputBufferAdcTime` jumped 2**60 ns away and ran at twice real time.
    clock = CaptureClock(margin=0.0)
    got = [_known(clock.time_of(10.0 + 0.032 * (i + 1), -1.15e9 + 0.064 * i, 0.032)) for i in range(100)]
    assert np.allclose(got, [10.0 + 0.032 * i for i in range(100)])
    assert CaptureClock().time_of(None, 12.5, 0.032) == 12.5  # no current time: the device's, as it is


def test_sound_lost_at_the_microphone_is_followed_within_the_window() -> None:
    clock = CaptureClock(window_blocks=32, margin=0.0)
    block = 0.032
    for i in range(100):
        clock.time_of(10.0 + block * (i + 1), None, block)
    # 0.2 s of sound lost: the next blocks arrive that much later than the count says.
    got = [_known(clock.time_of(10.2 + block * (i + 1), None, block)) for i in range(100, 140)]
    assert got[0] == pytest.approx(10.0 + block * 100)  # at first, placed as before
    assert got[-1] == pytest.approx(10.2 + block * 139)  # then where the blocks now come


def test_a_reopened_microphone_counts_from_its_next_block() -> None:
    clock = CaptureClock(margin=0.0)
    for i in range(10):
        clock.time_of(10.0 + 0.032 * (i + 1), None, 0.032)
    clock.restart()
    assert clock.time_of(500.032, None, 0.032) == pytest.approx(500.0)


def test_capture_times_its_blocks_by_when_they_arrive() -> None:
    capture = Capture(block_size=4)
    capture._stream = object()
    at = types.SimpleNamespace(currentTime=20.0, inputBufferAdcTime=20.0 - 2**60 / 1e9)
    capture._on_block(np.zeros((4, 1), np.float32), 4, at, NO_STATUS)
    assert capture.read(timeout=0.01) is not None
    assert capture.last_block_time == pytest.approx(20.0 - 4 / 16_000 - capture.clock.margin)


def _pull(player: Player, frames: int) -> np.ndarray:
    out = np.full((frames, 1), 9.0, dtype=np.float32)
    player._fill(out, frames, None, None)
    return out[:, 0].copy()


def test_player_plays_in_order_across_blocks_then_silence() -> None:
    player = Player()
    started: list[str] = []
    player.play(np.array([1, 2, 3], np.float32), on_start=lambda: started.append("a"))
    player.play(np.array([4, 5], np.float32), on_start=lambda: started.append("b"))
    assert player.playing
    assert _pull(player, 2).tolist() == [1, 2]
    assert started == ["a"]
    assert _pull(player, 4).tolist() == [3, 4, 5, 0]
    assert started == ["a", "b"]
    assert not player.playing and player.wait(timeout=0)
    assert _pull(player, 2).tolist() == [0, 0]


def test_player_stop_cuts_the_sentence_short() -> None:
    player = Player()
    called: list[int] = []
    player.play(np.ones(1000, np.float32))
    player.play(np.ones(1000, np.float32), on_start=lambda: called.append(1))
    assert _pull(player, 10).tolist() == [1] * 10
    player.stop()
    assert not player.playing and player.wait(timeout=0)
    assert _pull(player, 10).tolist() == [0] * 10
    assert called == []


def test_a_held_player_is_silent_and_plays_on_from_where_it_was() -> None:
    player = Player()
    player.back_after_hold_seconds = 0.0
    player.play(np.arange(1, 7, dtype=np.float32))
    assert _pull(player, 2).tolist() == [1, 2]
    player.hold()
    assert player.held
    assert _pull(player, 3).tolist() == [0, 0, 0]
    assert player.playing and not player.wait(timeout=0)  # nothing dropped
    player.release()
    assert _pull(player, 5).tolist() == [3, 4, 5, 6, 0]


def test_a_released_player_says_again_a_little_of_what_the_hold_cut() -> None:
    player = Player()
    player.back_after_hold_seconds = 2 / player.device_rate  # two samples
    player.play(np.arange(1, 7, dtype=np.float32))
    assert _pull(player, 3).tolist() == [1, 2, 3]
    player.hold()
    assert _pull(player, 2).tolist() == [0, 0]
    player.release()
    assert _pull(player, 5).tolist() == [2, 3, 4, 5, 6]


def test_a_hold_nobody_releases_lasts_no_longer_than_its_limit() -> None:
    player = Player()
    player.play(np.arange(1, 4, dtype=np.float32))
    player.most_held_seconds = 0.0
    player.hold()
    assert not player.held
    assert _pull(player, 3).tolist() == [1, 2, 3]


def test_a_hold_with_nothing_queued_holds_nothing_back() -> None:
    player = Player()
    player.hold()  # the Host has just finished: its voice still rings, nothing is queued
    assert not player.held
    player.play(np.full(2, 2.0, np.float32))  # the next reply
    assert _pull(player, 3).tolist() == [2, 2, 0]


def test_a_stop_ends_a_hold_with_the_sentence() -> None:
    player = Player()
    player.play(np.ones(10, np.float32))
    player.hold()
    player.stop()
    player.play(np.full(2, 2.0, np.float32))  # the next reply is not held
    assert _pull(player, 3).tolist() == [2, 2, 0]


def test_devices_without_a_sound_card_say_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(audio, "describe_devices", lambda: [])
    assert audio.run_devices(argparse.Namespace()) == 0
    assert "No audio devices found" in capsys.readouterr().out


def test_devices_without_portaudio_say_so(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def missing() -> list[str]:
        raise audio.AudioUnavailableError(audio.NO_PORTAUDIO)

    monkeypatch.setattr(audio, "describe_devices", missing)
    assert audio.run_devices(argparse.Namespace()) == 1
    assert "PortAudio" in capsys.readouterr().out


def test_native_stderr_goes_to_a_file_and_comes_back(tmp_path: Path) -> None:
    import os

    log = tmp_path / "logs" / "native.log"
    before = os.fstat(2)
    with audio.native_stderr_to(log):
        os.write(2, b"ALSA lib pulse.c: Unable to connect\n")
    assert log.read_bytes() == b"ALSA lib pulse.c: Unable to connect\n"
    after = os.fstat(2)  # descriptor 2 is the original again
    assert (after.st_dev, after.st_ino) == (before.st_dev, before.st_ino)


def test_the_terminal_stays_drawable_while_native_stderr_goes_to_a_file(tmp_path: Path) -> None:
    import os

    terminal_file = tmp_path / "terminal"
    log = tmp_path / "native.log"
    original = os.dup(2)
    with terminal_file.open("wb") as stand_in:
        os.dup2(stand_in.fileno(), 2)  # descriptor 2 is "the terminal" for this test
    try:
        with audio.native_stderr_to(log) as terminal:
            terminal.write("THE NIGHT\n")  # the full-screen app draws here
            terminal.flush()
            os.write(2, b"ALSA lib confmisc.c: cannot find card '0'\n")  # a C library complains
    finally:
        os.dup2(original, 2)
        os.close(original)
    assert terminal_file.read_bytes() == b"THE NIGHT\n"
    assert log.read_bytes() == b"ALSA lib confmisc.c: cannot find card '0'\n"


def test_a_speaker_that_stops_taking_audio_is_lost_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    player = Player(stall_seconds=0.05)
    player._stream = types.SimpleNamespace(active=True)  # as if started; no callback ever comes: the device is gone
    player.play(np.ones(22_050 * 10, np.float32))
    assert player.wait() is True
    assert player.lost and not player.playing
    # The next sentence tries the speaker again; still gone, the audio is dropped quietly.
    starts: list[int] = []

    def still_gone(self: Player) -> None:
        starts.append(1)
        raise audio.NoSpeakerError(audio.NO_SPEAKER)

    monkeypatch.setattr(audio, "_close_stream", lambda stream, timeout=1.0: None)
    monkeypatch.setattr(Player, "start", still_gone)
    player.play(np.ones(100, np.float32))
    assert starts == [1] and not player.playing and player.lost
    # Back again: the audio is queued.
    monkeypatch.setattr(Player, "start", lambda self: None)
    player.play(np.ones(100, np.float32))
    assert player.playing and not player.lost


def test_a_speaker_whose_stream_died_is_lost_at_the_next_sentence_without_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    player = Player(stall_seconds=3600)  # no stall would ever be declared: the dead stream says it
    stream = types.SimpleNamespace(active=True)
    player._stream = stream
    player.play(np.ones(22_050 * 60, np.float32))  # a minute of the opening queued
    assert not player.check_lost()
    stream.active = False  # the sound server was killed: PortAudio ends the stream
    monkeypatch.setattr(audio, "_close_stream", lambda stream, timeout=1.0: None)
    monkeypatch.setattr(Player, "start", lambda self: (_ for _ in ()).throw(audio.NoSpeakerError(audio.NO_SPEAKER)))
    player.play(np.ones(100, np.float32))  # the next sentence
    assert player.lost and not player.playing
    assert player.wait() is True  # nothing left to wait for


def test_the_player_knows_when_its_last_sample_sounds() -> None:
    player = Player(sample_rate=20_000)
    player.play(np.ones(500, np.float32))
    out = np.zeros((1000, 1), dtype=np.float32)
    player._fill(out, 1000, types.SimpleNamespace(outputBufferDacTime=10.0), None)  # 500 samples: 25 ms
    assert player.sounds_until == pytest.approx(10.025)
    assert player.sounding_seconds(10.005) == pytest.approx(0.02)
    assert player.sounding_seconds(10.5) == 0.0  # already sounded
    assert player.sounding_seconds(None) == 0.0  # the device does not say its time
    assert player.sounding_seconds(-100.0) == player.most_sounding_seconds  # a clock gone wrong
    player._fill(out, 1000, types.SimpleNamespace(outputBufferDacTime=0.0), None)  # silence: the last sound stays
    assert player.sounds_until == pytest.approx(10.025)


def test_the_player_counts_the_times_the_device_ran_dry() -> None:
    player = Player()
    out = np.zeros((256, 1), dtype=np.float32)
    player._fill(out, 256, None, types.SimpleNamespace(output_underflow=True))
    player._fill(out, 256, None, types.SimpleNamespace(output_underflow=False))
    player._fill(out, 256, None, None)
    assert player.underflows == 1


def test_the_player_times_its_blocks_by_the_checked_clock() -> None:
    far_end = FarEnd(sample_rate=20_000)
    player = Player(sample_rate=20_000, far_end=far_end)
    player.play(np.ones(500, np.float32))
    garbage = types.SimpleNamespace(currentTime=10.0, outputBufferDacTime=10.0 + 2**60 / 1e9)
    player._fill(np.zeros((1000, 1), dtype=np.float32), 1000, garbage, None)
    assert player.sounds_until == pytest.approx(10.125)  # the current time, a block's usual wait and 25 ms
    assert far_end._pushed[-1][2] == pytest.approx(10.1)


def test_waiting_lasts_until_what_the_device_holds_has_sounded(monkeypatch: pytest.MonkeyPatch) -> None:
    player = Player(sample_rate=20_000)
    player._stream = types.SimpleNamespace(active=True, time=10.005)  # the device's clock
    player.play(np.ones(500, np.float32))
    player._fill(np.zeros((1000, 1), dtype=np.float32), 1000, types.SimpleNamespace(outputBufferDacTime=10.0), None)
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)  # (the module audio.py waits with)
    assert player.wait() is True
    assert slept == [pytest.approx(0.02)]  # the queue was empty, but 20 ms were still in the device


def test_waiting_with_a_timeout_on_a_silent_queue_returns_false() -> None:
    player = Player()
    player.play(np.ones(100, np.float32))  # no stream: nothing drains it, and no stall is declared
    assert player.wait(timeout=0.01) is False
    assert player.playing and not player.lost


def test_native_stderr_keeps_at_most_its_limit(tmp_path: Path) -> None:
    import os

    log = tmp_path / "native.log"
    line = b"Expression 'self->capture.ready || self->playback.ready' failed\n"
    with audio.native_stderr_to(log, limit=1000):
        for _ in range(200):  # a stream spinning on a dead server repeats itself for ever
            os.write(2, line)
    assert log.read_bytes() == (line * 200)[:1000]


class OnlyOwnRateSounddevice:
    """A stand-in for sounddevice whose devices open only at their own rate (a laptop's ALSA hw device)."""

    PortAudioError = RuntimeError

    def __init__(self, own_rate: int = 48_000) -> None:
        self.own_rate = own_rate
        self.opened: list[tuple[str, int, int]] = []  # kind, rate, block size

    def _check(self, device: object = None, channels: int = 1, dtype: str = "", samplerate: float = 0) -> None:
        if samplerate != self.own_rate:
            raise self.PortAudioError("Invalid sample rate")

    check_input_settings = check_output_settings = _check

    def query_devices(self, device: object = None, kind: str = "") -> dict[str, float]:
        return {"default_samplerate": float(self.own_rate)}

    def _stream(self, kind: str) -> type:
        fake = self

        class Stream:
            active = True  # started, and its device still there

            def __init__(self, samplerate: int, blocksize: int, **_: object) -> None:
                fake.opened.append((kind, samplerate, blocksize))

            def start(self) -> None:
                pass

            def abort(self) -> None:
                pass

            def close(self) -> None:
                pass

        return Stream

    @property
    def InputStream(self) -> type:  # noqa: N802  # sounddevice's name
        return self._stream("input")

    @property
    def OutputStream(self) -> type:  # noqa: N802
        return self._stream("output")


def _tone(rate: int, seconds: float, hertz: float = 440.0) -> np.ndarray:
    t = np.arange(int(rate * seconds)) / rate
    return (0.5 * np.sin(2 * np.pi * hertz * t)).astype(np.float32)


def test_a_microphone_that_refuses_16_khz_is_opened_at_its_own_rate_and_converted(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = OnlyOwnRateSounddevice(48_000)
    monkeypatch.setattr(audio, "sounddevice_module", lambda: fake)
    capture = Capture(lost_after=60.0)
    capture.start()
    assert fake.opened == [("input", 48_000, 1536)]  # 512 blocks of 16 kHz are 1536 samples at 48 kHz
    tone = _tone(48_000, 1.0)
    for start in range(0, len(tone), 1536):
        capture._on_block(tone[start : start + 1536].reshape(-1, 1), 1536, None, NO_STATUS)
    blocks = []
    while (block := capture.read(timeout=0.01)) is not None:
        blocks.append(block)
    assert all(len(block) == 512 for block in blocks)
    heard = np.concatenate(blocks)
    assert abs(len(heard) - 16_000) <= 2 * 512  # a second of audio, less the converter's delay
    spectrum = np.abs(np.fft.rfft(heard[2000:14000]))
    assert abs(np.argmax(spectrum) * 16_000 / 12_000 - 440.0) < 3  # still a 440 Hz tone at 16 kHz
    capture.stop()


def test_a_speaker_that_refuses_piper_s_rate_plays_converted_audio(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = OnlyOwnRateSounddevice(44_100)
    monkeypatch.setattr(audio, "sounddevice_module", lambda: fake)
    player = Player()
    player.start()
    assert fake.opened == [("output", 44_100, 1024)] and player.device_rate == 44_100  # 512 at 22.05 kHz, as long
    player.play(_tone(22_050, 0.5))
    queued = player._buffer[0][0]
    assert abs(len(queued) - 22_050) <= 2  # half a second at 44.1 kHz
    player.close()
    assert not audio._open_streams  # nothing left open to block a device rescan later


def test_a_device_that_takes_neither_rate_is_no_device(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = OnlyOwnRateSounddevice(48_000)
    fake.check_input_settings = fake.check_output_settings = lambda **_: (_ for _ in ()).throw(RuntimeError("no"))  # type: ignore[method-assign]
    monkeypatch.setattr(audio, "sounddevice_module", lambda: fake)
    with pytest.raises(audio.NoMicrophoneError):
        audio.check_microphone()
    with pytest.raises(audio.NoSpeakerError):
        audio.check_speaker()


def test_a_device_that_takes_16_khz_is_opened_at_16_khz(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = OnlyOwnRateSounddevice(16_000)
    monkeypatch.setattr(audio, "sounddevice_module", lambda: fake)
    assert audio.check_microphone() == 16_000
    capture = Capture()
    capture.start()
    assert fake.opened == [("input", 16_000, 512)] and capture._rechunker is None
    capture.stop()
