"""Turn a screen of the table into a PNG, for docs/screen.png and for looking at layouts.

docs/screen.png is a real terminal's screen: `python -m tests.screen_png docs/screen.png` runs the
installed `third-carol play` in voice mode inside tmux (a PulseAudio virtual microphone, the Host
reading round 1 of Hollin Fold aloud), captures the pane with its colours and renders it here:

    python -m voice_host.screen.shot OUT.png --from-ansi PANE.txt --size 160x48

(PANE.txt from `tmux capture-pane -e -p`). Without --from-ansi the app runs headless instead, each
message after OUT typed into the game in turn, for quick looks at a layout:

    python -m voice_host.screen.shot OUT.png [--case DIR] [--size 160x48] "Ann, Bob" "Abel, where ..."

The PNG is made with `rsvg-convert` (Debian package librsvg2-bin) from an SVG (Rich's for a captured
pane, Textual's for the headless app); the font is Fira Code (Debian fonts-firacode).
"""

from __future__ import annotations

import argparse
import asyncio
import io
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


def ansi_to_svg(ansi: str, size: tuple[int, int], title: str = "The Third Carol") -> str:
    """A terminal pane captured with its colour codes (`tmux capture-pane -e -p`), drawn as Rich's SVG."""
    from rich.console import Console
    from rich.text import Text

    width, height = size
    rows = ansi.rstrip("\n").split("\n")[:height]
    console = Console(record=True, width=width, height=height, file=io.StringIO(), color_system="truecolor", force_terminal=True)
    for row in rows:
        console.print(Text.from_ansi(row, no_wrap=True, end=""), no_wrap=True, crop=True)
    return console.export_svg(title=title)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the PNG to write")
    parser.add_argument("messages", nargs="*", help="messages to type, in order")
    parser.add_argument("--case", type=Path, default=None, help="case folder (default: the bundled case)")
    parser.add_argument("--size", default="160x48", help="terminal size, WIDTHxHEIGHT")
    parser.add_argument("--svg", type=Path, default=None, help="also keep the SVG here")
    parser.add_argument("--from-ansi", type=Path, default=None, help="a captured pane to draw, not the app")
    args = parser.parse_intermixed_args(argv)
    width, height = (int(n) for n in args.size.lower().split("x"))
    if args.from_ansi is not None:
        svg = ansi_to_svg(args.from_ansi.read_text(encoding="utf-8"), (width, height))
        if args.svg is not None:
            args.svg.write_text(svg, encoding="utf-8")
        svg_to_png(svg, args.out)
        return 0

    from engine.game import Game
    from voice_host.loop.casefiles import case_dir_or_bundled, read_case_dir

    case = read_case_dir(case_dir_or_bundled(args.case))
    svg = asyncio.run(screenshot(TableApp(TableDriver(Game(case))), (width, height), args.messages))
    if args.svg is not None:
        args.svg.write_text(svg, encoding="utf-8")
    svg_to_png(svg, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
