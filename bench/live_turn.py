"""The turn as a player gets it: `python bench/live_turn.py [--lines 12] [--stops 6] [--split test] [--seed 37]`.

bench/turn.py times the listener's path in audio time; this runs the real program. It starts a private PulseAudio
(audio_fixtures/pulse.py: a null sink, and a pipe for the microphone), runs `third-carol play --verbose` in voice mode
in a tmux terminal, types the table's names, stops the round's opening with Esc, and then, each time the Host has been
quiet 3 s, says a question into the microphone (a fixture of the split in a piper voice, the ones Whisper hears best,
so that the figure is the turn's, not the recognition's). The room between them is simulated in real time: what the
sink plays (its monitor) goes through an echo path into the microphone, as a laptop's speaker reaches its microphone.

Measured for each line: from the end of its words (the last sample written into the microphone's pipe) to the Host's
first sound at the sink's monitor, counted in samples of the room's own loop, which writes the microphone and reads
the monitor in lock-step. So the figure holds everything a player waits through: the sound server both ways, the
microphone's blocks, Silero, the end of turn, understanding, the reply and the speaker's buffer. A line the Host does
not answer aloud within 8 s (taken as table talk) is counted apart. A round has four questions: after them the Host
answers "The round's questions are spent. Say next.", made ahead like a suspect's answer (the same turn). The app's
own log (`--verbose`) is kept beside the figures for the breakdown.

Then the stop trials (`--stops`): an exhibit of round 1 asked for by typing, and once the Host has read it for 2 s a stop
word (bench/barge_in.py's, in a test voice) said over it; measured from the end of the word to the Host's last sound
before a second of quiet (issue 15: within 0.5 s), or "read on" when it still reads 5 s later (then Esc stops it).
Each trial is looked up in the app's log: a stop word said while the microphone was shut over the Host (the listener
logs when the echo canceller comes to be trusted with it and when it no longer is: after a move of the echo's delay,
until the echo is taken out again) is marked so.

Needs pulseaudio, pactl, parec and tmux (Debian: pulseaudio pulseaudio-utils tmux).
"""

from __future__ import annotations

import argparse
import math
import random
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.acoustics import active_rms  # noqa: E402
from audio_fixtures.corpus import Split  # noqa: E402
from audio_fixtures.echo import EchoStream, echo_path  # noqa: E402
from audio_fixtures.fixtures import FixtureAudio, load_fixtures  # noqa: E402
from audio_fixtures.pulse import RATE, PulseDaemon  # noqa: E402
from bench.barge_in import STOP_WORDS  # noqa: E402
from voice_host.ears.echo import DELAY_MOVED  # noqa: E402
from voice_host.loop.listener import ECHO_NOT_TRUSTED, ECHO_TRUSTED  # noqa: E402

CHUNK = 320  # 20 ms: the room's step
LOUD_RMS = 0.003  # a monitor chunk this loud is the Host sounding
ONSET = 0.01  # the Host's first sample this loud is where its sound begins
QUIET_BEFORE_LINE = 3.0  # seconds of the Host quiet before the next line is said
NO_ANSWER = 8.0  # seconds without the Host's voice after a line: not answered aloud
TALKER_RMS = 0.05  # the player's words in the microphone (the Host's echo is about -11 dB of the sink)
HOST_BEFORE_STOP = 2.0  # seconds of the Host reading before the stop word is said
STOPPED_QUIET = 1.0  # the Host quiet this long after a stop word: it stopped (where the quiet began)
NOT_STOPPED = 5.0  # seconds after the stop word with the Host still reading: not stopped
# Seconds after an exhibit was asked for with the Host not yet reading it: the trial is skipped (a run in session 39
# waited on one for ten minutes; in session 40 a late "Wait." from the trial before stopped it, since fixed).
NOT_READ = 20.0


@dataclass(frozen=True)
class Line:
    id: str
    said: str
    words: np.ndarray  # 16 kHz, ending at the words' last sound


@dataclass(frozen=True)
class Answer:
    line: Line
    seconds: float | None  # end of the words -> the Host's first sound (None: not answered aloud)


@dataclass(frozen=True)
class Stop:
    line: Line
    seconds: float | None  # end of the stop word -> the Host's last sound (None: it read on)
    ended_at: float = 0.0  # wall clock (time.time) at the end of the stop word, to find it in the app's log


def shut_spans(log: str) -> list[tuple[float, float]]:
    """The spans (wall clock) in which the app's log says the microphone was shut over the Host (the listener's
    `ECHO_NOT_TRUSTED` to its `ECHO_TRUSTED`; to the log's end if it never opened again), once it had been open."""
    spans: list[tuple[float, float]] = []
    began: float | None = None
    opened = False
    for row in log.splitlines():
        try:
            at = datetime.strptime(row[:23], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        except ValueError:
            continue
        if ECHO_NOT_TRUSTED in row and opened and began is None:
            began = at
        elif ECHO_TRUSTED in row:
            opened = True
            if began is not None:
                spans.append((began, at))
                began = None
    if began is not None:
        spans.append((began, math.inf))
    return spans


def said_into_mic(audio: np.ndarray, from_first_sound: bool = False) -> np.ndarray:
    """A render as the player says it into the microphone: at the talker's level, ending at its last sound (where
    a line's figure starts), and for a stop word also starting at its first (said 2 s into the Host's reading)."""
    words = audio.astype(np.float64)
    words *= TALKER_RMS / active_rms(words)
    loud = np.flatnonzero(np.abs(words) > 0.02 * np.max(np.abs(words)))
    return words[loud[0] if from_first_sound else 0 : loud[-1] + 1]


def stop_lines(count: int, seed: int) -> list[Line]:
    """Stop words in the test voices (as bench/barge_in.py's trials), rendered with a seed each."""
    from audio_fixtures.voices import Renderer, voices

    players, renderer, lines = voices(Split.TEST), Renderer(), []
    for n in range(count):
        said = STOP_WORDS[n % len(STOP_WORDS)]
        words = renderer.render(said, players[(n + seed) % len(players)], seed=seed + n)
        lines.append(Line(f"stop-{n}", said, said_into_mic(words, from_first_sound=True)))
    return lines


def question_lines(split: Split, count: int, seed: int) -> list[Line]:
    fixtures = [f for f in load_fixtures(split) if f.kind == "question" and f.voice.startswith("piper")]
    random.Random(seed).shuffle(fixtures)
    fixtures = fixtures[:count]
    audio = FixtureAudio(fixtures)
    return [Line(fixture.id, fixture.said, said_into_mic(audio.clean(fixture.id))) for fixture in fixtures]


class Room:
    """The microphone's pipe written and the sink's monitor read in lock-step, 20 ms at a time (real time: the monitor
    paces it), with the Host's echo in the microphone. First the player's questions, each said when the Host has been
    quiet; then the stop trials: an exhibit asked for by typing (`to_send`), and a stop word said over its reading."""

    def __init__(self, lines: list[Line], stops: list[Line]) -> None:
        path = echo_path("virtual-mic")
        self.echo = EchoStream(path, 10 ** (path.gain_db / 20), CHUNK)
        self.lines = lines
        self.stops = stops
        self.answers: list[Answer] = []
        self.stopped: list[Stop] = []
        self.samples = 0  # written = read so far
        self.heard_host = False  # the Host has sounded at least once
        self.started = False  # the lines may begin (the game is in a round, the Host stopped)
        self.to_send: tuple[str, ...] | None = None  # tmux keys the driver should send now
        self._quiet = 0  # samples the Host has been quiet
        self._last_loud = 0  # the Host's last sample this loud (ONSET)
        self._said = 0  # lines said so far
        self._speaking: tuple[Line, int] | None = None  # the line being said, and how much of it is out
        self._ended: int | None = None  # sample after the last line's words, until the Host answers
        self._trials = 0  # stop trials begun
        self._reading: int | None = None  # samples of the Host heard since the exhibit was asked for
        self._stop_ended: int | None = None  # sample after the stop word, until the Host is found stopped or not
        self._saying_stop = False  # what is being said is a stop word
        self._stop_ended_at = 0.0  # wall clock at the end of the stop word
        self._asked_at = 0  # sample at which the exhibit of the trial was asked for
        self.unread: list[Line] = []  # stop trials skipped: the Host never read the exhibit asked for

    @property
    def asking(self) -> bool:
        """Still in the questions: one to say, being said, or awaiting its answer."""
        saying_one = self._speaking is not None and not self._saying_stop
        return self._said < len(self.lines) or saying_one or self._ended is not None

    @property
    def done(self) -> bool:
        in_trial = self._reading is not None or self._speaking is not None or self._stop_ended is not None
        return not self.asking and self._trials == len(self.stops) and not in_trial

    def step(self, played: np.ndarray) -> np.ndarray:
        """One 20 ms chunk of the monitor in, the microphone's chunk out."""
        loud = float(np.sqrt(np.mean(np.square(played)))) > LOUD_RMS
        self.heard_host |= loud
        self._quiet = 0 if loud else self._quiet + CHUNK
        sounding = np.flatnonzero(np.abs(played) > ONSET)
        if len(sounding):
            self._last_loud = self.samples + int(sounding[-1])
        if self._ended is not None and loud:
            onset = self.samples + int(sounding[0]) if len(sounding) else self.samples
            self.answers.append(Answer(self.lines[self._said - 1], (onset - self._ended) / RATE))
            self._ended = None
        elif self._ended is not None and self.samples - self._ended > NO_ANSWER * RATE:
            self.answers.append(Answer(self.lines[self._said - 1], None))
            self._ended = None
        mic = self.echo.step(played)
        if self.asking:
            ready = self.started and self._ended is None and self._quiet >= QUIET_BEFORE_LINE * RATE
            if self._speaking is None and ready and self._said < len(self.lines):
                self._speaking = (self.lines[self._said], 0)
                self._said += 1
        else:
            self._stop_trial(loud)
        if self._speaking is not None:
            line, out = self._speaking
            words = line.words[out : out + CHUNK]
            mic[: len(words)] += words
            self._speaking = (line, out + CHUNK) if out + CHUNK < len(line.words) else None
            if self._speaking is None:
                end = self.samples + len(words)
                if self._saying_stop:
                    self._stop_ended, self._saying_stop, self._stop_ended_at = end, False, time.time()
                else:
                    self._ended = end
        self.samples += CHUNK
        return mic

    def _stop_trial(self, loud: bool) -> None:
        if self._stop_ended is not None:
            if self._quiet >= STOPPED_QUIET * RATE:
                seconds = max(0.0, (self._last_loud - self._stop_ended) / RATE)
                self.stopped.append(Stop(self.stops[self._trials - 1], seconds, self._stop_ended_at))
                self._stop_ended = None
            elif self.samples - self._stop_ended > NOT_STOPPED * RATE:
                self.stopped.append(Stop(self.stops[self._trials - 1], None, self._stop_ended_at))
                self._stop_ended = None
                self.to_send = ("Escape",)  # it reads on: stop it by hand for the next trial
        elif self._reading is not None:
            self._reading += CHUNK if loud else 0
            if self._reading >= HOST_BEFORE_STOP * RATE and self._speaking is None:
                self._speaking, self._saying_stop = (self.stops[self._trials - 1], 0), True
                self._reading = None
            elif self._speaking is None and self.samples - self._asked_at > NOT_READ * RATE:
                self.unread.append(self.stops[self._trials - 1])
                self._reading = None
                self.to_send = ("Escape",)  # whatever it is doing instead, for the next trial
        elif self._speaking is None and self._trials < len(self.stops) and self._quiet >= QUIET_BEFORE_LINE * RATE:
            self.to_send = (f"Read E{1 + self._trials % 4}", "Enter")  # round 1's exhibits: read again, free
            self._trials += 1
            self._reading, self._asked_at = 0, self.samples

    def quiet_seconds(self) -> float:
        return self._quiet / RATE


def run(lines: list[Line], stops: list[Line], state: Path, log: Path | None) -> Room:
    for tool in ("pulseaudio", "pactl", "parec", "tmux"):
        if shutil.which(tool) is None:
            sys.exit(f"bench/live_turn.py needs {tool} (Debian: pulseaudio pulseaudio-utils tmux)")
    pulse = PulseDaemon(Path(tempfile.mkdtemp(prefix="live-turn-")))
    pulse.start()
    room = Room(lines, stops)
    session = f"live-turn-{int(time.time())}"
    parec = subprocess.Popen(
        ["parec", "--device=vsink.monitor", "--raw", "--format=s16le", f"--rate={RATE}", "--channels=1", "--latency-msec=20"],
        env=pulse.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert parec.stdout is not None
    play = [sys.executable, "-m", "voice_host.cli.main", "play", "--verbose", "--state-dir", str(state)]
    try:
        with open(pulse.fifo, "wb", buffering=0) as pipe:  # the pipe source needs its writer before the app opens it
            env = " ".join(f"{k}={shlex.quote(v)}" for k, v in pulse.env.items() if k in ("HOME", "XDG_RUNTIME_DIR"))
            command = f"cd {shlex.quote(str(ROOT))} && env -u PULSE_SERVER {env} {shlex.join(play)}"
            subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "160", "-y", "48", command], check=True)
            named_at: int | None = None  # when the names were typed
            stopped_at: int | None = None  # when Esc stopped the round's opening
            while not room.done:
                data = parec.stdout.read(CHUNK * 2)
                if len(data) < CHUNK * 2:
                    break
                played = np.frombuffer(data, "<i2").astype(np.float64) / 32768
                pipe.write((np.clip(room.step(played), -1, 1) * 32767).astype("<i2").tobytes())
                if named_at is None and room.heard_host and room.quiet_seconds() >= 2.0:  # the Host asks who is there
                    subprocess.run(["tmux", "send-keys", "-t", session, "Ann, Ben", "Enter"], check=True)
                    named_at = room.samples
                elif named_at is not None and stopped_at is None and room.samples - named_at >= 10 * RATE:
                    subprocess.run(["tmux", "send-keys", "-t", session, "Escape"], check=True)  # round 1's opening
                    stopped_at = room.samples
                room.started = stopped_at is not None
                if room.to_send is not None:
                    subprocess.run(["tmux", "send-keys", "-t", session, *room.to_send], check=True)
                    room.to_send = None
    finally:
        if log is not None:
            shown = subprocess.run(["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True)
            log.write_text(shown.stdout, encoding="utf-8")
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
        parec.terminate()
        parec.wait(timeout=10)
        pulse.stop()
        shutil.rmtree(pulse.home, ignore_errors=True)  # its socket and pipe (the app's state folder is kept)
    return room


def report(room: Room, log: str = "") -> None:
    answers = room.answers
    timed = sorted(a.seconds for a in answers if a.seconds is not None)
    for answer in answers:
        shown = "not answered aloud" if answer.seconds is None else f"{answer.seconds:.2f} s"
        print(f"{answer.line.id}  {shown:>18}  {answer.line.said}")
    if timed:
        p50, p90 = np.percentile(timed, 50), np.percentile(timed, 90)
        print(f"end of words -> the Host's first sound, {len(timed)} lines answered aloud: p50 {p50:.2f} s, p90 {p90:.2f} s")
    print(f"not answered aloud within {NO_ANSWER:.0f} s: {sum(a.seconds is None for a in answers)} of {len(answers)}")
    spans = shut_spans(log)

    def shut(stop: Stop) -> bool:
        return any(began <= stop.ended_at <= ended for began, ended in spans)

    for stop in room.stopped:
        shown = "read on" if stop.seconds is None else f"{stop.seconds:.2f} s"
        note = ", the microphone shut over the Host" if shut(stop) else ""
        print(f"{stop.line.id}  {shown:>18}  {stop.line.said} (over the Host reading an exhibit{note})")
    if room.unread:
        print(f"stop trials skipped, the exhibit asked for not read within {NOT_READ:.0f} s: {len(room.unread)}")
    if room.stopped:
        within = sum(stop.seconds is not None and stop.seconds <= 0.5 for stop in room.stopped)
        print(f"end of the stop word -> the Host's last sound: within 0.5 s in {within} of {len(room.stopped)} trials")
        missed = [stop for stop in room.stopped if stop.seconds is None or stop.seconds > 0.5]
        print(
            f"of the {len(missed)} others, said while the microphone was shut over the Host (the echo not taken out): "
            f"{sum(shut(stop) for stop in missed)}; shut {len(spans)} times after it had opened, "
            f"{sum(min(ended, time.time()) - began for began, ended in spans):.0f} s in all; "
            # A move is often logged twice (the shadow follows it, `DelayWatch` then finds it): lines, not moves.
            f"log lines of a move of the echo's delay: {sum(DELAY_MOVED in row for row in log.splitlines())}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", default="test", choices=[s.value for s in Split], help="the fixtures' split (default: test)")
    parser.add_argument("--lines", type=int, default=12, help="questions said, one after another (default: 12)")
    parser.add_argument("--seed", type=int, default=37, help="which questions (a seeded shuffle; default: 37)")
    parser.add_argument(
        "--stops", type=int, default=6, help="stop words said over the Host reading an exhibit, after the questions (default: 6)"
    )
    parser.add_argument(
        "--state-dir", type=Path, default=None, help="the app's state folder, kept with its log (default: a new temporary one)"
    )
    parser.add_argument("--screen", type=Path, default=None, help="write the terminal's last screen here")
    args = parser.parse_args()
    state = args.state_dir or Path(tempfile.mkdtemp(prefix="live-turn-state-"))
    room = run(question_lines(Split(args.split), args.lines, args.seed), stop_lines(args.stops, args.seed), state, args.screen)
    app_log = state / "third-carol.log"
    report(room, app_log.read_text(encoding="utf-8", errors="replace") if app_log.exists() else "")
    print(f"the app's log (--verbose, with the understanding of each line): {app_log}")


if __name__ == "__main__":
    main()
