"""Engine speed: classified-and-answered messages a second on one core, and the cost of loading a case.

    .venv/bin/python bench/engine.py [--messages N]

Targets (issue 2): >= 5,000 messages a second; case load + seal check < 50 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.case import load_case  # noqa: E402
from engine.game import Game  # noqa: E402
from voice_host.loop.casefiles import bundled_case_dir, read_case_files  # noqa: E402

# A scripted night's worth of messages, cycled: questions, confrontations, free commands and table talk.
SCRIPT = [
    "Thwaite, where were you at ten?",
    "Ask Martha what she heard",
    "Confront Joel with E3",
    "Keld, did you go up the back stair?",
    "statements",
    "lies",
    "I think it was the butler",
    "read E2",
    "Ormerod, what about the will?",
    "Miss Marsden, where were you during the third carol?",
    "who did it?",
    "next",
    "yes",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20_000, help="messages to play (default: 20000)")
    parser.add_argument("--loads", type=int, default=30, help="case loads to time (default: 30)")
    args = parser.parse_args()

    files = read_case_files(bundled_case_dir())
    load_times = []
    for _ in range(args.loads):
        start = time.perf_counter()
        case = load_case(files)
        load_times.append(time.perf_counter() - start)

    handled = 0
    start = time.perf_counter()
    while handled < args.messages:
        game = Game(case)
        game.start()
        game.handle("Ann, Bob and Cy")
        for _ in range(3):
            for message in SCRIPT:
                game.handle(message)
                handled += 1
    elapsed = time.perf_counter() - start
    print(f"case load + seal check: median {statistics.median(load_times) * 1000:.1f} ms over {args.loads} loads")
    print(f"messages: {handled} in {elapsed:.2f} s = {handled / elapsed:,.0f} messages/s (one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
