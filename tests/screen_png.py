"""Make docs/screen.png from a real terminal: the installed `third-carol play` in voice mode, in tmux.

    python -m tests.screen_png docs/screen.png [--size 160x48]

A private PulseAudio daemon gives the game a microphone (a FIFO fed silence) and a speaker that plays
into nothing; the table is seated as "Ann, Ben" and the capture is taken while the Host reads round 1
of Hollin Fold aloud (nothing in it that the table does not hear at once: no spoilers). The pane,
captured with its colours, is drawn by voice_host.screen.shot.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from audio_fixtures.pulse import PulseDaemon
from tests.terminal import Terminal, installed_command
from tests.test_screen_voice import Microphone
from voice_host.screen.shot import ansi_to_svg, svg_to_png

LOADING = 240  # seconds: the speech models load on a busy machine


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("--size", default="160x48", help="terminal size, WIDTHxHEIGHT")
    args = parser.parse_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        (work / "pa").mkdir()
        pulse = PulseDaemon(work / "pa")
        microphone = Microphone(pulse.start())
        microphone.start()
        env = {**os.environ, **pulse.env, "PULSE_SERVER": pulse.server, "COLORTERM": "truecolor"}
        command = [str(installed_command()), "play", "--state-dir", str(work / "state")]
        terminal = Terminal(work, (width, height), command, env)
        try:
            terminal.wait_for("SPEAKING", timeout=LOADING)  # voice up: the Host reads the opening
            terminal.type("Ann, Ben")
            terminal.wait_for("rd:1 | q:0/4", "SPEAKING", "▶", timeout=60)  # round 1, a sentence being read
            pane = terminal.capture_with_colours()
        finally:
            terminal.close()
            microphone.done.set()
            microphone.join(timeout=10)
            pulse.stop()
    svg_to_png(ansi_to_svg(pane, (width, height)), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
