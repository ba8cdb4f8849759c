"""The table screen after a crash: a resume cut back says so, an unfinished night is offered, player text
is never markup, and a journal that cannot be written is one line on the screen."""

from __future__ import annotations

import errno
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input, Static
from textual.widgets._toast import Toast

from engine.game import Game
from tests.engine_support import FROST_FAIR
from voice_host.loop.casefiles import read_case_dir
from voice_host.loop.journal import NIGHTS, Night, StateFolder, read_night
from voice_host.screen.app import TableApp
from voice_host.screen.driver import TableDriver
from voice_host.screen.resume_offer import ResumeChoice
from voice_host.screen.views import full_state_view, ledger_view
from voice_host.screen.widgets import NightEntry

MYSTERY = "frost-fair"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _app(folder: StateFolder, resume: bool = False) -> TableApp:
    night = folder.latest_unfinished() if resume else None
    return TableApp(TableDriver(Game(read_case_dir(FROST_FAIR)), folder.journal(MYSTERY, night), night))


async def _type(app: TableApp, *lines: str) -> None:
    for line in lines:
        app.send(line)


def _night_words(app: TableApp) -> str:
    return "\n".join(part.part.text for entry in app.query(NightEntry) for part in entry.parts.values())


@pytest.mark.anyio
async def test_a_save_with_markup_for_a_name_does_not_break_the_screen_now_or_on_resume(tmp_path: Path) -> None:
    block = (
        "-----BEGIN AIGC SAVE-----\ngame:frost-fair-test m:frost-fair rules:1 turn:5 rd:1 q:0 seat:1\n"
        "table:[/],Bob,[bold]Cy broken:none sha:none\n-----END AIGC SAVE-----"
    )
    with StateFolder.open(tmp_path) as folder:
        app = _app(folder)
        async with app.run_test(size=(160, 48)) as pilot:
            app.send(block)
            await pilot.pause()
            app.action_toggle_full_state()
            await pilot.pause()
            assert app.driver.state.seats == ("Bob",)
        app.driver.journal.close()  # type: ignore[union-attr]
        resumed = _app(folder, resume=True)
        async with resumed.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            assert resumed.driver.state.seats == ("Bob",)


@pytest.mark.anyio
async def test_names_are_shown_as_text_never_as_markup(tmp_path: Path) -> None:
    # Whatever a name holds, the ledger and FULL STATE show it as it is.
    with StateFolder.open(tmp_path) as folder:
        app = _app(folder)
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            app.send("Ann, Bob")
            await pilot.pause()
            state = replace(app.driver.state, seats=("[/]", "[bold]x"), next_seat=1)
            app.full_state.show(full_state_view(state))
            app.ledger.show(ledger_view(state, "[L] t:3"))
            await pilot.pause()
            content = app.query_one("#ledger-next", Static).content
            assert str(content) == "[/]"


@pytest.mark.anyio
async def test_a_resume_cut_back_says_so_once_on_the_screen(tmp_path: Path) -> None:
    with StateFolder.open(tmp_path) as folder:
        app = _app(folder)
        async with app.run_test(size=(160, 48)) as pilot:
            await _type(app, "Ann, Bob", "Ada, where were you at nine?", "Confront Ada with E3")
            await pilot.pause()
        assert app.driver.journal is not None and app.driver.journal.path is not None
        path = app.driver.journal.path
        app.driver.journal.close()
        path.write_bytes(path.read_bytes()[:-3])
        resumed = _app(folder, resume=True)
        async with resumed.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            notice = "The last move was not saved whole; resuming at turn 3."
            assert _night_words(resumed).count(notice) == 1
            assert resumed.driver.state.questions_used == 1
        assert resumed.driver.journal is not None
        resumed.driver.journal.close()
        again = _app(folder, resume=True)
        async with again.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            assert "not saved whole" not in _night_words(again)
            assert again.driver.state.questions_used == 1


def _input_in_view(app: TableApp) -> None:
    """No pop-up over the bottom of the screen: the notice line sits above the input, both on screen."""
    assert not app.query(Toast)
    typed, heard = app.query_one("#typed", Input), app.heard
    assert heard.region.height > 0 and heard.region.bottom <= typed.region.y
    assert typed.region.height > 0 and typed.region.bottom <= app.screen.region.bottom


@pytest.mark.anyio
async def test_a_full_disk_is_one_line_above_the_input_at_80x24_and_the_night_goes_on(tmp_path: Path) -> None:
    with StateFolder.open(tmp_path) as folder:
        app = _app(folder)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            journal = app.driver.journal
            assert journal is not None

            def full(descriptor: int, data: bytes) -> int:
                raise OSError(errno.ENOSPC, "No space left on device")

            journal.write = full
            app.send("Ann, Bob")
            await pilot.pause()
            assert app.heard.plain.startswith("Typed: “Ann, Bob”")  # what was typed stays shown
            assert "Not saved: This move could not be saved" in app.heard.plain
            assert "Free some space" in app.heard.plain
            _input_in_view(app)
            journal.write = __import__("os").write
            app.send("Ada, where were you at nine?")
            await pilot.pause()
            assert "Not saved" not in app.heard.plain  # saved again: the notice goes with the next move
        journal.close()
    with StateFolder.open(tmp_path) as folder:
        night = folder.latest_unfinished()
        assert night is not None and night.messages == ("Ann, Bob", "Ada, where were you at nine?")


@pytest.mark.anyio
async def test_a_save_file_that_cannot_be_written_is_one_line_above_the_input_at_80x24(tmp_path: Path) -> None:
    with StateFolder.open(tmp_path) as folder:
        (tmp_path / "last-save.txt").mkdir()  # the SAVE cannot replace a folder
        app = _app(folder)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.send("Ann, Bob")
            await pilot.press("f5")
            await pilot.pause()
            assert app.heard.plain.startswith("Key: F5")
            assert "Not saved: The SAVE could not be written to" in app.heard.plain
            assert "copy it from the reply instead." in app.heard.plain
            _input_in_view(app)
        assert app.driver.journal is not None
        app.driver.journal.close()


async def _leave_a_night_unfinished(folder: StateFolder) -> Night:
    """Play "Ann, Bob" then "pass" on the screen and close it mid-night: that night is left unfinished."""
    app = _app(folder)
    async with app.run_test(size=(160, 48)) as pilot:
        await _type(app, "Ann, Bob", "pass")
        await pilot.pause()
    assert app.driver.journal is not None
    app.driver.journal.close()
    unfinished = folder.latest_unfinished(MYSTERY)
    assert unfinished is not None
    return unfinished


@pytest.mark.anyio
async def test_an_unfinished_night_is_offered_and_kept_either_way(tmp_path: Path) -> None:
    with StateFolder.open(tmp_path) as folder:
        unfinished = await _leave_a_night_unfinished(folder)
        for key, wanted in (("r", True), ("n", False)):
            offer = ResumeChoice(unfinished)
            async with offer.run_test() as pilot:
                await pilot.pause()
                assert unfinished.name in str(offer.query_one("#offer-text", Static).content)
                await pilot.press(key, "enter")
            assert offer.return_value is wanted
        assert read_night(unfinished.path).messages == ("Ann, Bob", "pass")
        assert len(list((tmp_path / NIGHTS).iterdir())) == 1


@pytest.mark.anyio
async def test_names_typed_ahead_never_choose_at_the_unfinished_night_offer(tmp_path: Path) -> None:
    with StateFolder.open(tmp_path) as folder:
        unfinished = await _leave_a_night_unfinished(folder)
        offer = ResumeChoice(unfinished)
        async with offer.run_test() as pilot:
            await pilot.pause()
            # The "n" of "Ann" and "Ben" must not pick a new night; the offer says how to choose instead.
            await pilot.press(*"Ann, Ben", "enter")
            await pilot.pause()
            assert offer.is_running
            assert "is not a choice" in str(offer.query_one("#offer-notice", Static).content)
            await pilot.press("r", "enter")
        assert offer.return_value is True
