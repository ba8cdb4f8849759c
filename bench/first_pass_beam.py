"""The first pass's cost by beam size: wall time of one biased transcription, beam 5 (what ships) and 1.

    .venv/bin/python bench/first_pass_beam.py [--every 15] [--count 32] [--condition clean]

Tune only (issue 15): every `--every`th tune fixture, each transcribed under the case's prompt at both
beam sizes back to back; prints p50 / p90 seconds and the lines whose text differs. Run it idle.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audio_fixtures.corpus import Split  # noqa: E402
from audio_fixtures.fixtures import Condition, FixtureAudio, load_fixtures  # noqa: E402
from voice_host.cli.hear import HearPipeline  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402
from voice_host.understanding.cascade import Vocabulary  # noqa: E402


def p90(values: list[float]) -> float:
    return sorted(values)[int(0.9 * len(values))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=15, help="take every Nth tune fixture (default 15)")
    parser.add_argument("--count", type=int, default=32, help="at most this many fixtures (default 32)")
    parser.add_argument("--condition", default="clean", help="clean, room or kitchen (default clean)")
    args = parser.parse_args()

    case = load_bundled_case()
    recognizer = HearPipeline(case).recognizer
    prompt = Vocabulary.for_suspects(case.suspects).prompt
    fixtures = load_fixtures(Split.TUNE)[:: args.every][: args.count]
    audio = FixtureAudio(load_fixtures(Split.TUNE))
    condition = Condition(args.condition)
    recognizer.transcribe(audio.audio(fixtures[0].id, condition), initial_prompt=prompt)  # warm up
    seconds: dict[int, list[float]] = {5: [], 1: []}
    same = 0
    for fixture in fixtures:
        clip = audio.audio(fixture.id, condition)
        wide = recognizer.transcribe(clip, initial_prompt=prompt, beam_size=5)
        greedy = recognizer.transcribe(clip, initial_prompt=prompt, beam_size=1)
        seconds[5].append(wide.seconds)
        seconds[1].append(greedy.seconds)
        if wide.text == greedy.text:
            same += 1
        else:
            print(f"{fixture.id}: beam 5 {wide.text!r} | beam 1 {greedy.text!r}")
    for beam, values in seconds.items():
        print(f"beam {beam}: p50 {statistics.median(values):.3f} s, p90 {p90(values):.3f} s")
    print(f"same text: {same} of {len(fixtures)} ({args.condition})")


if __name__ == "__main__":
    main()
