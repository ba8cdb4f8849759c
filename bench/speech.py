"""Speech I/O timings: model loads, recognition per utterance, piper's first audio, end of speech to first
audio through the real voice loop, cold start to the first spoken word, and peak memory.

    .venv/bin/python bench/speech.py            # everything (about three minutes on 2 cores)
    .venv/bin/python bench/speech.py --quick    # fewer repeats, no real-time loop

Prints a markdown section for docs/benchmarks.md ("## Speech I/O"). Test speech is rendered by piper
here, so nothing is downloaded. Timings are wall-clock on whatever else the machine is doing: run it on
a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.replies import PartKind, Reply, ReplyPart  # noqa: E402
from models.locate import WhisperModelName  # noqa: E402
from voice_host.ears.asr import RecognitionOptions, Recognizer, Transcript  # noqa: E402
from voice_host.ears.sound import BLOCK_SAMPLES, SAMPLE_RATE  # noqa: E402
from voice_host.ears.vad import SileroVad  # noqa: E402
from voice_host.loop.listener import FeedOnlySource, Listener, ListenerSettings, Utterance  # noqa: E402
from voice_host.mouth.tts import Synthesizer  # noqa: E402

UTTERANCES = (
    "Abel, where were you at ten o'clock?",
    "Confront Martha Ruddock with exhibit seven.",
    "Read exhibit twelve.",
    "Next.",
    "Joel, did you go down the back stair?",
    "We accuse Julius Ormerod: exhibits three, nine and fourteen.",
    "Phoebe, what did you hear from the plate room?",
    "Ask the curate where he was when the waits came.",
)

EXHIBIT_96_WORDS = (
    "A page from the kitchen day book, in Martha Ruddock's hand. Christmas Eve. Goose in by four. Waits "
    "expected at ten, give them the elder wine in the porch, not the hall. Mr. Thwaite to count the plate "
    "after supper and lock the plate room; key back on the board by the back stair. Reverend Keld stays, "
    "the lane being bad. Miss Marsden wants hot water at half past nine. Mr. Ormerod's trap to be ready at "
    "eleven if the snow allows, which it will not. Mr. Joel asked twice for the cellar key."
)

FIRST_REPLY = Reply(
    (
        ReplyPart(PartKind.SUSPECT, "I was in the pantry with the silver, as I am every night.", speaker="s1"),
        ReplyPart(PartKind.SYSTEM, "Question 2 of 4: Ann."),
        ReplyPart(PartKind.LEDGER, "[L] t:5 | rd:1 | q:1/4 | seat:2/3 | broken:none | acc:none | v1.0.0"),
    )
)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


@dataclass
class Rendered:
    text: str
    audio: np.ndarray  # 16 kHz float32, 0.3 s of silence either side

    @property
    def speech_end(self) -> float:
        """Seconds into the clip where the voice stops (the last sample above -40 dBFS)."""
        loud = np.flatnonzero(np.abs(self.audio) > 0.01)
        return float(loud[-1] + 1) / SAMPLE_RATE if len(loud) else 0.0


def render_all(synthesizer: Synthesizer) -> list[Rendered]:
    pad = np.zeros(int(0.3 * SAMPLE_RATE), dtype=np.float32)
    return [Rendered(text, np.concatenate([pad, synthesizer.render(text, rate=SAMPLE_RATE), pad])) for text in UTTERANCES]


def bench_recognition(model: WhisperModelName, clips: list[Rendered], repeats: int) -> dict[str, object]:
    recognizer = Recognizer(RecognitionOptions(model=model, beam_size=5))
    recognizer.transcribe(clips[0].audio)  # warm-up: first call allocates
    times: list[float] = []
    cpu: list[float] = []
    heard: list[tuple[str, str]] = []
    for clip in clips:
        for _ in range(repeats):
            recognizer.forget_encoding()  # a repeat of the same audio would reuse the kept encoding
            cpu_started = time.process_time()
            transcript = recognizer.transcribe(clip.audio)
            cpu.append(time.process_time() - cpu_started)
            times.append(transcript.seconds)
        heard.append((clip.text, transcript.text))
    return {
        "model": model.value,
        # CPU seconds (both threads) do not grow when other work shares the machine; wall time does.
        "cpu median": statistics.median(cpu),
        "median": statistics.median(times),
        "p90": percentile(times, 90),
        "max": max(times),
        "heard": heard,
    }


def bench_piper(synthesizer: Synthesizer) -> dict[str, float]:
    replies = {
        "suspect line (12 words)": FIRST_REPLY,
        "exhibit (96 words)": Reply((ReplyPart(PartKind.EXHIBIT, EXHIBIT_96_WORDS, exhibit=3, title="The kitchen day book"),)),
    }
    results: dict[str, float] = {}
    for name, reply in replies.items():
        firsts, totals, audio_seconds = [], [], []
        for _ in range(5):
            started = time.perf_counter()
            stream = synthesizer.stream(reply)
            first = next(stream)
            firsts.append(time.perf_counter() - started)
            rest = list(stream)
            totals.append(time.perf_counter() - started)
            audio_seconds.append(first.seconds + sum(s.seconds for s in rest))
        results[f"{name}: first audio s"] = statistics.median(firsts)
        results[f"{name}: real-time factor"] = statistics.median(totals) / statistics.median(audio_seconds)
    return results


def bench_loop(
    model: WhisperModelName, clips: list[Rendered], synthesizer: Synthesizer, early_seconds: float | None
) -> dict[str, float]:
    """Feed each clip in real time through Capture's stand-in, Silero, the segmenter and whisper.

    End of speech is the moment the last speech sample was fed; first audio is when the first
    sentence of the answer is synthesized (the engine's reply stands in as a fixed one).
    """
    recognizer = Recognizer(RecognitionOptions(model=model, beam_size=5))
    settings = ListenerSettings()
    # None: no early start (transcription begins when the hangover runs out).
    early = settings.segmenter.silence_seconds if early_seconds is None else early_seconds
    settings = replace(settings, segmenter=replace(settings.segmenter, early_seconds=early))
    block = BLOCK_SAMPLES
    waits: list[float] = []
    to_first_audio: list[float] = []
    runs = [0]  # recognitions started, including early ones thrown away

    def counted(audio: np.ndarray) -> Transcript:
        runs[0] += 1
        recognizer.forget_encoding()  # the same clip is fed once per setting: no encoding from an earlier one
        return recognizer.transcribe(audio)

    for clip in clips:
        done = threading.Event()
        got: list[Utterance[Transcript]] = []

        def deliver(
            utterance: Utterance[Transcript], got: list[Utterance[Transcript]] = got, done: threading.Event = done
        ) -> None:
            got.append(utterance)
            # The reply's first sentence: what the table hears first.
            next(synthesizer.stream(FIRST_REPLY))
            done.set()

        source = FeedOnlySource(SAMPLE_RATE)
        executor = ThreadPoolExecutor(max_workers=1)
        listener: Listener[Transcript] = Listener(source, SileroVad(), counted, deliver, settings=settings, executor=executor)
        audio = np.concatenate([clip.audio, np.zeros(SAMPLE_RATE * 2, dtype=np.float32)])
        speech_end = clip.speech_end
        started = time.monotonic()
        for index in range(0, len(audio), block):
            due = started + index / SAMPLE_RATE
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)  # the microphone's real-time pace
            listener.feed(audio[index : index + block])
            if done.is_set():
                break
        done.wait(timeout=30)
        finished = time.monotonic()
        executor.shutdown(wait=True)
        if not got:
            continue
        utterance = got[0]
        waits.append(utterance.ready_at - (started + speech_end))
        to_first_audio.append(finished - (started + speech_end))
    return {
        "p50 end of speech -> transcript": percentile(waits, 50),
        "p50 end of speech -> first audio": percentile(to_first_audio, 50),
        "p90 end of speech -> first audio": percentile(to_first_audio, 90),
        "utterances": float(len(waits)),
        "recognitions per utterance": runs[0] / max(1, len(waits)),
    }


def cold_start_child() -> None:
    """Run in a fresh process: the app's start-up, to the first spoken word; then a recognition."""
    started = float(os.environ["BENCH_SPAWNED_AT"])
    from engine.game import Game
    from voice_host.loop.casefiles import load_bundled_case

    recognizer: list[Recognizer] = []

    def load_ears() -> None:
        recognizer.append(Recognizer(RecognitionOptions(model=WhisperModelName.BASE)))
        SileroVad()

    # The mouth first: on 2 cores, loading whisper alongside would delay the first word; the ears load
    # while the Host reads the opening (tens of seconds of speech).
    game = Game(load_bundled_case())
    synthesizer = Synthesizer()
    first = next(synthesizer.stream(game.start()))
    first_word = time.time() - started
    ears = threading.Thread(target=load_ears)
    ears.start()
    ears.join()
    ready = time.time() - started
    pad = np.zeros(4800, dtype=np.float32)
    clip = np.concatenate([pad, synthesizer.render(UTTERANCES[1], rate=SAMPLE_RATE), pad])
    recognizer[0].transcribe(clip)
    print(json.dumps({"first_word": first_word, "ready_to_listen": ready, "peak_mb": peak_mb(), "first": first.line.text}))


def bench_cold_start(runs: int) -> dict[str, float]:
    results = []
    for _ in range(runs):
        env = dict(os.environ, BENCH_SPAWNED_AT=repr(time.time()))
        done = subprocess.run(
            [sys.executable, __file__, "--cold-start-child"], env=env, capture_output=True, text=True, check=True
        )
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return {
        "first spoken word s (median)": statistics.median(r["first_word"] for r in results),
        "ready to listen s (median)": statistics.median(r["ready_to_listen"] for r in results),
        "peak MB (base + piper + Silero, one recognition)": max(r["peak_mb"] for r in results),
    }


def loop_table(clips: list[Rendered], synthesizer: Synthesizer) -> list[str]:
    lines: list[str] = []
    lines += ["", "End of speech -> first audio, real-time feed through Silero + segmenter (hangover "
              f"{ListenerSettings().segmenter.silence_seconds} s) + whisper + the reply's first piper sentence:",
              "", "| model | early start after | p50 -> transcript | p50 -> first audio | p90 -> first audio "
              "| recognitions per utterance |", "|---|---|---|---|---|---|"]  # fmt: skip
    for model, early_seconds in (
        (WhisperModelName.TINY_EN, 0.2),
        (WhisperModelName.BASE, 0.2),
        (WhisperModelName.BASE, 0.35),
        (WhisperModelName.BASE, None),
    ):
        loop = bench_loop(model, clips, synthesizer, early_seconds)
        early_text = "none" if early_seconds is None else f"{early_seconds} s"
        lines.append(
            f"| {model.value} b5 | {early_text} | {loop['p50 end of speech -> transcript']:.2f} | "
            f"{loop['p50 end of speech -> first audio']:.2f} | {loop['p90 end of speech -> first audio']:.2f} "
            f"| {loop['recognitions per utterance']:.2f} |"
        )

    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and no real-time loop")
    parser.add_argument("--loop-only", action="store_true", help="only the real-time end-of-speech figures")
    parser.add_argument("--cold-start-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.cold_start_child:
        cold_start_child()
        return 0

    lines = ["## Speech I/O", ""]
    lines.append(f"Command: `.venv/bin/python bench/speech.py{' --quick' if args.quick else ''}`; "
                 f"{os.cpu_count()} cores; int8, cpu_threads=2, beam 5, piper en_US joe medium.")  # fmt: skip
    lines.append("")

    if args.loop_only:
        synthesizer = Synthesizer()
        synthesizer.preload()
        lines += loop_table(render_all(synthesizer), synthesizer)
        print("\n".join(lines))
        return 0

    cold = bench_cold_start(1 if args.quick else 3)
    loads: dict[str, float] = {}
    synthesizer = Synthesizer()
    loads["piper voice"] = timed(synthesizer.preload)
    loads["Silero VAD"] = timed(SileroVad)
    for model in (WhisperModelName.TINY_EN, WhisperModelName.BASE):
        options = RecognitionOptions(model=model)
        loads[f"whisper {model.value}"] = timed(lambda: Recognizer(options))  # noqa: B023 (called at once)
    clips = render_all(synthesizer)

    lines += ["| load | seconds |", "|---|---|"]
    lines += [f"| {name} | {seconds:.2f} |" for name, seconds in loads.items()]
    lines.append(f"| (load average at start: {os.getloadavg()[0]:.1f}) | |")
    lines += ["", "| cold start (fresh process, bundled case) | value |", "|---|---|"]
    lines += [f"| {name} | {value:.2f} |" for name, value in cold.items()]

    lines += ["", f"Recognition, {len(clips)} piper-rendered game utterances (no biasing):", ""]
    lines += ["| model | median s | p90 s | max s | median CPU s (2 threads) |", "|---|---|---|---|---|"]
    heard_lines: list[str] = []
    for model in (WhisperModelName.TINY_EN, WhisperModelName.BASE):
        result = bench_recognition(model, clips, 1 if args.quick else 3)
        lines.append(
            f"| {model.value} b5 | {result['median']:.2f} | {result['p90']:.2f} | {result['max']:.2f} "
            f"| {result['cpu median']:.2f} |"
        )
        heard = result["heard"]
        assert isinstance(heard, list)
        heard_lines += [f'- {model.value}: "{said}" -> "{got}"' for said, got in heard]

    piper = bench_piper(synthesizer)
    lines += ["", "| piper | value |", "|---|---|"]
    lines += [f"| {name} | {value:.3f} |" for name, value in piper.items()]

    if not args.quick:
        lines += loop_table(clips, synthesizer)

    lines += ["", f"Peak memory of this benchmark process (both whisper models, piper, Silero): {peak_mb():.0f} MB", ""]
    lines += ["Transcripts (sanity check, not the accuracy benchmark):", *heard_lines]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
