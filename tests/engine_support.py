"""Helpers for the engine tests: the Frost Fair test case and a game played by messages."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.case import Case
from engine.game import Game
from engine.replies import PartKind, Reply
from voice_host.loop.casefiles import read_case_dir, read_case_files

FROST_FAIR = Path(__file__).parent / "cases" / "frost-fair"
FROST_SOURCE = Path(__file__).parent / "cases" / "frost-fair.reveal.txt"


@cache
def frost_case() -> Case:
    return read_case_dir(FROST_FAIR)


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


def suspect_lines(reply: Reply) -> list[tuple[str | None, str]]:
    return [(part.speaker, part.text) for part in reply.parts if part.kind is PartKind.SUSPECT]


def non_ledger(reply: Reply) -> list[str]:
    return [part.text for part in reply.parts if part.kind is not PartKind.LEDGER]


def to_round(game: Game, number: int) -> None:
    """Skip ahead to the start of round `number` by ending rounds early."""
    while game.state.round < number:
        play(game, "next", "yes")
