"""The `third-carol` command line: options before or after `play` mean the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from voice_host.cli.main import build_parser


@pytest.mark.parametrize(
    "argv",
    [
        ["--no-voice", "--resume", "--state-dir", "s", "--case", "c", "play"],
        ["play", "--no-voice", "--resume", "--state-dir", "s", "--case", "c"],
        ["--no-voice", "--resume", "--state-dir", "s", "--case", "c"],
    ],
)
def test_play_options_hold_wherever_they_are_given(argv: list[str]) -> None:
    args = build_parser().parse_args(argv)
    assert (args.no_voice, args.resume, args.state_dir, args.case) == (True, True, Path("s"), Path("c"))


def test_defaults_when_nothing_is_given() -> None:
    args = build_parser().parse_args(["play"])
    assert (args.no_voice, args.resume, args.state_dir, args.case, args.text) == (False, False, None, None, False)


def test_every_option_has_help_text() -> None:
    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command").choices  # noqa: SLF001
    assert isinstance(subparsers, dict)
    for each in [parser, *subparsers.values()]:
        for action in each._actions:  # noqa: SLF001
            if action.dest not in ("help", "command"):
                assert action.help, f"{each.prog} {action.dest} has no help text"


def test_the_microphone_stays_open_over_the_host_unless_told() -> None:
    assert build_parser().parse_args(["play"]).no_barge_in is False
    assert build_parser().parse_args(["play", "--no-barge-in"]).no_barge_in is True
    assert build_parser().parse_args(["--no-barge-in", "play"]).no_barge_in is True
