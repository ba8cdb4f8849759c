"""The first pass's cost by beam size: wall time of one biased transcription, at the shipped beam and at 1.

    .venv/bin/python bench/first_pass_beam.py [--every 15] [--count 32] [--condition clean]

Tune only (issue 15): every `--every`th tune fixture, each transcribed under the case's prompt at both
beam sizes, each cold (the kept encoder output forgotten first, so each pays its encoder as a first pass
does), then at the shipped beam again on the greedy pass's encoder output (what a line greedy was unsure of
would pay on top); prints p50 / p90 seconds and the lines whose text differs. Run it idle.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audio_fixtures.corpus import Split  # noqa: E402
from audio_fixtures.fixtures import Condition, FixtureAudio, load_fixtures  # noqa: E402
from bench.turn import percentile  # noqa: E402
from voice_host.cli.hear import HearPipeline  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=15, help="take every Nth tune fixture (default 15)")
    parser.add_argument("--count", type=int, default=32, help="at most this many fixtures (default 32)")
    parser.add_argument("--condition", default="clean", help="clean, room or kitchen (default clean)")
    args = parser.parse_args()

    pipeline = HearPipeline(load_bundled_case(), use_vad=False)
    recognizer = pipeline.recognizer
    prompt = pipeline.passes.vocabulary.prompt  # the first pass's own prompt
    shipped = recognizer.options.beam_size
    tune = load_fixtures(Split.TUNE)
    fixtures = tune[:: args.every][: args.count]
    audio = FixtureAudio(tune)
    condition = Condition(args.condition)
    recognizer.transcribe(audio.audio(fixtures[0].id, condition), initial_prompt=prompt)  # warm up
    seconds: dict[str, list[float]] = {f"beam {shipped}": [], "beam 1": [], f"beam {shipped} after beam 1": []}
    same = 0
    for fixture in fixtures:
        clip = audio.audio(fixture.id, condition)
        recognizer.forget_encoding()
        wide = recognizer.transcribe(clip, initial_prompt=prompt)
        recognizer.forget_encoding()
        greedy = recognizer.transcribe(clip, initial_prompt=prompt, beam_size=1)
        again = recognizer.transcribe(clip, initial_prompt=prompt)  # on the greedy pass's encoder output
        seconds[f"beam {shipped}"].append(wide.seconds)
        seconds["beam 1"].append(greedy.seconds)
        seconds[f"beam {shipped} after beam 1"].append(again.seconds)
        if wide.text == greedy.text:
            same += 1
        else:
            print(f"{fixture.id}: beam {shipped} {wide.text!r} | beam 1 {greedy.text!r}")
    for beam, values in seconds.items():
        print(f"{beam}: p50 {percentile(values, 50):.3f} s, p90 {percentile(values, 90):.3f} s")
    print(f"same text: {same} of {len(fixtures)} ({args.condition})")


if __name__ == "__main__":
    main()
