"""End of turn benchmark: `python bench/turn.py [--split tune|test] [--conditions clean,room] [--paused] [--limit N]`.

Every utterance is fed block by block (32 ms, audio time) through Silero and the segmenter with the
hangover ceiling; at each pause of 0.1 s (the shortest start gap studied) the Host's real understanding
runs on the audio so far (wall-timed), and so does smart-turn when given (`--smart-turn FILE.onnx`).
From that one trace each end-of-turn policy is replayed, with understanding on one worker as in the
listener (a run still going when speech resumes holds the worker to the end of its pass; one still queued is dropped):

- `fixed 0.6 s`: the hangover before the end-of-turn decision: 0.6 s of silence, whatever was said;
- `text`: `EndOfTurn` with the text signal (`heard_complete`), understanding from a 0.2 s pause (before
  issue 15 part 1); `text, from 0.1 s`: the same, understanding started after 0.1 s;
- `shaped`: the graded text signal (`heard_turn`: a whole message that may go on is held
  `hold_seconds`, a question `question_seconds`), from 0.2 s; `shaped, from 0.1 s`: what ships;
  `shaped, from 0.1 s, early runs left to finish`: the same before an early run no longer wanted stopped at its
  next pass (session 44);
  `shaped, questions at once, from 0.1 s`: a question answered after the short pause (faster, and it
  cuts "Martha, where were you … at ten o'clock?"); `shaped, questions 0.6 s`: a shorter question wait;
  `shaped, every question held, from 0.1 s`: before a question ending on where or when it asks about
  ("... in the library?") was answered after the short pause; `shaped, lone commands held, from 0.1 s`:
  before a lone "Next.", "Pass.", "Lies.", "Save." or "Statements." was held like a yes (session 38);
- with --smart-turn: `text + smart-turn` (a complete text waits 0.6 s when smart-turn hears an
  unfinished voice), `text or smart-turn`, `smart-turn alone`.

A policy's end of turn at a pause is the moment its result is ready (when its run could start plus
the understanding time) or the pause its text needs, whichever is later; if speech resumes before
then, the early result was thrown away and the turn goes on. Reported per condition:

- end of speech -> end of turn with understanding instant (the policy's own wait, audio time);
- end of speech -> first audio, p50/p90, on the fixtures the Host answers aloud: measured (the turn's
  end with understanding as timed, plus the engine's reply and piper's first sentence as timed: both
  inflated on a loaded machine) and an idle estimate (understanding `--idle-understanding` at every
  pause, and the reply `--idle-reply`, or nothing when its first piece was made ahead); the app makes
  the opening lines ahead (`tts.opening_lines`), so replies are timed with them made (and without, for
  comparison);
- cut on the stretched commas (each fixture with a comma or colon inside, its pause stretched to a
  seeded 0.3-0.7 s; most are commands, "Read out E eight, ... please."), how often the turn ended before
  the words after the pause, and for what ships which cut lines were questions and which were cut with
  the very message the whole line means (nothing lost);
- cut on the paused lines (`audio_fixtures/paused.py`, with `--paused`): utterances the voice itself
  says with a 0.3-0.7 s pause inside, split by whether the words before the pause are already a whole
  message (`whole`: "Thwaite, where were you … at ten o'clock?", "Next … round.") or not (`open`:
  "Abel, … where were you at ten?"), with understanding as measured, idle and instant;
- where the time goes for the policy that ships: the wait, understanding, the reply's first sentence.

`--split tune` is where rules and thresholds are shaped; figures are reported on `--split test` (the
default). `--traces FILE` keeps every trace (what was heard at each pause, and when) so changed
policies can be replayed without hearing the lines again; a traces file belongs to one commit's
understanding.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.corpus import Split  # noqa: E402
from audio_fixtures.fixtures import Condition, Fixture, FixtureAudio, load_fixtures, read_sample_list  # noqa: E402
from voice_host.ears.sound import SAMPLE_RATE, Audio  # noqa: E402
from voice_host.understanding.understand import Heard  # noqa: E402

if TYPE_CHECKING:
    from audio_fixtures.paused import PausedLine

BLOCK = 512
BLOCK_SECONDS = BLOCK / SAMPLE_RATE
TRACE_EARLY = 0.1  # the trace hands each pause of this long over (the shortest start gap studied)
FIXED_HANGOVER = 0.6  # the hangover before end of turn (the fixed policy)
LEAD_SECONDS = 0.5
TAIL_SECONDS = 2.0
FRAME = 160  # 10 ms frames for finding speech and pauses
# Paused lines are judged three ways: understanding as measured in this run (a loaded machine's results
# come late and are thrown away when speech resumes, so fewer cuts), as an idle machine takes it (the
# recognition p50 of "Voice understanding", run 11, with smart-turn's 75 ms), and instant (the worst case).
IDLE_UNDERSTANDING = 0.45
IDLE_REPLY = 0.12  # the engine's reply and piper's first sentence, idle (run 11: first audio - 0.2 s - recognition)
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
    """One pause in the trace: when it began, whether speech came back, what was heard in it.

    The trace is taken with the shortest gap studied (`--early`): a policy that starts understanding
    after a longer gap sees the same pause only if it lasted that long, and hears what was heard here
    (the audio differs only by the extra silence at its end).
    """

    start: float  # seconds of audio: the pause reached the trace's early gap (silence started)
    silence_began: float  # the first silent block (the segmenter's count)
    resumed: float | None  # speech came back (None: the ceiling ended the utterance)
    ceiling: float | None  # the hangover ceiling ran out
    understand_seconds: float
    heard: Heard  # what the Host's understanding made of the audio so far
    smart_turn: float | None  # probability the turn is finished
    smart_turn_seconds: float
    pass_seconds: tuple[float, ...] = ()  # each pass of the cascade that ran, in order (wall time)

    @property
    def transcript(self) -> str:
        return self.heard.transcript

    def runs_for(self, wanted_for: float, computed: float) -> float:
        """How long a run of this pause's understanding (`computed` seconds) goes on once it is no longer wanted
        `wanted_for` seconds in: to the end of the pass running then (the cascade asks before each pass after
        the first; the passes' times scaled to `computed`)."""
        total = sum(self.pass_seconds)
        if total <= 0:
            return computed
        done = 0.0
        for seconds in self.pass_seconds:
            done += seconds * computed / total
            if done + 1e-9 >= wanted_for:
                return done
        return computed

    def signalled(self, gap: float) -> float | None:
        """When a segmenter with `early_seconds=gap` hands this pause over (None: speech came back first)."""
        blocks = max(1, math.ceil(gap / BLOCK_SECONDS - 1e-9))
        at = self.silence_began + blocks * BLOCK_SECONDS
        return at if self.resumed is None or at < self.resumed - 1e-9 else None


@dataclass
class Trace:
    pauses: list[PauseResult] = field(default_factory=list)


class Tracer:
    def __init__(self, smart_turn: Path | None, early_seconds: float = TRACE_EARLY, speech_threshold: float = 0.5) -> None:
        from voice_host.cli.hear import HearPipeline, fresh_game
        from voice_host.ears.vad import SegmenterSettings, SileroVad
        from voice_host.loop.casefiles import load_bundled_case

        self.case = load_bundled_case()
        self.pipeline = HearPipeline(self.case, use_vad=False)
        self.fresh_game = fresh_game
        self.vad = SileroVad()
        self.settings = SegmenterSettings(early_seconds=early_seconds)
        self.speech_threshold = speech_threshold  # ListenerSettings.speech_threshold
        self.smart: Callable[[Audio], float] | None = None
        if smart_turn is not None:
            self.smart = smart_turn_scorer(smart_turn)

    def trace(self, audio: Audio) -> Trace:
        from voice_host.ears.vad import SegmentEvent, UtteranceCollector

        self.vad.reset()
        collector = UtteranceCollector(self.settings)
        trace = Trace()
        heard_at: tuple[float, float, float, Heard, float | None, float, tuple[float, ...]] | None = None
        for index in range(0, len(audio) - BLOCK + 1, BLOCK):
            block = audio[index : index + BLOCK]
            now = (index + BLOCK) / SAMPLE_RATE
            is_speech = self.vad.probability(block) >= self.speech_threshold
            step = collector.add(block, is_speech)
            if step.event is SegmentEvent.SILENCE_STARTED and step.audio is not None:
                began = now - collector.segmenter.silence_run
                game = self.fresh_game(self.case)
                started = time.perf_counter()
                recognised = self.pipeline.passes.hear(step.audio, game, game.state.seats)
                understand = time.perf_counter() - started
                heard, pass_seconds = recognised.heard, tuple(timing.seconds for timing in recognised.timings)
                probability, smart_seconds = None, 0.0
                if self.smart is not None:
                    started = time.perf_counter()
                    probability = self.smart(step.audio)
                    smart_seconds = time.perf_counter() - started
                heard_at = (now, began, understand, heard, probability, smart_seconds, pass_seconds)
            elif step.event in (SegmentEvent.SPEECH_RESUMED, SegmentEvent.SPEECH_ENDED, SegmentEvent.TOO_LONG):
                if heard_at is not None:
                    resumed = now if step.event is SegmentEvent.SPEECH_RESUMED else None
                    ceiling = None if resumed is not None else now
                    start, began, understand, heard, probability, smart_seconds, pass_seconds = heard_at
                    trace.pauses.append(
                        PauseResult(start, began, resumed, ceiling, understand, heard, probability, smart_seconds, pass_seconds)
                    )
                heard_at = None
                if step.event is not SegmentEvent.SPEECH_RESUMED:
                    break
        return trace


class TraceStore:
    """Traces kept in a pickle between runs (`--traces FILE`): policies can be replayed without
    hearing every line again (what was heard is kept; the text signal is judged anew at replay)."""

    def __init__(self, tracer: Tracer, path: Path | None) -> None:
        self.tracer = tracer
        self.path = path
        self.traces: dict[str, Trace] = {}
        if path is not None and path.exists():
            with path.open("rb") as handle:
                self.traces = pickle.load(handle)

    def trace(self, key: str, audio: Callable[[], Audio]) -> Trace:
        if key not in self.traces:
            self.traces[key] = self.tracer.trace(audio())
            if self.path is not None:
                with self.path.open("wb") as handle:
                    pickle.dump(self.traces, handle)
        return self.traces[key]


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
    gap: float = 0.2  # seconds of pause before understanding starts (the segmenter's early_seconds)
    # An early run no longer wanted (speech came back) stops before its next pass, as the listener has it since
    # session 44; False: it runs to its end, holding the worker (before).
    stops: bool = True


def turn_end(trace: Trace, policy: Policy, computing: bool = True, assume: float | None = None) -> tuple[float, int] | None:
    """When the policy ends the turn (seconds of audio, result ready) and at which pause.

    Understanding runs on one worker, as in the listener: a pause's job starts when the worker is free,
    a job still queued when speech resumes is dropped, and one already running holds the worker to the end
    of the pass it is in (`policy.stops`; otherwise to its own end), its result thrown away.
    `computing=False` takes understanding as instant: the policy's own wait, free of the machine's load.
    `assume`: understanding (and smart-turn) take this many seconds at every pause instead of the measured
    time (an idle machine's figure, for a loaded run).
    """
    free = -math.inf  # when the worker is free
    for number, pause in enumerate(trace.pauses):
        requested = pause.signalled(policy.gap)
        if requested is None:
            continue  # the pause was too short for this policy to hand it over
        computed = pause.understand_seconds + pause.smart_turn_seconds if assume is None else assume
        ready = requested
        if computing:
            begins = max(requested, free)
            if pause.resumed is not None and begins >= pause.resumed:
                continue  # still queued when speech came back: dropped unrun
            ready = free = begins + computed
            if policy.stops and pause.resumed is not None and free > pause.resumed:
                free = begins + pause.runs_for(pause.resumed - begins, computed)
        need = policy.wait(pause)
        if need is not None:
            ends = max(ready, pause.silence_began + need)
            if pause.resumed is None or ends < pause.resumed:
                return ends, number
        if pause.ceiling is not None:
            return max(ready, pause.ceiling), number
    return None


SHIPS = "shaped, from 0.1 s"  # the policy the app uses (its parts of first audio are printed)


def policies(with_smart: bool) -> list[Policy]:
    from engine.messages import MessageKind
    from voice_host.ears.turn import EndOfTurn, TurnText
    from voice_host.understanding.complete import FINISHED_BY_MORE_WORDS, SHORT_WORDS, heard_complete, heard_turn

    turn = EndOfTurn()

    def fixed(pause: PauseResult) -> float | None:
        return FIXED_HANGOVER

    def text(pause: PauseResult) -> float | None:
        return turn.complete_seconds if heard_complete(pause.heard) else None

    def shaped(pause: PauseResult) -> float | None:
        return turn.wait_seconds(heard_turn(pause.heard))

    def every_question_held(pause: PauseResult) -> float | None:
        # Before a question that ends on where or when it asks about was answered after the short pause.
        grade = heard_turn(pause.heard)
        message = pause.heard.message
        if grade is TurnText.WHOLE and message is not None and message.kind is MessageKind.QUESTION:
            grade = TurnText.QUESTION
        return turn.wait_seconds(grade)

    def questions_at_once(pause: PauseResult) -> float | None:
        # A question put to a suspect answered after the short pause (faster; cuts "Martha, where were
        # you … at ten o'clock?").
        grade = heard_turn(pause.heard)
        return turn.wait_seconds(TurnText.WHOLE if grade is TurnText.QUESTION else grade)

    def lone_commands_held(pause: PauseResult) -> float | None:
        # Before session 38 a lone command that words after a pause can only finish ("Next … round, please.")
        # was held like a yes.
        grade = heard_turn(pause.heard)
        message = pause.heard.message
        if (
            grade is TurnText.WHOLE
            and message is not None
            and message.command in FINISHED_BY_MORE_WORDS
            and len(pause.heard.text.split()) <= SHORT_WORDS
        ):
            grade = TurnText.MAY_GO_ON
        return turn.wait_seconds(grade)

    questions_sooner = replace(turn, question_seconds=0.6)

    def questions_sooner_wait(pause: PauseResult) -> float | None:
        return questions_sooner.wait_seconds(heard_turn(pause.heard))

    def text_smart(pause: PauseResult) -> float | None:
        if not heard_complete(pause.heard):
            return None
        finished = pause.smart_turn is None or pause.smart_turn > 0.5
        return turn.complete_seconds if finished else turn.doubt_seconds

    def text_or_smart(pause: PauseResult) -> float | None:
        # Either signal may end the turn: smart-turn ends what the text calls unfinished.
        if heard_complete(pause.heard) or (pause.smart_turn or 0.0) > 0.5:
            return turn.complete_seconds
        return None

    def smart_alone(pause: PauseResult) -> float | None:
        return turn.complete_seconds if (pause.smart_turn or 0.0) > 0.5 else None

    chosen = [
        Policy(f"fixed {FIXED_HANGOVER} s", fixed),
        Policy("text", text),
        Policy("text, from 0.1 s", text, gap=0.1),
        Policy("shaped", shaped),
        Policy("shaped, every question held, from 0.1 s", every_question_held, gap=0.1),
        Policy(SHIPS, shaped, gap=0.1),
        Policy("shaped, from 0.1 s, early runs left to finish", shaped, gap=0.1, stops=False),
        Policy("shaped, questions at once, from 0.1 s", questions_at_once, gap=0.1),
        Policy("shaped, questions 0.6 s, from 0.1 s", questions_sooner_wait, gap=0.1),
        Policy("shaped, lone commands held, from 0.1 s", lone_commands_held, gap=0.1),
    ]
    if with_smart:
        chosen += [
            Policy("text + smart-turn", text_smart),
            Policy("text or smart-turn", text_or_smart),
            Policy("smart-turn alone", smart_alone),
        ]
    return chosen


def percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


@dataclass(frozen=True)
class ReplyTime:
    seconds: float  # the engine's reply and piper's first piece of it (wall time)
    made_ahead: bool  # that first piece was made ahead (`Synthesizer.prepare`): no synthesis waited for


def cut_kinds(cut: Sequence[PausedLine], total: int, tracer: Tracer) -> str:
    """What the paused lines cut by what ships were (understanding as measured): questions (issue 15's target
    counts those) or other messages, and how many of them the words after the pause only finish: the same
    card message ("Read exhibit four ... again, please."), which the app takes as its end over the Host
    (voice_host/loop/barge_in.py `finishes`), judged on the words as said, in a fresh game."""
    from voice_host.loop.barge_in import finishes

    game = tracer.fresh_game(tracer.case)
    questions = [line for line in cut if line.fixture.kind == "question"]
    finished = [line for line in cut if finishes(game.preview(line.said_first), game.preview(line.fixture.said))]
    return (
        f"\n{SHIPS}, understanding as measured: {len(cut)} of {total} paused lines cut, {len(questions)} of them "
        f"questions; the rest only finishes the same message in {len(finished)}"
    )


@dataclass(frozen=True)
class StretchedCut:
    """A stretched comma what ships cut: the line, and what was understood at the pause that ended it."""

    fixture: Fixture
    heard: Heard | None  # None: no pause ended the turn before the words came back


def stretched_kinds(cut: Sequence[StretchedCut], lines: Sequence[Fixture], tracer: Tracer) -> str:
    """What the stretched commas cut by what ships were (understanding as measured): questions (issue 15's
    target counts those; most stretched lines are commands, "Read out E eight, ... please.") or other
    messages, and how many were cut with the very card message the whole line means (nothing lost: "please"
    only finishes it), judged on what was understood at the pause, in a fresh game."""
    from voice_host.loop.barge_in import finishes

    game = tracer.fresh_game(tracer.case)
    questions = [c for c in cut if c.fixture.kind == "question"]
    asked = sum(line.kind == "question" for line in lines)
    same = [
        c
        for c in cut
        if c.heard is not None and c.heard.message is not None and finishes(c.heard.message, game.preview(c.fixture.said))
    ]
    listed = "; ".join(f"{c.fixture.id} {c.fixture.spoken!r} heard {c.heard.transcript if c.heard else None!r}" for c in cut)
    return (
        f"\n{SHIPS}, understanding as measured: {len(cut)} of {len(lines)} stretched commas cut, {len(questions)} of the "
        f"{asked} questions; cut with the very message the whole line means in {len(same)}" + (f" ({listed})" if cut else "")
    )


def reply_seconds(tracer: Tracer, fixture: Fixture, synth: object) -> ReplyTime | None:
    """The engine's reply to what the fixture means and piper's first sentence of it.

    None when the Host says nothing aloud to it (table talk): there is no first audio to wait for.
    """
    from voice_host.mouth.tts import Synthesizer, speech_lines

    assert isinstance(synth, Synthesizer)
    game = tracer.fresh_game(tracer.case)
    started = time.perf_counter()
    reply = game.handle(fixture.said)
    spoken = next(iter(synth.stream(reply)), None)
    if spoken is None:
        return None
    return ReplyTime(time.perf_counter() - started, synth.made_ahead(speech_lines(reply)[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conditions", default="clean,room")
    parser.add_argument("--split", default="test", choices=[s.value for s in Split], help="shape on tune, report test")
    parser.add_argument("--limit", type=int, default=0, help="only the first N fixtures (the paused lines are all run)")
    parser.add_argument(
        "--same-as", type=Path, default=None, help="only these fixtures, in this order (a sample list, bench/samples/*.txt)"
    )
    parser.add_argument("--smart-turn", type=Path, default=None, help="smart-turn v3 ONNX file to compare")
    parser.add_argument("--cache", type=Path, default=None, help="keep room impulses and room renders in this folder")
    parser.add_argument(
        "--traces",
        type=Path,
        default=None,
        help="keep each line's trace in this pickle and reuse it (replaying changed policies without hearing again)",
    )
    parser.add_argument(
        "--idle-understanding",
        type=float,
        default=IDLE_UNDERSTANDING,
        help="seconds of understanding assumed for the 'idle' columns",
    )
    parser.add_argument(
        "--idle-reply", type=float, default=IDLE_REPLY, help="seconds of engine reply and first piper sentence assumed idle"
    )
    parser.add_argument("--paused-only", action="store_true", help="only the paused lines (implies --paused)")
    parser.add_argument("--paused", action="store_true", help="also the paused lines of audio_fixtures/paused.py")
    parser.add_argument(
        "--speech-threshold",
        type=float,
        default=0.5,
        help="Silero probability at or above which a block is speech (the listener's speech_threshold)",
    )
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    from audio_fixtures.acoustics import RoomImpulses, in_room
    from audio_fixtures.paused import PausedAudio, paused_lines
    from voice_host.mouth.tts import Synthesizer, opening_lines

    every = load_fixtures(Split(args.split))
    fixtures = every[: args.limit] if args.limit else every
    if args.same_as is not None:
        by_id = {f.id: f for f in every}
        fixtures = [by_id[name] for name in read_sample_list(args.same_as)]
    fixtures = [] if args.paused_only else fixtures
    sounds = FixtureAudio(every, args.cache)
    impulses = RoomImpulses(args.cache)
    tracer = Tracer(args.smart_turn, speech_threshold=args.speech_threshold)
    store = TraceStore(tracer, args.traces)
    synth = Synthesizer()
    synth.preload()
    chosen = policies(args.smart_turn is not None)
    lead = np.zeros(int(LEAD_SECONDS * SAMPLE_RATE), dtype=np.float32)
    tail = np.zeros(int(TAIL_SECONDS * SAMPLE_RATE), dtype=np.float32)
    # The app makes the opening lines ahead (tts.opening_lines): replies are timed without and with them.
    cold = {f.id: reply_seconds(tracer, f, synth) for f in fixtures}
    started = time.perf_counter()
    made = synth.prepare(opening_lines(tracer.case)) if fixtures else 0
    made_seconds = time.perf_counter() - started
    replies = {f.id: reply_seconds(tracer, f, synth) for f in fixtures}
    args.paused = args.paused or args.paused_only
    paused_set = [line for line in paused_lines() if line.fixture.split.value == args.split] if args.paused else []
    paused_sounds = PausedAudio()
    answered = [reply for reply in replies.values() if reply is not None]
    before = [reply.seconds for reply in cold.values() if reply is not None]
    print(
        f"{len(fixtures)} fixtures, {len(answered)} answered aloud; reply + first piper sentence p50 / p90 "
        f"{percentile(before, 50):.3f} / {percentile(before, 90):.3f} s made as needed, "
        f"{percentile([r.seconds for r in answered], 50):.3f} / {percentile([r.seconds for r in answered], 90):.3f} s "
        f"with the opening lines made ahead ({made} lines in {made_seconds:.0f} s; "
        f"{sum(r.made_ahead for r in answered)} of {len(answered)} replies open with one)"
    )
    idle = args.idle_understanding

    for name in args.conditions.split(","):
        condition = Condition(name)
        first_audio: dict[str, list[float]] = {p.name: [] for p in chosen}
        first_idle: dict[str, list[float]] = {p.name: [] for p in chosen}
        waits: dict[str, list[float]] = {p.name: [] for p in chosen}
        cut: dict[str, list[bool]] = {p.name: [] for p in chosen}
        understand: list[float] = []
        smart: list[float] = []
        handed: dict[str, list[int]] = {p.name: [] for p in chosen}  # pauses handed to understanding per line
        parts: dict[str, list[float]] = {"wait": [], "understanding": [], "reply": []}  # SHIPS's first audio
        # (policy, whole first part, understanding as measured / idle / instant) -> cut per paused line.
        paused_cut: dict[tuple[str, bool, str], list[bool]] = {
            (p.name, whole, way): [] for p in chosen for whole in (False, True) for way in UNDERSTANDING_WAYS
        }
        shipped_cuts: list[PausedLine] = []  # the paused lines what ships cut, understanding as measured
        stretched_cuts: list[StretchedCut] = []  # the stretched commas what ships cut
        stretched_lines: list[Fixture] = []  # every stretched comma heard
        for fixture in fixtures:
            clean = sounds.clean(fixture.id)
            _, spoken_end = speech_span(clean)
            spoken_end += LEAD_SECONDS

            def fixture_audio(fixture: Fixture = fixture, condition: Condition = condition) -> Audio:
                return np.concatenate([lead, sounds.audio(fixture.id, condition), tail])

            trace = store.trace(f"{condition.value}|fixture|{fixture.id}", fixture_audio)
            understand += [p.understand_seconds for p in trace.pauses]
            smart += [p.smart_turn_seconds for p in trace.pauses if p.smart_turn is not None]
            reply_time = replies[fixture.id]
            reply = reply_time.seconds if reply_time is not None else None
            # idle: a reply that opens with a piece made ahead waits for no synthesis (the engine: 0.1 ms)
            idle_reply = 0.0 if reply_time is not None and reply_time.made_ahead else args.idle_reply
            for policy in chosen:
                handed[policy.name].append(sum(p.signalled(policy.gap) is not None for p in trace.pauses))
                if reply is None:
                    continue  # the Host does not answer it: no first audio to time
                end = turn_end(trace, policy)
                if args.verbose and policy.name == SHIPS and end is not None and policy.wait(trace.pauses[end[1]]) is None:
                    heard_text = trace.pauses[end[1]].transcript
                    print(f"  ceiling {condition.value}: {fixture.id} {fixture.spoken!r}, heard {heard_text!r}")
                if end is not None:
                    first_audio[policy.name].append(end[0] - spoken_end + reply)
                idle_end = turn_end(trace, policy, assume=idle)
                if idle_end is not None:
                    first_idle[policy.name].append(idle_end[0] - spoken_end + idle_reply)
                instant = turn_end(trace, policy, computing=False)
                if instant is not None:
                    waits[policy.name].append(instant[0] - spoken_end)
                if policy.name == SHIPS and end is not None and instant is not None:
                    parts["wait"].append(instant[0] - spoken_end)
                    parts["understanding"].append(trace.pauses[end[1]].understand_seconds)
                    parts["reply"].append(reply)
            paused = with_pause(fixture, clean)
            if paused is None:
                continue

            def stretched_audio(stretched: Paused = paused, condition: Condition = condition) -> Audio:
                heard = stretched.audio
                if condition is not Condition.CLEAN:
                    heard = in_room(stretched.audio, stretched.fixture.id + "|paused", impulses)[0]
                return np.concatenate([lead, heard.astype(np.float32), tail])

            trace = store.trace(f"{condition.value}|stretched|{fixture.id}", stretched_audio)
            stretched_lines.append(fixture)
            for policy in chosen:
                end = turn_end(trace, policy)
                was_cut = end is None or end[0] < LEAD_SECONDS + paused.resume_at
                cut[policy.name].append(was_cut)
                if was_cut and policy.name == SHIPS:
                    stretched_cuts.append(StretchedCut(fixture, trace.pauses[end[1]].heard if end is not None else None))
                if args.verbose and was_cut:
                    print(f"  cut {condition.value} {policy.name}: {fixture.id} {fixture.spoken!r} pause {paused.pause:.2f}")
        for line in paused_set:

            def line_audio(line: PausedLine = line, condition: Condition = condition) -> Audio:
                clean, _ = paused_sounds.clean(line)
                if condition is not Condition.CLEAN:
                    clean = in_room(clean, line.fixture.id, impulses)[0].astype(np.float32)
                return np.concatenate([lead, clean, tail])

            _, resume_at = paused_sounds.clean(line)
            trace = store.trace(f"{condition.value}|paused|{line.fixture.id}", line_audio)
            understand += [p.understand_seconds for p in trace.pauses]
            smart += [p.smart_turn_seconds for p in trace.pauses if p.smart_turn is not None]
            for policy in chosen:
                for way in UNDERSTANDING_WAYS:
                    computing, assume = way != "instant", (idle if way == "idle" else None)
                    end = turn_end(trace, policy, computing, assume)
                    was_cut = end is None or end[0] < LEAD_SECONDS + resume_at
                    paused_cut[(policy.name, line.whole_first, way)].append(was_cut)
                    if was_cut and policy.name == SHIPS and way == "measured":
                        shipped_cuts.append(line)
                    if args.verbose and was_cut and way == "idle" and end is not None and policy.name in ("text", SHIPS):
                        kind = "whole" if line.whole_first else "open"
                        print(
                            f"  cut {condition.value} {policy.name} ({kind}): {line.fixture.id} {line.first!r} … "
                            f"{line.rest!r}, heard {trace.pauses[end[1]].transcript!r}"
                        )
        print(
            f"\n{condition.value}: understanding p50 {percentile(understand, 50):.3f} s (measured)"
            + (f", smart-turn p50 {percentile(smart, 50) * 1000:.0f} ms" if smart else "")
        )
        if fixtures:
            print(
                "| policy | end of speech -> end of turn p50 / p90 (instant understanding) "
                "| first audio p50 / p90 (measured) "
                f"| first audio p50 / p90 (idle: understanding {idle:.2f} s, reply {args.idle_reply:.2f} s) "
                f"| pauses understood per line | stretched commas cut ({args.split}) |"
            )
            print("|---|---|---|---|---|---|")
            for policy in chosen:
                values, wait, estimate = first_audio[policy.name], waits[policy.name], first_idle[policy.name]
                cuts = cut[policy.name]
                print(
                    f"| {policy.name} | {percentile(wait, 50):.2f} / {percentile(wait, 90):.2f} s "
                    f"| {percentile(values, 50):.2f} / {percentile(values, 90):.2f} s "
                    f"| {percentile(estimate, 50):.2f} / {percentile(estimate, 90):.2f} s "
                    f"| {np.mean(handed[policy.name]):.2f} "
                    f"| {sum(cuts)}/{len(cuts)} |"
                )
            print(
                f"\nwhere first audio goes ({SHIPS}, measured, p50 / p90 s): "
                + ", ".join(f"{name} {percentile(v, 50):.2f} / {percentile(v, 90):.2f}" for name, v in parts.items())
            )
            print(stretched_kinds(stretched_cuts, stretched_lines, tracer))
        if args.paused:
            ways = " / ".join(f"{idle:.2f} s" if way == "idle" else way for way in UNDERSTANDING_WAYS)
            print(f"\n| policy | paused lines ({args.split}) cut, open first part; understanding {ways} | whole first part |")
            print("|---|---|---|")
            for policy in chosen:
                cells = []
                for whole in (False, True):
                    judged = [paused_cut[(policy.name, whole, way)] for way in UNDERSTANDING_WAYS]
                    cells.append(" / ".join(f"{sum(cuts)}/{len(cuts)}" for cuts in judged))
                print(f"| {policy.name} | {cells[0]} | {cells[1]} |")
            print(cut_kinds(shipped_cuts, len(paused_set), tracer))


if __name__ == "__main__":
    main()
