"""What a first night at the table screen showed, each kept fixed: FULL STATE never stale, the night
kept at the latest reply across a resize, F8 never hiding the night behind the table's back, Esc saying
that it stopped the Host, notices on the line above the input (not over it), F5 shown as a key."""

from __future__ import annotations

import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input
from textual.widgets._toast import Toast

from tests.test_screen import FakeVoice, frost_fair_app, type_line, voiced_frost_fair_app
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.screen.app import TableApp


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def latest_reply_in_view(app: TableApp) -> bool:
    """The night panel shows (some of) the latest reply."""
    night = app.query_one("#night", VerticalScroll)
    assert app.current is not None
    top = app.current.virtual_region.y
    return top <= night.scroll_y + night.scrollable_content_region.height and app.current.virtual_region.bottom >= night.scroll_y


@pytest.mark.anyio
async def test_f6_full_state_always_matches_the_ledger() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")  # round 1 opens with FULL STATE shown
        await type_line(pilot, "Ada, where were you at nine?")
        await type_line(pilot, "Confront Ada with E3")  # breaks R1
        assert not app.full_state.has_class("-shown")
        await pilot.press("f6")
        assert app.full_state.has_class("-shown")
        assert app.full_state.view is not None
        assert app.full_state.view.questions_left == "2 of 4"
        assert app.full_state.view.broken == "R1"
        assert app.full_state.view.next_seat == "Ann"


@pytest.mark.anyio
async def test_the_night_stays_at_the_latest_reply_after_a_resize() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        for line in ("Ann, Bob", "next", "yes", "next", "yes", "Bram, where were you?"):
            await type_line(pilot, line)
        await pilot.pause()
        assert latest_reply_in_view(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert latest_reply_in_view(app)
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        await pilot.pause()
        assert latest_reply_in_view(app)


@pytest.mark.anyio
async def test_f8_on_a_large_screen_says_the_house_is_shown_and_hides_nothing_later() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await pilot.press("f8")
        await pilot.pause()
        assert "house is always shown" in app.heard.plain
        assert not app.screen.has_class("-show-house")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert app.query_one("#night").region.width > 0  # the night, not the house, on the small screen
        await pilot.press("f8")  # on the small screen F8 shows the house in place of the night
        await pilot.pause()
        assert app.query_one("#night").region.width == 0
        assert app.query_one("#house-box").region.height > 0


@pytest.mark.anyio
async def test_esc_stops_the_host_and_says_so() -> None:
    voice = FakeVoice()
    app = voiced_frost_fair_app(voice)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.show_mic(MicLevel(MicStatus.SPEAKING))
        app.show_speaking(0, "")
        stops = voice.stops
        await pilot.press("escape")
        await pilot.pause()
        assert voice.stops == stops + 1
        assert "Esc: the Host stopped talking." in app.heard.plain
        assert app.current is not None
        assert all(view.speaking is None for view in app.current.parts.values())


@pytest.mark.anyio
async def test_the_f2_notice_is_on_its_own_line_not_over_the_input() -> None:
    app = frost_fair_app()  # typed play: no microphone to turn on
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        assert "Voice is off: type instead." in app.heard.plain
        assert not app.query(Toast)  # no pop-up over the bottom of the screen
        typed, heard = app.query_one("#typed", Input), app.heard
        assert heard.region.bottom <= typed.region.y


@pytest.mark.anyio
async def test_f5_is_shown_as_a_key_not_as_typed_words() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")
        await pilot.press("f5")
        await pilot.pause()
        assert app.heard.plain.startswith("Key: F5")
        assert "Typed" not in app.heard.plain
        assert app.current is not None and app.current.said == "F5: save"


@pytest.mark.anyio
async def test_a_late_sentence_of_a_stopped_reply_leaves_the_latest_reply_in_view_and_unmarked() -> None:
    from voice_host.screen.voice import SentenceStarted
    from voice_host.understanding.understand import Heard

    voice = FakeVoice()
    app = voiced_frost_fair_app(voice)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")  # round 1's opening: taller than the screen, read from its top
        opening = app.current
        assert opening is not None
        app.post_message(SentenceStarted(opening.reply, 0, ""))
        await pilot.pause()
        text = "Ada, where were you at nine?"
        # Heard, but a name the Host is not sure of: it asks back, a line of its own in the night.
        app.take_heard(Heard(text, text, (), 0.4, app.driver.game.preview(text), needs_confirmation=True))
        app.post_message(SentenceStarted(opening.reply, 0, ""))  # the stopped opening's sentence, reported late
        await pilot.pause()
        await pilot.pause()
        assert app.current is not opening and app.current is not None
        assert "Say yes or no." in app.current.reply.parts[0].text
        assert all(view.speaking is None for view in app.current.parts.values())
        assert latest_reply_in_view(app)
        app.post_message(SentenceStarted(app.current.reply, 0, "Say yes or no."))  # the Host says it
        await pilot.pause()
        assert app.current.parts[0].speaking is not None
        assert latest_reply_in_view(app)


@pytest.mark.anyio
async def test_a_reply_that_comes_as_the_host_starts_a_sentence_of_the_last_one_is_followed() -> None:
    from voice_host.understanding.understand import Heard

    voice = FakeVoice()
    app = voiced_frost_fair_app(voice)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")  # round 1's opening: taller than the screen
        await pilot.pause()
        assert app.current is not None
        first = min(app.current.parts)  # the opening's first part, far above its end
        text = "Ada, where were you at nine?"
        # In one turn of the screen's loop: the speaker reports a sentence of the opening (the night
        # scrolls to it), and a question is heard (a new reply below it).
        app.show_speaking(first, "")
        app.take_heard(Heard(text, text, (), 0.4, app.driver.game.preview(text), needs_confirmation=True))
        for _ in range(4):
            await pilot.pause()
        assert "Say yes or no." in app.current.reply.parts[0].text
        assert latest_reply_in_view(app)
