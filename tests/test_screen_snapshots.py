"""Snapshots of the table screen (pytest-textual-snapshot), on the stable test case, at 80x24 and 160x48.

Update after a deliberate change with `pytest tests/test_screen_snapshots.py --snapshot-update`, and
look at the report before committing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from engine.game import Game
from voice_host.loop.casefiles import read_case_dir
from voice_host.screen.app import TableApp
from voice_host.screen.driver import TableDriver

FROST_FAIR = Path(__file__).parent / "cases" / "frost-fair"
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 48), id="160x48")]

SEAT = ["Ann, Bob"]
BROKEN_LIE = [*SEAT, "Ada, where were you at nine?", "Confront Ada with E3"]
# Rounds 2 to 4 opened with questions unused (each "next" asks first), then the accusation.
TO_ACCUSATION = [*SEAT, "next", "yes", "next", "yes", "next", "yes", "next", "yes"]
READ_BACK = [*TO_ACCUSATION, "We accuse Bram: E5, E7, E6, E13, E14"]
RESULT = [*READ_BACK, "yes"]

SnapCompare = Callable[..., bool]


def typed(messages: list[str]) -> Callable[[Pilot[int]], object]:
    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, TableApp)
        app.query_one("#typed", Input).cursor_blink = False  # a blinking cursor would make snapshots flaky
        for message in messages:
            app.send(message)
            await pilot.pause()

    return run_before


def frost_fair() -> TableApp:
    return TableApp(TableDriver(Game(read_case_dir(FROST_FAIR))))


@pytest.mark.parametrize("size", SIZES)
def test_opening(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(frost_fair(), terminal_size=size, run_before=typed([]))


@pytest.mark.parametrize("size", SIZES)
def test_round_opening(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(frost_fair(), terminal_size=size, run_before=typed(SEAT))


@pytest.mark.parametrize("size", SIZES)
def test_mid_round_with_a_broken_lie(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(frost_fair(), terminal_size=size, run_before=typed(BROKEN_LIE))


@pytest.mark.parametrize("size", SIZES)
def test_accusation_read_back(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(frost_fair(), terminal_size=size, run_before=typed(READ_BACK))


@pytest.mark.parametrize("size", SIZES)
def test_the_end_with_result(snap_compare: SnapCompare, size: tuple[int, int]) -> None:
    assert snap_compare(frost_fair(), terminal_size=size, run_before=typed(RESULT))
