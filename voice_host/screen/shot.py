"""Render the table screen headless to an SVG and a PNG, for docs/screen.png and for looking at layouts.

    python -m voice_host.screen.shot OUT.png [--case DIR] [--size 160x48] "Ann, Bob" "Abel, where ..."

Each message after OUT is typed into the game in turn. docs/screen.png was made with

    python -m voice_host.screen.shot docs/screen.png --case tests/cases/frost-fair --size 140x44 \
        "Ann, Bob, Cy" "Read E4" "Ada, where were you at nine?" "Confront Ada with E3"

The PNG is made with `rsvg-convert` (Debian package librsvg2-bin) from Textual's SVG screenshot; the
font is Fira Code (Debian fonts-firacode).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from voice_host.screen.app import TableApp
from voice_host.screen.driver import TableDriver

_TEXT = re.compile(r"<text([^>]*)>([^<]*)</text>")
_NBSP = "&#160;"


def _keep_leading_spaces(match: re.Match[str]) -> str:
    """rsvg drops leading spaces of a text run: move the run's start right by that many cells instead."""
    attrs, body = match.group(1), match.group(2)
    stripped = body
    lead = 0
    while stripped.startswith(_NBSP):
        stripped = stripped[len(_NBSP) :]
        lead += 1
    x = re.search(r'x="([\d.]+)"', attrs)
    length = re.search(r'textLength="([\d.]+)"', attrs)
    if not lead or x is None or length is None:
        return match.group(0)
    cells = lead + len(re.sub(r"&#?\w+;", "_", stripped))
    cell = float(length.group(1)) / cells
    attrs = attrs.replace(x.group(0), f'x="{float(x.group(1)) + lead * cell:.1f}"')
    attrs = attrs.replace(length.group(0), f'textLength="{float(length.group(1)) - lead * cell:.1f}"')
    return f"<text{attrs}>{stripped}</text>"


def svg_to_png(svg: str, out: Path) -> None:
    converter = shutil.which("rsvg-convert")
    if converter is None:
        raise SystemExit("rsvg-convert not found: apt-get install librsvg2-bin")
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "screen.svg"
        source.write_text(_TEXT.sub(_keep_leading_spaces, svg), encoding="utf-8")
        subprocess.run([converter, str(source), "-o", str(out)], check=True)


async def screenshot(app: TableApp, size: tuple[int, int], messages: list[str]) -> str:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for message in messages:
            app.send(message)
            await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        return app.export_screenshot(title="The Third Carol")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("messages", nargs="*", help="messages to type, in order")
    parser.add_argument("--case", type=Path, default=None, help="case folder (default: the bundled case)")
    parser.add_argument("--size", default="160x48", help="terminal size, WIDTHxHEIGHT")
    parser.add_argument("--svg", type=Path, default=None, help="also keep Textual's SVG screenshot here")
    args = parser.parse_intermixed_args(argv)

    from engine.game import Game
    from voice_host.loop.casefiles import case_dir_or_bundled, read_case_dir

    case = read_case_dir(case_dir_or_bundled(args.case))
    width, height = (int(n) for n in args.size.lower().split("x"))
    svg = asyncio.run(screenshot(TableApp(TableDriver(Game(case))), (width, height), args.messages))
    if args.svg is not None:
        args.svg.write_text(svg, encoding="utf-8")
    svg_to_png(svg, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
