"""The installed `third-carol play` in a real terminal (tmux), at 80x24 and 160x48, read as the table sees it.

Pilot tests drive the app headless; these run the command a player runs, so they also see what only a
real terminal shows (the voice mode's screen was once drawn into a log file instead, and every headless
test passed). Voice mode runs with no sound device and with a PulseAudio virtual microphone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.terminal import Terminal, installed_command, needs_tmux, panel_text

pytestmark = needs_tmux

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]
MODELS_LOAD = 240  # seconds: whisper base and piper loading on a busy 2-core machine
REPLY = 60  # seconds for a typed reply to show (the screen itself answers in well under a second)


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
    screen = terminal.wait_for("Question 1 of 4: Ann.", "rd:1", timeout=REPLY)
    assert "Round 1" in screen
    assert terminal.exited is None
    assert (tmp_path / "state" / "audio.log").exists()  # the C libraries' complaints went there, not on the screen


@pytest.mark.parametrize("size", SIZES)
def test_typed_play_on_the_screen(tmp_path: Path, home: Path, size: tuple[int, int], terminals: list[Terminal]) -> None:
    terminal = play(tmp_path, size, quiet_env(home), "--no-voice")
    terminals.append(terminal)
    terminal.wait_for("[L] t:1 | rd:0", "VOICE OFF", "Who is at the table?", timeout=REPLY)
    terminal.type("Ann, Ben")
    terminal.wait_for("Question 1 of 4: Ann.", "rd:1 | q:0/4 | seat:1/2", timeout=REPLY)
    terminal.type("Thwaite, where were you at ten?")
    screen = terminal.wait_for("Question 2 of 4: Ben.", "q:1/4 | seat:2/2", timeout=REPLY)
    assert "question to Abel Thwaite" in screen
