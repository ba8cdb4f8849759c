"""The HostSession: typed text straight to the engine; doubtful costly speech confirmed first."""

from __future__ import annotations

import pytest

from engine.case import Case
from engine.game import Game
from engine.replies import Reply
from voice_host.loop.session import HostSession
from voice_host.understanding.host_requests import is_repeat_request
from voice_host.understanding.understand import Heard, Understander


@pytest.fixture
def session(case: Case, game: Game) -> HostSession:
    return HostSession(game, {s.key: s.name for s in case.suspects})


def hear(understander: Understander, session: HostSession, text: str, recognition: float = 0.95) -> Heard:
    return understander.understand(text, session.game, recognition=recognition, seats=session.state.seats)


def test_typed_text_goes_straight_to_the_engine(session: HostSession) -> None:
    turn = session.state.turn
    out = session.typed("Thwaite, where were you at ten?")
    assert out.reply is not None
    assert out.heard is None
    assert session.state.turn == turn + 1
    assert session.state.questions_used == 1


def test_a_doubtful_confrontation_is_confirmed_free_then_sent_on_yes(session: HostSession, understander: Understander) -> None:
    turn, used = session.state.turn, session.state.questions_used
    out = session.heard(hear(understander, session, "Confront weight with E three."))
    assert out.reply is None
    assert out.host_line == "I heard: Confront Abel Thwaite with exhibit 3. Say yes or no."
    assert out.heard is not None and out.heard.needs_confirmation
    assert out.heard.taken_as == "confrontation of Abel Thwaite with E3"
    assert (session.state.turn, session.state.questions_used) == (turn, used)  # free: no engine call
    assert session.pending is not None

    out = session.heard(hear(understander, session, "Yes."))
    assert out.reply is not None
    assert session.pending is None
    assert session.state.questions_used == used + 1


def test_no_drops_the_guess_without_spending(session: HostSession, understander: Understander) -> None:
    used = session.state.questions_used
    session.heard(hear(understander, session, "Ask killed where he was."))
    assert session.pending is not None
    out = session.heard(hear(understander, session, "No."))
    assert out.reply is None and out.host_line
    assert session.pending is None
    assert session.state.questions_used == used


def test_something_else_replaces_a_pending_guess(session: HostSession, understander: Understander) -> None:
    session.heard(hear(understander, session, "Ask killed where he was."))
    out = session.heard(hear(understander, session, "Keld, where were you at ten?"))
    assert out.reply is not None
    assert session.pending is None
    assert session.state.questions_used == 1
    assert out.heard is not None and out.heard.taken_as == "question to Francis Keld"


def test_a_clear_question_is_sent_at_once(session: HostSession, understander: Understander) -> None:
    out = session.heard(hear(understander, session, "Keld, where were you at ten?"))
    assert out.reply is not None
    assert out.heard is not None
    assert out.heard.transcript == "Keld, where were you at ten?"
    assert out.heard.text == "Keld, where were you at 10?"
    assert not out.heard.needs_confirmation
    assert session.state.questions_used == 1


def test_repeat_replays_the_last_spoken_reply_without_the_engine(session: HostSession, understander: Understander) -> None:
    first = session.heard(hear(understander, session, "Keld, where were you at ten?"))
    turn = session.state.turn
    again = session.heard(hear(understander, session, "Say that again."))
    assert again.replay
    assert isinstance(again.reply, Reply)
    assert again.reply == first.reply
    assert again.spoken_text == first.spoken_text
    assert session.state.turn == turn


def test_repeat_before_anything_was_said(session: HostSession, understander: Understander) -> None:
    out = session.heard(hear(understander, session, "repeat"))
    assert out.reply is None and out.host_line


@pytest.mark.parametrize(
    "text",
    ["repeat", "Repeat that, please.", "say that again", "Pardon?", "Come again?", "Host, say that again.", "Ok, what was that?"],
)
def test_repeat_requests(text: str) -> None:
    assert is_repeat_request(text)


@pytest.mark.parametrize("text", ["repeat your statement, Keld", "Keld, say that again?", "again"])
def test_not_every_again_is_a_repeat(text: str) -> None:
    assert is_repeat_request(text) == (text == "again")


def test_a_repeat_said_with_a_reason_around_it_replays(session: HostSession, understander: Understander) -> None:
    first = session.heard(hear(understander, session, "Thwaite, where were you at ten?"))
    again = session.heard(hear(understander, session, "Grandma didn't hear, say it again."))
    assert again.replay and again.spoken_text == first.spoken_text


def test_a_repeat_put_to_a_suspect_is_not_the_hosts(session: HostSession, understander: Understander) -> None:
    heard = hear(understander, session, "Keld, say that again?")
    assert not is_repeat_request(heard.text, heard.message)


def test_unusable_speech_does_nothing(session: HostSession, understander: Understander) -> None:
    turn = session.state.turn
    out = session.heard(understander.understand("", session.game))
    assert out.reply is None and out.host_line is None and out.heard is None
    assert session.state.turn == turn


def test_an_unsure_yes_that_ends_the_night_is_confirmed(session: HostSession, understander: Understander) -> None:
    out = session.heard(hear(understander, session, "Give up."))
    assert out.reply is not None  # the engine asks "End the night and hear the answer?" (free)
    unsure_yes = hear(understander, session, "Yes.", recognition=0.4)
    assert unsure_yes.message is not None and unsure_yes.message.costly
    out = session.heard(unsure_yes)
    assert out.host_line == "I heard: yes. Say yes or no."
    assert not session.state.over
    out = session.heard(hear(understander, session, "Yes."))
    assert out.reply is not None
    assert session.state.over
