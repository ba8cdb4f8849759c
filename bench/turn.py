"""End of turn benchmark: `python bench/turn.py [--conditions clean,room] [--limit N] [--smart-turn FILE.onnx]`.

Every utterance is fed block by block (32 ms, audio time) through Silero and the segmenter with the
hangover ceiling; at each pause of `early_seconds` the Host's real understanding runs on the audio so
far (wall-timed), and so does smart-turn when given. From that one trace each end-of-turn policy is
replayed:

- `fixed 0.6 s`: today's before this change: the turn ends after 0.6 s of silence, whatever was said;
- `text`: `EndOfTurn` with the text signal (`heard_complete`), the 1.0 s ceiling otherwise;
- `text + smart-turn`: the same, a complete text waiting `doubt_seconds` when smart-turn hears an
  unfinished voice (only with --smart-turn);
- `smart-turn alone`: the turn ends at the first pause smart-turn calls finished (reference).

A policy's end of turn at a pause is the moment its result is ready (the pause's start plus the
understanding time); if speech resumes before then, the early result was thrown away and the turn
goes on. Reported per condition:

- end of speech -> first audio, p50/p90, on the `test` part of the fixtures the Host answers aloud
  (the turn's end, plus the engine's reply and piper's first sentence, measured once per fixture);
- cut: on the paused questions (each fixture with a comma or colon inside, its pause stretched to a
  seeded 0.3-0.7 s), how often the turn ended before the words after the pause;
- cut on the paused lines (`audio_fixtures/paused.py`, with `--paused`): utterances the voice itself
  says with a 0.3-0.7 s pause inside, split by whether the words before the pause are already a whole
  message (`whole`: "Thwaite, where were you … at ten o'clock?", "Next … round.") or not (`open`:
  "Abel, … where were you at ten?");
- where the time goes: for the policy that ships (`text`), the parts of first audio at the pause that
  ended the turn (the policy's wait with Silero's lag, understanding, the reply's first sentence).

`--split tune` is where rules and thresholds are shaped; figures are reported on `--split test` (the
default; the corpus's test lines are rendered on first use).

Timings are wall-clock on a shared 2-core machine: understanding time moves with the load.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.corpus import Split  # noqa: E402
from audio_fixtures.fixtures import Condition, Fixture, FixtureAudio, load_fixtures  # noqa: E402
from voice_host.ears.sound import SAMPLE_RATE, Audio  # noqa: E402

BLOCK = 512
FIXED_HANGOVER = 0.6  # the hangover before end of turn (the fixed policy)
LEAD_SECONDS = 0.5
TAIL_SECONDS = 2.0
FRAME = 160  # 10 ms frames for finding speech and pauses
# Paused lines are judged three ways: understanding as measured in this run (a loaded machine's results
# come late and are thrown away when speech resumes, so fewer cuts), as an idle machine takes it (the
# recognition p50 of "Voice understanding", run 11, with smart-turn's 75 ms), and instant (the worst case).
IDLE_UNDERSTANDING = 0.45
UNDERSTANDING_WAYS = ("measured", "idle", "instant")


def _frame_db(audio: Audio) -> np.ndarray:
    frames = len(audio) // FRAME
    power = np.mean(np.square(audio[: frames * FRAME].reshape(frames, FRAME), dtype=np.float64), axis=1)
    return np.asarray(10 * np.log10(power + 1e-12))


def speech_span(audio: Audio, below_peak_db: float = 40.0) -> tuple[float, float]:
    """Seconds of the first and last 10 ms frame within `below_peak_db` of the loudest."""
    db = _frame_db(audio)
    active = np.flatnonzero(db > db.max() - below_peak_db)
    return active[0] * FRAME / SAMPLE_RATE, (active[-1] + 1) * FRAME / SAMPLE_RATE


@dataclass(frozen=True)
class Paused:
    """A fixture with its inner pause stretched: where the words after the pause start."""

    fixture: Fixture
    audio: Audio
    resume_at: float  # seconds: the first word after the pause
    pause: float


def with_pause(fixture: Fixture, clean: Audio) -> Paused | None:
    """The fixture's longest inner gap (its comma) stretched to a seeded 0.3-0.7 s; None if it has none."""
    inner = fixture.spoken.strip().rstrip(".?!")
    if "," not in inner and ":" not in inner:
        return None
    db = _frame_db(clean)
    quiet = db < db.max() - 35.0
    start, end = (int(x * SAMPLE_RATE / FRAME) for x in speech_span(clean))
    best: tuple[int, int] | None = None
    run_start: int | None = None
    for index in range(start, end):
        if quiet[index] and run_start is None:
            run_start = index
        elif not quiet[index] and run_start is not None:
            if best is None or index - run_start > best[1] - best[0]:
                best = (run_start, index)
            run_start = None
    if best is None or best[1] - best[0] < 3:  # no gap of 30 ms: no comma pause to stretch
        return None
    seed = int.from_bytes(hashlib.sha256(("pause|" + fixture.id).encode()).digest()[:4], "little")
    pause = 0.3 + 0.4 * (seed % 1000) / 999
    middle = (best[0] + best[1]) // 2 * FRAME
    old_gap = (best[1] - best[0]) * FRAME / SAMPLE_RATE
    extra = np.zeros(int(max(0.0, pause - old_gap) * SAMPLE_RATE), dtype=np.float32)
    audio = np.concatenate([clean[:middle], extra, clean[middle:]]).astype(np.float32)
    resume_at = best[1] * FRAME / SAMPLE_RATE + len(extra) / SAMPLE_RATE
    return Paused(fixture, audio, resume_at, max(pause, old_gap))


@dataclass(frozen=True)
class PauseResult:
    """One pause in the trace: when it began, whether speech came back, what was judged."""

    start: float  # seconds of audio: the pause reached early_seconds (silence started)
    silence_began: float  # the first silent block
    resumed: float | None  # speech came back (None: the ceiling ended the utterance)
    ceiling: float | None  # the hangover ceiling ran out
    understand_seconds: float
    text_complete: bool
    smart_turn: float | None  # probability the turn is finished
    smart_turn_seconds: float
    transcript: str = ""  # what the Host heard at this pause


@dataclass
class Trace:
    pauses: list[PauseResult] = field(default_factory=list)


class Tracer:
    def __init__(self, smart_turn: Path | None) -> None:
        from voice_host.cli.hear import HearPipeline, fresh_game
        from voice_host.ears.vad import SegmenterSettings, SileroVad
        from voice_host.loop.casefiles import load_bundled_case
        from voice_host.understanding.complete import heard_complete

        self.case = load_bundled_case()
        self.pipeline = HearPipeline(self.case, use_vad=False)
        self.fresh_game = fresh_game
        self.vad = SileroVad()
        self.settings = SegmenterSettings()
        self.complete = heard_complete
        self.smart: Callable[[Audio], float] | None = None
        if smart_turn is not None:
            self.smart = smart_turn_scorer(smart_turn)

    def trace(self, audio: Audio) -> Trace:
        from voice_host.ears.vad import SegmentEvent, UtteranceCollector

        self.vad.reset()
        collector = UtteranceCollector(self.settings)
        trace = Trace()
        pending: dict[str, float] | None = None
        heard_at: tuple[float, float, bool, float | None, float, str] | None = None
        silence_began = 0.0
        was_speech = False
        for index in range(0, len(audio) - BLOCK + 1, BLOCK):
            block = audio[index : index + BLOCK]
            now = (index + BLOCK) / SAMPLE_RATE
            is_speech = self.vad.probability(block) >= 0.5
            if was_speech and not is_speech:
                silence_began = now - BLOCK / SAMPLE_RATE
            was_speech = is_speech
            step = collector.add(block, is_speech)
            if step.event is SegmentEvent.SILENCE_STARTED and step.audio is not None:
                game = self.fresh_game(self.case)
                started = time.perf_counter()
                heard = self.pipeline.passes.hear(step.audio, game, game.state.seats).heard
                understand = time.perf_counter() - started
                probability, smart_seconds = None, 0.0
                if self.smart is not None:
                    started = time.perf_counter()
                    probability = self.smart(step.audio)
                    smart_seconds = time.perf_counter() - started
                heard_at = (now, understand, self.complete(heard), probability, smart_seconds, heard.transcript)
                pending = {"began": silence_began}
            elif step.event in (SegmentEvent.SPEECH_RESUMED, SegmentEvent.SPEECH_ENDED, SegmentEvent.TOO_LONG):
                if heard_at is not None and pending is not None:
                    resumed = now if step.event is SegmentEvent.SPEECH_RESUMED else None
                    ceiling = None if resumed is not None else now
                    start, understand, complete, probability, smart_seconds, transcript = heard_at
                    trace.pauses.append(
                        PauseResult(
                            start, pending["began"], resumed, ceiling, understand, complete, probability, smart_seconds,
                            transcript,
                        )
                    )
                heard_at, pending = None, None
                if step.event is not SegmentEvent.SPEECH_RESUMED:
                    break
        return trace


def smart_turn_scorer(model: Path) -> Callable[[Audio], float]:
    """smart-turn v3 on the last 8 s: Whisper log-mel of the normalised audio, one ONNX thread."""
    import onnxruntime as ort
    from faster_whisper.feature_extractor import FeatureExtractor

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(model), sess_options=options)
    extractor = FeatureExtractor(feature_size=80)
    window = 8 * SAMPLE_RATE

    def score(audio: Audio) -> float:
        audio = audio[-window:]
        audio = np.pad(audio, (window - len(audio), 0))
        normal = (audio - audio.mean()) / np.sqrt(audio.var() + 1e-7)
        features = extractor(normal, padding=0)[:, :800].astype(np.float32)
        return float(np.asarray(session.run(None, {"input_features": features[None]})[0]).reshape(-1)[0])

    return score


@dataclass(frozen=True)
class Policy:
    name: str
    # (pause) -> seconds of pause the policy needs before ending there, or None: it waits past this pause
    wait: Callable[[PauseResult], float | None]


def turn_end(trace: Trace, policy: Policy, computing: bool = True, assume: float | None = None) -> tuple[float, int] | None:
    """When the policy ends the turn (seconds of audio, result ready) and at which pause.

    `computing=False` takes understanding as instant: the policy's own wait, free of the machine's load.
    `assume`: understanding (and smart-turn) take this many seconds at every pause instead of the measured
    time (an idle machine's figure, for a loaded run).
    """
    for number, pause in enumerate(trace.pauses):
        need = policy.wait(pause)
        computed = pause.understand_seconds + pause.smart_turn_seconds if assume is None else assume
        ready = pause.start + (computed if computing else 0.0)
        if need is not None:
            ends = max(ready, pause.silence_began + need)
            if pause.resumed is None or ends < pause.resumed:
                return ends, number
        if pause.ceiling is not None:
            return max(ready, pause.ceiling), number
    return None


def policies(with_smart: bool) -> list[Policy]:
    from voice_host.ears.turn import EndOfTurn

    turn = EndOfTurn()

    def fixed(pause: PauseResult) -> float | None:
        return FIXED_HANGOVER

    def text(pause: PauseResult) -> float | None:
        return turn.complete_seconds if pause.text_complete else None

    def text_smart(pause: PauseResult) -> float | None:
        if not pause.text_complete:
            return None
        finished = pause.smart_turn is None or pause.smart_turn > 0.5
        return turn.complete_seconds if finished else turn.doubt_seconds

    def text_or_smart(pause: PauseResult) -> float | None:
        # Either signal may end the turn: smart-turn ends what the text calls unfinished.
        if pause.text_complete or (pause.smart_turn or 0.0) > 0.5:
            return turn.complete_seconds
        return None

    def smart_alone(pause: PauseResult) -> float | None:
        return turn.complete_seconds if (pause.smart_turn or 0.0) > 0.5 else None

    chosen = [Policy(f"fixed {FIXED_HANGOVER} s", fixed), Policy("text", text)]
    if with_smart:
        chosen += [
            Policy("text + smart-turn", text_smart),
            Policy("text or smart-turn", text_or_smart),
            Policy("smart-turn alone", smart_alone),
        ]
    return chosen


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def reply_seconds(tracer: Tracer, fixture: Fixture, synth: object) -> float | None:
    """The engine's reply to what the fixture means and piper's first sentence of it.

    None when the Host says nothing aloud to it (table talk): there is no first audio to wait for.
    """
    from voice_host.mouth.tts import Synthesizer

    assert isinstance(synth, Synthesizer)
    game = tracer.fresh_game(tracer.case)
    started = time.perf_counter()
    reply = game.handle(fixture.said)
    spoken = next(iter(synth.stream(reply)), None)
    return time.perf_counter() - started if spoken is not None else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conditions", default="clean,room")
    parser.add_argument("--split", default="test", choices=[s.value for s in Split], help="shape on tune, report test")
    parser.add_argument("--limit", type=int, default=0, help="only the first N fixtures and paused lines (a quick look)")
    parser.add_argument("--smart-turn", type=Path, default=None, help="smart-turn v3 ONNX file to compare")
    parser.add_argument("--cache", type=Path, default=None, help="keep room impulses and room renders in this folder")
    parser.add_argument(
        "--idle-understanding",
        type=float,
        default=IDLE_UNDERSTANDING,
        help="seconds of understanding assumed for the paused lines' 'idle' column",
    )
    parser.add_argument("--paused-only", action="store_true", help="only the paused lines (implies --paused)")
    parser.add_argument("--paused", action="store_true", help="also the paused lines of audio_fixtures/paused.py")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    from audio_fixtures.acoustics import RoomImpulses, in_room
    from voice_host.mouth.tts import Synthesizer

    every = load_fixtures(Split(args.split))
    fixtures = every[: args.limit] if args.limit else every
    fixtures = [] if args.paused_only else fixtures
    sounds = FixtureAudio(every, args.cache)
    impulses = RoomImpulses(args.cache)
    tracer = Tracer(args.smart_turn)
    synth = Synthesizer()
    synth.preload()
    chosen = policies(args.smart_turn is not None)
    lead = np.zeros(int(LEAD_SECONDS * SAMPLE_RATE), dtype=np.float32)
    tail = np.zeros(int(TAIL_SECONDS * SAMPLE_RATE), dtype=np.float32)
    replies = {f.id: reply_seconds(tracer, f, synth) for f in fixtures}
    from audio_fixtures.paused import PausedAudio, paused_lines

    args.paused = args.paused or args.paused_only
    paused_set = [line for line in paused_lines() if line.fixture.split.value == args.split] if args.paused else []
    paused_set = paused_set[: args.limit] if args.limit else paused_set
    paused_sounds = PausedAudio()
    answered = [seconds for seconds in replies.values() if seconds is not None]
    print(
        f"{len(fixtures)} fixtures, {len(answered)} answered aloud; reply + first piper sentence p50 "
        f"{percentile(answered, 50):.3f} s"
    )

    for name in args.conditions.split(","):
        condition = Condition(name)
        first_audio: dict[str, list[float]] = {p.name: [] for p in chosen}
        waits: dict[str, list[float]] = {p.name: [] for p in chosen}
        cut: dict[str, list[bool]] = {p.name: [] for p in chosen}
        understand: list[float] = []
        smart: list[float] = []
        parts: dict[str, list[float]] = {"wait": [], "understanding": [], "reply": []}  # the `text` policy's first audio
        # (policy, whole first part, understanding as measured or instant) -> cut per paused line. Instant
        # understanding is the worst case: on a loaded machine a slow result is thrown away when speech resumes.
        paused_cut: dict[tuple[str, bool, str], list[bool]] = {
            (p.name, whole, way): [] for p in chosen for whole in (False, True) for way in UNDERSTANDING_WAYS
        }
        for fixture in fixtures:
            clean = sounds.clean(fixture.id)
            _, spoken_end = speech_span(clean)
            audio = np.concatenate([lead, sounds.audio(fixture.id, condition), tail])
            trace = tracer.trace(audio)
            understand += [p.understand_seconds for p in trace.pauses]
            smart += [p.smart_turn_seconds for p in trace.pauses if p.smart_turn is not None]
            reply = replies[fixture.id]
            for policy in chosen:
                end = turn_end(trace, policy)
                if reply is None:
                    continue  # the Host does not answer it: no first audio to time
                if args.verbose and policy.name == "text" and end is not None and not trace.pauses[end[1]].text_complete:
                    print(f"  ceiling {condition.value}: {fixture.id} {fixture.spoken!r}")
                if end is not None:
                    first_audio[policy.name].append(end[0] - (LEAD_SECONDS + spoken_end) + reply)
                instant = turn_end(trace, policy, computing=False)
                if instant is not None:
                    waits[policy.name].append(instant[0] - (LEAD_SECONDS + spoken_end))
                if policy.name == "text" and end is not None and instant is not None:
                    parts["wait"].append(instant[0] - (LEAD_SECONDS + spoken_end))
                    parts["understanding"].append(trace.pauses[end[1]].understand_seconds)
                    parts["reply"].append(reply)
            paused = with_pause(fixture, clean)
            if paused is None:
                continue
            heard = paused.audio if condition is Condition.CLEAN else in_room(paused.audio, fixture.id + "|paused", impulses)[0]
            audio = np.concatenate([lead, heard.astype(np.float32), tail])
            trace = tracer.trace(audio)
            for policy in chosen:
                end = turn_end(trace, policy)
                was_cut = end is None or end[0] < LEAD_SECONDS + paused.resume_at
                cut[policy.name].append(was_cut)
                if args.verbose and was_cut:
                    print(f"  cut {condition.value} {policy.name}: {fixture.id} {fixture.spoken!r} pause {paused.pause:.2f}")
        if args.paused:
            for line in paused_set:
                clean, resume_at = paused_sounds.clean(line)
                if condition is not Condition.CLEAN:
                    clean = in_room(clean, line.fixture.id, impulses)[0].astype(np.float32)
                trace = tracer.trace(np.concatenate([lead, clean, tail]))
                understand += [p.understand_seconds for p in trace.pauses]
                smart += [p.smart_turn_seconds for p in trace.pauses if p.smart_turn is not None]
                for policy in chosen:
                    for way in UNDERSTANDING_WAYS:
                        computing, assume = way != "instant", (args.idle_understanding if way == "idle" else None)
                        end = turn_end(trace, policy, computing, assume)
                        was_cut = end is None or end[0] < LEAD_SECONDS + resume_at
                        paused_cut[(policy.name, line.whole_first, way)].append(was_cut)
                        if args.verbose and was_cut and way == "idle" and end is not None:
                            kind = "whole" if line.whole_first else "open"
                            heard_text = trace.pauses[end[1]].transcript
                            print(
                                f"  cut {condition.value} {policy.name} ({kind}): {line.fixture.id} {line.first!r} … "
                                f"{line.rest!r}, heard {heard_text!r}"
                            )
        print(
            f"\n{condition.value}: understanding p50 {percentile(understand, 50):.3f} s"
            + (f", smart-turn p50 {percentile(smart, 50) * 1000:.0f} ms" if smart else "")
        )
        print(
            "| policy | end of speech -> end of turn p50 / p90 (instant understanding) "
            f"| end of speech -> first audio p50 / p90 (measured) | paused questions cut ({args.split}) |"
        )
        print("|---|---|---|---|")
        for policy in chosen:
            values, wait = first_audio[policy.name], waits[policy.name]
            cuts = cut[policy.name]
            print(
                f"| {policy.name} | {percentile(wait, 50):.2f} / {percentile(wait, 90):.2f} s "
                f"| {percentile(values, 50):.2f} / {percentile(values, 90):.2f} s "
                f"| {sum(cuts)}/{len(cuts)} |"
            )
        print(
            "\nwhere first audio goes (text policy, p50 / p90 s): "
            + ", ".join(f"{name} {percentile(v, 50):.2f} / {percentile(v, 90):.2f}" for name, v in parts.items())
        )
        if args.paused:
            ways = " / ".join(f"{args.idle_understanding:.2f} s" if way == "idle" else way for way in UNDERSTANDING_WAYS)
            print(f"\n| policy | paused lines ({args.split}) cut, open first part; understanding {ways} | whole first part |")
            print("|---|---|---|")
            for policy in chosen:
                cells = []
                for whole in (False, True):
                    judged = [paused_cut[(policy.name, whole, way)] for way in UNDERSTANDING_WAYS]
                    cells.append(" / ".join(f"{sum(cuts)}/{len(cuts)}" for cuts in judged))
                print(f"| {policy.name} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
