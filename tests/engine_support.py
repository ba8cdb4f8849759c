"""Helpers for the engine tests: the test cases (Frost Fair, Wyke Mill), a game played by messages, and text mode
run as its own process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from engine.case import Case, GradePart
from engine.game import Game
from engine.replies import PartKind, Reply
from engine.rules import MAX_COUNTED_EXHIBITS
from voice_host.loop.casefiles import load_bundled_case, read_case_dir, read_case_files

CASES_DIR = Path(__file__).parent / "cases"
FROST_FAIR = CASES_DIR / "frost-fair"
FROST_SOURCE = CASES_DIR / "frost-fair.reveal.txt"
# Wyke Mill: a male victim and four suspects, so nothing the Host says can lean on Hollin Fold's six or "her".
WYKE_MILL = CASES_DIR / "wyke-mill"
WYKE_SOURCE = CASES_DIR / "wyke-mill.reveal.txt"


@cache
def frost_case() -> Case:
    return read_case_dir(FROST_FAIR)


@cache
def wyke_case() -> Case:
    return read_case_dir(WYKE_MILL)


@cache
def hollin_case() -> Case:
    return load_bundled_case()


#: Every case a whole night is played on, by mystery name (for pytest.mark.parametrize ids).
CASES: dict[str, Callable[[], Case]] = {"hollin-fold": hollin_case, "frost-fair": frost_case, "wyke-mill": wyke_case}
TEST_CASES: dict[str, Callable[[], Case]] = {"frost-fair": frost_case, "wyke-mill": wyke_case}


def frost_files() -> dict[str, bytes]:
    return read_case_files(FROST_FAIR)


def seated(names: str = "Ann, Bob and Cy", case: Case | None = None) -> Game:
    game = Game(case or frost_case())
    game.start()
    game.handle(names)
    return game


def play(game: Game, *messages: str) -> Reply:
    reply = None
    for message in messages:
        reply = game.handle(message)
    assert reply is not None
    return reply


def system_lines(reply: Reply) -> list[str]:
    return [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]


def spoken(reply: Reply) -> list[str]:
    """What the suspects said in a reply, in order."""
    return [part.text for part in reply.parts if part.kind is PartKind.SUSPECT]


def suspect_lines(reply: Reply) -> list[tuple[str | None, str]]:
    return [(part.speaker, part.text) for part in reply.parts if part.kind is PartKind.SUSPECT]


def non_ledger(reply: Reply) -> list[str]:
    return [part.text for part in reply.parts if part.kind is not PartKind.LEDGER]


def to_round(game: Game, number: int) -> None:
    """Skip ahead to the start of round `number` by ending rounds early."""
    while game.state.round < number:
        play(game, "next", "yes")


def to_accusation(game: Game) -> None:
    """Skip ahead to round A."""
    while not game.state.in_accusation:
        reply = game.handle("next")
        if system_lines(reply) and system_lines(reply)[-1].startswith("End round"):
            game.handle("yes")


def par_exhibits(case: Case) -> list[int]:
    """The fewest exhibits, in order of the parts, that prove could, how and why."""
    chosen: list[int] = []
    for part in GradePart:
        smallest = min(case.reveal.grading.sets_for(part), key=len)
        for number in sorted(smallest):
            if number not in chosen:
                chosen.append(number)
    assert len(chosen) <= MAX_COUNTED_EXHIBITS, "a par accusation must fit in the exhibits an accusation counts"
    return chosen


def run_text_mode(
    state: Path, stdin: str | bytes, *extra: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`third-carol play --text` on Frost Fair in its own process; never a traceback on stderr."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "voice_host.cli.main",
            "play",
            "--text",
            "--case",
            str(FROST_FAIR),
            "--state-dir",
            str(state),
            *extra,
        ],
        input=data,
        capture_output=True,
        env={**{k: v for k, v in os.environ.items() if k not in ("PYTHONUTF8", "PYTHONIOENCODING")}, **(env or {})},
        check=False,
    )
    assert b"Traceback" not in result.stderr, result.stderr.decode()
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode(), result.stderr.decode())
