"""Echo cancellers measured on the Host's own voice: which one keeps the Host from hearing itself.

    .venv/bin/python bench/echo.py                 # every candidate that is installed, 8 trials
    .venv/bin/python bench/echo.py --trials 3 --candidates webrtc nlms

Each trial: a stretch of the night's narration rendered by piper (the Host's real voice), played
through a seeded simulated echo path (`audio_fixtures.echo`: a pyroomacoustics room, 20-80 ms delay,
6-20 dB down), plus one player's fixture utterance (tune split, heard in a room) at a seeded moment
after the first 8 s, 6 dB either side of the echo's level. Each canceller gets the microphone and the
exact played signal in 10 ms frames, with no hint of the delay, and its output is measured:

- ERLE: echo return loss enhancement, microphone energy over output energy where only the Host
  sounds (first 3 s: converging; after: converged);
- the player kept: the player's words over what else is left in that window (residual echo plus
  damage), before and after;
- Silero on the output: utterances the segmenter would start where only the Host sounds
  (self-triggers), and whether the player's utterance is still found;
- Whisper (base, the app's options and guards) on each self-triggered stretch: how many give text;
- cost: seconds of CPU per second of audio.

Prints the "Echo cancellation" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.acoustics import RoomImpulses, active_rms, in_room  # noqa: E402
from audio_fixtures.corpus import Split  # noqa: E402
from audio_fixtures.echo import echo_path  # noqa: E402
from audio_fixtures.fixtures import FixtureAudio, load_fixtures  # noqa: E402
from voice_host.ears.echo import (  # noqa: E402
    FRAME,
    GATE_DB,
    TAIL_SECONDS,
    ResidualGate,
    SpeexFrames,
    WebRtcFrames,
    from_pcm16,
    to_pcm16,
)
from voice_host.ears.sound import BLOCK_SAMPLES, SAMPLE_RATE, Audio  # noqa: E402

TRIAL_SECONDS = 20.0
CONVERGING_SECONDS = 3.0
PLAYER_AFTER_SECONDS = 8.0
WARM_SECONDS = 10.0


class Canceller(Protocol):
    def process(self, mic: Audio, far: Audio) -> Audio:
        """One 10 ms frame of microphone and of what was played at the same moment: the microphone
        with the echo taken out."""
        ...


class Bypass:
    def process(self, mic: Audio, far: Audio) -> Audio:
        return mic


class AecAudioProcessing:
    """WebRTC's audio processing module, as `aec-audio-processing` builds it from source."""

    def __init__(self) -> None:
        from aec_audio_processing import AudioProcessor

        self._ap = AudioProcessor(enable_aec=True, enable_ns=False, enable_agc=False)
        self._ap.set_stream_format(SAMPLE_RATE, 1)
        self._ap.set_reverse_stream_format(SAMPLE_RATE, 1)
        self._ap.set_stream_delay(0)

    def process(self, mic: Audio, far: Audio) -> Audio:
        self._ap.process_reverse_stream(to_pcm16(far).tobytes())
        out = self._ap.process_stream(to_pcm16(mic).tobytes())
        return from_pcm16(np.frombuffer(out, dtype=np.int16).copy())


class FrequencyDomainNlms:
    """A partitioned-block frequency-domain NLMS filter (overlap-save) in numpy, 300 ms tail."""

    def __init__(self, tail_seconds: float = 0.3, step: float = 0.5) -> None:
        self.block = FRAME
        self.parts = int(np.ceil(tail_seconds * SAMPLE_RATE / FRAME))
        bins = FRAME + 1
        self._far = np.zeros(2 * FRAME)
        self._spectra = np.zeros((self.parts, bins), dtype=complex)
        self._weights = np.zeros((self.parts, bins), dtype=complex)
        self._power = np.full(bins, 1e-6)
        self._error_power = np.full(bins, 1e-6)
        self.step = step

    def process(self, mic: Audio, far: Audio) -> Audio:
        b = self.block
        self._far = np.concatenate([self._far[b:], far.astype(np.float64)])
        spectrum = np.fft.rfft(self._far)
        self._spectra = np.roll(self._spectra, 1, axis=0)
        self._spectra[0] = spectrum
        estimate = np.fft.irfft((self._weights * self._spectra).sum(axis=0))[b:]
        error = mic.astype(np.float64) - estimate
        error_spectrum = np.fft.rfft(np.concatenate([np.zeros(b), error]))
        self._power = 0.9 * self._power + 0.1 * np.abs(spectrum) ** 2
        # The error's power in the denominator slows adaptation while the player talks (double talk).
        self._error_power = 0.9 * self._error_power + 0.1 * np.abs(error_spectrum) ** 2
        gradient = np.conj(self._spectra) * error_spectrum / (self.parts * self._power + self._error_power + 1e-6)
        constrained = np.fft.irfft(gradient, axis=1)
        constrained[:, b:] = 0.0  # the gradient constraint: a causal filter of `block` taps per partition
        self._weights += self.step * np.fft.rfft(constrained, axis=1)
        return error.astype(np.float32)


class WebRtcDetectsSpeexKeeps:
    """Both at once: WebRTC's output says when a player speaks over the Host (it leaves no echo that
    sounds like speech), speex's linear filter gives the words (it leaves the player's voice whole)."""

    def __init__(self) -> None:
        self.detector = WebRtcFrames()
        self.keeper = SpeexFrames()
        self.detected: list[Audio] = []

    def process(self, mic: Audio, far: Audio) -> Audio:
        self.detected.append(self.detector.process(mic, far))
        return self.keeper.process(mic, far)


class SpeexKeepsWebRtcGates:
    """speex's linear output for Silero and Whisper, passed to Silero only where WebRTC's output is
    within `gate_db` of the microphone: AEC3 leaves almost nothing of the echo alone (about -50 dB), and
    even when its suppressor cuts into a player's words something of them comes through."""

    def __init__(self, gate_db: float = -30.0, hold_frames: int = 20) -> None:
        self.detector = WebRtcFrames()
        self.keeper = SpeexFrames()
        self.gate_db = gate_db
        self.hold_frames = hold_frames
        self._held = 0
        self.detected: list[Audio] = []

    def process(self, mic: Audio, far: Audio) -> Audio:
        out = self.keeper.process(mic, far)
        cleared = self.detector.process(mic, far)
        mic_power = float(np.mean(mic.astype(np.float64) ** 2))
        if _db(float(np.mean(cleared.astype(np.float64) ** 2)), mic_power) >= self.gate_db:
            self._held = self.hold_frames
        passed = self._held > 0
        self._held -= 1
        self.detected.append(out if passed else np.zeros_like(out))
        return out


class SpeexGated:
    """speex's linear output for the words, and a double-talk gate for Silero: while the Host sounds, a
    frame is passed to Silero only when what is left is within `gate_db` of the echo speex took out
    (a player's voice is as loud as the echo; what speex leaves of the echo is far below it)."""

    def __init__(self, gate_db: float = -10.0, hold_frames: int = 20) -> None:
        self.keeper = SpeexFrames()
        self.gate_db = gate_db
        self.hold_frames = hold_frames
        self._held = 0
        self._out_power = 0.0
        self._echo_power = 0.0
        self.detected: list[Audio] = []

    def process(self, mic: Audio, far: Audio) -> Audio:
        out = self.keeper.process(mic, far)
        self._out_power = 0.7 * self._out_power + 0.3 * float(np.mean(out.astype(np.float64) ** 2))
        self._echo_power = 0.7 * self._echo_power + 0.3 * float(np.mean((mic - out).astype(np.float64) ** 2))
        if _db(self._out_power, self._echo_power) >= self.gate_db or self._echo_power < 1e-8:
            self._held = self.hold_frames
        passed = self._held > 0
        self._held -= 1
        self.detected.append(out if passed else np.zeros_like(out))
        return out


class AppCanceller:
    """What the app runs (`EchoCanceller`'s default): one speex filter of `tail_seconds`, its linear output
    for Whisper, its suppressed output through the residual-echo gate for Silero."""

    def __init__(self, tail_seconds: float = TAIL_SECONDS, gate_db: float | None = GATE_DB) -> None:
        self.speex = SpeexFrames(tail_seconds, suppress=True)
        self.gate = ResidualGate(gate_db) if gate_db is not None else None
        self.detected: list[Audio] = []

    def process(self, mic: Audio, far: Audio) -> Audio:
        detect = self.speex.process(mic, far)
        if self.gate is not None and not self.gate.passes(mic, detect):
            detect = np.zeros_like(detect)
        self.detected.append(detect)
        return self.speex.linear


CANDIDATES: dict[str, Callable[[], Canceller]] = {
    "app": AppCanceller,
    "app-0.3-no-gate": lambda: AppCanceller(0.3, None),
    "app-0.6-no-gate": lambda: AppCanceller(0.6, None),
    "none": Bypass,
    "webrtc-livekit": WebRtcFrames,
    "webrtc-aec-audio-processing": AecAudioProcessing,
    "speex": lambda: SpeexFrames(suppress=True),
    "speex-no-suppressor": lambda: SpeexFrames(),
    "nlms": FrequencyDomainNlms,
    "webrtc-detects-speex-keeps": WebRtcDetectsSpeexKeeps,
    "speex-gated-6": lambda: SpeexGated(gate_db=-6.0),
    "speex-keeps-webrtc-gates-30": SpeexKeepsWebRtcGates,
    "speex-keeps-webrtc-gates-20": lambda: SpeexKeepsWebRtcGates(gate_db=-20.0),
}


@dataclass(frozen=True)
class Trial:
    played: Audio  # what the speaker played (16 kHz)
    echo: Audio  # the Host as the microphone hears it
    player: Audio  # the player's utterance as the microphone hears it, already placed
    player_span: tuple[int, int]  # samples
    player_text: str
    delay_ms: float
    gain_db: float
    warm_played: Audio  # narration just before, through the same path: the canceller has heard the Host before
    warm_echo: Audio

    @property
    def mic(self) -> Audio:
        return (self.echo + self.player).astype(np.float32)

    @property
    def player_alone(self) -> Audio:
        """What the microphone would hear with the Host silent (the words the canceller should leave)."""
        return self.player


def narration(seconds: float) -> Audio:
    """The night's narration as piper says it: the opening and the exhibits, at 16 kHz."""
    from engine.game import Game
    from voice_host.loop.casefiles import load_bundled_case
    from voice_host.mouth.tts import Synthesizer

    game = Game(load_bundled_case())
    synthesizer = Synthesizer(output_rate=SAMPLE_RATE)
    pieces: list[Audio] = []
    total = 0
    replies = [game.start(), *(game.handle(f"Read E{n}.") for n in range(1, 17))]
    for reply in replies:
        for sentence in synthesizer.stream(reply):
            pieces.append(sentence.audio)
            total += len(sentence.audio)
            if total >= seconds * SAMPLE_RATE:
                return np.concatenate(pieces).astype(np.float32)
    return np.concatenate(pieces).astype(np.float32)


def make_trials(count: int) -> list[Trial]:
    night = narration(count * TRIAL_SECONDS * 0.6 + TRIAL_SECONDS)
    fixtures = [f for f in load_fixtures(Split.TUNE) if not f.rendered]
    audio = FixtureAudio(fixtures)
    impulses = RoomImpulses()
    trials = []
    length = int(TRIAL_SECONDS * SAMPLE_RATE)
    for n in range(count):
        rng = np.random.default_rng(1000 + n)
        start = int(rng.integers(0, max(1, len(night) - length)))
        played = np.zeros(length, dtype=np.float32)
        piece = night[start : start + length]
        played[: len(piece)] = piece
        path = echo_path(f"trial-{n}")
        echo = path.apply(played)
        fixture = fixtures[int(rng.integers(0, len(fixtures)))]
        voice, _ = in_room(audio.clean(fixture.id), fixture.id, impulses)
        ser_db = float(rng.uniform(-6.0, 6.0))  # the player's level against the echo's
        voice = voice * (active_rms(echo) * 10 ** (ser_db / 20) / active_rms(voice))
        at = int(rng.integers(int(PLAYER_AFTER_SECONDS * SAMPLE_RATE), length - len(voice) - SAMPLE_RATE))
        player = np.zeros(length, dtype=np.float32)
        player[at : at + len(voice)] = voice
        before = night[max(0, start - int(WARM_SECONDS * SAMPLE_RATE)) : start]
        if len(before) < WARM_SECONDS * SAMPLE_RATE:
            before = night[start + length : start + length + int(WARM_SECONDS * SAMPLE_RATE)]
        warm = path.apply(before)
        trials.append(
            Trial(
                played, echo, player, (at, at + len(voice)), fixture.said, path.delay_seconds * 1000, path.gain_db, before, warm
            )
        )
    return trials


@dataclass
class Outcome:
    erle_converging: list[float]
    erle_converged: list[float]
    player_before: list[float]
    player_after: list[float]
    self_triggers: int
    self_trigger_texts: list[str]
    player_found: int
    player_heard: list[tuple[str, str]]
    cpu_seconds: float
    audio_seconds: float


def _db(numerator: float, denominator: float) -> float:
    return float(10 * np.log10((numerator + 1e-12) / (denominator + 1e-12)))


def cancel(canceller: Canceller, mic: Audio, played: Audio) -> tuple[Audio, float, Audio | None]:
    """The canceller's output for the whole stretch, the CPU seconds it took, and the signal to detect
    speech on when it is another."""
    out = np.zeros_like(mic)
    started = time.process_time()
    for at in range(0, len(mic) - FRAME + 1, FRAME):
        out[at : at + FRAME] = canceller.process(mic[at : at + FRAME], played[at : at + FRAME])
    cpu = time.process_time() - started
    detected: list[Audio] | None = getattr(canceller, "detected", None)
    if detected:
        whole = np.zeros_like(mic)
        joined = np.concatenate(detected)
        whole[: len(joined)] = joined
        return out, cpu, whole
    return out, cpu, None


def utterances(audio: Audio, vad: Any, detect_on: Audio | None = None) -> list[tuple[int, int, Audio]]:
    """What the listener's segmenter would hand to recognition: (first sample, last sample, audio).

    With `detect_on`, Silero listens to that signal and the utterances are cut from `audio`."""
    from voice_host.ears.vad import SegmentEvent, UtteranceCollector

    vad.reset()
    collector = UtteranceCollector()
    lead = int((collector.settings.speech_seconds + collector.settings.pre_roll_seconds) * SAMPLE_RATE)
    found = []
    began = 0
    for at in range(0, len(audio) - BLOCK_SAMPLES + 1, BLOCK_SAMPLES):
        block = audio[at : at + BLOCK_SAMPLES]
        judged = block if detect_on is None else detect_on[at : at + BLOCK_SAMPLES]
        step = collector.add(block, vad.probability(judged) >= 0.5)
        if step.event is SegmentEvent.SPEECH_STARTED:
            began = max(0, at - lead)
        if step.event in (SegmentEvent.SPEECH_ENDED, SegmentEvent.TOO_LONG) and step.audio is not None:
            found.append((began, at + BLOCK_SAMPLES, step.audio))
    if collector.collecting:
        found.append((began, len(audio), collector.finish()))
    return found


def warmed(factory: Callable[[], Canceller], trial: Trial) -> Canceller:
    """A canceller that has already heard `WARM_SECONDS` of the Host through the trial's path (in the
    app it runs all night; only the night's first seconds find it cold)."""
    canceller = factory()
    cancel(canceller, trial.warm_echo, trial.warm_played)
    detected: list[Audio] | None = getattr(canceller, "detected", None)
    if detected is not None:
        detected.clear()
    return canceller


def run(canceller_factory: Callable[[], Canceller], trials: list[Trial], recognizer: Any, vad: Any) -> Outcome:
    outcome = Outcome([], [], [], [], 0, [], 0, [], 0.0, 0.0)
    converging = int(CONVERGING_SECONDS * SAMPLE_RATE)
    for trial in trials:
        # Converging: the first seconds of a cold canceller.
        out, _, _ = cancel(canceller_factory(), trial.echo[:converging], trial.played[:converging])
        outcome.erle_converging.append(_db(float(np.sum(trial.echo[:converging] ** 2)), float(np.sum(out**2))))
        # The Host alone: how much echo is left, and does anything in it sound like a player?
        out, cpu, detect_on = cancel(warmed(canceller_factory, trial), trial.echo, trial.played)
        outcome.cpu_seconds += cpu
        outcome.audio_seconds += len(out) / SAMPLE_RATE
        outcome.erle_converged.append(_db(float(np.sum(trial.echo**2)), float(np.sum(out**2))))
        for _, _, audio in utterances(out, vad, detect_on):
            outcome.self_triggers += 1
            heard = recognizer.transcribe(audio)
            if heard.text:
                outcome.self_trigger_texts.append(heard.text)
        # The Host and a player over it: are the player's words kept?
        out, _, detect_on = cancel(warmed(canceller_factory, trial), trial.mic, trial.played)
        first, last = trial.player_span
        words = trial.player[first:last]
        outcome.player_before.append(_db(float(np.sum(words**2)), float(np.sum(trial.echo[first:last] ** 2))))
        outcome.player_after.append(_db(float(np.sum(words**2)), float(np.sum((out[first:last] - words) ** 2))))
        theirs = [audio for began, ended, audio in utterances(out, vad, detect_on) if began < last and ended > first]
        if theirs:
            outcome.player_found += 1
            audio = min(theirs, key=len)
            outcome.player_heard.append((trial.player_text, recognizer.transcribe(audio).text))
    return outcome


def _mean(values: list[float]) -> str:
    return f"{np.mean(values):.1f}" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=8)
    parser.add_argument("--candidates", nargs="*", default=list(CANDIDATES))
    args = parser.parse_args()

    from models.locate import WhisperModelName
    from voice_host.ears.asr import RecognitionOptions, Recognizer
    from voice_host.ears.vad import SileroVad

    trials = make_trials(args.trials)
    recognizer = Recognizer(RecognitionOptions(model=WhisperModelName.BASE))
    vad = SileroVad()
    rows = []
    for name in args.candidates:
        try:
            CANDIDATES[name]()
        except (ImportError, OSError) as error:
            rows.append(f"| {name} | not installed ({error}) |||||||")
            continue
        o = run(CANDIDATES[name], trials, recognizer, vad)
        right = sum(1 for said, heard in o.player_heard if _same_words(said, heard))
        rows.append(
            f"| {name} | {_mean(o.erle_converging)} | {_mean(o.erle_converged)} | {_mean(o.player_before)} -> "
            f"{_mean(o.player_after)} | {o.self_triggers} ({len(o.self_trigger_texts)} with text) | "
            f"{o.player_found}/{len(trials)} | {right}/{len(trials)} | {o.cpu_seconds / o.audio_seconds:.3f} |"
        )
        for text in o.self_trigger_texts:
            rows.append(f"|   {name} self-trigger heard as | {text!r} |||||||")
        for said, heard in o.player_heard:
            print(f"{name}: {said!r} heard as {heard!r}", file=sys.stderr)
        print(rows[-1], file=sys.stderr, flush=True)
    delays = ", ".join(f"{t.delay_ms:.0f} ms / {t.gain_db:.0f} dB" for t in trials)
    print("## Echo cancellation\n")
    print(f"`python bench/echo.py --trials {args.trials}`: {args.trials} trials of {TRIAL_SECONDS:.0f} s of piper narration")
    print(f"through seeded echo paths (delay / level: {delays}), a player's tune fixture in a room at a seeded")
    print(f"moment after {PLAYER_AFTER_SECONDS:.0f} s, 6 dB either side of the echo. 10 ms frames, no delay hint. Each canceller")
    print(f"has first heard {WARM_SECONDS:.0f} s of other narration through the same path (it runs all night), except")
    print("for the first column (cold).\n")
    print(
        "| canceller | ERLE first 3 s cold, dB | ERLE warmed, dB | player over the rest, dB (mic -> out) | "
        "self-triggers (Whisper gave text) | player found | player's words right | CPU s per s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row)


def _same_words(said: str, heard: str) -> bool:
    def words(text: str) -> list[str]:
        return "".join(c.lower() if c.isalnum() or c.isspace() else " " for c in text).split()

    return words(said) == words(heard)


if __name__ == "__main__":
    main()
