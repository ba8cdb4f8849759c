"""Voice understanding benchmark: `python bench/voice.py [--splits test,tune] [--conditions clean,room,kitchen]`.

Every fixture of each split (audio_fixtures/fixtures.py: `tune` was tuned on, `test` never is) runs
in each condition through the Host's pipeline (`HearPipeline`, exactly what `third-carol hear` runs)
and, in the same run, a stock-Whisper baseline (faster-whisper base b5 on Whisper's 30 s window, no
biasing, its transcript straight into the engine's classifier: exact NAMES, no repair, never a
confirmation). Each line is judged in the game a table says it in: a fresh game in round 1, or for an
accusation a game brought to the accusation (round A, where the card names the accused by its own
rule). One line per utterance goes to `--out` (JSON lines) as it is measured, so a long run can be
watched, stopped and resumed (`--resume`); `--report FILE` prints the tables from such a file.

Figures, per split and condition, for the Host and the baseline, then by voice family and by kind:
- intent: kind, suspect, exhibits and command all as labelled ("repeat": the session's repeat rule);
- harmful: a costly action (question, confrontation, lock, a yes that ends a round or the night)
  taken without confirmation that was not what was meant;
- confirm: the Host asked first ("I heard: …. Say yes or no.");
- first audio p50/p90: end of speech to the Host's first sound (`first_audio_seconds`), for every
  utterance whose answer says something aloud.
`--text` scores the said words without audio (what understanding makes of a perfect transcript).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.corpus import Family, Split  # noqa: E402
from audio_fixtures.fixtures import Condition, Fixture, FixtureAudio, load_fixtures, read_sample_list  # noqa: E402
from audio_fixtures.voices import VOICE_BY_NAME  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.messages import Message, MessageKind  # noqa: E402
from voice_host.ears.sound import Audio  # noqa: E402
from voice_host.ears.turn import EndOfTurn, TurnText  # noqa: E402
from voice_host.ears.vad import SegmenterSettings  # noqa: E402
from voice_host.understanding.complete import heard_turn  # noqa: E402
from voice_host.understanding.passes.shared import PassName  # noqa: E402
from voice_host.understanding.understand import Heard  # noqa: E402

SAMPLE_SEED = 20261227

Intent = tuple[str, str | None, tuple[int, ...], str | None]
REPEAT: Intent = ("command", None, (), "repeat")


def first_audio_seconds(understand_seconds: float, reply_seconds: float, turn: TurnText) -> float:
    """End of speech (the last word) to the Host's first audio, by the listener's own settings.

    The listener starts understanding after `SegmenterSettings.early_seconds` of silence; the turn is over
    after the pause `EndOfTurn.wait_seconds` gives the words' grade (`turn`: 0.2 s for a whole message,
    0.7 s for a question or a message that may go on; the segmenter's ceiling for unfinished words), or
    when they are understood, whichever is later; then the engine replies and piper makes the first
    sentence. (bench/turn.py replays the end of turn itself, block by block, with Silero's own lag.)
    """
    segmenter = SegmenterSettings()
    wait = EndOfTurn().wait_seconds(turn)
    ready = segmenter.early_seconds + understand_seconds
    return max(segmenter.silence_seconds if wait is None else wait, ready) + reply_seconds


def intent_of(message: Message | None, text: str) -> Intent:
    """What the Host does with the text: the session's repeat rule first (as the session reads it, with the
    engine's message), then the engine's message."""
    from voice_host.understanding.host_requests import is_repeat_request

    if text and is_repeat_request(text, message):
        return REPEAT
    if message is None:
        return ("other", None, (), None)
    return (message.kind.value, message.suspect, tuple(message.exhibits), message.command.value if message.command else None)


def expected_intent(fixture: Fixture) -> Intent:
    return (fixture.kind, fixture.suspect, fixture.exhibits, fixture.command)


@dataclass(frozen=True)
class Outcome:
    """One pipeline on one utterance."""

    intent: list[object]
    right: bool
    harmful: bool
    confirm: bool
    first_audio: float | None  # None: the answer says nothing aloud
    seconds: float  # understanding (all recognition passes, repair, classification)
    transcript: str
    text: str
    # The process's processor time while understanding ran (every thread), and the recognition
    # passes that ran, in order (a pass scoring two closed sets is listed twice): what a pass costs
    # is read from these, not from wall time, on a machine other work shares.
    processor_seconds: float = 0.0
    passes: list[str] = field(default_factory=list)
    scored_sequences: int = 0  # decoder sequences the closed-set scorings ran (each about a short decode)
    pass_seconds: dict[str, float] = field(default_factory=dict)  # each pass that applied: its wall time


@dataclass(frozen=True)
class Record:
    split: str
    condition: str
    id: str
    voice: str
    voice_family: str
    family: str
    paraphrase: bool
    said: str
    expected: list[object]
    host: Outcome
    baseline: Outcome | None

    @staticmethod
    def from_json(row: dict[str, object]) -> Record:
        host = Outcome(**row["host"])  # type: ignore[arg-type]
        base = Outcome(**row["baseline"]) if row.get("baseline") else None  # type: ignore[arg-type]
        return Record(**{**row, "host": host, "baseline": base})  # type: ignore[arg-type]


def voice_family(fixture: Fixture) -> str:
    voice = VOICE_BY_NAME.get(fixture.voice)
    return voice.family.value if voice is not None else "other"


class Bench:
    def __init__(self, with_baseline: bool = True, side_decode: bool = True, without: frozenset[PassName] = frozenset()) -> None:
        from voice_host.cli.hear import HearPipeline, fresh_game, game_at_accusation
        from voice_host.ears.asr import RecognitionOptions, Recognizer
        from voice_host.loop.casefiles import load_bundled_case
        from voice_host.mouth.tts import Synthesizer

        self.case = load_bundled_case()
        self.pipeline = HearPipeline(self.case, side_decode=side_decode, without=without)
        # The baseline is stock faster-whisper: Whisper's whole 30 s window (the model is shared).
        self.plain: Recognizer | None = Recognizer(RecognitionOptions(window_padding_seconds=None)) if with_baseline else None
        self.synth = Synthesizer()
        self.synth.preload()
        self._fresh_game = fresh_game
        self._game_at_accusation = game_at_accusation

    def game_for(self, fixture: Fixture) -> Game:
        """The game a line is said in: an accusation at the accusation, everything else in round 1."""
        if fixture.kind == MessageKind.ACCUSATION.value:
            return self._game_at_accusation(self.case)
        return self._fresh_game(self.case)

    def _reply_seconds(self, fixture: Fixture, text: str) -> float | None:
        """Engine reply plus piper's first sentence on the line's game; None when nothing is said aloud."""
        game = self.game_for(fixture)
        started = time.perf_counter()
        reply = game.handle(text)
        spoken = next(self.synth.stream(reply), None)
        return time.perf_counter() - started if spoken is not None else None

    def _line_seconds(self, line: str) -> float:
        """A host line's first sentence from piper (a confirmation or a repeat needs no engine call)."""
        from voice_host.mouth.tts import HOST, SpeechLine, split_sentences

        started = time.perf_counter()
        self.synth.synthesize(SpeechLine(HOST, split_sentences(line)[0], 0))
        return time.perf_counter() - started

    def _outcome(
        self,
        fixture: Fixture,
        message: Message | None,
        text: str,
        confirm: bool,
        seconds: float,
        transcript: str,
        processor_seconds: float = 0.0,
        passes: Sequence[str] = (),
        scored_sequences: int = 0,
        pass_seconds: dict[str, float] | None = None,
        *,
        turn: TurnText,
    ) -> Outcome:
        """`turn`: the words' end-of-turn grade (`heard_turn`), which says how long the listener waits."""
        got = intent_of(message, text)
        right = got == expected_intent(fixture)
        costly = message is not None and message.costly and got != REPEAT
        reply: float | None
        if confirm:
            reply = self._line_seconds("I heard: " + text)
        elif got == REPEAT:
            reply = self._line_seconds("Say that again.")  # the last reply again: one piper sentence
        else:
            reply = self._reply_seconds(fixture, text) if text and message is not None else None
        return Outcome(
            intent=list(got),
            right=right,
            harmful=costly and not confirm and not right,
            confirm=confirm,
            first_audio=first_audio_seconds(seconds, reply, turn) if reply is not None else None,
            seconds=seconds,
            transcript=transcript,
            text=text,
            processor_seconds=processor_seconds,
            passes=list(passes),
            scored_sequences=scored_sequences,
            pass_seconds=dict(pass_seconds or {}),
        )

    def host(self, fixture: Fixture, audio: Audio) -> Outcome:
        result = self.pipeline.hear_audio(audio, self.game_for(fixture))
        heard = result.heard
        recognised = result.recognised
        passes = [run.name.value for run in recognised.runs for _ in range(max(1, run.decodes + len(run.scores)))]
        return self._outcome(
            fixture,
            heard.message,
            heard.text,
            heard.needs_confirmation,
            result.seconds,
            heard.transcript,
            recognised.processor_seconds,
            passes,
            sum(scores.sequences for scores in recognised.scores),
            {timing.name.value: round(timing.seconds, 4) for timing in recognised.timings},
            turn=heard_turn(heard),
        )

    def baseline(self, fixture: Fixture, audio: Audio) -> Outcome | None:
        import numpy as np

        if self.plain is None:
            return None
        pieces = self.pipeline.utterances(audio)
        speech = np.concatenate(pieces) if pieces else audio
        started, processor_started = time.perf_counter(), time.process_time()
        transcript = self.plain.transcribe(speech, initial_prompt="", hotwords=None)
        game = self.game_for(fixture)
        message = game.preview(transcript.text) if transcript.text else None
        seconds, processor_seconds = time.perf_counter() - started, time.process_time() - processor_started
        # The same end of turn as the Host's: the words as heard, graded as the listener grades them.
        heard = Heard(transcript.text, transcript.text, (), 1.0, message, needs_confirmation=False)
        return self._outcome(
            fixture,
            message,
            transcript.text,
            False,
            seconds,
            transcript.text,
            processor_seconds,
            ["first"],
            turn=heard_turn(heard),
        )

    def text_only(self, fixture: Fixture) -> Outcome:
        """The said words as a perfect transcript, through understanding (no audio, no timing)."""
        game = self.game_for(fixture)
        started = time.perf_counter()
        heard = self.pipeline.understander.understand(fixture.said, game)
        got = intent_of(heard.message, heard.text)
        right = got == expected_intent(fixture)
        costly = heard.message is not None and heard.message.costly and got != REPEAT
        seconds = time.perf_counter() - started
        harmful = costly and not heard.needs_confirmation and not right
        return Outcome(list(got), right, harmful, heard.needs_confirmation, None, seconds, fixture.said, heard.text)


def record(split: Split, condition: str, fixture: Fixture, host: Outcome, base: Outcome | None) -> Record:
    return Record(
        split=split.value,
        condition=condition,
        id=fixture.id,
        voice=fixture.voice,
        voice_family=voice_family(fixture),
        family=fixture.family.value,
        paraphrase="paraphrase" in fixture.tags,
        said=fixture.said,
        expected=list(expected_intent(fixture)),
        host=host,
        baseline=base,
    )


def sample(fixtures: list[Fixture], count: int, split: Split) -> list[Fixture]:
    """A seeded subset in a seeded order, the same on every run (all of them when count is 0 or larger).

    The order is shuffled too: the fixtures are listed phrasing by phrasing, and a run stopped early
    must have measured a random sample, not the commands first.
    """
    order = list(range(len(fixtures)))
    random.Random(f"{SAMPLE_SEED}|{split.value}").shuffle(order)
    keep = order[:count] if count else order
    return [fixtures[i] for i in keep]


# -- the report ---------------------------------------------------------------------------------------
def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def _quantile(values: list[float], p: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(p * len(ordered)))]:.2f}"


def _cells(outcomes: list[Outcome]) -> list[str]:
    n = len(outcomes)
    audio = [o.first_audio for o in outcomes if o.first_audio is not None]
    return [
        str(n),
        _pct(sum(o.right for o in outcomes), n),
        _pct(sum(o.harmful for o in outcomes), n),
        _pct(sum(o.confirm for o in outcomes), n),
        f"{_quantile(audio, 0.5)} / {_quantile(audio, 0.9)}",
    ]


def _table(header: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def report(records: list[Record]) -> str:
    """Markdown tables: overall, by voice family, by kind; test first, tune beside it."""
    out: list[str] = []
    splits = [s for s in ("test", "tune") if any(r.split == s for r in records)]
    conditions = [c for c in ("text", *(c.value for c in Condition)) if any(r.condition == c for r in records)]
    metrics = ["n", "intent", "harmful", "confirm", "first audio p50 / p90 s"]

    def group(key: Callable[[Record], str], values: Sequence[str], title: str) -> None:
        rows: list[list[str]] = []
        for split in splits:
            for condition in conditions:
                for value in values:
                    chosen = [r for r in records if r.split == split and r.condition == condition and key(r) == value]
                    if not chosen:
                        continue
                    host = _cells([r.host for r in chosen])
                    base = [r.baseline for r in chosen if r.baseline is not None]
                    base_cells = _cells(base) if base else ["-"] * len(metrics)
                    rows.append([split, condition, value, *host[:4], host[4], base_cells[1], base_cells[2], base_cells[4]])
        header = [
            "split", "condition", title, "n", "intent", "harmful", "confirm", "first audio p50 / p90 s",
            "baseline intent", "baseline harmful", "baseline first audio p50 / p90 s",
        ]  # fmt: skip
        out.extend(_table(header, rows))
        out.append("")

    group(lambda r: "all", ["all"], "utterances")
    families = sorted({r.voice_family for r in records})
    group(lambda r: r.voice_family, families, "voice family")
    kinds = [f.value for f in Family if any(r.family == f.value for r in records)]
    group(lambda r: r.family, kinds, "kind")
    group(lambda r: "other words" if r.paraphrase else "the card's words", ["the card's words", "other words"], "wording")
    if any(r.host.passes for r in records):
        out.extend(cost_table(records, splits, conditions))
    if any(r.host.pass_seconds for r in records):
        out.extend(pass_time_table(records, splits, conditions))
    return "\n".join(out)


def _cost_cells(outcomes: list[Outcome]) -> list[str]:
    n = len(outcomes)
    wall = [o.seconds for o in outcomes]
    processor = [o.processor_seconds for o in outcomes]
    passes = [len(o.passes) for o in outcomes]
    return [
        str(n),
        f"{_quantile(wall, 0.5)} / {_quantile(wall, 0.9)}",
        f"{_quantile(processor, 0.5)} / {_quantile(processor, 0.9)}",
        f"{sum(passes) / n:.2f}" if n else "-",
        _pct(sum(count > 1 for count in passes), n),
        f"{sum(o.scored_sequences for o in outcomes) / n:.2f}" if n else "-",
    ]


def cost_table(records: list[Record], splits: Sequence[str], conditions: Sequence[str]) -> list[str]:
    """What understanding cost the Host: wall and processor time, and Whisper passes per utterance."""
    header = [
        "split", "condition", "n", "understanding p50 / p90 s", "processor p50 / p90 s", "passes per utterance",
        "more than one pass", "scored sequences per utterance",
    ]  # fmt: skip
    rows = []
    for split in splits:
        for condition in conditions:
            chosen = [r.host for r in records if r.split == split and r.condition == condition]
            if chosen:
                rows.append([split, condition, *_cost_cells(chosen)])
    return [*_table(header, rows), ""]


def pass_time_table(records: list[Record], splits: Sequence[str], conditions: Sequence[str]) -> list[str]:
    """Where understanding's time goes: each pass, how often it applied and its wall time when it did."""
    header = ["split", "condition", "pass", "applied", "p50 / p90 s when it did", "share of all understanding"]
    rows = []
    for split in splits:
        for condition in conditions:
            chosen = [r.host for r in records if r.split == split and r.condition == condition]
            total = sum(o.seconds for o in chosen)
            names = sorted(
                {name for o in chosen for name in o.pass_seconds}, key=lambda n: -sum(o.pass_seconds.get(n, 0.0) for o in chosen)
            )
            for name in names:
                times = [o.pass_seconds[name] for o in chosen if name in o.pass_seconds]
                share = _pct(round(1000 * sum(times)), round(1000 * total)) if total else "-"
                rows.append(
                    [
                        split,
                        condition,
                        name,
                        _pct(len(times), len(chosen)),
                        f"{_quantile(times, 0.5)} / {_quantile(times, 0.9)}",
                        share,
                    ]
                )
    return ["Where understanding's time goes (wall time of each pass that applied):", "", *_table(header, rows), ""]


def compare(before: list[Record], after: list[Record]) -> str:
    """Two runs on the same utterances, paired: what changed in intent, harm, confirmation and cost."""
    earlier = {(r.split, r.condition, r.id): r for r in before}
    pairs = [(earlier[(r.split, r.condition, r.id)], r) for r in after if (r.split, r.condition, r.id) in earlier]
    header = [
        "split", "condition", "n", "intent", "harmful", "confirm", "processor p50 / p90 s", "passes per utterance",
        "scored sequences per utterance",
    ]  # fmt: skip
    rows: list[list[str]] = []
    changed: list[str] = []
    for split in sorted({a.split for _, a in pairs}):
        for condition in [c for c in ("text", *(c.value for c in Condition)) if any(a.condition == c for _, a in pairs)]:
            chosen = [(b, a) for b, a in pairs if a.split == split and a.condition == condition]
            if not chosen:
                continue
            was, now = [b.host for b, _ in chosen], [a.host for _, a in chosen]
            outcome = [f"{b} -> {a}" for b, a in zip(_cells(was)[1:4], _cells(now)[1:4], strict=True)]
            cost_was, cost_now = _cost_cells(was), _cost_cells(now)
            cost = [f"{cost_was[i]} -> {cost_now[i]}" for i in (2, 3, 5)]  # processor time, passes, scored sequences
            rows.append([split, condition, str(len(chosen)), *outcome, *cost])
            for b, a in chosen:
                if (b.host.right, b.host.harmful, b.host.confirm) != (a.host.right, a.host.harmful, a.host.confirm):
                    changed.append(
                        f"- {split} {condition} {a.id} {a.said!r}: {b.host.text!r} (right {b.host.right}, confirm"
                        f" {b.host.confirm}) -> {a.host.text!r} (right {a.host.right}, confirm {a.host.confirm})"
                    )
    return "\n".join([*_table(header, rows), "", *(changed or ["(no utterance changed its outcome)"])])


def measured_ids(path: Path) -> list[str]:
    """The utterance ids an earlier run measured, in its order: a results file, or a sample list (one id a
    line, `#` for comments: bench/samples/), which keeps a sample measurable as the splits grow."""
    if path.suffix == ".txt":
        return read_sample_list(path)
    return list(dict.fromkeys(record.id for record in load_records(path)))


def load_records(path: Path) -> list[Record]:
    if not path.exists():
        return []
    return [Record.from_json(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cold_start() -> float:
    """Process start to the first spoken word's audio: case, VAD, whisper, piper, the opening."""
    started = time.perf_counter()
    from engine.game import Game
    from voice_host.cli.hear import HearPipeline
    from voice_host.loop.casefiles import load_bundled_case
    from voice_host.mouth.tts import Synthesizer

    case = load_bundled_case()
    HearPipeline(case)
    synth = Synthesizer()
    opening = Game(case).start()
    next(synth.stream(opening), None)
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--splits", default="test,tune", help="comma-separated splits (default: test,tune)")
    parser.add_argument("--conditions", default="clean,room,kitchen", help="comma-separated (clean, room, kitchen, party)")
    parser.add_argument("--sample", type=int, default=0, help="a seeded subset of N fixtures per split (0: all)")
    parser.add_argument("--tune-sample", type=int, default=None, help="for tune, N instead of --sample")
    parser.add_argument("--kinds", default="", help="only fixtures of these kinds, comma-separated (command, table_talk, ...)")
    parser.add_argument(
        "--same-as",
        type=Path,
        default=None,
        help="measure the utterances of an earlier results file or a sample list (bench/samples/*.txt), in its order"
        " (those still in the split)",
    )
    parser.add_argument(
        "--baseline-splits", default="test,tune", help="the splits the baseline runs on (default: test,tune; '' for none)"
    )
    parser.add_argument("--cache", type=Path, default=None, help="keep room impulses and derived audio here")
    parser.add_argument("--out", type=Path, default=Path("voice-bench.jsonl"), help="one JSON line per utterance")
    parser.add_argument("--resume", action="store_true", help="keep --out's lines and measure only the rest")
    parser.add_argument("--no-baseline", action="store_true", help="only the Host's pipeline")
    parser.add_argument(
        "--no-side-decode",
        action="store_true",
        help="the check pass decodes after the first pass, on the same model instance (as before 2026-12-04)",
    )
    parser.add_argument(
        "--without",
        default="",
        help="passes taken out of the Host's cascade, comma-separated (name_slot, closed_set, ...): the before of a"
        " paired run for one pass, with --no-side-decode so the check pass decodes in the same place both times",
    )
    parser.add_argument("--text", action="store_true", help="the said words, no audio: understanding alone")
    parser.add_argument("--report", type=Path, default=None, help="print the tables from a results file and stop")
    parser.add_argument(
        "--compare",
        type=Path,
        nargs=2,
        default=None,
        metavar=("BEFORE", "AFTER"),
        help="two results files of the same utterances, paired: what changed, and the cost before and after",
    )
    parser.add_argument("--verbose", action="store_true", help="print every utterance as it goes")
    parser.add_argument("--cold-start", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    args.sample_for = lambda split: args.tune_sample if split is Split.TUNE and args.tune_sample is not None else args.sample
    if args.cold_start:
        print(json.dumps({"cold_start": cold_start()}))
        return 0
    if args.report:
        print(report(load_records(args.report)))
        return 0
    if args.compare:
        print(compare(load_records(args.compare[0]), load_records(args.compare[1])))
        return 0

    started = time.perf_counter()
    splits = [Split(name) for name in args.splits.split(",")]
    conditions = ["text"] if args.text else [Condition(name).value for name in args.conditions.split(",")]
    done = {(r.split, r.condition, r.id) for r in load_records(args.out)} if args.resume else set()
    if not args.resume:
        args.out.write_text("", encoding="utf-8")
    if args.no_baseline or args.text:
        args.baseline_splits = ""
    without = frozenset(PassName(name) for name in args.without.split(",") if name)
    bench = Bench(with_baseline=bool(args.baseline_splits), side_decode=not args.no_side_decode, without=without)
    print(
        "host = HearPipeline (base b5 int8, its passes, repair, NAMES matcher, confirmation);"
        " baseline = stock base b5 (30 s window) unbiased, exact NAMES, never confirms",
        flush=True,
    )
    # Interleaved: each utterance in every condition before the next, the splits in step with each
    # other, so a run stopped early still covers every split and condition alike.
    work: list[tuple[float, Split, Fixture, FixtureAudio]] = []
    for split in splits:
        everything = load_fixtures(split)
        chosen = sample(everything, args.sample_for(split), split)
        if args.kinds:
            chosen = [fixture for fixture in chosen if fixture.kind in args.kinds.split(",")]
        if args.same_as is not None:
            # The same utterances as an earlier run, paired: one moved out of the split since is left out.
            by_id = {fixture.id: fixture for fixture in everything}
            chosen = [by_id[fixture_id] for fixture_id in measured_ids(args.same_as) if fixture_id in by_id]
        audio = FixtureAudio(everything, args.cache)
        work += [(i / len(chosen), split, fixture, audio) for i, fixture in enumerate(chosen)]
    work.sort(key=lambda item: (item[0], splits.index(item[1])))
    baseline_splits = {Split(name) for name in args.baseline_splits.split(",") if name}
    with args.out.open("a", encoding="utf-8") as out:
        for count, (_, split, fixture, audio) in enumerate(work, 1):
            for condition in conditions:
                if (split.value, condition, fixture.id) in done:
                    continue
                if condition == "text":
                    host, base = bench.text_only(fixture), None
                else:
                    sound = audio.audio(fixture.id, Condition(condition))
                    host = bench.host(fixture, sound)
                    base = bench.baseline(fixture, sound) if split in baseline_splits else None
                row = record(split, condition, fixture, host, base)
                out.write(json.dumps(asdict(row)) + "\n")
                out.flush()
                if args.verbose:
                    said = f"{fixture.said!r} -> {host.text!r}"
                    print(f"  {split.value} {condition} {fixture.id} {host.right} {said}", flush=True)
            if count % 10 == 0:
                print(f"{count} of {len(work)} utterances ({time.perf_counter() - started:.0f} s)", flush=True)
    print(report(load_records(args.out)))
    if not args.text:
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        cold = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--cold-start"], capture_output=True, text=True, check=False
        )
        lines = cold.stdout.strip().splitlines()
        cold_seconds = json.loads(lines[-1])["cold_start"] if cold.returncode == 0 and lines else float("nan")
        print(f"peak memory {peak_mb:.0f} MB (whole run: whisper, VAD, piper, engine)")
        print(f"cold start to first spoken word {cold_seconds:.2f} s")
    print(f"run time {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
