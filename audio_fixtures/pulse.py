"""A private PulseAudio daemon whose default microphone is a pipe: what is written into the pipe is what the
microphone hears, at real-time pace, and the null sink's monitor is what the speaker played. Used by
tests/test_virtual_mic.py and bench/live_turn.py (Debian: pulseaudio pulseaudio-utils)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
from pathlib import Path

from voice_host.ears.sound import SAMPLE_RATE

RATE = SAMPLE_RATE


class PulseDaemon:
    """A private PulseAudio daemon (HOME and XDG_RUNTIME_DIR in a temporary folder) whose default
    source is a FIFO; started and stopped by its pid, as often as a test likes."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.runtime = home / "run"
        self.runtime.mkdir(mode=0o700)
        self.env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(self.runtime))
        self.env.pop("PULSE_SERVER", None)
        self.fifo = home / "vmic.fifo"
        self.pid: int | None = None

    @property
    def server(self) -> str:
        return f"unix:{self.runtime / 'pulse' / 'native'}"

    def start(self) -> Path:
        self.fifo.unlink(missing_ok=True)  # the pipe source makes its FIFO itself and fails if one exists
        started = subprocess.run(
            [
                "pulseaudio", "-n", "--daemonize=yes", "--exit-idle-time=-1", "--use-pid-file=yes",
                "-L", "module-native-protocol-unix",
                "-L", f"module-null-sink sink_name=vsink rate={RATE} channels=1 format=s16le",
            ],
            env=self.env, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert started.returncode == 0, started.stderr
        self.pid = int((self.runtime / "pulse" / "pid").read_text().strip())
        for command in (
            ["pactl", "load-module", "module-pipe-source", "source_name=vmic", f"file={self.fifo}",
             "format=s16le", f"rate={RATE}", "channels=1"],
            ["pactl", "set-default-source", "vmic"],
        ):  # fmt: skip
            done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=30)
            assert done.returncode == 0, done.stderr
        return self.fifo

    def stop(self) -> None:
        pid, self.pid = self.pid, None
        if pid is None:
            return
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            return
        try:
            os.kill(pid, signal.SIGTERM)
            select.select([handle], [], [], 10)  # readable once the daemon has exited
        finally:
            os.close(handle)
