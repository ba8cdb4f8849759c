"""The `third-carol` command. Plain `third-carol` starts the table screen with voice."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path


def _add_case_options(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument("--case", type=Path, default=default, help="case folder to play (default: the bundled Hollin Fold case)")


def _add_play_options(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument(
        "--no-voice", action="store_true", default=default or False, help="typed play on the screen, no microphone or speech"
    )
    _add_case_options(parser, default)
    parser.add_argument(
        "--state-dir", type=Path, default=default, help="where the journal and saves go (default: per-user state folder)"
    )
    parser.add_argument(
        "--resume", action="store_true", default=default or False, help="go on with the last unfinished night, from its journal"
    )
    parser.add_argument(
        "--night", default=default, help="go on with this night (a file name in the state folder's nights/), not the last one"
    )
    parser.add_argument(
        "--no-barge-in",
        action="store_true",
        default=default or False,
        help="keep the microphone shut while the Host speaks, as without an echo canceller (only Esc stops it); "
        "default: it stays open, the Host's own voice cancelled, and 'stop', 'wait', 'repeat', 'next' act at once",
    )
    for kind in ("input", "output"):
        parser.add_argument(
            f"--{kind}-device",
            default=default,
            help=f"{kind} audio device, by number or part of its name (default: the system's; see `third-carol devices`)",
        )


def _add_verbose_option(parser: argparse.ArgumentParser, default: object = None) -> None:
    parser.add_argument(
        "--verbose",
        action="store_true",
        default=default or False,
        help="log every step, with timings, to third-carol.log in the state folder (default: notable events only)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="third-carol", description="The Third Carol: an offline, voice-driven murder-mystery Host."
    )
    _add_play_options(parser)
    _add_verbose_option(parser)
    sub = parser.add_subparsers(dest="command")
    # Options repeated after a subcommand default to SUPPRESS, so one given before it is not reset.
    play = sub.add_parser("play", help="play a game (the screen by default; --text for plain text on stdin/stdout)")
    play.add_argument("--text", action="store_true", help="text mode: one message per line on stdin, replies on stdout")
    _add_play_options(play, argparse.SUPPRESS)
    _add_verbose_option(play, argparse.SUPPRESS)

    verify = sub.add_parser("verify", help="print the reveal's SHA-256 and whether it matches the sealed notice")
    _add_case_options(verify, argparse.SUPPRESS)

    lint = sub.add_parser("lint", help="check a case for fair play and print each round opening's length")
    lint.add_argument("case_dir", nargs="?", type=Path, default=None, help="case folder (default: the bundled case)")
    lint.add_argument(
        "--questions", type=Path, default=None, help="question set to count per line (default: spoilers/<case>/questions.tsv)"
    )

    seal = sub.add_parser("seal", help="seal a plain reveal into a case folder (writes the parts and SYSTEM.md)")
    seal.add_argument("reveal", type=Path, help="the plain reveal text (spoilers/<case>/reveal.txt)")
    seal.add_argument("case_dir", type=Path, help="the case folder to write the sealed parts into")
    seal.add_argument("--parts", type=int, default=2, help="how many parts to split the reveal into (default: 2)")
    seal.add_argument("--name", default=None, help="the reveal's name in the notice (default: keep the existing one)")
    seal.add_argument(
        "--asked",
        type=Path,
        default=None,
        help="question set whose tune rows are sealed as the questions asked before (default: questions.tsv beside the reveal)",
    )

    hear = sub.add_parser("hear", help="run the speech pipeline on WAV files and show what each was taken as")
    hear.add_argument("files", nargs="+", type=Path, help="16 kHz mono WAV files")
    hear.add_argument("--json", action="store_true", help="one JSON object a line")
    hear.add_argument(
        "--at-accusation",
        action="store_true",
        help="judge each file in a game brought to the accusation, where a table accuses (default: round 1)",
    )
    _add_case_options(hear, argparse.SUPPRESS)
    _add_verbose_option(hear, argparse.SUPPRESS)

    sub.add_parser("devices", help="list audio input and output devices")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    command = args.command or "play"
    if command in ("play", "hear"):
        from voice_host.cli.logs import start_logging
        from voice_host.loop.journal import default_state_dir

        on_screen = command == "play" and not getattr(args, "text", False)
        start_logging(args.state_dir or default_state_dir(), verbose=args.verbose, echo=not on_screen)
        logging.getLogger(__name__).info("third-carol %s started", " ".join(sys.argv[1:] if argv is None else argv))
    if command == "play":
        if getattr(args, "text", False):
            from voice_host.cli.text_mode import run_text

            return run_text(args)
        from voice_host.screen.app import run_screen

        return run_screen(args)
    if command == "verify":
        from voice_host.cli.case_tools import run_verify

        return run_verify(args)
    if command == "lint":
        from voice_host.cli.case_tools import run_lint

        return run_lint(args)
    if command == "seal":
        from voice_host.cli.case_tools import run_seal

        return run_seal(args)
    if command == "hear":
        from voice_host.cli.hear import run_hear

        return run_hear(args)
    if command == "devices":
        from voice_host.ears.audio import run_devices

        return run_devices(args)
    raise AssertionError(command)


if __name__ == "__main__":
    sys.exit(main())
