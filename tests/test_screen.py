"""The table screen: its view models (pure) and Pilot tests that type a short game into the app."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path

import pytest
from rich.text import Text
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import Digits, Input, OptionList, Static

from engine.game import Game
from engine.replies import PartKind, Reply, ReplyPart
from engine.state import Accusation, GameState, Phase
from voice_host.ears.short_words import ShortWord, ShortWordScores
from voice_host.loop.barge_in import ONE_AT_A_TIME, HostTalk
from voice_host.loop.casefiles import load_bundled_case, read_case_dir
from voice_host.loop.events import MicLevel, MicStatus
from voice_host.loop.journal import Journal, Night, StateFolder
from voice_host.loop.listener import ShortHeard
from voice_host.screen.app import LOADING, TableApp
from voice_host.screen.bigtext import big_text
from voice_host.screen.driver import TableDriver
from voice_host.screen.house import HOLLIN_FOLD_PLAN, house_plan
from voice_host.screen.views import (
    Evidence,
    find_sentence,
    full_state_view,
    ledger_view,
    plain_taken_as,
    sentence_spans,
    speaker_label,
)
from voice_host.screen.voice import (
    LockedClassifier,
    MicChanged,
    SaidWhen,
    SentenceStarted,
    Understood,
    VoiceFailed,
    VoiceReady,
)
from voice_host.screen.widgets import NightEntry
from voice_host.understanding.understand import Heard

NAMES = {"thwaite": "Abel Thwaite", "joel": "Joel Blamire"}
CARD_HOUSE = (
    "Read it before E1. The waits are the village carol singers; the plate is the house silver. The great "
    "hall has the front door to the porch, a garden door at the side, the main stair up to the bedroom "
    "corridor, the library, and the service door down to the back passage. Below stairs the back passage "
    "runs past the kitchen to the plate room at its far end; the back stair comes down into it from the "
    "bedroom corridor's end; the yard door is beside the kitchen."
)

SEATED = GameState(
    turn=3,
    round=2,
    phase=Phase.ROUNDS,
    questions_used=1,
    seats=("Ann", "Bob", "Cy"),
    next_seat=2,
    broken=("R1", "R4"),
    accusation=Accusation.NONE,
    exhibits_read=(1, 2, 3, 4, 5, 6, 7, 8),
    solo=False,
)


# --- the ledger -----------------------------------------------------------------------------------------


def test_ledger_view_shows_round_marks_next_seat_and_broken_labels() -> None:
    view = ledger_view(SEATED, "[L] t:3 | rd:2 | q:1/4 | seat:2/3 | broken:R1 R4 | acc:none | v1.0.0")
    assert (view.round, view.round_caption) == ("2", "Round 2")
    assert view.questions_left == 3
    assert view.marks == "●●●○"
    assert view.next_seat == "Bob"
    assert view.broken == "R1 R4"
    assert view.accusation == "none"
    assert view.ledger_line.startswith("[L] t:3 | rd:2")


def test_ledger_view_before_seating_and_in_the_accusation() -> None:
    seating = GameState(1, 0, Phase.SEATING, 0, (), None, (), Accusation.NONE, (), False)
    view = ledger_view(seating, "[L] t:1 | rd:0 | q:0/4 | seat:- | broken:none | acc:none | v1.0.0")
    assert (view.round, view.next_seat, view.broken, view.marks) == ("-", "-", "none", "●●●●")

    accusing = replace(
        SEATED,
        round=4,
        phase=Phase.ACCUSATION,
        questions_used=4,
        accusation=Accusation.READ,
        in_accusation=True,
    )
    view = ledger_view(accusing, "")
    assert (view.round, view.round_caption) == ("A", "Accusation")
    assert view.marks == "○○○○"
    assert view.accusation == "read back: say yes"
    assert ledger_view(replace(accusing, accusation=Accusation.LOCKED), "").accusation == "locked"


def test_full_state_lists_seats_with_who_asks_next() -> None:
    view = full_state_view(SEATED)
    assert view.seats == ("1 Ann", "2 Bob  ◀ asks next", "3 Cy")
    assert view.exhibits_read == "E1 E2 E3 E4 E5 E6 E7 E8"
    assert view.broken == "R1 R4"
    assert view.questions_left == "3 of 4"


# --- what is being said --------------------------------------------------------------------------------


def test_sentence_spans_split_at_sentence_ends_but_not_after_titles() -> None:
    text = "Mrs. Blamire lay dead at 10.35. The lane is shut! Who is at the table?"
    sentences = [text[start:end] for start, end in sentence_spans(text)]
    assert sentences == ["Mrs. Blamire lay dead at 10.35.", "The lane is shut!", "Who is at the table?"]


def test_find_sentence_matches_the_spoken_form_of_a_shown_sentence() -> None:
    text = "The butler found Mrs. Blamire. The lane is shut."

    def spoken(sentence: str) -> str:
        return sentence.replace("Mrs.", "Missus")

    assert find_sentence(text, "The lane is shut.") == (31, 48)
    assert find_sentence(text, "The butler found Missus Blamire.", spoken) == (0, 30)
    assert find_sentence(text, "Something never shown.") is None


def test_speaker_label_is_the_suspect_for_their_words_and_the_host_otherwise() -> None:
    line = ReplyPart(PartKind.SUSPECT, "I was in the pantry.", speaker="thwaite", speaker_name="Abel Thwaite")
    assert speaker_label(line) == "Abel Thwaite"
    assert speaker_label(ReplyPart(PartKind.EXHIBIT, "words", exhibit=1, title="A list")) == "Host"
    assert speaker_label(ReplyPart(PartKind.SYSTEM, "Question 2 of 4: Bob.")) == "Host"


# --- the evidence in -------------------------------------------------------------------------------------


def _opening(round_number: int, speaker: str) -> Reply:
    first = 4 * round_number - 3
    exhibits = tuple(ReplyPart(PartKind.EXHIBIT, f"text {n}", exhibit=n, title=f"title {n}") for n in range(first, first + 4))
    statement = ReplyPart(PartKind.STATEMENT, f"round {round_number}", speaker="x", speaker_name=speaker)
    return Reply((*exhibits, statement, ReplyPart(PartKind.LEDGER, "[L]")))


def test_evidence_gathers_exhibits_by_number_and_keeps_only_this_rounds_statements() -> None:
    evidence = Evidence()
    assert evidence.take(_opening(1, "Ada Quill"), replace(SEATED, round=1))
    assert evidence.take(_opening(2, "Bram Oakes"), SEATED)
    assert [view.heading for view in evidence.ordered(SEATED.exhibits_read)][:2] == [
        "E1  title 1",
        "E2  title 2",
    ]
    assert len(evidence.ordered(SEATED.exhibits_read)) == 8
    assert [statement.speaker for statement in evidence.statements] == ["Bram Oakes"]
    assert evidence.statements_round == 2
    # Round 1's statements read again on request in round 2 do not pass for round 2's.
    again = Reply((ReplyPart(PartKind.STATEMENT, "round 1", speaker="x", speaker_name="Ada Quill"),))
    evidence.take(again, SEATED)
    assert [statement.speaker for statement in evidence.statements] == ["Bram Oakes"]
    # A reply with nothing new changes nothing.
    assert not evidence.take(Reply((ReplyPart(PartKind.LEDGER, "[L]"),)), SEATED)


# --- the house -------------------------------------------------------------------------------------------


def test_house_plan_is_drawn_when_the_house_text_names_every_place() -> None:
    plan, drawn = house_plan(CARD_HOUSE)
    assert drawn
    assert plan == HOLLIN_FOLD_PLAN
    for room in ("GREAT HALL", "LIBRARY", "BEDROOM CORRIDOR", "BACK PASSAGE", "KITCHEN", "PLATE ROOM"):
        assert room in plan
    for way in (
        "front door",
        "porch",
        "garden door",
        "main stair",
        "service door",
        "back stair",
        "yard door",
    ):
        assert way in plan


def test_house_plan_falls_back_to_the_cases_own_words() -> None:
    text = "The fair runs along the ice from the bridge to the tent; the booths stand on the bank."
    plan, drawn = house_plan(text, width=30)
    assert not drawn
    assert " ".join(plan.split()) == text
    assert max(len(line) for line in plan.splitlines()) <= 30


# --- Pilot: a short game typed into the app ---------------------------------------------------------------

FROST_FAIR = Path(__file__).parent / "cases" / "frost-fair"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def frost_fair_app(journal: Journal | None = None, resuming: Night | None = None) -> TableApp:
    return TableApp(TableDriver(Game(read_case_dir(FROST_FAIR)), journal, resuming))


def voiced_frost_fair_app(voice: FakeVoice, mic: MicStatus = MicStatus.LISTENING) -> TableApp:
    """Frost Fair's table screen with a stand-in voice side, its microphone panel showing `mic`."""
    return TableApp(TableDriver(Game(read_case_dir(FROST_FAIR))), voice=voice, mic=MicLevel(mic))


def shown(app: TableApp, selector: str) -> str:
    """The plain text a Static shows."""
    content = app.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def type_line(pilot: Pilot[int], text: str) -> None:
    """Type a line into the input and press Enter, as the table would."""
    pilot.app.query_one("#typed", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


def assert_ledger_is_the_engines(app: TableApp) -> None:
    state = app.driver.state
    assert shown(app, "#ledger-next") == (state.next_seat_name or "-")
    assert shown(app, "#ledger-questions").endswith(f"{state.questions_left} of 4")
    assert shown(app, "#ledger-broken") == (" ".join(state.broken) or "none")
    assert app.current is not None
    ledgers = [part.text for part in app.current.reply.parts if part.kind is PartKind.LEDGER]
    assert [shown(app, "#ledger-line")] == ledgers


def night_text(app: TableApp) -> str:
    assert app.current is not None
    return "\n".join(view.part.render() for view in app.current.parts.values())


@pytest.mark.anyio
async def test_a_short_typed_game_keeps_the_ledger_in_step_with_the_engine() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert shown(app, "#ledger-round") == "Seating"
        assert shown(app, "#ledger-line") == "[L] t:1 | rd:0 | q:0/4 | seat:- | broken:none | acc:none | v0.1.0"
        assert_ledger_is_the_engines(app)

        # Seat names: round 1 opens with FULL STATE as a panel, its exhibits and statements in the evidence.
        await type_line(pilot, "Ann, Bob")
        assert shown(app, "#ledger-round") == "Round 1"
        assert app.query_one("#round-digits", Digits).value == "1"
        assert shown(app, "#ledger-next") == "Ann"
        assert shown(app, "#ledger-questions") == "●●●●  4 of 4"
        assert app.full_state.has_class("-shown")
        assert app.full_state.view is not None and app.full_state.view.seats == ("1 Ann  ◀ asks next", "2 Bob")
        listing = app.query_one("#exhibit-list", OptionList)
        assert [listing.get_option_at_index(i).id for i in range(listing.option_count)] == ["E1", "E2", "E3", "E4"]
        assert len(app.query("#statements .statement")) == 3
        assert_ledger_is_the_engines(app)

        # A question: one mark spent, the next seat asks; the heard line says what it was taken as.
        await type_line(pilot, "Ada, where were you at nine?")
        assert shown(app, "#ledger-next") == "Bob"
        assert shown(app, "#ledger-questions") == "●●●○  3 of 4"
        assert shown(app, "#heard").endswith("taken as: question to Ada Quill")
        assert not app.full_state.has_class("-shown")
        assert 'Ada Quill: "' in night_text(app)
        assert_ledger_is_the_engines(app)

        # A confrontation with the exhibit in the lie's CATCH breaks it: its label shows.
        await type_line(pilot, "Confront Ada with E3")
        assert shown(app, "#ledger-broken") == "R1"
        assert shown(app, "#ledger-questions") == "●●○○  2 of 4"
        assert "Ada breaks." in night_text(app)
        assert_ledger_is_the_engines(app)

        # next with questions left asks first; yes opens round 2.
        await type_line(pilot, "next")
        assert shown(app, "#ledger-round") == "Round 1"
        await type_line(pilot, "yes")
        assert shown(app, "#ledger-round") == "Round 2"
        assert shown(app, "#ledger-questions") == "●●●●  4 of 4"
        assert listing.option_count == 8
        assert shown(app, "#exhibit-text").startswith("E5  ")  # the new round's first exhibit is shown
        assert_ledger_is_the_engines(app)

        # The save key prints the SAVE block the engine made, into the night.
        await pilot.press("f5")
        await pilot.pause()
        assert app.current is not None
        saves = [part for part in app.current.reply.parts if part.kind is PartKind.SAVE]
        assert len(saves) == 1 and "table:Ann,Bob" in saves[0].text
        assert saves[0].text in night_text(app)
        assert_ledger_is_the_engines(app)


@pytest.mark.anyio
async def test_the_accusation_is_read_back_then_locked_and_the_result_shown() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for line in ("Ann, Bob", *["next", "yes"] * 4):
            await type_line(pilot, line)
        assert shown(app, "#ledger-round") == "Accusation"
        assert app.query_one("#round-digits", Digits).value == "A"
        assert shown(app, "#ledger-acc") == "none"
        await type_line(pilot, "We accuse Bram: E5, E7, E6, E13, E14")
        assert shown(app, "#heard").endswith("taken as: accusation of Bram Oakes with E5, E7, E6, E13, E14")
        assert shown(app, "#ledger-acc") == "read back: say yes"
        assert_ledger_is_the_engines(app)
        await type_line(pilot, "yes")
        assert shown(app, "#ledger-acc") == "locked"
        assert shown(app, "#ledger-round") == "Night over"
        assert shown(app, "#result-line").startswith("RESULT: AIGC|frost-fair-test|frost-fair|v0.1.0|end:solved")
        assert "Correct." in night_text(app)
        assert_ledger_is_the_engines(app)


@pytest.mark.anyio
async def test_keys_typed_one_by_one_reach_the_game() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press(*"Ann", "enter")
        await pilot.pause()
        assert app.driver.state.seats == ("Ann",)
        assert shown(app, "#ledger-next") == "Ann"
        assert app.query_one("#typed", Input).value == ""


@pytest.mark.anyio
async def test_selecting_an_exhibit_shows_its_words() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann")
        listing = app.query_one("#exhibit-list", OptionList)
        listing.highlighted = 2
        await pilot.pause()
        words = shown(app, "#exhibit-text")
        assert words.startswith("E3  A torn ticket")
        assert "stamped 8.50" in words


@pytest.mark.anyio
async def test_reading_an_exhibit_again_shows_it_in_the_evidence() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann")
        assert shown(app, "#exhibit-text").startswith("E1  ")
        await type_line(pilot, "read E3")
        assert shown(app, "#exhibit-text").startswith("E3  A torn ticket")
        await type_line(pilot, "read E2")
        assert shown(app, "#exhibit-text").startswith("E2  ")
        assert app.query_one("#exhibit-list", OptionList).highlighted == 1


@pytest.mark.anyio
async def test_the_house_panel_shows_the_cases_own_words_when_no_plan_fits() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert " ".join(shown(app, "#house").split()) == app.driver.house_text


@pytest.mark.anyio
async def test_the_full_state_key_toggles_the_panel() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")
        assert app.full_state.has_class("-shown")
        await pilot.press("f6")
        assert not app.full_state.has_class("-shown")
        await pilot.press("f6")
        assert app.full_state.has_class("-shown")


@pytest.mark.anyio
async def test_compact_layout_keeps_evidence_and_house_a_key_away() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        side, night = app.query_one("#side"), app.query_one("#night")
        assert app.screen.has_class("-narrow")
        assert not side.display or side.region.width == 0
        await pilot.press("f7")
        await pilot.pause()
        assert side.region.width > 0 and night.region.width == 0
        await pilot.press("f8")
        await pilot.pause()
        assert app.query_one("#house-box").region.height > 0
        assert app.query_one("#evidence-box").region.height == 0
        await pilot.press("f8")
        await pilot.pause()
        assert night.region.width > 0


@pytest.mark.anyio
async def test_resume_rebuilds_the_night_and_shows_full_state(tmp_path: Path) -> None:
    folder = StateFolder.open(tmp_path)
    app = frost_fair_app(folder.journal("frost-fair"))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        for line in ("Ann, Bob", "Ada, where were you at nine?", "Confront Ada with E3"):
            await type_line(pilot, line)
        before = app.driver.state

    night = folder.latest_unfinished()
    assert night is not None
    resumed = frost_fair_app(folder.journal("frost-fair", night), night)
    async with resumed.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert resumed.driver.state == before
        assert shown(resumed, "#ledger-broken") == "R1"
        assert shown(resumed, "#ledger-next") == "Ann"
        assert resumed.full_state.has_class("-shown")
        assert len(resumed.query(NightEntry)) == 5  # the opening, three exchanges, and the resumed line
        assert night_text(resumed) == "The night is resumed where it stopped."
        assert resumed.query_one("#exhibit-list", OptionList).option_count == 4
        assert_ledger_is_the_engines(resumed)


class FakeVoice:
    def __init__(self) -> None:
        self.said: list[Reply] = []
        self.stops = 0
        self.muted = False
        self.closed = False
        self.talk: HostTalk | None = None  # the Host's latest talk, as the listener knows it

    def say(self, reply: Reply) -> None:
        self.said.append(reply)

    def stop(self) -> None:
        self.stops += 1

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        return self.muted

    def host_talk(self) -> HostTalk | None:
        return self.talk

    def close(self) -> None:
        self.closed = True


@pytest.mark.anyio
async def test_voice_says_each_reply_and_the_keys_stop_mute_and_repeat() -> None:
    voice = FakeVoice()
    app = voiced_frost_fair_app(voice)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert len(voice.said) == 1  # the opening
        await type_line(pilot, "Ann, Bob")
        assert app.current is not None and voice.said[-1] is app.current.reply
        stops = voice.stops
        await pilot.press("escape")
        assert voice.stops == stops + 1
        await pilot.press("f2")
        assert voice.muted
        await pilot.press("f3")
        await pilot.pause()
        assert voice.said[-1] == voice.said[-2]
        assert app.current is not None and app.current.said == "(the last reply again)"
    assert voice.closed


@pytest.mark.anyio
async def test_the_sentence_being_spoken_is_highlighted_and_marked() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert app.current is not None
        view = app.current.parts[0]
        text = view.part.text
        app.show_speaking(0, "The frost fair on the river, a cold night.")
        await pilot.pause()
        assert view.speaking == (0, len("The frost fair on the river, a cold night."))
        assert view.render_part().plain.startswith("▶ HOST")
        assert text.startswith("The frost fair")
        app.show_speaking(None)
        assert view.speaking is None
        assert not view.render_part().plain.startswith("▶")


@pytest.mark.anyio
async def test_mic_panel_shows_status_in_words_and_a_level() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert shown(app, "#mic-status") == "⌨ VOICE OFF"  # typed play chosen, not a missing microphone
        assert shown(app, "#mic-detail") == "Typed play: type each message below."
        app.show_mic(MicLevel(MicStatus.HEARING, level=0.5))
        assert shown(app, "#mic-status") == "◉ HEARING ▮▮▮▮▮▯▯▯▯▯"
        app.show_mic(MicLevel(MicStatus.MUTED))
        assert shown(app, "#mic-status") == "✕ MUTED"


@pytest.mark.anyio
async def test_a_doubtful_heard_question_is_confirmed_before_anything_is_spent() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")
        game = app.driver.game
        text = "Ada, where were you at nine?"
        doubtful = Heard(text, text, (), 0.3, game.preview(text), needs_confirmation=True)
        app.take_heard(doubtful)
        await pilot.pause()
        assert shown(app, "#ledger-questions") == "●●●●  4 of 4"
        assert shown(app, "#heard").startswith("Heard: “Ada, where were you at nine?”")
        assert "Say yes or no." in night_text(app)
        app.take_heard(Heard("yes", "yes", (), 0.9, game.preview("yes"), needs_confirmation=False))
        await pilot.pause()
        assert shown(app, "#ledger-questions") == "●●●○  3 of 4"
        assert_ledger_is_the_engines(app)


class FakeVoiceIO(FakeVoice):
    """What open_voice hands back, without sound devices."""

    def __init__(self, listener: object | None, problems: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.listener = listener
        self.problems = problems


@pytest.mark.anyio
async def test_the_voice_side_loads_in_a_worker_and_reports_through_messages() -> None:
    io = FakeVoiceIO(listener=object())
    game = Game(read_case_dir(FROST_FAIR))
    driver = TableDriver(game)
    classifier = LockedClassifier(game, driver.lock)
    text = "Ada, where were you at nine?"

    seated = threading.Event()

    def load(post: Callable[[Message], object]) -> None:
        assert seated.wait(timeout=30)  # the models "load" until the table has typed its names
        post(VoiceReady(io))  # type: ignore[arg-type]  # the fake stands in for VoiceIO
        post(MicChanged(MicLevel(MicStatus.LISTENING)))
        post(Understood(Heard(text, text, (), 0.95, classifier.preview(text), needs_confirmation=False)))

    app = TableApp(driver, mic=LOADING, load_voice=load)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")  # typed meanwhile: the game goes on while models load
        seated.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.voice is io
        assert shown(app, "#mic-status") == "● LISTENING"
        assert shown(app, "#heard").startswith(f"Heard: “{text}”")
        assert shown(app, "#ledger-questions") == "●●●○  3 of 4"
        assert io.said and io.said[-1] is app.current.reply  # type: ignore[union-attr]

        # The speaker starting a sentence highlights it; the mic leaving SPEAKING clears it.
        app.post_message(SentenceStarted(app.current.reply, 0, "By the fire, eating chestnuts."))  # type: ignore[union-attr]
        await pilot.pause()
        assert app.current is not None and app.current.parts[0].speaking is not None
        app.post_message(MicChanged(MicLevel(MicStatus.LISTENING, detail="")))
        await pilot.pause()
        assert app.current.parts[0].speaking is None


@pytest.mark.anyio
async def test_when_the_voice_side_fails_the_screen_says_so_and_typing_goes_on() -> None:
    def load(post: Callable[[Message], object]) -> None:
        post(VoiceFailed("No microphone found: type your questions instead."))

    app = TableApp(TableDriver(Game(read_case_dir(FROST_FAIR))), mic=LOADING, load_voice=load)
    async with app.run_test(size=(80, 24)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert shown(app, "#mic-status") == "⚠ NO MICROPHONE"
        assert shown(app, "#mic-detail").startswith("No microphone found")
        assert app.voice is None
        await type_line(pilot, "Ann")
        assert shown(app, "#ledger-next") == "Ann"


@pytest.mark.anyio
async def test_speech_that_cannot_be_used_is_shown_as_such_and_spends_nothing() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")
        turn = app.driver.state.turn
        app.take_heard(Heard("uh the", "", (), 0.1, None, needs_confirmation=False, rejected="empty"))
        await pilot.pause()
        assert shown(app, "#heard") == "Heard: “uh the”  →  taken as: nothing usable: say it again, or type it"
        assert app.driver.state.turn == turn


@pytest.mark.anyio
async def test_the_evidence_key_goes_to_the_exhibits_and_enter_comes_back_to_typing() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")
        await pilot.press("f7")
        await pilot.pause()
        listing = app.query_one("#exhibit-list", OptionList)
        assert listing.has_focus and app.screen.has_class("-show-evidence")
        assert shown(app, "#exhibit-text").startswith("E1  ")  # the round's first exhibit, as it came in
        await pilot.press("down", "down")
        await pilot.pause()
        assert shown(app, "#exhibit-text").startswith("E3  A torn ticket")
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one("#typed", Input).has_focus
        assert not app.screen.has_class("-show-evidence")


def test_plain_taken_as_names_seat_names_and_words_to_the_host() -> None:
    seating = GameState(1, 0, Phase.SEATING, 0, (), None, (), Accusation.NONE, (), False)
    assert plain_taken_as("other", seating) == "seat names"
    assert plain_taken_as("other", SEATED) == "a word to the Host"
    assert plain_taken_as("question to Abel Thwaite", SEATED) == "question to Abel Thwaite"


@pytest.mark.anyio
async def test_spoken_seat_names_are_shown_as_seat_names() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        game = app.driver.game
        app.take_heard(Heard("Ann, Bob.", "Ann, Bob", (), 0.9, game.preview("Ann, Bob"), needs_confirmation=False))
        await pilot.pause()
        assert app.driver.state.seats == ("Ann", "Bob")
        assert shown(app, "#heard") == "Heard: “Ann, Bob”  →  taken as: seat names"


@pytest.mark.anyio
async def test_the_bundled_case_draws_the_plan_of_hollin_fold() -> None:
    app = TableApp(TableDriver(Game(load_bundled_case())))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert shown(app, "#house") == HOLLIN_FOLD_PLAN


def test_big_text_draws_three_rows_or_gives_way_to_plain_text() -> None:
    assert big_text("Ann", 20) == "▄▀▄ █▀▄ █▀▄\n█▀█ █ █ █ █\n▀ ▀ ▀ ▀ ▀ ▀"
    assert big_text("Zoë", 20) is None  # a letter the font lacks
    assert big_text("Christopher", 23) is None  # too wide for the cell
    assert big_text("", 23) is None


@pytest.mark.anyio
async def test_a_short_name_asks_next_in_big_letters_a_long_one_in_a_block() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Christopher")
        assert shown(app, "#next-big") == big_text("Ann", 23)
        assert app.query_one("#next-big").display and not app.query_one("#ledger-next").display
        await type_line(pilot, "Ada, where were you at nine?")
        assert shown(app, "#ledger-next") == "Christopher"
        assert app.query_one("#ledger-next").display and not app.query_one("#next-big").display


@pytest.mark.anyio
async def test_a_voice_side_that_opens_after_the_screen_closed_is_told_so() -> None:
    release, finished = threading.Event(), threading.Event()
    answers: list[object] = []

    def load(post: Callable[[Message], object]) -> None:
        assert release.wait(timeout=30)  # the models are still loading when the table quits
        answers.append(post(MicChanged(MicLevel(MicStatus.LISTENING))))
        finished.set()

    app = TableApp(TableDriver(Game(read_case_dir(FROST_FAIR))), mic=LOADING, load_voice=load)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    release.set()
    assert await asyncio.get_running_loop().run_in_executor(None, finished.wait, 30)
    assert answers == [False]


@pytest.mark.anyio
async def test_f9_switches_between_a_dark_and_a_light_theme() -> None:
    app = frost_fair_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        dark = app.current_theme.dark
        await pilot.press("f9")
        assert app.current_theme.dark is not dark
        await pilot.press("f9")
        assert app.current_theme.dark is dark


@asynccontextmanager
async def seated_while_the_host_speaks() -> AsyncIterator[tuple[TableApp, Pilot[int], FakeVoice]]:
    """Frost Fair seated for Ann and Bob, its stand-in voice speaking: for words said over the Host."""
    voice = FakeVoice()
    app = voiced_frost_fair_app(voice, MicStatus.SPEAKING)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await type_line(pilot, "Ann, Bob")
        yield app, pilot, voice


@pytest.mark.anyio
async def test_words_said_over_the_host_silence_restart_wait_or_are_dropped() -> None:
    async with seated_while_the_host_speaks() as (app, pilot, voice):
        game = app.driver.game
        talking = HostTalk(started_at=10.0)
        over = SaidWhen(began_at=11.0, ended_at=11.5, host=talking)

        def heard(text: str) -> Heard:
            return Heard(text, text, (), 0.95, game.preview(text), needs_confirmation=False)

        # "stop" over the Host only silences it: it is not give up.
        before, stops = app.driver.state, voice.stops
        app.take_heard(heard("stop"), over)
        assert voice.stops == stops + 1 and app.driver.state == before
        # "say that again": the current reply from its start.
        said = len(voice.said)
        app.take_heard(heard("say that again"), over)
        await pilot.pause()
        assert len(voice.said) == said + 1 and voice.said[-1] == voice.said[-2]
        # A question over narration the table typed for: kept, and answered once the Host stops.
        question = "Ada, where were you at nine?"
        app.take_heard(heard(question), over)
        assert shown(app, "#ledger-questions") == "●●●●  4 of 4"
        app.post_message(MicChanged(MicLevel(MicStatus.LISTENING)))
        await pilot.pause()
        assert shown(app, "#ledger-questions") == "●●●○  3 of 4"
        # The Host now answers a spoken question: another one over that answer is dropped with a word.
        said = len(voice.said)
        app.take_heard(heard(question), over)
        await pilot.pause()
        assert shown(app, "#ledger-questions") == "●●●○  3 of 4"
        assert voice.said[-1].parts[0].text == ONE_AT_A_TIME and len(voice.said) == said + 1
        app.post_message(MicChanged(MicLevel(MicStatus.LISTENING)))
        await pilot.pause()
        assert shown(app, "#ledger-questions") == "●●●○  3 of 4"  # nothing was kept to answer
        # "next" acts at once as the card's next.
        app.take_heard(heard("next"), over)
        await pilot.pause()
        assert "unused" in night_text(app)
        # Words said after the Host stopped are handled as always ("stop" there is give up, which asks first).
        after = SaidWhen(began_at=30.0, ended_at=30.5, host=HostTalk(started_at=10.0, stopped_at=20.0))
        stops = voice.stops
        app.take_heard(heard("no"), after)
        await pilot.pause()
        assert voice.stops == stops + 1  # usable input interrupts the Host as before


@pytest.mark.anyio
async def test_a_stop_understood_after_the_host_has_begun_another_talk_leaves_it_talking() -> None:
    async with seated_while_the_host_speaks() as (app, pilot, voice):
        game = app.driver.game
        # "Wait, wait." over an exhibit: the short path stopped it, and the next exhibit asked for began before the
        # whole utterance was understood.
        over_the_first = SaidWhen(began_at=11.0, ended_at=12.0, host=HostTalk(started_at=10.0, stopped_at=11.3))
        voice.talk = HostTalk(started_at=13.5)
        stops = voice.stops
        for words in ("wait, wait", "say that again"):
            app.take_heard(Heard(words, words, (), 0.95, game.preview(words), needs_confirmation=False), over_the_first)
            await pilot.pause()
        assert voice.stops == stops  # the next exhibit is read on
        assert shown(app, "#heard").endswith("the Host had already stopped.")
        voice.talk = over_the_first.host  # no other talk since: it silences as ever
        app.take_heard(Heard("wait", "wait", (), 0.95, game.preview("wait"), needs_confirmation=False), over_the_first)
        assert voice.stops == stops + 1


@pytest.mark.anyio
async def test_words_said_as_the_table_silences_the_host_are_taken_as_always() -> None:
    async with seated_while_the_host_speaks() as (app, pilot, voice):
        game = app.driver.game
        over = SaidWhen(began_at=11.0, ended_at=11.5, host=HostTalk(started_at=10.0))

        def heard(text: str) -> Heard:
            return Heard(text, text, (), 0.95, game.preview(text), needs_confirmation=False)

        app.take_heard(heard("Ada, where were you at nine?"))  # the Host answers a spoken question
        await pilot.pause()
        app.take_short_word(short_heard(ShortWord.STOP))  # "Stop, ..."
        said = len(voice.said)
        app.take_heard(heard("please"), over)  # "... please.", begun before the Host fell silent
        await pilot.pause()
        assert len(voice.said) == said  # not "One at a time": the Host was asked to be quiet, and is
        app.take_heard(heard("Ada, where were you at ten?"), over)  # a question as it fell silent: answered now
        await pilot.pause()
        assert shown(app, "#ledger-questions") == "●●○○  2 of 4"
        # Once the Host talks again, a question over its answer is dropped with a word, as before.
        app.take_heard(heard("Ada, what did you see?"), over)
        await pilot.pause()
        assert voice.said[-1].parts[0].text == ONE_AT_A_TIME


@pytest.mark.anyio
async def test_words_that_finish_what_the_host_is_answering_are_neither_taken_again_nor_dropped() -> None:
    async with seated_while_the_host_speaks() as (app, pilot, voice):
        game = app.driver.game

        def heard(text: str) -> Heard:
            return Heard(text, text, (), 0.95, game.preview(text), needs_confirmation=False)

        def soon_after_the_host_began() -> SaidWhen:
            return SaidWhen(began_at=10.4, ended_at=11.0, host=HostTalk(started_at=10.0))

        # "Read exhibit four ... again, please.": the Host reads E4 at the pause; the rest neither restarts it...
        app.take_heard(heard("Read E4"))
        await pilot.pause()
        said = len(voice.said)
        app.take_heard(heard("again, please."), soon_after_the_host_began())
        await pilot.pause()
        assert len(voice.said) == said
        assert shown(app, "#heard") == "Heard: 'again, please.': the rest of 'Read E4', already answered."
        # ... and "Next ... round, please." moves on one round, not two ("round, please." alone is the card's next).
        app.take_heard(heard("next"))
        await pilot.pause()
        said, state = len(voice.said), app.driver.state
        # Whisper's words count too, though repair made a name of them.
        repaired = Heard(
            "Round, please.", "Ruddock, please.", (), 0.8, game.preview("Ruddock, please."), needs_confirmation=False
        )
        app.take_heard(repaired, soon_after_the_host_began())
        await pilot.pause()
        assert len(voice.said) == said and app.driver.state == state


def short_heard(word: ShortWord) -> ShortHeard:
    best = {kind: (-0.5 if kind is word else -5.0) for kind in ShortWord}
    scores = ShortWordScores(best, {kind: kind.value.title() + "." for kind in ShortWord}, seconds=0.05, audio_seconds=0.6)
    return ShortHeard(word, scores, began_at=11.0, ended_at=11.4, asked_at=11.5, decided_at=11.55, host=HostTalk(10.0))


@pytest.mark.anyio
async def test_short_words_over_the_host_stop_restart_or_move_the_game_on() -> None:
    async with seated_while_the_host_speaks() as (app, pilot, voice):
        # "stop": silent, and nothing goes to the game.
        before, stops = app.driver.state, voice.stops
        app.take_short_word(short_heard(ShortWord.STOP))
        assert voice.stops == stops + 1 and app.driver.state == before
        # "say that again": the current reply from its start.
        said = len(voice.said)
        app.take_short_word(short_heard(ShortWord.REPEAT))
        await pilot.pause()
        assert len(voice.said) == said + 1 and voice.said[-1] == voice.said[-2]
        # "next": the card's next, at once.
        assert "unused" not in night_text(app)
        app.take_short_word(short_heard(ShortWord.NEXT))
        await pilot.pause()
        assert "unused" in night_text(app)
