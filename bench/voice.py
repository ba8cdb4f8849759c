"""Voice understanding benchmark: `python bench/voice.py [--conditions clean,room,party] [--limit N]`.

For every spoken fixture in every condition it runs the Host's pipeline (VAD, biased recognition with
the slot, focus, near-voice and check passes, normalising, the NAMES matcher, the engine's classifier,
the confirmation rule)
and, in the same run, a plain baseline (faster-whisper unbiased, the transcript straight to the
classifier: exact NAMES matching, no repair, never a confirmation). It prints per condition:

- intent: kind, suspect, exhibits and command all as the manifest says;
- harmful: a costly action taken (not confirmed) that was not what was meant;
- confirm: how often the Host asks before spending;
- WER: word error rate of the text that reaches the classifier, against what was said;
- names: suspect right, of the fixtures that name one; invented: a suspect in the text nobody said;
- recognition time p50/p90, and end of speech -> first audio p50/p90 (see `first_audio_seconds`);
- peak memory, and cold start to first spoken word (a fresh process).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.fixtures import Condition, Fixture, FixtureAudio, load_manifest  # noqa: E402
from engine.messages import Message  # noqa: E402
from voice_host.understanding.normalise import normalise  # noqa: E402
from voice_host.understanding.understand import Heard  # noqa: E402

SEGMENTER_EARLY = 0.2  # voice_host.ears.vad.SegmenterSettings: transcription starts after this much silence
SEGMENTER_HANGOVER = 0.6  # ... and the utterance ends after this much


@dataclass
class Tally:
    total: int = 0
    intent: int = 0
    harmful: int = 0
    confirmed: int = 0
    word_errors: int = 0
    words: int = 0
    named: int = 0
    names_right: int = 0
    invented: int = 0
    extra_passes: int = 0  # slot, focus, near-voice and check passes, over all utterances
    recognition: list[float] = field(default_factory=list)
    first_audio: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    def row(self, label: str) -> str:
        def pct(n: int, d: int) -> str:
            return f"{100 * n / d:5.1f}%" if d else "   - "

        def q(values: list[float], p: float) -> str:
            if not values:
                return "  -  "
            ordered = sorted(values)
            return f"{ordered[min(len(ordered) - 1, int(p * len(ordered)))]:.2f}"

        return (
            f"{label:<22} n={self.total:<4} intent {pct(self.intent, self.total)}  harmful {pct(self.harmful, self.total)}"
            f"  confirm {pct(self.confirmed, self.total)}  WER {pct(self.word_errors, self.words)}"
            f"  names {pct(self.names_right, self.named)}  invented {self.invented:<3}"
            f"  recog p50 {q(self.recognition, 0.5)} p90 {q(self.recognition, 0.9)}"
            f"  first-audio p50 {q(self.first_audio, 0.5)} p90 {q(self.first_audio, 0.9)}"
            f"  extra passes {self.extra_passes}"
        )


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", normalise(text).lower().replace(".", " "))


def word_errors(reference: str, hypothesis: str) -> tuple[int, int]:
    """Levenshtein distance over words (after the same normalising), and the reference length."""
    ref, hyp = _words(reference), _words(hypothesis)
    previous = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        current = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (r != h))
        previous = current
    return previous[-1], len(ref)


def intent_of(message: Message | None) -> tuple[str, str | None, tuple[int, ...], str | None]:
    if message is None:
        return ("other", None, (), None)
    return (message.kind.value, message.suspect, tuple(message.exhibits), message.command.value if message.command else None)


def expected_intent(fixture: Fixture) -> tuple[str, str | None, tuple[int, ...], str | None]:
    return (fixture.kind, fixture.suspect, fixture.exhibits, fixture.command)


def first_audio_seconds(understand_seconds: float, reply_seconds: float) -> float:
    """End of speech (the last word) to the Host's first audio.

    The listener starts understanding after SEGMENTER_EARLY of silence and the utterance is over
    after SEGMENTER_HANGOVER, so the result is ready at max(hangover, early + understanding); then
    the engine replies and piper makes the first sentence.
    """
    return max(SEGMENTER_HANGOVER, SEGMENTER_EARLY + understand_seconds) + reply_seconds


class Bench:
    def __init__(self, fixtures: list[Fixture], cache: Path | None, biasing: str) -> None:
        from engine.game import Game
        from voice_host.cli.hear import HearPipeline, fresh_game
        from voice_host.ears.asr import RecognitionOptions, Recognizer
        from voice_host.loop.casefiles import load_bundled_case
        from voice_host.mouth.tts import Synthesizer
        from voice_host.understanding.names import NamesMatcher
        from voice_host.understanding.understand import Biasing

        self.case = load_bundled_case()
        self.fixtures = fixtures
        self.audio = FixtureAudio(fixtures, cache)
        self.pipeline = HearPipeline(self.case, Biasing(biasing))
        # The baseline is stock faster-whisper: Whisper's whole 30 s window (the model is shared).
        self.plain: Recognizer = Recognizer(RecognitionOptions(window_padding_seconds=None))
        self.matcher = NamesMatcher(self.case.suspects)
        self.synth = Synthesizer()
        self.synth.preload()
        self._fresh_game = fresh_game
        self._game_type = Game

    def _reply_seconds(self, text: str) -> float | None:
        """Engine reply plus piper's first sentence, on a fresh game (what the table waits for).

        None when the reply says nothing aloud (a LEDGER-only reply): there is no first audio to time.
        """
        game = self._fresh_game(self.case)
        started = time.perf_counter()
        reply = game.handle(text)
        stream = self.synth.stream(reply)
        spoken = next(stream, None)
        return time.perf_counter() - started if spoken is not None else None

    def _answer_seconds(self, heard: Heard) -> float | None:
        """How long the Host takes to start speaking its answer to what it heard (None: it stays silent)."""
        if heard.needs_confirmation:
            return self._line_seconds("I heard: " + heard.text)
        return self._reply_seconds(heard.text) if heard.usable else None

    def _line_seconds(self, line: str) -> float:
        """A host line's first sentence from piper (a confirmation needs no engine call)."""
        from voice_host.mouth.tts import HOST, SpeechLine, split_sentences

        started = time.perf_counter()
        self.synth.synthesize(SpeechLine(HOST, split_sentences(line)[0], 0))
        return time.perf_counter() - started

    def _said_names(self, fixture: Fixture) -> set[str]:
        return set(self.matcher.suspects_named(fixture.said))

    def run(self, condition: Condition, ours: Tally, single: Tally, base: Tally, verbose: bool) -> None:
        for fixture in self.fixtures:
            audio = self.audio.audio(fixture.id, condition)
            expected = expected_intent(fixture)
            said_names = self._said_names(fixture)

            # The Host's pipeline.
            result = self.pipeline.hear_audio(audio)
            heard = result.heard
            got = intent_of(heard.message)
            self._score(ours, fixture, got, expected, heard.message, heard.needs_confirmation, heard.text, said_names)
            recognised = result.recognised
            ours.recognition.append(recognised.recognition_seconds)
            ours.extra_passes += recognised.passes - 1
            reply_seconds = self._answer_seconds(heard)
            if reply_seconds is not None:
                ours.first_audio.append(first_audio_seconds(result.seconds, reply_seconds))
            # The same run scored as if the check pass never ran (one biased pass only).
            first = recognised.first or heard
            first_seconds = recognised.first_seconds if recognised.first else result.seconds
            first_got = intent_of(first.message)
            self._score(single, fixture, first_got, expected, first.message, first.needs_confirmation, first.text, said_names)
            check_seconds = recognised.unbiased.seconds if recognised.unbiased else 0.0
            single.recognition.append(recognised.recognition_seconds - check_seconds)
            single.extra_passes += recognised.passes - 1 - (recognised.unbiased is not None)
            single_reply = self._answer_seconds(first)
            if single_reply is not None:
                single.first_audio.append(first_audio_seconds(first_seconds, single_reply))
            if got != expected:
                ours.misses.append(
                    f"{condition.value} {fixture.id} {fixture.said!r} -> {heard.transcript!r} -> {heard.text!r} {got}"
                )
            if verbose:
                print(f"  {fixture.id} {got == expected} confirm={heard.needs_confirmation} {heard.text!r}", flush=True)

            # The plain baseline: unbiased whisper, transcript straight to the classifier.
            pieces = self.pipeline.utterances(audio)
            import numpy as np

            speech = np.concatenate(pieces) if pieces else audio
            started = time.perf_counter()
            transcript = self.plain.transcribe(speech, initial_prompt="", hotwords=None)
            game = self._fresh_game(self.case)
            message = game.preview(transcript.text) if transcript.text else None
            seconds = time.perf_counter() - started
            got = intent_of(message)
            self._score(base, fixture, got, expected, message, False, transcript.text, said_names)
            base.recognition.append(transcript.seconds)
            base_reply = self._reply_seconds(transcript.text) if transcript.text else None
            if base_reply is not None:
                base.first_audio.append(first_audio_seconds(seconds, base_reply))

    def _score(
        self,
        tally: Tally,
        fixture: Fixture,
        got: tuple[str, str | None, tuple[int, ...], str | None],
        expected: tuple[str, str | None, tuple[int, ...], str | None],
        message: Message | None,
        confirmed: bool,
        text: str,
        said_names: set[str],
    ) -> None:
        tally.total += 1
        tally.intent += got == expected
        tally.confirmed += confirmed
        if message is not None and message.costly and not confirmed and got != expected:
            tally.harmful += 1
        errors, words = word_errors(fixture.said, text)
        tally.word_errors += errors
        tally.words += words
        if fixture.suspect:
            tally.named += 1
            tally.names_right += got[1] == fixture.suspect
        heard_names = set(self.matcher.suspects_named(text))
        tally.invented += bool(heard_names - said_names)


def cold_start() -> float:
    """Process start to the first spoken word's audio: case, VAD, whisper, piper, the opening."""
    started = time.perf_counter()
    from voice_host.cli.hear import HearPipeline
    from voice_host.loop.casefiles import load_bundled_case
    from voice_host.mouth.tts import Synthesizer

    case = load_bundled_case()
    HearPipeline(case)
    synth = Synthesizer()
    from engine.game import Game

    opening = Game(case).start()
    next(synth.stream(opening), None)
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--conditions", default="clean,room,party", help="comma-separated conditions to run (default: clean,room,party)"
    )
    parser.add_argument("--limit", type=int, default=0, help="only the first N fixtures")
    parser.add_argument("--cache", type=Path, default=None, help="keep the derived room/party audio here")
    parser.add_argument("--verbose", action="store_true", help="print every fixture's result as it goes")
    parser.add_argument(
        "--biasing",
        default="prompt_checked",
        choices=["none", "prompt", "prompt_checked"],
        help="the Host's recognition: no biasing, the case vocabulary as prompt, or prompt plus the unbiased check "
        "(default: prompt_checked)",
    )
    parser.add_argument("--misses", type=Path, default=None, help="write every miss of the Host's pipeline here")
    parser.add_argument("--cold-start", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cold_start:
        print(json.dumps({"cold_start": cold_start()}))
        return 0

    fixtures = load_manifest()
    if args.limit:
        fixtures = fixtures[: args.limit]
    started = time.perf_counter()
    bench = Bench(fixtures, args.cache, args.biasing)
    misses: list[str] = []
    print(
        f"{len(fixtures)} fixtures; host = base b5 int8 (8 s window), biasing {args.biasing}, slot, focus and near-voice"
        " passes, repair, NAMES matcher, confirmation;"
        " baseline = stock base b5 (30 s window) unbiased, exact NAMES, never confirms"
    )
    for name in args.conditions.split(","):
        condition = Condition(name)
        ours, single, base = Tally(), Tally(), Tally()
        bench.run(condition, ours, single, base, args.verbose)
        print(f"[{condition.value}]")
        print(ours.row(f"  host {args.biasing}"))
        if args.biasing == "prompt_checked":
            print(single.row("  host prompt"))
        print(base.row("  baseline"))
        misses.extend(ours.misses)
        sys.stdout.flush()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    cold = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--cold-start"], capture_output=True, text=True, check=False
    )
    cold_seconds = json.loads(cold.stdout.strip().splitlines()[-1])["cold_start"] if cold.returncode == 0 else float("nan")
    print(f"peak memory {peak_mb:.0f} MB (whole run: whisper, VAD, piper, engine)")
    print(f"cold start to first spoken word {cold_seconds:.2f} s")
    print(f"run time {time.perf_counter() - started:.0f} s")
    if args.misses:
        args.misses.write_text("\n".join(misses) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
