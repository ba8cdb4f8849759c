"""Barge-in over the Host's own voice: how fast "stop" silences it, and whether it ever hears itself.

    .venv/bin/python bench/barge_in.py                      # 20 stop trials, 20 other words, three nights
    .venv/bin/python bench/barge_in.py --trials 10 --others 10 --no-night --short-only
    .venv/bin/python bench/barge_in.py --voices test        # the players in the test voices (final figures only)

Everything goes through the app's own path, block by block in audio time: the microphone (the Host's
narration through a seeded echo path, `audio_fixtures/echo.py`, plus a player) -> `FarEnd` and
`EchoCanceller` (fed exactly what was played) -> Silero -> the segmenter -> the short path
(`ShortPath`, `ShortWordScorer`: docs/speech.md "Barge-in"; on the canceller's signals in turn, `--views`)
and, for what it does not take, `EndOfTurn` and the whole understanding (`HearPipeline`: whisper's passes,
the matcher, the engine's classifier) -> `barge_words`.

- stop trials: a stretch of narration after 10 s of warm-up (and `--history` seconds of the Host before
  it, 30 by default, so Silero has heard the gate's silence as it has deep in a night; 0: the trials of
  runs 3-5, heard 1-9 s after the canceller settled); a player says a stop word ("Stop.",
  "Wait.", ... rendered in the split's voices by audio_fixtures.voices, heard in a room, 6 dB either side
  of the echo) at a seeded moment. End of the word (its last 10 ms within 40 dB of its loudest) to
  silence, in parts: Silero's lag (the word's end to where Silero's pause began, audio time), the pause
  waited (audio time), recognition (the short path's scoring, wall time under whatever load the machine
  has, and its processor time, all threads: near its wall time on an idle machine), and one block of
  the speaker's buffer (`SPEAKER_BLOCK_SAMPLES` at 22.05 kHz; 1024 before session 42) for `Player.stop`.
  A stop word the short path misses may still be acted on by the whole understanding (its pause and wall time instead).
- other words: fixtures of the same split (table talk, and short messages that are not next, skip or repeat) said
  over the Host the same way: any that would act at once (a short word taken, or `barge_words` on the
  whole understanding) is a false stop. With the whole understanding, each is also judged as the Host keeps it
  (its intent as labelled, as bench/voice.py judges it), beside the same words heard alone in the same room.
- the night: every spoken reply of a scripted night (the opening, the seating, the four round
  openings with their exhibits and statements, answers) with a 1 s gap after each, through one room's
  echo path: every utterance the listener hands on is a self-trigger; a usable message is a
  self-triggered message (target 0); a short word taken is a false stop. `--underruns N`: the echo's
  delay moves N times a minute, as through a sound server under load (the canceller's far end is still
  what was played, so it must find the moves itself: `ShadowPath`, `DelayWatch`).

Prints the "Barge-in" section of docs/benchmarks.md; `--scores` prints every short-path scoring to
stderr (to shape its thresholds: tune voices only).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.acoustics import RoomImpulses, active_rms, in_room  # noqa: E402
from audio_fixtures.echo import EchoPath, Shift, echo_path, with_underruns  # noqa: E402
from engine.replies import Reply  # noqa: E402
from voice_host.ears.echo import GATE_DB, TAIL_SECONDS  # noqa: E402
from voice_host.ears.short_words import ShortWordScores  # noqa: E402
from voice_host.ears.sound import BLOCK_SAMPLES, PLAYBACK_RATE, SAMPLE_RATE, SPEAKER_BLOCK_SAMPLES, Audio  # noqa: E402
from voice_host.ears.stop_spotter import SpottedScores  # noqa: E402
from voice_host.loop.barge_in import ShortPath  # noqa: E402
from voice_host.loop.listener import ListenerSettings  # noqa: E402

STOP_WORDS = ("Stop.", "Wait.", "Stop!", "Hold on.", "Wait, wait.", "Stop, please.")
WARM_SECONDS = 10.0
TRIAL_SECONDS = 12.0
SPEAKER_BLOCK_SECONDS = SPEAKER_BLOCK_SAMPLES / PLAYBACK_RATE  # Player's block: what is already in the device when stop() comes
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
    acts: bool  # barge_words would act at once over the Host (silence, repeat, next or skip)
    intent: tuple[object, ...] | None = None  # what the Host does with it (bench/voice.py `intent_of`); None: not understood


@dataclass
class Short:
    """One short utterance the short path scored (and whether it acted)."""

    asked: float  # audio seconds: the pause long enough
    pause_began: float  # audio seconds: where Silero's pause began
    scores: Any  # ShortWordScores
    word: Any  # ShortWord | None: what the short path took it as
    cpu_seconds: float  # processor time of the scoring, every thread (near its wall time on an idle machine)
    # The scorings before it in the same pause (the last stretch's, before the whole utterance's), wall and processor.
    before_seconds: float = 0.0
    before_cpu_seconds: float = 0.0
    audio: Audio | None = None  # what was scored (bench/stop_spotter.py learns from it)
    spotter: bool = False  # scored by the stop spotter
    # The Host was held after this scoring (`ShortPath.hold_from`): the wall and processor seconds of the pause's
    # scorings up to here, when the hold came. None: not held here.
    held_after: tuple[float, float] | None = None
    # Audio seconds at which the hold, and the verdict, were acted on: later than the scoring when it was scored
    # ahead of its pause counting (`ShortPath.scored_from_seconds`). None: not held / not acted on.
    held_at: float | None = None
    acted_at: float | None = None

    def waited(self, recognition: float, at: float | None) -> float:
        """The pause's start to the moment acted on (`at`): its scoring's `recognition` after it was asked, or later
        when the pause had yet to count."""
        scored = self.asked - self.pause_began + recognition
        return scored if at is None else max(scored, at - self.pause_began)


@dataclass(frozen=True)
class Mixed:
    """A player's words said over the Host: the microphone, what the Host played, and where the words are."""

    mic: Audio
    played: Audio
    began: float  # audio seconds: where the player's words begin
    word_over: float  # audio seconds: where they end (`word_end`)
    where: str  # the echo path, for the report
    in_room: Audio  # the player's words as the room gives them, alone (before they are levelled to the echo)


@dataclass(frozen=True)
class Scene:
    """The Host's narration heard through a seeded echo path, for trials of a player's words over it."""

    narration: Audio
    impulses: Any  # RoomImpulses
    history_seconds: float = 30.0
    length: int = int((WARM_SECONDS + TRIAL_SECONDS) * SAMPLE_RATE)

    def mix(self, key: str, seed: int, clean: Audio, shift: float = 0.0, shift_after: float = 0.2) -> Mixed:
        """The player's `clean` words in a room, said over the Host at a seeded moment, 6 dB either side of the echo.
        `shift`: the echo's delay moves by this much `shift_after` seconds after the player begins (an underrun, as
        the table talks and the cores are busy), while the far end is still what was played."""
        rng = np.random.default_rng(seed)
        history = int(self.history_seconds * SAMPLE_RATE)
        start = int(rng.integers(0, len(self.narration) - self.length))
        # The Host went on before the trial's stretch (the narration just before it, from its end if need be).
        before = self.narration[np.arange(start - history, start) % len(self.narration)]
        played = np.concatenate([before, self.narration[start : start + self.length]])
        path: EchoPath = echo_path(key)
        echo = path.apply(played)
        room, _ = in_room(clean, key, self.impulses)
        voice = room * (active_rms(echo) * 10 ** (float(rng.uniform(-6.0, 6.0)) / 20) / active_rms(room))
        at = history + int(rng.integers(int((WARM_SECONDS + 2) * SAMPLE_RATE), self.length - len(voice) - SAMPLE_RATE))
        if shift > 0:  # what sounded: silence put in at the underrun, the rest later by as much
            moved = at + round(shift_after * SAMPLE_RATE)
            gap = np.zeros(round(shift * SAMPLE_RATE), dtype=np.float32)
            echo = path.apply(np.concatenate([played[:moved], gap, played[moved:]])[: len(played)])
        mic = echo.copy()
        mic[at : at + len(voice)] += voice
        where = f"{path.delay_seconds * 1000:.0f} ms / {path.gain_db:.0f} dB"
        over = at / SAMPLE_RATE + word_end(clean)
        return Mixed(mic.astype(np.float32), played, at / SAMPLE_RATE, over, where, room.astype(np.float32))


class Ears:
    """The listener's path, block by block in audio time, over one microphone signal."""

    def __init__(
        self,
        pipeline: Any,
        case: Any,
        detector: str = "speex",
        scorer: Any = None,
        full: bool = True,
        tail_seconds: float = TAIL_SECONDS,
        gate_db: float | None = GATE_DB,
        second: Any = None,
        settings: Any = None,
        spotter: Any = None,
        moves_as_before: bool = False,
    ) -> None:
        from voice_host.ears.echo import EchoCanceller, FarEnd, SpeexFrames, WebRtcFrames
        from voice_host.ears.vad import SileroVad
        from voice_host.loop.barge_in import barge_turn

        self.pipeline = pipeline
        self.case = case
        self.vad = SileroVad()
        self.far_end = FarEnd()
        if detector == "webrtc":
            self.echo = EchoCanceller(WebRtcFrames(), SpeexFrames(tail_seconds), gate_db=gate_db)
        else:  # as the app's EchoCanceller: one speex filter gives both signals
            speex = SpeexFrames(tail_seconds, suppress=True)
            self.echo = EchoCanceller(speex, speex.linear_output(), gate_db=gate_db)
        if moves_as_before:  # session 39's canceller: speex learns every move anew, trusted again only slowly
            self.echo.follow_speex = self.echo.restart_erle_after_move = False
            if self.echo.shadow is not None:
                self.echo.shadow.onset_aware = False
        self.complete = barge_turn  # the app's text signal (voice_host/screen/voice.py)
        self.scorer = scorer
        self.second = second  # the second opinion on "stop" (Whisper base), or None
        self.spotter = spotter  # the third opinion on "stop" (the stop spotter), or None
        self.full = full  # the whole understanding too (off: only the short path is measured)
        self.settings = settings  # ListenerSettings, or None: the app's

    def hear(self, mic: Audio, played: Audio) -> tuple[list[Heard], list[Short]]:
        from bench.voice import intent_of
        from voice_host.cli.hear import fresh_game
        from voice_host.loop.barge_in import BargeWords, barge_words, meant_after_stop
        from voice_host.loop.listener import FeedOnlySource, InlineExecutor, Listener, ShortHeard, Utterance
        from voice_host.understanding.host_requests import is_repeat_request

        now = [0.0]
        found: list[Heard] = []
        shorts: list[Short] = []
        timings: list[float] = []
        game = fresh_game(self.case)

        def understand(audio: Audio) -> Any:
            if not self.full:
                return None
            started = time.perf_counter()
            heard = self.pipeline.passes.hear(audio, game, game.state.seats).heard
            timings.append(time.perf_counter() - started)
            return heard

        def deliver(utterance: Utterance[Any]) -> None:
            heard = meant_after_stop(utterance.result, utterance.after_stop)
            if heard is None:  # --short-only: handed on, not understood
                began = utterance.began_at or utterance.ended_at
                found.append(Heard(began, utterance.ended_at, 0.0, "", "", False, False, False))
                return
            words = barge_words((heard.transcript, heard.text), heard.message, is_repeat_request(heard.text, heard.message))
            began = utterance.began_at if utterance.began_at is not None else utterance.ended_at
            found.append(
                Heard(began, utterance.ended_at, timings[-1] if timings else 0.0, heard.transcript, heard.text,
                      heard.usable, words is BargeWords.SILENCE, words is not BargeWords.OTHER,
                      intent_of(heard.message, heard.text))
            )  # fmt: skip

        def score(audio: Audio, scorer: Any = None) -> Any:
            cpu = time.process_time()
            scores = (scorer or self.scorer).score(audio)
            cpu = time.process_time() - cpu
            segmenter = listener.collector.segmenter
            # A stretch that never started an utterance (`ShortPath.unstarted_seconds`) is scored after the pause.
            paused = segmenter.silence_run if listener.collector.collecting else listener.settings.short_path.pause_seconds
            spotter = scorer is not None and scorer is self.spotter
            short = Short(now[0], now[0] - paused, scores, None, cpu, audio=audio, spotter=spotter)
            if shorts and shorts[-1].asked == short.asked:  # the whole utterance, after its last stretch
                short.before_seconds = shorts[-1].before_seconds + shorts[-1].scores.seconds
                short.before_cpu_seconds = shorts[-1].before_cpu_seconds + shorts[-1].cpu_seconds
            shorts.append(short)
            return scores

        def took(heard: ShortHeard) -> None:
            for short in shorts:
                if short.scores is heard.scores:
                    short.word = heard.word
                    short.acted_at = now[0]

        class Hold:  # the Host held while base judges a word the spotter came near on: when, in the pause's scoring time
            def hold(self) -> None:
                # Asked right after the spotter's scoring that reached `hold_from`; here the bench runs every scoring of
                # the pause at once, and the listener's `PauseGate` may make the hold only later, once the pause counts.
                pause = [s for s in shorts if s.asked == shorts[-1].asked]
                asked_after = hold_asked_after(pause, listener.settings.short_path)
                asked_after.held_after = (
                    asked_after.before_seconds + asked_after.scores.seconds,
                    asked_after.before_cpu_seconds + asked_after.cpu_seconds,
                )
                asked_after.held_at = now[0]

            def release(self) -> None:
                pass

        listener: Listener[Any] = Listener(
            FeedOnlySource(), self.vad, understand, deliver, executor=InlineExecutor(), clock=lambda: now[0],
            turn_complete=self.complete, echo=self.echo, far_end=self.far_end,
            short_words=score if self.scorer is not None else None, on_short_word=took,
            second_opinion=(lambda audio: score(audio, self.second)) if self.second is not None else None,
            stop_spotter=(lambda audio: score(audio, self.spotter)) if self.spotter is not None else None,
            settings=self.settings, host_hold=Hold(),
        )  # fmt: skip
        listener.begin_speaking()
        for at in range(0, len(mic) - BLOCK_SAMPLES + 1, BLOCK_SAMPLES):
            self.far_end.push(played[at : at + BLOCK_SAMPLES], SAMPLE_RATE)
            now[0] = (at + BLOCK_SAMPLES) / SAMPLE_RATE
            listener.feed(mic[at : at + BLOCK_SAMPLES])
        return found, shorts


def shown(short: Short) -> str:
    ranked = ", ".join(f"{word.value} {value:.2f}" for word, value in short.scores.ranked()[:2])
    return f"{short.scores.phrase[short.scores.ranked()[0][0]]!r} ({ranked}{wait_shown(short.scores)})"


def wait_shown(scores: ShortWordScores) -> str:
    """The spotter's "wait" log-odds, when it has one, to show beside its "stop"."""
    return f", wait {scores.wait:.2f}" if isinstance(scores, SpottedScores) and math.isfinite(scores.wait) else ""


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


def other_words(count: int, split: Any) -> list[Any]:
    """Fixtures of `split` said over the Host that must never act at once: table talk, and short messages
    that are not next, skip or repeat (alternately, seeded)."""
    from audio_fixtures.fixtures import load_fixtures
    from voice_host.loop.barge_in import silence_words

    fixtures = [f for f in load_fixtures(split) if f.command not in ("next", "pass", "repeat") and not silence_words(f.said)]
    talk = [f for f in fixtures if f.kind in ("table_talk", "other")]
    short = [f for f in fixtures if f not in talk and len(f.said.split()) <= 3]
    rng = np.random.default_rng(77)
    rng.shuffle(talk)
    rng.shuffle(short)
    mixed = [pick for pair in zip(talk, short, strict=False) for pick in pair]
    return mixed[:count]


def addressed_words(count: int, split: Any, case: Any) -> list[tuple[Any, Audio]]:
    """Questions and confrontations of `split` that open with a suspect's name and a comma ("Thwaite, where were
    you at ten?"), half of them said with a pause of 0.3-0.7 s after the name (audio_fixtures/paused.py): said over
    the Host, the name alone is a short stretch the short path scores, and must never lose the question. Seeded;
    each with its clean audio."""
    import re

    from audio_fixtures.fixtures import FixtureAudio, load_fixtures
    from audio_fixtures.paused import PausedAudio, paused_lines

    names = sorted({alias for s in case.suspects for alias in s.aliases if " " not in alias and alias[:1].isupper()})
    opens = re.compile(rf"^(?:(?:Mr|Mrs|Miss|Reverend)\.? )?(?:{'|'.join(names)})(?: [A-Z]\w+)?,")
    every = load_fixtures(split)
    fixtures = [f for f in every if f.kind in ("question", "confrontation") and opens.match(f.said)]
    paused = [line for line in paused_lines() if line.fixture.split == split and opens.match(line.first)]
    rng = np.random.default_rng(78)
    rng.shuffle(fixtures)
    rng.shuffle(paused)
    audio, paused_audio = FixtureAudio(every), PausedAudio()
    said = [(f, audio.clean(f.id)) for f in fixtures]
    with_pause = [(line.fixture, paused_audio.clean(line)[0]) for line in paused]
    return [pick for pair in zip(with_pause, said, strict=False) for pick in pair][:count]


# espeak-ng's named variants that no split uses and the stop spotter never learnt from (bench/stop_spotter.py's
# `extra_voices`, and not their near kin: edward2, Gene2, iven2, steph2), each in one of the English accents at a
# seeded speed and pitch: more players for the stop trials, as unlike the tune voices as test's are. Tune material
# (`--voices probe`: its other words are tune's).
_PROBE_VARIANTS = (
    "Andrea", "antonio", "aunty", "Denis", "Diogo", "gustave", "Henrique", "Hugo", "Marco", "Mario", "miguel", "pablo",
    "pedro", "Tweaky", "grandma", "michel",
)  # fmt: skip
ACCENTS = ("en-gb", "en-us", "en-gb-scotland", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-029", "en-us-nyc")


def variant_voices(variants: tuple[str, ...], prefix: str, seed: int, accent_step: int = 1) -> tuple[Any, ...]:
    """espeak-ng's named `variants`, the n-th in `ACCENTS`[n * `accent_step`] (cycling), each at a seeded speed
    (140-200 wpm) and pitch; named `prefix`-accent-variant."""
    from audio_fixtures.voices import Voice

    rng = np.random.default_rng(seed)
    found = []
    for n, variant in enumerate(variants):
        accent = ACCENTS[(n * accent_step) % len(ACCENTS)]
        speed, pitch = int(rng.integers(140, 201)), int(rng.integers(35, 70))
        name = f"{prefix}-{accent}-{variant}"
        found.append(Voice(name, "espeak", espeak_voice=f"{accent}+{variant}", speed=speed, pitch=pitch))
    return tuple(found)


def probe_voices() -> tuple[Any, ...]:
    """The probe's players: each of `_PROBE_VARIANTS` in an English accent (every third, so that neighbours differ)."""
    return variant_voices(_PROBE_VARIANTS, "p", seed=4, accent_step=3)


def trial_scene(case: Any, history_seconds: float) -> tuple[Any, Scene]:
    """The Host's narration the trials are said over (the opening and the first answers: plenty), heard through the
    seeded echo paths, and the synthesizer that spoke it (the nights go on with it). piper's variation is seeded:
    the same narration, so the same trials, every run."""
    import onnxruntime

    from voice_host.mouth.tts import Synthesizer, default_voice_map

    onnxruntime.set_seed(5)
    synthesizer = Synthesizer(default_voice_map(tuple(s.key for s in case.suspects)), output_rate=SAMPLE_RATE)
    return synthesizer, Scene(spoken(synthesizer, night_replies(case)[:3]), RoomImpulses(), history_seconds)


def hold_asked_after(pause: list[Short], rule: ShortPath) -> Short:
    """The scoring of `pause` (one pause's scorings, in order) after which the short path asked for a hold on doubt:
    the first of the spotter's that `rule` holds on, whichever opinion was asked first (`ShortPath.spotter_first`).
    The bench runs a pause's scorings all at once, and the listener's `PauseGate` may make the hold later, once the
    pause counts: the hold's moment in scoring time is this one's, not the last scoring's."""
    return next((short for short in pause if short.spotter and rule.holds(short.scores)), pause[-1])


def held_before(shorts: list[Short], taken: Short) -> tuple[tuple[float, float] | None, float | None]:
    """The wall and processor seconds of scoring at which the Host was held in `taken`'s pause, if it was, and the
    audio seconds at which the hold was acted on."""
    held = next((s for s in shorts if s.asked == taken.asked and s.held_after is not None), None)
    return (held.held_after, held.held_at) if held is not None else (None, None)


def held_seconds(shorts: list[Short]) -> list[float]:
    """How long each hold on doubt silenced the Host before the verdict let it play on (holds a stop ended are not
    counted): the pause's scorings after the hold."""
    found: list[float] = []
    for short in shorts:
        if short.held_after is None:
            continue
        pause = [s for s in shorts if s.asked == short.asked]
        if any(s.word is not None for s in pause):
            continue
        last = pause[-1]
        found.append(last.before_seconds + last.scores.seconds - short.held_after[0])
    return found


def pick(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=20, help="stop words said over the Host")
    parser.add_argument(
        "--first-trial",
        type=int,
        default=0,
        help="the stop trials' seeds start here (trials 160 and up of the test voices were first run in session 47)",
    )
    parser.add_argument("--others", type=int, default=20, help="other words (table talk and short messages) said over it")
    parser.add_argument(
        "--voices",
        choices=("tune", "test", "probe"),
        default="tune",
        help="the players' voices and other words (test: final figures only; probe: espeak variants no split has, "
        "with tune's other words, for shaping)",
    )
    parser.add_argument(
        "--addressed",
        type=int,
        default=20,
        help="questions opening with a suspect's name and a comma said over it, half with a pause after the name (session 34)",
    )
    parser.add_argument(
        "--shift-at-onset",
        type=float,
        default=0.0,
        help="seconds the echo's delay moves by, --shift-after each player begins (an underrun as the table talks); 0: none",
    )
    parser.add_argument(
        "--shift-after",
        type=float,
        default=0.2,
        help="seconds after the player begins that --shift-at-onset moves the echo (negative: before they begin)",
    )
    parser.add_argument("--no-night", action="store_true")
    parser.add_argument(
        "--nights", type=int, default=3, help="the night through this many seeded echo paths (20 cover every room of the pool)"
    )
    parser.add_argument(
        "--own-voice",
        default=str(ListenerSettings().own_voice_coherence),
        help="words over the Host this coherent with what it played are dropped as its own voice, as are words "
        "ListenerSettings.own_voice_left_db under the microphone (ListenerSettings.own_voice_coherence; 'None': "
        "neither, as before run 11)",
    )
    parser.add_argument(
        "--over-residue",
        default=str(ListenerSettings().own_voice_over_residue_db),
        help="words over the Host less than this many dB over what the canceller leaves of it (its ERLE) are dropped "
        "as its own voice (ListenerSettings.own_voice_over_residue_db; 'None': the fixed floor alone, as before "
        "session 39)",
    )
    parser.add_argument(
        "--moves-as-before",
        action="store_true",
        help="the canceller after a move of the echo's delay as before session 40: speex learns the room anew (its far "
        "end not moved with the echo), the 10-s median of what it takes out not restarted when trusted again, and the "
        "shadow trying only its whole estimate shifted (EchoCanceller follow_speex, restart_erle_after_move; "
        "ShadowPath onset_aware)",
    )
    parser.add_argument(
        "--underruns",
        type=float,
        default=0.0,
        help="the nights' echo delay moves this often a minute, 10-40 ms at a time (a sound server under load; "
        "audio_fixtures/echo.py with_underruns); 0: a steady delay",
    )
    parser.add_argument(
        "--base-in-place",
        action="store_true",
        help="Whisper base asked on each view in turn even when the Host reads on (ShortPath.base_last_unless_held off)",
    )
    parser.add_argument(
        "--hold-from",
        default=str(ShortPath().hold_from),
        help="the spotter's log-odds, under its floor, from which the Host is held silent while Whisper base judges the "
        "word (ShortPath.hold_from); 'None': it reads on until the verdict, the rule before",
    )
    parser.add_argument(
        "--wait-hold-from",
        default=str(ShortPath().wait_hold_from),
        help="the wait regression's log-odds from which the Host is held silent while tiny.en judges a 'wait' or "
        "'hold on' (ShortPath.wait_hold_from); 'None': no such hold, the rule before session 53",
    )
    parser.add_argument(
        "--spotter-after",
        action="store_true",
        help="the spotter asked only after tiny.en, so a hold on doubt waits for tiny.en (ShortPath.spotter_first off, "
        "the rule before session 51)",
    )
    parser.add_argument("--first-night", type=int, default=0, help="the nights' seeds start here (night-K ...)")
    parser.add_argument("--detector", choices=("webrtc", "speex"), default="speex", help="what Silero listens to")
    parser.add_argument("--no-short", action="store_true", help="without the short path (the whole understanding only)")
    parser.add_argument("--model", choices=("tiny.en", "base"), default="tiny.en", help="the short path's Whisper")
    parser.add_argument("--padding", type=float, default=1.0, help="the short path's encoder window: the utterance plus this")
    parser.add_argument("--no-second", action="store_true", help="no second opinion on 'stop' (Whisper base)")
    parser.add_argument("--no-spotter", action="store_true", help="no third opinion on 'stop' (the stop spotter, from run 13)")
    parser.add_argument(
        "--spotter-floor", type=float, default=ShortPath().spotter_floor, help="the spotter's log-odds that take 'stop'"
    )
    parser.add_argument("--short-only", action="store_true", help="no whole understanding (quicker, to shape the short path)")
    parser.add_argument("--scores", action="store_true", help="print every short-path score (to shape thresholds, tune only)")
    parser.add_argument("--tail", type=float, default=TAIL_SECONDS, help="speex's filter length, seconds")
    parser.add_argument("--gate-db", type=float, default=GATE_DB, help="the residual-echo gate in front of Silero")
    parser.add_argument("--no-gate", action="store_true", help="no residual-echo gate (Silero hears speex's output)")
    parser.add_argument(
        "--history",
        type=float,
        default=30.0,
        help="seconds of the Host (the narration just before) heard before each trial's 22 s: Silero's state as deep in a night",
    )
    parser.add_argument("--no-rest", action="store_true", help="Silero never rests over the gate's silence (as before)")
    parser.add_argument(
        "--no-again",
        action="store_true",
        help="over the Host, the early result is taken even when it was not a whole message (as before run 12)",
    )
    parser.add_argument(
        "--start-seconds",
        type=float,
        default=None,
        help="speech in a row that starts an utterance (SegmenterSettings.speech_seconds; everything here is over "
        "the Host; default: the app's)",
    )
    parser.add_argument(
        "--unstarted",
        default=str(ShortPath().unstarted_seconds),
        help="speech in a row (seconds) that has the short path score a stretch too short to start an utterance "
        "('None': off, as before run 10)",
    )
    parser.add_argument(
        "--both-spotter-floor",
        default=str(ShortPath().both_spotter_floor),
        help="the spotter's log-odds that take 'stop' when base also comes near (ShortPath.both_second_floor); 'None': "
        "off, as before run 16",
    )
    parser.add_argument(
        "--faint-from",
        default=str(ShortPath().faint_from),
        help="Silero's probability from which a block counts toward a faint unstarted stretch ('None': off, as before run 15)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=ShortPath().pause_seconds,
        help="the pause after a short stretch that has the short path score it (ShortPath.pause_seconds; 0.09: three "
        "32 ms blocks)",
    )
    parser.add_argument(
        "--scored-from",
        default=str(ShortPath().scored_from_seconds),
        help="how far into a pause a short stretch is scored, its verdict waiting until the pause counts "
        "(ShortPath.scored_from_seconds; 'None': scored once the pause counts, as before session 50)",
    )
    parser.add_argument(
        "--views",
        default=",".join(view.value for view in ShortPath().views),
        help="the canceller's signals the short path scores, in turn (words, gated, suppressed; 'words': before run 8)",
    )
    args = parser.parse_args()
    gate_db = None if args.no_gate else args.gate_db

    from audio_fixtures.corpus import Split
    from audio_fixtures.fixtures import FixtureAudio, load_fixtures
    from audio_fixtures.voices import Renderer, voices
    from bench.voice import expected_intent, intent_of
    from models.locate import WhisperModelName
    from voice_host.cli.hear import HearPipeline, fresh_game
    from voice_host.ears.asr import RecognitionOptions
    from voice_host.ears.short_words import ShortView, ShortWord, ShortWordScorer, second_opinion_scorer
    from voice_host.ears.stop_spotter import StopSpotter
    from voice_host.loop.casefiles import load_bundled_case

    case = load_bundled_case()
    pipeline = HearPipeline(case, use_vad=False)
    scorer = None
    if not args.no_short:
        options = RecognitionOptions(model=WhisperModelName(args.model), window_padding_seconds=args.padding)
        scorer = ShortWordScorer(options)
    second = None if args.no_short or args.no_second else second_opinion_scorer()
    spotter = None if args.no_short or args.no_spotter else StopSpotter()
    synthesizer, scene = trial_scene(case, args.history)
    replies = night_replies(case)
    players = probe_voices() if args.voices == "probe" else voices(Split.TEST if args.voices == "test" else Split.TUNE)
    renderer = Renderer()
    unstarted = None if args.unstarted == "None" else float(args.unstarted)
    short_path = ShortPath(
        views=tuple(ShortView(view) for view in args.views.split(",")),
        unstarted_seconds=unstarted,
        faint_from=None if args.faint_from == "None" else float(args.faint_from),
        both_spotter_floor=None if args.both_spotter_floor == "None" else float(args.both_spotter_floor),
        spotter_floor=args.spotter_floor,
        hold_from=None if args.hold_from == "None" else float(args.hold_from),
        wait_hold_from=None if args.wait_hold_from == "None" else float(args.wait_hold_from),
        spotter_first=not args.spotter_after,
        base_last_unless_held=not args.base_in_place,
        pause_seconds=args.pause,
        scored_from_seconds=None if args.scored_from == "None" else float(args.scored_from),
    )
    settings = ListenerSettings(short_path=short_path)
    if args.own_voice == "None":
        settings = replace(settings, own_voice_coherence=None, own_voice_left_db=None, own_voice_over_residue_db=None)
    else:
        over_residue = None if args.over_residue == "None" else float(args.over_residue)
        settings = replace(settings, own_voice_coherence=float(args.own_voice), own_voice_over_residue_db=over_residue)
    settings = replace(settings, rest_after_gate_seconds=None) if args.no_rest else settings
    settings = replace(settings, understand_again_over_host=False) if args.no_again else settings
    if args.start_seconds is not None:
        settings = replace(settings, segmenter=replace(settings.segmenter, speech_seconds=args.start_seconds))

    def over_host(key: str, seed: int, clean: Audio) -> tuple[list[Heard], list[Short], Mixed]:
        """The player's `clean` words said over the Host at a seeded moment: what was heard, and where."""
        mixed = scene.mix(key, seed, clean, args.shift_at_onset, args.shift_after)
        ears = Ears(
            pipeline,
            case,
            args.detector,
            scorer,
            not args.short_only,
            args.tail,
            gate_db,
            second,
            settings,
            spotter,
            args.moves_as_before,
        )
        heard, shorts = ears.hear(mixed.mic, mixed.played)
        return heard, shorts, mixed

    def judged(fixture: Any, heard: list[Heard], mixed: Mixed) -> tuple[bool, bool, str]:
        """Whether the whole understanding took the words as labelled over the Host, and the same words alone in
        the same room; with the row's cell (what was heard instead over the Host, when it missed them)."""
        expected = expected_intent(fixture)
        after = [h for h in heard if h.ended > mixed.began]
        over = any(h.intent == expected for h in after)
        quiet = np.zeros(SAMPLE_RATE // 2, dtype=np.float32)
        game = fresh_game(case)
        alone_heard = pipeline.passes.hear(np.concatenate([quiet, mixed.in_room, quiet]), game, game.state.seats).heard
        alone = intent_of(alone_heard.message, alone_heard.text) == expected
        cell = f"{'yes' if over else 'no'} / {'yes' if alone else 'no'}"
        return over, alone, cell + ("" if over else f" (heard {listed(after)})")

    times: list[float] = []
    holds_taken = 0  # stop words whose silence came from a hold on doubt
    unheld: list[float] = []  # the same stop words' silence had the Host read on until the verdict
    parts: list[tuple[float, float, float, float]] = []  # Silero's lag, the pause waited, recognition (wall, processor)
    idle: list[float] = []  # end of the word to silence with recognition's processor time for its wall time
    rows: list[str] = []
    for n in range(args.first_trial, args.first_trial + args.trials):
        said = STOP_WORDS[n % len(STOP_WORDS)]
        voice = players[n % len(players)]
        clean = renderer.render(said, voice, seed=n)
        heard, shorts, mixed = over_host(f"barge-{n}", 5000 + n, clean)
        began, word_over, where = mixed.began, mixed.word_over, mixed.where
        for short in shorts if args.scores else []:
            print(
                f"score stop-trial {n} {voice.name} {said!r} at {short.asked - word_over:+.2f} s: {short.scores.ranked()}"
                f"{wait_shown(short.scores)}",
                file=sys.stderr,
            )
        taken = [s for s in shorts if s.word is ShortWord.STOP and s.asked > began]
        stops = [h for h in heard if h.silence and h.ended > began]
        others = [h for h in heard if h not in stops]
        wrong = [s for s in shorts if s.word is not None and s not in taken]
        if taken:
            first = taken[0]
            lag, pause = first.pause_began - word_over, first.asked - first.pause_began
            recognition, cpu = first.before_seconds + first.scores.seconds, first.before_cpu_seconds + first.cpu_seconds
            held, held_at = held_before(shorts, first)
            acted_at = first.acted_at
            # the Host read on until the verdict
            unheld.append(lag + first.waited(recognition, acted_at) + SPEAKER_BLOCK_SECONDS)
            if held is not None:  # silent from the hold: the verdict kept it so
                recognition, cpu = held
                acted_at = held_at
                holds_taken += 1
            barge = lag + first.waited(recognition, acted_at) + SPEAKER_BLOCK_SECONDS
            parts.append((lag, pause, recognition, cpu))
            idle.append(lag + first.waited(cpu, acted_at) + SPEAKER_BLOCK_SECONDS)
            how = f"short path {shown(first)}: lag {lag:.2f} + pause {pause:.2f} + recognition {recognition:.2f} s"
            if acted_at is not None and acted_at - first.asked > recognition + 1e-6:
                how += f" (acted on as the pause counted, {acted_at - first.pause_began:.2f} s in)"
            how += " (held on doubt)" if held is not None else ""
        elif stops:
            first_stop = stops[0]
            barge = first_stop.ended - word_over + first_stop.understand_seconds + SPEAKER_BLOCK_SECONDS
            unheld.append(barge)
            waited, took_s = first_stop.ended - word_over, first_stop.understand_seconds
            how = f"whole understanding {first_stop.transcript!r}: pause {waited:.2f} + understanding {took_s:.2f} s"
        else:
            barge = math.nan
            how = "missed (" + ("; ".join(shown(s) for s in shorts) or "nothing scored") + f"; heard {listed(heard)})"
        if not math.isnan(barge):
            times.append(barge)
        also = listed(others) + ("; short path took " + ", ".join(f"{s.word.value} {shown(s)}" for s in wrong) if wrong else "")
        rows.append(f"| {n} | {said} ({voice.name}) at {word_over:.1f} s | {where} | {how} | "
                    f"{'-' if math.isnan(barge) else f'{barge:.2f} s'} | {also} |")  # fmt: skip
        print(rows[-1], file=sys.stderr, flush=True)

    other_rows: list[str] = []
    false_acts = 0
    other_holds = 0  # the Host held on doubt over other words, and let play on
    understood_over = understood_alone = 0  # other words whose intent is as labelled (the whole understanding)
    split = Split.TEST if args.voices == "test" else Split.TUNE
    others_list = other_words(args.others, split)
    audio = FixtureAudio(load_fixtures(split))
    for n, fixture in enumerate(others_list):
        clean = audio.clean(fixture.id)
        heard, shorts, mixed = over_host(f"other-{n}", 7000 + n, clean)
        word_over, where = mixed.word_over, mixed.where
        for short in shorts if args.scores else []:
            print(
                f"score other {n} {fixture.voice} {fixture.said!r} at {short.asked - word_over:+.2f} s: "
                f"{short.scores.ranked()}{wait_shown(short.scores)}",
                file=sys.stderr,
            )
        acted = [f"short path: {s.word.value} {shown(s)}" for s in shorts if s.word is not None]
        acted += [f"whole understanding: {h.transcript!r}" for h in heard if h.acts]
        false_acts += 1 if acted else 0
        held_for = held_seconds(shorts)
        other_holds += len(held_for)
        acted += [f"held {seconds:.2f} s" for seconds in held_for]
        kept = "-"
        if not args.short_only:  # what the whole understanding made of them, and of the same words alone in the room
            over, alone, kept = judged(fixture, heard, mixed)
            understood_over += over
            understood_alone += alone
        other_rows.append(
            f"| {n} | {fixture.said} ({fixture.voice}) | {where} | {'; '.join(acted) or 'none'} | {len(shorts)} | {kept} |"
        )
        print(other_rows[-1], file=sys.stderr, flush=True)

    addressed_rows: list[str] = []
    addressed_list = addressed_words(args.addressed, split, case)
    stopped_by_name = lost_by_stop = understood_addressed = alone_addressed = 0
    for n, (fixture, clean) in enumerate(addressed_list):
        heard, shorts, mixed = over_host(f"addressed-{n}", 9000 + n, clean)
        for short in shorts if args.scores else []:
            print(
                f"score addressed {n} {fixture.voice} {fixture.said!r} at {short.asked - mixed.began:+.2f} s: "
                f"{short.scores.ranked()}{wait_shown(short.scores)}",
                file=sys.stderr,
            )
        took = [s for s in shorts if s.word is not None]
        stopped_by_name += bool(took)
        kept = "-"
        if not args.short_only:
            over, alone, kept = judged(fixture, heard, mixed)
            understood_addressed += over
            alone_addressed += alone
            lost_by_stop += bool(took) and alone and not over
        taken_words = "; ".join(f"{s.word.value} {shown(s)}" for s in took) or "none"
        row = f"| {n} | {fixture.said} ({fixture.voice}) | {mixed.where} | {taken_words} | {len(shorts)} | {kept} |"
        addressed_rows.append(row)
        print(addressed_rows[-1], file=sys.stderr, flush=True)

    print("## Barge-in\n")
    command = f"python bench/barge_in.py --trials {args.trials} --others {args.others} --addressed {args.addressed}"
    command += f" --voices {args.voices}"
    command += f" --shift-at-onset {args.shift_at_onset:g} --shift-after {args.shift_after:g}" if args.shift_at_onset else ""
    command += f" --detector {args.detector} --tail {args.tail:g}"
    command += " --no-gate" if gate_db is None else f" --gate-db {gate_db:g}"
    command += " --no-short" if args.no_short else f" --model {args.model} --padding {args.padding:g}"
    command += " --no-second" if args.no_second and not args.no_short else ""
    if not args.no_short:
        command += " --no-spotter" if args.no_spotter else f" --spotter-floor {args.spotter_floor:g}"
        command += f" --both-spotter-floor {args.both_spotter_floor}" if not args.no_spotter else ""
    command += " --short-only" if args.short_only else ""
    command += f" --history {args.history:g}" + (" --no-rest" if args.no_rest else "") + f" --views {args.views}"
    command += f" --start-seconds {args.start_seconds:g}" if args.start_seconds is not None else ""
    command += f" --unstarted {args.unstarted} --faint-from {args.faint_from} --own-voice {args.own_voice}"
    command += f" --over-residue {args.over_residue}"
    command += " --no-again" if args.no_again else ""
    command += f" --underruns {args.underruns:g}" if args.underruns > 0 and not args.no_night else ""
    command += " --moves-as-before" if args.moves_as_before else ""
    command += f" --hold-from {args.hold_from}" + (" --base-in-place" if args.base_in_place else "")
    command += f" --wait-hold-from {args.wait_hold_from}"
    command += " --spotter-after" if args.spotter_after else ""
    command += f" --first-trial {args.first_trial}" if args.first_trial else ""
    command += f" --pause {args.pause:g}" if args.pause != ShortPath().pause_seconds else ""
    command += f" --scored-from {args.scored_from}" if args.scored_from != str(ShortPath().scored_from_seconds) else ""
    nights = f" --nights {args.nights}" + (f" --first-night {args.first_night}" if args.first_night else "")
    print(f"`{command}" + (" --no-night" if args.no_night else nights) + "`\n")
    if args.trials:
        within = sum(1 for t in times if t <= 0.5)
        print(
            f"Stop words acted on: {len(times)}/{args.trials} ({holds_taken} silent from a hold on doubt)"
            + (f"; end of the word to silence p50 {pick(times, 50):.2f} s, p90 {pick(times, 90):.2f} s" if times else "")
            + f"; within 0.5 s: {within}/{args.trials}"
            + (
                f" (had the Host read on until the verdict: {sum(1 for t in unheld if t <= 0.5)}/{args.trials})"
                if holds_taken
                else ""
            )
            + ".\n"
        )
    if parts:
        lags, pauses, recognitions, cpus = zip(*parts, strict=True)
        print(
            f"Short path, the parts (p50 / p90): Silero's lag {pick(list(lags), 50):.2f} / {pick(list(lags), 90):.2f} s, "
            f"the pause waited {pick(list(pauses), 50):.2f} / {pick(list(pauses), 90):.2f} s (audio time), "
            f"recognition {pick(list(recognitions), 50):.2f} / {pick(list(recognitions), 90):.2f} s (wall, under this load), "
            f"recognition's processor time {pick(list(cpus), 50):.2f} / {pick(list(cpus), 90):.2f} s, "
            f"the speaker's buffer {SPEAKER_BLOCK_SECONDS:.3f} s. With recognition's processor time for its wall time "
            f"(an idle machine's estimate): end of the word to silence p50 {pick(idle, 50):.2f} s, p90 {pick(idle, 90):.2f} s, "
            f"within 0.5 s {sum(1 for t in idle if t <= 0.5)}/{args.trials}.\n"
        )
    if args.trials:
        print("| trial | said (voice) at the word's end | echo path | how it acted | end of word to silence | other utterances |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            print(row)
    if others_list:
        print(
            f"\nOther words over the Host: {false_acts}/{len(others_list)} would have acted at once (false stops); the Host "
            f"was held on doubt and played on {other_holds} times."
        )
        if not args.short_only:
            print(
                f"Understood as labelled (the whole understanding, what the Host keeps and answers when it stops): "
                f"{understood_over}/{len(others_list)} over the Host, {understood_alone}/{len(others_list)} "
                "the same words alone in the same room."
            )
        print("\n| n | said (voice) | echo path | acted at once | short-path scorings | understood over the Host / alone |")
        print("|---|---|---|---|---|---|")
        for row in other_rows:
            print(row)

    if addressed_list:
        print(
            f"\nQuestions opening with a name and a comma over the Host: the short path took a word on {stopped_by_name}"
            f"/{len(addressed_list)} (the Host stopped)"
            + (
                f"; understood as labelled {understood_addressed}/{len(addressed_list)} over the Host, "
                f"{alone_addressed}/{len(addressed_list)} alone in the same room; lost where a word was taken and the "
                f"words alone were understood: {lost_by_stop}."
                if not args.short_only
                else "."
            )
        )
        print("\n| n | said (voice) | echo path | short word taken | short-path scorings | understood over the Host / alone |")
        print("|---|---|---|---|---|---|")
        for row in addressed_rows:
            print(row)

    if not args.no_night:
        played = spoken(synthesizer, replies)
        summary: list[str] = []
        for night in range(args.first_night, args.first_night + args.nights):
            path = echo_path(f"night-{night}")
            shifts: list[Shift] = []
            sounded = played
            if args.underruns > 0:  # the far end is still what was played: the canceller must find the moves
                sounded, shifts = with_underruns(played, args.underruns, f"night-{night}")
            echo = path.apply(sounded)
            ears = Ears(
                pipeline, case, args.detector, scorer, True, args.tail, gate_db, second, settings, spotter, args.moves_as_before
            )
            started = time.perf_counter()
            heard, shorts = ears.hear(echo, played)
            seconds = time.perf_counter() - started
            usable = [h for h in heard if h.usable]
            acting = [h for h in heard if h.acts]
            taken = [s for s in shorts if s.word is not None]
            night_holds = held_seconds(shorts)
            print(
                f"\nNight {night + 1}: {len(replies)} replies, {len(played) / SAMPLE_RATE / 60:.1f} min of the Host through "
                f"one echo path ({path.delay_seconds * 1000:.0f} ms, {path.gain_db:.0f} dB, room {path.room}, "
                f"RT60 {path.rt60:.2f} s{f', its delay moved {len(shifts)} times' if shifts else ''}), "
                f"heard in {seconds:.0f} s: {len(heard)} utterances handed on, {len(usable)} usable messages "
                f"(self-triggered), {len(acting)} that would have acted at once; the short path scored {len(shorts)} "
                f"and took {len(taken)} (false stops); the Host was held on doubt {len(night_holds)} times"
                + (f" ({', '.join(f'{h:.2f}' for h in night_holds)} s)" if night_holds else "")
                + "."
            )
            for h in heard:
                print(f"- at {h.began:.1f} s: {h.transcript!r} -> {h.text!r}{' (USABLE)' if h.usable else ''}")
            for s in taken:
                print(f"- short path at {s.asked:.1f} s: {s.word.value} {shown(s)}")
            for s in shorts if args.scores else []:
                print(f"score night {night + 1} at {s.asked:.1f} s: {s.scores.ranked()}{wait_shown(s.scores)}", file=sys.stderr)
            summary.append(
                f"| {night + 1} | {path.room} | {path.rt60:.2f} s | {path.delay_seconds * 1000:.0f} ms | {path.gain_db:.0f} dB | "
                f"{len(heard)} | {len(usable)} | {len(acting)} | {len(taken)} | {len(night_holds)} |"
            )
            print(summary[-1], file=sys.stderr, flush=True)
        print(
            "\n| night | room | RT60 | delay | level | utterances handed on | usable messages (self-triggered) | "
            "would have acted at once | short path took | held on doubt |"
        )
        print("|---|---|---|---|---|---|---|---|---|---|")
        for row in summary:
            print(row)


if __name__ == "__main__":
    main()
