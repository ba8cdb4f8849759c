"""The installed `third-carol play` in a real terminal (tmux), at 80x24 and 160x48, read as the table sees it.

Pilot tests drive the app headless; these run the command a player runs, so they also see what only a
real terminal shows (the voice mode's screen was once drawn into a log file instead, and every headless
test passed). Voice mode runs with no sound device and with a PulseAudio virtual microphone.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from audio_fixtures.pulse import RATE, PulseDaemon
from tests.conftest_speech import Render, speech_fixture
from tests.terminal import Terminal, installed_command, needs_tmux, panel_text, words
from tests.test_screen_voice import Microphone

pytestmark = needs_tmux

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]
MODELS_LOAD = 240  # seconds: whisper base and piper loading on a busy 2-core machine
REPLY = 60  # seconds for a typed reply to show (the screen itself answers in well under a second)


KEYS = ("^q Quit", "esc Stop", "f2 Mic", "f3 Repeat", "f5 Save", "f6 State", "f7 Exhibits", "f8 House", "f9 Light")


def last_line(screen: str) -> str:
    return screen.rstrip("\n").rsplit("\n", 1)[-1]


def quiet_env(home: Path) -> dict[str, str]:
    """This process's environment with a home of its own and no sound server to be found."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PULSE_", "PYTEST_"))}
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(home), PULSE_SERVER=f"unix:{home / 'no-pulse'}", JACK_NO_START_SERVER="1")
    return env


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir(mode=0o700)
    return folder


def play(tmp_path: Path, size: tuple[int, int], env: dict[str, str], *options: str) -> Terminal:
    command = [str(installed_command()), "play", "--state-dir", str(tmp_path / "state"), *options]
    return Terminal(tmp_path, size, command, env)


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    """Terminals a test opens, each closed (its tmux server ended) when the test ends."""
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


@pytest.mark.speech  # voice play loads the speech models in its own process
@pytest.mark.skipif(Path("/dev/snd").exists(), reason="this machine has a sound card; the case needs one without")
@pytest.mark.parametrize("size", SIZES)
def test_voice_play_with_no_sound_device_shows_the_table_and_takes_typing(
    tmp_path: Path, home: Path, size: tuple[int, int], terminals: list[Terminal]
) -> None:
    terminal = play(tmp_path, size, quiet_env(home))
    terminals.append(terminal)
    screen = terminal.wait_for("[L] t:1 | rd:0", "Who is at the table?", timeout=REPLY)
    assert "ROUND" in screen or "rd:0" in screen
    # Once the voice side has looked for devices, the table is told to type.
    screen = terminal.wait_for("NO MICROPHONE", "type", timeout=MODELS_LOAD)
    assert "No microphone found: type your questions instead." in panel_text(screen, "NO MICROPHONE"), screen
    terminal.type("Ann, Ben")
    terminal.wait_for("Round 1 of 4.", "rd:1 | q:0/4 | seat:1/2", timeout=REPLY)
    assert terminal.exited is None
    assert (tmp_path / "state" / "audio.log").exists()  # the C libraries' complaints went there, not on the screen


@pytest.mark.parametrize("size", SIZES)
def test_typed_play_on_the_screen(tmp_path: Path, home: Path, size: tuple[int, int], terminals: list[Terminal]) -> None:
    terminal = play(tmp_path, size, quiet_env(home), "--no-voice")
    terminals.append(terminal)
    terminal.wait_for("[L] t:1 | rd:0", "VOICE OFF", "Who is at the table?", timeout=REPLY)
    terminal.type("Ann, Ben")
    terminal.wait_for("Round 1 of 4.", "rd:1 | q:0/4 | seat:1/2", timeout=REPLY)
    terminal.type("Thwaite, where were you at ten?")
    screen = terminal.wait_for("Question 2 of 4: Ben.", "q:1/4 | seat:2/2", timeout=REPLY)
    assert "question to Abel Thwaite" in screen


@speech_fixture()
def virtual_sound(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PulseDaemon]:
    """A private PulseAudio daemon: its default source is a FIFO (the virtual microphone), its default
    sink plays into nothing."""
    if shutil.which("pulseaudio") is None or shutil.which("pactl") is None:
        pytest.skip("PulseAudio is not installed (Debian: pulseaudio pulseaudio-utils)")
    daemon = PulseDaemon(tmp_path_factory.mktemp("pa"))
    try:
        daemon.start()
        yield daemon
    finally:
        daemon.stop()


SPOKEN = "▶"  # the mark on the sentence the Host is saying


@pytest.mark.parametrize("size", SIZES)
def test_voice_play_hears_a_question_through_a_virtual_microphone(
    tmp_path: Path, virtual_sound: PulseDaemon, render_speech: Render, size: tuple[int, int], terminals: list[Terminal]
) -> None:
    pulse = virtual_sound
    microphone = Microphone(pulse.fifo)
    microphone.start()  # the pipe source needs a writer before the capture opens, and until it closes
    try:
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
        env.update(pulse.env, PULSE_SERVER=pulse.server, JACK_NO_START_SERVER="1")
        terminal = play(tmp_path, size, env)  # the system's default devices: PulseAudio's
        terminals.append(terminal)
        # The voice side is up once the Host reads the opening aloud.
        terminal.wait_for("[L] t:1 | rd:0", "SPEAKING", SPOKEN, timeout=MODELS_LOAD)
        terminal.type("Ann, Ben")
        # Round 1's opening shown, and the Host saying it (the mark is only ever on the latest reply).
        terminal.wait_for("rd:1 | q:0/4", "SPEAKING", SPOKEN, timeout=REPLY)
        terminal.press("Escape")  # the round's opening is long: stop the Host, and the microphone opens
        terminal.wait_for("LISTENING", "Esc: the Host stopped talking.", timeout=REPLY)
        microphone.say(np.concatenate([render_speech("Thwaite, where were you at ten?"), np.zeros(RATE, np.float32)]))
        # Heard and acted on, or (a name the Host is not sure of) asked back first: either way the night
        # follows, to the answer or to the Host's question.
        heard = terminal.wait_until(
            lambda seen: (
                all(text in words(seen) for text in ("say yes to confirm", "I heard: a question for Abel Thwaite"))
                or all(text in words(seen) for text in ("q:1/4 | seat:2/2", "Heard: “Thwaite", "Question 2 of 4: Ben."))
            ),
            timeout=MODELS_LOAD,
            what="the question heard, and the night at the Host's answer or its question back",
        )
        assert "Heard: “Thwaite, where were you at" in words(heard), heard
        assert "taken as: question to Abel Thwaite" in words(heard), heard
        if "q:1/4" not in heard:
            # The Host says its question back (the microphone is shut meanwhile), then listens.
            terminal.wait_for("SPEAKING", SPOKEN, timeout=REPLY)
            terminal.wait_until(
                lambda seen: "LISTENING" in seen and SPOKEN not in seen, timeout=REPLY, what="the Host done asking"
            )
            microphone.say(np.concatenate([render_speech("Yes."), np.zeros(RATE, np.float32)]))
        screen = terminal.wait_for("q:1/4 | seat:2/2", "Question 2 of 4: Ben.", timeout=MODELS_LOAD)
    finally:
        microphone.done.set()
        microphone.join(timeout=10)
    assert "3 of 4" in screen  # the ledger's questions left


@pytest.mark.parametrize("size", SIZES)
def test_the_footer_shows_quit_and_quitting_mid_night_says_how_to_resume(
    tmp_path: Path, home: Path, size: tuple[int, int], terminals: list[Terminal]
) -> None:
    terminal = play(tmp_path, size, quiet_env(home), "--no-voice")
    terminals.append(terminal)
    # Every key on the footer's one line, quit included.
    terminal.wait_until(lambda screen: all(key in last_line(screen) for key in KEYS), timeout=REPLY, what=f"the keys {KEYS}")
    terminal.type("Ann, Ben")
    terminal.wait_for("rd:1 | q:0/4", timeout=REPLY)
    terminal.press("C-q")
    terminal.wait_until(lambda _: terminal.exited is not None, timeout=REPLY, what="the game ending")
    assert terminal.exited == 0
    after = words(terminal.screen(scrollback=True))
    assert "The night is kept (round 1, 4 of 4 questions left)." in after
    assert "./carol play --resume" in after


def test_a_round_change_at_80x24_shows_the_new_exhibits_and_one_save(
    tmp_path: Path, home: Path, terminals: list[Terminal]
) -> None:
    terminal = play(tmp_path, (80, 24), quiet_env(home), "--no-voice")
    terminals.append(terminal)
    terminal.wait_for("Who is at the table?", timeout=REPLY)
    terminal.type("Ann")
    terminal.wait_for("rd:1 | q:0/4", timeout=REPLY)
    for asked in range(1, 5):
        terminal.type("Thwaite, where were you at ten?")
        terminal.wait_for(f"q:{asked}/4", timeout=REPLY)
    screen = terminal.wait_for("-----END AIGC SAVE-----", timeout=REPLY)  # the round's end offers the SAVE
    terminal.type("next")
    screen = terminal.wait_for("rd:2 | q:0/4", "Round 2 of 4.", timeout=REPLY)
    assert "Host reads E5" in screen  # the first new exhibit is on the screen
    assert "AIGC SAVE" not in screen


def test_voice_play_keeps_the_screen_when_the_sound_server_goes_mid_game(
    tmp_path: Path, virtual_sound: PulseDaemon, terminals: list[Terminal]
) -> None:
    pulse = virtual_sound
    microphone = Microphone(pulse.fifo)
    microphone.start()
    try:
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_")}
        env.update(pulse.env, PULSE_SERVER=pulse.server, JACK_NO_START_SERVER="1")
        terminal = play(tmp_path, (80, 24), env)
        terminals.append(terminal)
        terminal.wait_for("[L] t:1 | rd:0", "SPEAKING", timeout=MODELS_LOAD)
        microphone.done.set()
        microphone.join(timeout=10)
        pulse.stop()  # microphone and speaker go at once, mid-sentence
        # The Host falls silent at once (it no longer makes the rest of the opening into sound for nobody),
        # the screen says why, and the microphone panel says it is lost.
        terminal.wait_until(
            lambda seen: "SPEAKING" not in seen and "The speaker was lost" in words(seen) and "NO MICROPHONE" in seen,
            timeout=REPLY,
            what="the Host silent, the speaker said lost, and the microphone panel out of SPEAKING",
        )
        terminal.type("Ann, Ben")  # the table types on
        screen = terminal.wait_until(
            lambda seen: "Round 1 of 4." in words(seen) and "rd:1 | q:0/4 | seat:1/2" in seen and "SPEAKING" not in seen,
            timeout=REPLY,
            what="round 1 opened by typing, and the Host not left SPEAKING",
        )
    finally:
        microphone.done.set()
        microphone.join(timeout=10)
    # What ALSA, PortAudio and PulseAudio's client said went to the log, not over the screen.
    assert not any(noise in screen for noise in ("ALSA lib", "Assertion", "Expression", "pa_"))
    assert screen.splitlines()[0].startswith("ROUND")  # the ledger is still at the top, unscrolled
