"""Barge-in over the Host's own voice: how fast "stop" silences it, and whether it ever hears itself.

    .venv/bin/python bench/barge_in.py                      # 20 stop trials and one whole night
    .venv/bin/python bench/barge_in.py --trials 5 --no-night

Everything goes through the app's own path, block by block in audio time: the microphone (the Host's
narration through a seeded echo path, `audio_fixtures/echo.py`, plus a player) -> `FarEnd` and
`EchoCanceller` (fed exactly what was played) -> Silero -> the segmenter and `EndOfTurn` -> the whole
understanding (`HearPipeline`: whisper's passes, the matcher, the engine's classifier) -> `barge_words`.

- stop trials: a stretch of narration after 10 s of warm-up through the same path; a player says a
  stop word ("Stop.", "Wait.", ... in a suspect's piper voice, heard in a room, 6 dB either side of the
  echo) at a seeded moment. Barge-in time = end of the word (its last 10 ms within 40 dB of its loudest)
  to silence: the segmenter's pause and the end of turn in audio time, plus understanding's measured
  wall time, plus one block of the speaker's buffer (1024 samples at 22.05 kHz) for `Player.stop`.
- the night: every spoken reply of a scripted night (the opening, the seating, the four round
  openings with their exhibits and statements, answers) with a 1 s gap after each, through one room's
  echo path: every utterance the listener hands on is a self-trigger; a usable message is a
  self-triggered message (target 0).

Prints the "Barge-in" section of docs/benchmarks.md. Timings are wall-clock under whatever load the
machine has.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.acoustics import RoomImpulses, active_rms, in_room  # noqa: E402
from audio_fixtures.echo import EchoPath, echo_path  # noqa: E402
from engine.replies import Reply  # noqa: E402
from voice_host.ears.sound import BLOCK_SAMPLES, PLAYBACK_RATE, SAMPLE_RATE, Audio  # noqa: E402

STOP_WORDS = ("Stop.", "Wait.", "Stop!", "Hold on.", "Wait, wait.", "Stop, please.")
WARM_SECONDS = 10.0
TRIAL_SECONDS = 12.0
SPEAKER_BLOCK_SECONDS = 1024 / PLAYBACK_RATE  # Player's block: what is already in the device when stop() comes
GAP_SECONDS = 1.0  # between one reply and the next in the night


def word_end(audio: Audio, below_peak_db: float = 40.0) -> float:
    """Seconds to the end of the last 10 ms frame within `below_peak_db` of the loudest."""
    frames = len(audio) // 160
    levels = np.array([10 * np.log10(np.mean(audio[i * 160 : (i + 1) * 160] ** 2) + 1e-12) for i in range(frames)])
    loud = np.nonzero(levels >= levels.max() - below_peak_db)[0]
    return float((loud[-1] + 1) * 160 / SAMPLE_RATE)


@dataclass
class Heard:
    began: float  # audio seconds
    ended: float  # audio seconds: the block where the turn ended
    understand_seconds: float  # wall
    transcript: str
    text: str
    usable: bool
    silence: bool  # barge_words would silence the Host


class Ears:
    """The listener's path, block by block in audio time, over one microphone signal."""

    def __init__(self, pipeline: Any, case: Any, detector: str = "webrtc") -> None:
        from voice_host.ears.echo import EchoCanceller, FarEnd, SpeexFrames
        from voice_host.ears.vad import SileroVad
        from voice_host.understanding.complete import heard_complete

        self.pipeline = pipeline
        self.case = case
        self.vad = SileroVad()
        self.far_end = FarEnd()
        from voice_host.ears.echo import WebRtcFrames

        self.echo = EchoCanceller(detector=WebRtcFrames()) if detector == "webrtc" else EchoCanceller(SpeexFrames(suppress=True))
        self.complete = heard_complete

    def hear(self, mic: Audio, played: Audio) -> list[Heard]:
        from voice_host.cli.hear import fresh_game
        from voice_host.loop.barge_in import BargeWords, barge_words
        from voice_host.loop.listener import FeedOnlySource, InlineExecutor, Listener, Utterance
        from voice_host.loop.session import is_repeat_request

        now = [0.0]
        found: list[Heard] = []
        timings: list[float] = []
        game = fresh_game(self.case)

        def understand(audio: Audio) -> Any:
            started = time.perf_counter()
            heard = self.pipeline.passes.hear(audio, game, game.state.seats).heard
            timings.append(time.perf_counter() - started)
            return heard

        def deliver(utterance: Utterance[Any]) -> None:
            heard = utterance.result
            words = barge_words((heard.transcript, heard.text), heard.message, is_repeat_request(heard.text))
            began = utterance.began_at if utterance.began_at is not None else utterance.ended_at
            found.append(
                Heard(began, utterance.ended_at, timings[-1] if timings else 0.0, heard.transcript, heard.text,
                      heard.usable, words is BargeWords.SILENCE)
            )  # fmt: skip

        listener: Listener[Any] = Listener(
            FeedOnlySource(), self.vad, understand, deliver, executor=InlineExecutor(), clock=lambda: now[0],
            turn_complete=self.complete, echo=self.echo, far_end=self.far_end,
        )  # fmt: skip
        listener.begin_speaking()
        for at in range(0, len(mic) - BLOCK_SAMPLES + 1, BLOCK_SAMPLES):
            self.far_end.push(played[at : at + BLOCK_SAMPLES], SAMPLE_RATE)
            now[0] = (at + BLOCK_SAMPLES) / SAMPLE_RATE
            listener.feed(mic[at : at + BLOCK_SAMPLES])
        return found


def listed(heard: list[Heard]) -> str:
    """Each utterance with when it began; a usable message is marked (a self-triggered message)."""
    return "; ".join(f"{h.began:.1f} s {h.transcript!r}{' (USABLE)' if h.usable else ''}" for h in heard) or "none"


def spoken(synthesizer: Any, replies: list[Reply]) -> Audio:
    pieces: list[Audio] = []
    for reply in replies:
        for sentence in synthesizer.stream(reply):
            pieces.append(sentence.audio)
        pieces.append(np.zeros(int(GAP_SECONDS * SAMPLE_RATE), dtype=np.float32))
    return np.concatenate(pieces).astype(np.float32)


def night_replies(case: Any) -> list[Reply]:
    """A whole night's spoken replies: opening, seating, questions, the four round openings."""
    from engine.game import Game

    game = Game(case)
    replies = [game.start(), game.handle("Ann, Bob, Cat")]
    names = [s.name.split()[-1] for s in case.suspects]
    for _ in range(4):
        for n in range(4):
            replies.append(game.handle(f"{names[n % len(names)]}, where were you at ten?"))
        replies.append(game.handle("next"))
    return [r for r in replies if r.spoken_parts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--no-night", action="store_true")
    parser.add_argument("--nights", type=int, default=3, help="the night through this many seeded echo paths")
    parser.add_argument("--detector", choices=("webrtc", "speex"), default="speex", help="what Silero listens to")
    args = parser.parse_args()

    from voice_host.cli.hear import HearPipeline
    from voice_host.loop.casefiles import load_bundled_case
    from voice_host.mouth.tts import Synthesizer, default_voice_map

    case = load_bundled_case()
    pipeline = HearPipeline(case, use_vad=False)
    voices = default_voice_map(tuple(s.key for s in case.suspects))
    synthesizer = Synthesizer(voices, output_rate=SAMPLE_RATE)
    impulses = RoomImpulses()
    replies = night_replies(case)
    narration = spoken(synthesizer, replies[:3])  # the opening and the first answers: plenty for the trials

    from voice_host.mouth.tts import SpeechLine

    times: list[float] = []
    rows: list[str] = []
    length = int((WARM_SECONDS + TRIAL_SECONDS) * SAMPLE_RATE)
    for n in range(args.trials):
        rng = np.random.default_rng(5000 + n)
        start = int(rng.integers(0, len(narration) - length))
        played = narration[start : start + length]
        path: EchoPath = echo_path(f"barge-{n}")
        where = f"{path.delay_seconds * 1000:.0f} ms / {path.gain_db:.0f} dB"
        echo = path.apply(played)
        said = STOP_WORDS[n % len(STOP_WORDS)]
        role = case.suspects[n % len(case.suspects)].key
        clean = synthesizer.synthesize(SpeechLine(role, said, 0)).audio
        end = word_end(clean)
        voice, _ = in_room(clean, f"barge-{n}", impulses)
        voice = voice * (active_rms(echo) * 10 ** (float(rng.uniform(-6.0, 6.0)) / 20) / active_rms(voice))
        at = int(rng.integers(int((WARM_SECONDS + 2) * SAMPLE_RATE), length - len(voice) - SAMPLE_RATE))
        mic = echo.copy()
        mic[at : at + len(voice)] += voice
        ears = Ears(pipeline, case, args.detector)
        heard = ears.hear(mic.astype(np.float32), played)
        word_over = at / SAMPLE_RATE + end
        # The player's stop words: heard during them or after (a first "Wait." of "Wait, wait." counts).
        stops = [h for h in heard if h.silence and h.ended > at / SAMPLE_RATE]
        others = [h for h in heard if h not in stops]
        if stops:
            first = stops[0]
            barge = first.ended - word_over + first.understand_seconds + SPEAKER_BLOCK_SECONDS
            times.append(barge)
            heard_as = f"{first.transcript!r}"
            rows.append(f"| {n} | {said} at {word_over:.1f} s | {where} | {heard_as} | {barge:.2f} s | {listed(others)} |")
        else:
            heard_as = listed(heard)
            rows.append(f"| {n} | {said} at {word_over:.1f} s | {where} | missed ({heard_as}) | - | {listed(others)} |")
        print(rows[-1], file=sys.stderr, flush=True)

    print("## Barge-in\n")
    command = f"python bench/barge_in.py --trials {args.trials} --detector {args.detector}"
    print(f"`{command}`" + (" --no-night" if args.no_night else "") + "\n")
    if times:
        ordered = sorted(times)
        within = sum(1 for t in times if t <= 0.5)

        def pick(q: float) -> float:
            return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]

        print(
            f"Stop words heard and acted on: {len(times)}/{args.trials}; end of the word to silence p50 "
            f"{pick(50):.2f} s, p90 {pick(90):.2f} s, p95 {pick(95):.2f} s; within 0.5 s: {within}/{args.trials}.\n"
        )
    print("| trial | said | echo path | heard as | end of word to silence | other utterances |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        print(row)

    if not args.no_night:
        played = spoken(synthesizer, replies)
        for night in range(args.nights):
            path = echo_path(f"night-{night}")
            echo = path.apply(played)
            ears = Ears(pipeline, case, args.detector)
            started = time.perf_counter()
            heard = ears.hear(echo, played)
            seconds = time.perf_counter() - started
            usable = [h for h in heard if h.usable]
            silencing = [h for h in heard if h.silence]
            print(
                f"\nNight {night + 1}: {len(replies)} replies, {len(played) / SAMPLE_RATE / 60:.1f} min of the Host through "
                f"one echo path ({path.delay_seconds * 1000:.0f} ms, {path.gain_db:.0f} dB, room {path.room}, "
                f"RT60 {path.rt60:.2f} s), "
                f"heard in {seconds:.0f} s: {len(heard)} utterances handed on, {len(usable)} usable messages "
                f"(self-triggered), {len(silencing)} that would have silenced the Host."
            )
            for h in heard:
                print(f"- at {h.began:.1f} s: {h.transcript!r} -> {h.text!r}{' (USABLE)' if h.usable else ''}")


if __name__ == "__main__":
    main()
