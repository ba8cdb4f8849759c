"""End of turn: the pure decision, and the text signal on the engine's own classifier (no audio)."""

from __future__ import annotations

import pytest

from engine.case import Case
from engine.game import Game
from tests.scripted_recognizer import seated_game
from voice_host.ears.turn import EndOfTurn, TurnText
from voice_host.understanding.complete import (
    ends_on_setting,
    heard_complete,
    heard_turn,
    may_go_on,
    message_complete,
    trails_off,
)
from voice_host.understanding.understand import Understander

TURN = EndOfTurn(complete_seconds=0.2, hold_seconds=0.5, question_seconds=0.4, doubt_seconds=0.6)


def test_a_complete_message_ends_the_turn_after_the_short_pause() -> None:
    assert not TURN.ended(0.1, text=TurnText.WHOLE)
    assert TURN.ended(0.2, text=TurnText.WHOLE)
    assert TURN.ended(0.2, text=TurnText.WHOLE, audio_complete=True)


def test_an_unfinished_or_unknown_text_never_ends_the_turn_early() -> None:
    for silence in (0.2, 0.6, 5.0):
        assert not TURN.ended(silence, text=TurnText.UNFINISHED)
        assert not TURN.ended(silence, text=None)
        assert not TURN.ended(silence, text=TurnText.UNFINISHED, audio_complete=True)


def test_a_voice_that_sounds_unfinished_makes_a_complete_text_wait_longer() -> None:
    assert not TURN.ended(0.3, text=TurnText.WHOLE, audio_complete=False)
    assert TURN.ended(0.6, text=TurnText.WHOLE, audio_complete=False)


def test_a_whole_text_that_may_go_on_waits_the_hold() -> None:
    assert TURN.wait_seconds(TurnText.WHOLE) == 0.2
    assert TURN.wait_seconds(TurnText.MAY_GO_ON) == 0.5
    assert TURN.wait_seconds(TurnText.QUESTION) == 0.4
    assert not TURN.ended(0.35, text=TurnText.QUESTION) and TURN.ended(0.4, text=TurnText.QUESTION)
    assert not TURN.ended(0.3, text=TurnText.MAY_GO_ON)
    assert TURN.ended(0.5, text=TurnText.MAY_GO_ON)


def test_a_lone_stop_word_over_the_host_ends_the_turn_at_once_and_is_held_otherwise() -> None:
    assert TURN.wait_seconds(TurnText.STOP_WORDS, over_host=True) == 0.0
    assert TURN.ended(0.1, text=TurnText.STOP_WORDS, over_host=True)
    assert TURN.ended(0.1, text=TurnText.STOP_WORDS, audio_complete=False, over_host=True)  # no doubt over the Host
    # To a silent Host "Wait." may be "Thwaite," before its question: held like any word that may go on.
    assert TURN.wait_seconds(TurnText.STOP_WORDS) == TURN.wait_seconds(TurnText.MAY_GO_ON) == 0.5
    assert not TURN.ended(0.3, text=TurnText.STOP_WORDS)
    # Over the Host the other grades wait as always.
    assert TURN.wait_seconds(TurnText.MAY_GO_ON, over_host=True) == 0.5
    assert TURN.wait_seconds(TurnText.UNFINISHED, over_host=True) is None
    assert TURN.ended(0.2, text=TurnText.WHOLE)
    # the longer of the two waits when the voice too sounds unfinished
    assert TURN.wait_seconds(TurnText.MAY_GO_ON, audio_complete=False) == 0.6


def test_an_unfinished_text_waits_for_the_ceiling_whatever_its_form() -> None:
    for text in (TurnText.UNFINISHED, None):
        assert TURN.wait_seconds(text) is None
        assert not TURN.ended(5.0, text=text)


def test_settings_out_of_order_are_refused() -> None:
    with pytest.raises(ValueError):
        EndOfTurn(complete_seconds=0.7, doubt_seconds=0.6)
    with pytest.raises(ValueError):
        EndOfTurn(complete_seconds=0.3, hold_seconds=0.25)
    with pytest.raises(ValueError):
        EndOfTurn(complete_seconds=0.3, question_seconds=0.25)


@pytest.fixture(scope="module")
def game(case: Case) -> Game:
    """One seated game for the module: judging a turn only reads it."""
    return seated_game(case)


@pytest.mark.parametrize(
    "said",
    [
        "Next.",
        "Thwaite, where were you at ten?",
        "Confront Keld with E7.",
        "Read E4.",
        "Answers Keld.",
        "Save.",
        "Keld did it.",
        "Abel, where were you?",
        "Francis, your shoes were wet when we came in.",
        "Ask Abel Thwaite where did you find her.",
    ],
)
def test_whole_card_messages_are_complete(game: Game, said: str) -> None:
    assert message_complete(said, game.preview(said))


@pytest.mark.parametrize(
    "said",
    [
        "Abel,",
        "Abel...",
        "Abel",  # a name alone waits for its question
        "Ask Abel",
        "Confront Keld with",
        "Confront Keld",
        "Read E",
        "Abel, where were you at",
        "Thwaite, where were you and",
        "Ask Abel where",
        "I think it was the",
    ],
)
def test_half_messages_are_not_complete(game: Game, said: str) -> None:
    assert not message_complete(said, game.preview(said))


def test_a_command_whisper_wrote_with_a_comma_is_still_complete(game: Game) -> None:
    assert message_complete("Next,", game.preview("next"))
    assert message_complete("Confront Keld with E7,", game.preview("Confront Keld with E7"))
    assert not message_complete("Confront Keld with E7 and", game.preview("Confront Keld with E7 and"))
    assert not message_complete("Abel, where were you,", game.preview("Abel, where were you"))


def test_a_yes_or_no_that_trails_on_a_comma_waits(game: Game) -> None:
    # "Thwaite, where were you at ten?" with a pause after the name: Whisper wrote the first part "Wait,".
    assert not message_complete("Wait,", game.preview("Wait"))
    assert not message_complete("No,", game.preview("No"))
    assert not message_complete("Yes -", game.preview("Yes"))
    assert message_complete("Wait.", game.preview("Wait"))
    assert message_complete("No.", game.preview("No"))
    assert message_complete("Yes", game.preview("Yes"))


def test_table_talk_is_complete_unless_it_trails_off(game: Game) -> None:
    assert message_complete("I'm not sure about him.", game.preview("I'm not sure about him."))
    assert not message_complete("So what do we know,", game.preview("So what do we know,"))
    assert not message_complete("Reverend Thwaite,", game.preview("Reverend Thwaite,"))


def test_trailing_marks_and_linking_words() -> None:
    assert trails_off("Abel, ") and trails_off("Abel -") and trails_off("Abel…") and trails_off("")
    assert trails_off("Confront Keld with E") and trails_off("where were you at")
    assert not trails_off("Where were you at ten?") and not trails_off("Next.")


def test_heard_uses_whispers_punctuation_and_the_repaired_words(game: Game, understander: Understander) -> None:
    assert heard_complete(understander.understand("Abel, where were you at ten?", game))
    assert not heard_complete(understander.understand("Abel,", game))
    assert not heard_complete(understander.understand("", game))  # nothing heard: the ceiling decides


@pytest.mark.parametrize(
    "said",
    [
        "Yes.",
        "Give up.",  # it ends the night: held like a yes
        "Wait.",  # "Thwaite, ... how did you get mud on your shoes?"
        "Reverend Culp.",  # "Reverend Keld, ... what time did you go up to bed?"
        "Mrs. Blamire.",
        "Mr. Blamire, Mr. Blamire.",
        "We accuse Joel Blamire.",  # "We accuse Joel Blamire: ... exhibits four, six and ten."
        "I think the vicar is lying about the yard door.",  # table talk, however long
    ],
)
def test_whole_messages_that_often_start_a_longer_turn_may_go_on(game: Game, said: str) -> None:
    message = game.preview(said)
    assert message_complete(said, message)
    assert may_go_on(said, message)


@pytest.mark.parametrize(
    "said",
    [
        "Read E4.",
        "Answers Keld.",
        # Lone commands that words after a pause can only finish ("Next ... round, please."): over the Host's
        # answer the barge-in takes those words as the same message.
        "Next.",
        "Next,",
        "Lies.",
        "Pass.",
        "Save.",
        "Statements.",
        "Confront Keld with E7.",
        "We accuse Francis Keld with E6, E8 and E15.",
        "How many questions do we have left?",  # a request to the Host
    ],
)
def test_whole_messages_with_their_argument_end_after_the_short_pause(game: Game, said: str) -> None:
    assert message_complete(said, game.preview(said))
    assert not may_go_on(said, game.preview(said))


def test_heard_turn_grades_the_words(game: Game, understander: Understander) -> None:
    assert heard_turn(understander.understand("Read E4.", game)) is TurnText.WHOLE
    # "Martha, where were you?" is whole before "... at ten o'clock?": a question has its own wait
    assert heard_turn(understander.understand("Martha, where were you?", game)) is TurnText.QUESTION
    # ... but one that already ends on where or when it asks about has said it
    assert heard_turn(understander.understand("Martha, what were you doing in the library?", game)) is TurnText.WHOLE
    assert heard_turn(understander.understand("Martha, where were you at 10?", game)) is TurnText.WHOLE
    assert heard_turn(understander.understand("Next.", game)) is TurnText.WHOLE  # "... round, please." only finishes it
    assert heard_turn(understander.understand("Yes.", game)) is TurnText.MAY_GO_ON
    assert heard_turn(understander.understand("Next, next,", game)) is TurnText.WHOLE  # said twice, still as written
    # A lone command made by a repair ("Same." -> save) may be other words heard wrong: held.
    assert heard_turn(understander.understand("Same.", game)) is TurnText.MAY_GO_ON
    assert heard_turn(understander.understand("Abel,", game)) is TurnText.UNFINISHED
    assert heard_turn(understander.understand("", game)) is TurnText.UNFINISHED


@pytest.mark.parametrize(
    "said",
    [
        "Where were you at 10?",
        "Martha, what were you doing in the library?",
        "Who was with you at a quarter past ten?",
        "What did you hear after supper?",
        "Did you see her in the hall at ten?",  # a preposition inside the phrase
        "Who did you see on the stair, Phoebe?",  # the one asked named after it
    ],
)
def test_a_question_that_says_where_or_when_ends_on_its_setting(said: str) -> None:
    assert ends_on_setting(said)


@pytest.mark.parametrize(
    "said",
    [
        "Martha, where were you?",  # "... at ten o'clock?" may follow
        "What did you want from her?",  # "from" is a way, not a where
        "Did you go through the garden?",  # a way gone, not a place
        "Did you go in?",  # a preposition with nothing after it
        "Where were you at",  # trails off
        "Abel, what did you see at the time of the",
        "Did you quarrel with Mrs Blamire?",
    ],
)
def test_a_question_without_its_setting_does_not_end_on_one(said: str) -> None:
    assert not ends_on_setting(said)
