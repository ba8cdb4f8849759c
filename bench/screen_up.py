"""Table screen up: `python bench/screen_up.py [--runs N] [--sizes 80x24,160x48] [--carol] [--options ...]`.

Runs the installed `third-carol play` (with `--carol`: `./carol play`, its quick setup check first;
voice mode unless `--options --no-voice`) in a real terminal
(tmux, as tests/test_terminal.py does) with a fresh state folder each run and no sound server to be
found, and times from the moment the command is handed to tmux to the first screen that shows the
ledger (its `[L] t:1 | rd:0` line) and the opening's question "Who is at the table?". The screen is read
every 20 ms, so a figure is at most that late. Reports each run and the median per size, with the load
average at the start: the README's "the table within 3 s of setup" is measured here, on an idle moment.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.terminal import Terminal, installed_command, words  # noqa: E402

SHOWN = ("[L] t:1 | rd:0", "Who is at the table?")
LOOK_EVERY = 0.02  # seconds between looks at the screen
GIVE_UP = 120.0


def quiet_env(home: Path) -> dict[str, str]:
    """This environment with a home of its own and no sound server: voice mode on a machine with none."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("PULSE_", "PYTEST_"))}
    env.update(HOME=str(home), XDG_RUNTIME_DIR=str(home), PULSE_SERVER=f"unix:{home / 'no-pulse'}", JACK_NO_START_SERVER="1")
    return env


def time_to_table(size: tuple[int, int], options: list[str], carol: bool) -> float:
    """Seconds from starting `third-carol play` to the ledger and the opening on the screen."""
    with tempfile.TemporaryDirectory(prefix="screen-up-") as folder:
        work = Path(folder)
        home = work / "home"
        home.mkdir(mode=0o700)
        program = [str(ROOT / "carol")] if carol else [str(installed_command())]
        command = [*program, "play", "--state-dir", str(work / "state"), *options]
        started = time.monotonic()
        terminal = Terminal(work, size, command, quiet_env(home))
        try:
            while True:
                seen = words(terminal.screen())
                now = time.monotonic()
                if all(text in seen for text in SHOWN):
                    return now - started
                if now - started > GIVE_UP:
                    raise SystemExit(f"the table never showed in {GIVE_UP:.0f} s at {size[0]}x{size[1]}:\n{seen}")
                time.sleep(LOOK_EVERY)
        finally:
            terminal.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="80x24,160x48")
    parser.add_argument("--carol", action="store_true", help="time `./carol play` (its setup check included)")
    parser.add_argument("--options", nargs=argparse.REMAINDER, default=[], help="passed to `third-carol play`")
    args = parser.parse_args()
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    program = "./carol play" if args.carol else "third-carol play"
    print(f"load average at start: {os.getloadavg()[0]:.2f}; runs: {args.runs}; {program} {' '.join(args.options) or '(voice)'}")
    print("| size | runs (s) | median s |")
    print("|---|---|---|")
    for cols, rows in sizes:
        times = [time_to_table((cols, rows), args.options, args.carol) for _ in range(args.runs)]
        print(f"| {cols}x{rows} | {' '.join(f'{t:.2f}' for t in times)} | {statistics.median(times):.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
