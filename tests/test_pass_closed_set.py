"""The closed-set passes: a lost exhibit, name, confrontation slot, citation, addressee or grammar name slot scored from
its few values."""

from __future__ import annotations

import math

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import FORM_WORDS, Command, MessageKind
from tests.scripted_recognizer import ALONE, AUDIO, PHRASED_OFF, SEATS, ScriptedRecognizer, passes_for
from voice_host.cli.hear import game_at_accusation
from voice_host.understanding.names import SPOKEN_TITLES
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.addressee import lost_addressee_for
from voice_host.understanding.passes.name_slot import LostName, lost_name_for
from voice_host.understanding.passes.narrow_pick import NarrowPickPass
from voice_host.understanding.passes.shared import (
    PROMPTED_COMMANDS,
    PROMPTED_FORM_WORDS,
    Biasing,
    Hearing,
    PassName,
    command_prompt,
)
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Understander


def test_the_closed_set_fills_a_lost_exhibit(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the salmon.", "", fits={" E7": -2.0, " exhibit 7": -2.5, " E3": -4.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1:] == ["closed set: Read"] and result.passes == 2
    assert result.heard.message is not None and result.heard.message.command is Command.READ
    assert result.heard.message.exhibits == (7,)
    assert [c.kind for c in result.heard.corrections] == [CorrectionKind.EXHIBIT]
    assert result.heard.transcript == "Read the salmon."


def test_a_confrontation_the_closed_set_filled_is_confirmed(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront Phoebe with the iron.", "", fits={" E7": -1.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1] == "closed set: Confront Phoebe with"
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (7,)
    assert heard.needs_confirmation  # the number came from the closed set, not the transcript


def test_a_confrontation_asked_for_in_other_words_has_its_exhibit_scored_after_them(case: Case, round_two: Game) -> None:
    said = "We'd like to confront Phoebe with the iron."  # table talk to the classifier: no exhibit in it
    recognizer = ScriptedRecognizer(said, "", fits={" Phoebe": -0.5, " E7": -1.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1:3] == ["closed set: We'd like to confront", "closed set: We'd like to confront Phoebe with"]
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (7,)
    assert heard.needs_confirmation


@pytest.mark.parametrize(
    "fits",
    [
        {" E7": UnderstandingSettings().closed_set_exhibit_floor - 0.5},  # the best does not fit: below the floor
        {" E7": -2.0, " exhibit 1": -2.0 - UnderstandingSettings().closed_set_ask_margin / 2},  # nor stand out a little
    ],
)
def test_the_closed_set_fills_nothing_it_is_not_sure_of(case: Case, game: Game, fits: dict[str, float]) -> None:
    recognizer = ScriptedRecognizer("Read the room.", "", fits=fits, avg_logprob=math.log(0.95))
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert "closed set: Read" in recognizer.calls
    assert heard.text == "Read the room." and heard.message is not None
    assert heard.message.kind is MessageKind.TABLE_TALK


def _narrow_lead() -> float:
    """A lead between the closed set's ask margin and its margin: kept aside as the last resort."""
    settings = UnderstandingSettings()
    return (settings.closed_set_ask_margin + settings.closed_set_margin) / 2


def test_a_read_the_closed_set_barely_heard_is_asked_about_first(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the salmon.", "", fits={" E7": -2.0, " E3": -2.0 - _narrow_lead()})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (7,)
    assert heard.needs_confirmation  # a free command, but the closed set was not sure: "I heard: Read E7."
    assert [run.name for run in result.runs][-1] is PassName.NARROW_PICK


def test_a_confrontation_the_closed_set_barely_heard_is_asked_about_first(case: Case, round_two: Game) -> None:
    fits = {" E7": -1.0, " E3": -1.0 - _narrow_lead()}
    recognizer = ScriptedRecognizer("Confront Phoebe with the iron.", "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (7,)
    assert heard.needs_confirmation and heard.transcript == "Confront Phoebe with the iron."


def test_a_confrontation_whose_suspect_the_closed_set_barely_heard_is_the_last_resort(case: Case, round_two: Game) -> None:
    fits = {" Keld": -1.5, " Thwaite": -1.5 - _narrow_lead(), " E4": -1.0}  # the exhibit stands out, the suspect barely
    recognizer = ScriptedRecognizer("Confront, together with E.R.", "", fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    heard = result.heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "keld" and heard.message.exhibits == (4,)
    assert heard.needs_confirmation and PassName.NARROW_PICK in [run.name for run in result.runs]


def test_a_narrow_pick_gives_way_to_a_whole_message_a_later_pass_finds(case: Case, game: Game) -> None:
    # The closed set barely prefers E7; heard slower, the words say E11 outright.
    recognizer = ScriptedRecognizer("Read the salmon.", "", fits={" E7": -2.0, " E11": -2.0 - _narrow_lead()}, slower="Read E11.")
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS)  # no other voice: heard slower
    assert result.heard.message is not None and result.heard.message.exhibits == (11,)
    assert PassName.NARROW_PICK not in [run.name for run in result.runs]


def test_a_narrow_pick_never_takes_the_place_of_a_request_to_the_host(case: Case, game: Game) -> None:
    ears = passes_for(case, ScriptedRecognizer("Say that again.", ""), Biasing.PROMPT_CHECKED).ears
    understander = ears.understander
    hearing = Hearing(AUDIO, game, SEATS, understander.matcher, 0.0)
    hearing.narrow = understander.understand("Read E7.", game, 1.0, SEATS)
    hearing.heard = understander.understand("Say that again.", game, 1.0, SEATS)
    assert not NarrowPickPass().applies(hearing, ears)  # the Host replays its last reply for it
    hearing.heard = understander.understand("Read the salmon.", game, 1.0, SEATS)
    assert NarrowPickPass().applies(hearing, ears)


def test_an_exhibit_slot_has_its_own_floor_below_the_names(case: Case, game: Game) -> None:
    # espeak's "exhibit" heard as "and live it": the number stands out, though Whisper never expected the word.
    settings = UnderstandingSettings()
    between = (settings.closed_set_floor + settings.closed_set_exhibit_floor) / 2
    recognizer = ScriptedRecognizer("Read and live it, six.", "", fits={" exhibit 6": between})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (6,)
    names = ScriptedRecognizer("Answers, Cobb.", "", fits={" Keld": between})
    heard = passes_for(case, names, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is None or heard.message.suspect != "keld"


def test_the_closed_set_fills_a_lost_name(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Answers, Cobb.", "", fits={" Keld": -3.0, " Francis": -3.5})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert recognizer.calls[1] == "closed set: Answers"
    assert heard.message is not None and heard.message.command is Command.ANSWERS
    assert heard.message.suspect == "keld"
    assert any(c.kind is CorrectionKind.NAME for c in heard.corrections)


@pytest.mark.parametrize(
    "said",
    [
        "Read E7.",  # the transcript filled the slot: left as heard
        "Read.",  # nothing heard after the verb: no slot to fill
        "We should read the letter again.",  # the verb does not open the message: not a command
    ],
)
def test_the_closed_set_never_decides_what_the_message_is(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, "", fits={" E3": -1.0}, avg_logprob=math.log(0.95))
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, game, SEATS)
    # No slot scored ("closed set: " with no prefix is the whole-command pass, for "Read." alone).
    assert not any(str(call).startswith("closed set") and call != "closed set: " for call in recognizer.calls)


def test_the_prompt_s_command_words_are_the_engine_s() -> None:
    # The vocabulary is defined once, in the engine: every command but yes and no, and the form words
    # Whisper does not expect, in the engine's order (the measured prompt, unchanged).
    assert command_prompt() == "Confront, exhibit, next, save, pass, statements, lies, answers, read, give up."
    assert set(PROMPTED_FORM_WORDS) <= set(FORM_WORDS)
    said = {command.value for command in PROMPTED_COMMANDS}
    assert said == {command.value for command in Command} - {"yes", "no"}
    for word in said | set(PROMPTED_FORM_WORDS):
        assert word in command_prompt().lower()


def test_the_closed_set_hears_a_confrontation_slot_by_slot_when_both_were_lost(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront, together with E.R.", "", fits={" Keld": -1.5, " E4": -1.0, " E14": -2.5})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    # The suspect first, then the exhibit after it: two small passes, each only its slot's candidates.
    assert recognizer.calls[1:3] == ["closed set: Confront", "closed set: Confront Keld with"]
    assert [len(scores.continuations) for scores in result.scores] == [len(_names(case)), 32]
    heard = result.heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "keld" and heard.message.exhibits == (4,)
    assert heard.needs_confirmation  # the closed set's own choice: asked first


def _names(case: Case) -> set[str]:
    return {t.word for t in Understander(case.suspects).matcher.targets if " " not in t.word}


def test_the_closed_set_keeps_a_heard_suspect_and_finds_the_exhibit(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront Thwaite, between the two next, lady, eight.", "", fits={" E7": -1.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    assert recognizer.calls[1] == "closed set: Confront Thwaite with"  # the heard suspect is kept
    assert result.heard.message is not None and result.heard.message.kind is MessageKind.CONFRONTATION
    assert (result.heard.message.suspect, result.heard.message.exhibits) == ("thwaite", (7,))
    assert result.heard.needs_confirmation


@pytest.mark.parametrize(
    "fits",
    [
        {" Keld": -1.5, " Thwaite": -1.9, " E4": -1.0},  # the suspect does not stand out: no exhibit is tried
        {" Keld": -1.5, " E4": -1.5, " E14": -1.9},  # the exhibit does not stand out
    ],
)
def test_the_closed_set_fills_no_confrontation_it_is_not_sure_of(case: Case, round_two: Game, fits: dict[str, float]) -> None:
    recognizer = ScriptedRecognizer("Confront, together with E.R.", "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is None or heard.message.kind is not MessageKind.CONFRONTATION


def test_the_closed_set_finds_who_a_question_was_put_to(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Ask Flit, where were you at ten?", "", fits={" Thwaite": -2.0, " Keld": -4.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert recognizer.calls[1] == "closed set: Ask"
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION
    assert heard.message.suspect == "thwaite" and heard.text.startswith("Ask Thwaite, where were you")
    assert heard.needs_confirmation  # a question spent on the closed set's choice is asked about first


@pytest.mark.parametrize("said", ["Ask him where he was.", "Ask everyone where they were.", "Ask Keld where he was at ten."])
def test_the_closed_set_leaves_an_ask_that_names_someone_or_no_one(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, "", fits={" Thwaite": -1.0})
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: Ask" not in recognizer.calls


def test_a_question_that_lost_its_exhibit_number_is_a_confrontation_found_by_the_closed_set(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("To Julius, what do you say to exhibit, sir?", "", fits={" 7": -1.0, " 1": -3.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1] == "closed set: To Julius, what do you say to exhibit"
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("ormerod", (7,))
    assert heard.needs_confirmation  # the number is the closed set's


def test_explain_without_a_citation_is_scored_for_one(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Miss Marsden, explain the salmon.", "", fits={" E11": -1.0, " E7": -3.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1] == "closed set: Miss Marsden, explain"
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("marsden", (11,))


def test_a_question_that_lost_its_exhibit_number_is_asked_about_first_when_none_stands_out(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("To Keld, what do you say to exhibit fine?", "", fits={" 5": -2.0, " 9": -2.2})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION
    assert heard.needs_confirmation  # it may have been a confrontation: never spent unasked


@pytest.mark.parametrize(
    ("said", "scored_after", "fits", "meant"),
    [
        ("Companion, what about and leave it to?", "Companion, what about", {" E2": -1.0}, "Companion, what about E2?"),
        (
            "To Keld, what do you say don't leave it fine?",
            "To Keld, what do you say",
            {" to E5": -1.0},
            "To Keld, what do you say to E5?",
        ),
    ],
)
def test_a_confrontation_asked_about_whose_exhibit_was_lost_is_scored_for_one(
    case: Case, round_two: Game, said: str, scored_after: str, fits: dict[str, float], meant: str
) -> None:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert f"closed set: {scored_after}" in recognizer.calls
    assert heard.text == meant and heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION


def test_what_about_an_ordinary_thing_stays_the_question_asked(case: Case, round_two: Game) -> None:
    # Nothing stands out ("your debts" is no exhibit): the question is asked as heard, and not asked about first.
    said = "Joel, what about your debts?"
    recognizer = ScriptedRecognizer(said, said, fits={}, avg_logprob=math.log(0.95))
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.suspect == "joel"
    assert heard.text == said and not heard.needs_confirmation


@pytest.mark.parametrize("said", ["Keld, where were you at ten?", "Keld, explain E7.", "Keld, what about exhibit 4?"])
def test_a_question_with_no_lost_citation_is_not_scored(case: Case, round_two: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, said, fits={" 7": -1.0, " E7": -1.0})
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    assert not any(str(call).startswith("closed set") for call in recognizer.calls)


@pytest.mark.parametrize(
    ("said", "scored_after", "fits", "meant"),  # meant: read E{meant}
    [
        ("Could you read exhibit, fine?", "Could you read exhibit", {" 9": -1.0, " 5": -3.0}, 9),
        # Which heard words were the number is not known: the first reading that is whole is taken.
        ("What does exhibit the love and say?", "What does exhibit", {" 11": -1.2, " 7": -3.0}, 11),
    ],
)
def test_a_message_that_lost_its_exhibit_number_is_made_whole_by_the_closed_set(
    case: Case, round_two: Game, said: str, scored_after: str, fits: dict[str, float], meant: int
) -> None:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert f"closed set: {scored_after}" in recognizer.calls
    assert heard.message is not None and heard.message.command is Command.READ
    assert heard.message.exhibits == (meant,)
    assert heard.transcript == said  # what was heard stays on the screen's heard line


def test_a_costly_message_made_whole_by_a_lost_number_is_asked_about_first(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront Keld about exhibit, heaven.", "", fits={" 7": -1.0, " 11": -3.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("keld", (7,))
    assert heard.needs_confirmation  # the number is the closed set's: never spent unasked


def test_a_lost_exhibit_number_is_left_when_none_stands_out(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Could you read exhibit, fine?", "", fits={" 9": -1.0, " 5": -1.1})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert "closed set: Could you read exhibit" in recognizer.calls
    assert heard.message is None or heard.message.command is not Command.READ


@pytest.mark.parametrize("said", ["Read exhibit 4, please.", "That exhibit 7 is odd.", "Let's look at the exhibit."])
def test_no_number_is_scored_where_none_was_lost(case: Case, round_two: Game, said: str) -> None:
    # A whole message, a number heard after "exhibit", nothing heard after it.
    recognizer = ScriptedRecognizer(said, said, fits={" 7": -1.0})
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, round_two, SEATS)
    assert not any(str(call).startswith("closed set: ") and "exhibit" in str(call) for call in recognizer.calls)


def test_a_question_whose_addressee_was_lost_is_put_to_the_one_the_closed_set_hears(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Sir Goyer, how did you get mud on your shoes?", "", fits={" The lawyer": -1.5, " Ormerod": -3.0, " Keld": -4.0}
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: " in recognizer.calls  # the name opened the message: nothing before the slot
    scored = result.scores[-1].continuations
    # Names and, with no title heard, roles, as Whisper opens a sentence: after "The", or bare ("Vicar, ...").
    assert " The vicar" in scored and " Vicar" in scored and " Thwaite" in scored
    heard = result.heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION
    assert heard.message.suspect == "ormerod" and heard.text.startswith("The lawyer, how did you")
    assert heard.needs_confirmation  # a question spent on the closed set's choice is asked about first


def test_the_addressee_keeps_the_card_s_opening_and_a_title_heard_before_it(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("To Mr. Blamire, where were you at ten?", "", fits={" Thwaite": -1.0, " Ormerod": -3.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: To Mr" in recognizer.calls
    assert " the butler" not in result.scores[-1].continuations  # after a title only a surname fits
    assert result.heard.message is not None and result.heard.message.suspect == "thwaite"


def test_a_confrontation_whose_addressee_was_lost_is_put_to_the_one_the_closed_set_hears(case: Case, round_two: Game) -> None:
    # "Heir, explain E9." heard as "Er, explain E9.": a confrontation in the card's form put to no one.
    recognizer = ScriptedRecognizer("Er, explain E9.", "", fits={" Heir": -1.0, " Thwaite": -3.0, " Keld": -4.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert "closed set: " in recognizer.calls
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "joel" and heard.message.exhibits == (9,)
    assert heard.needs_confirmation  # a confrontation spent on the closed set's choice is asked about first


@pytest.mark.parametrize("title", [title.capitalize() for title in SPOKEN_TITLES])
def test_every_title_the_names_matcher_knows_is_kept_before_a_lost_addressee(case: Case, game: Game, title: str) -> None:
    heard = Understander(case.suspects).understand(
        f"{title} Logick, how did you get mud on your shoes?", game, recognition=0.95, seats=SEATS
    )
    lost = lost_addressee_for(heard)
    assert lost is not None and lost.prefix.lower() in SPOKEN_TITLES  # "Ms" is heard as "Miss"
    assert lost.question == "how did you get mud on your shoes?"


@pytest.mark.parametrize(
    "said",
    [
        "Who killed her, though?",  # the head is a question itself
        "Okay, what do you think?",  # only an opener before the question
        "Well, the kitchen was empty.",  # not a question
        "Keld, where were you at ten?",  # the head named someone
        "Well, E9 is odd.",  # an exhibit cited in talk with nothing put to anyone after the head
        "So, what about E9?",  # only an opener before talk at the table
    ],
)
def test_no_addressee_is_scored_for_what_is_not_a_question_put_to_someone_lost(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, said, fits={" Thwaite": -1.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert PassName.ADDRESSEE not in [run.name for run in result.runs]


def test_no_addressee_is_put_when_none_stands_out(case: Case, game: Game) -> None:
    lead = UnderstandingSettings().closed_set_ask_margin / 2
    recognizer = ScriptedRecognizer("Yeah, where were you at ten?", "", fits={" Thwaite": -2.0, " Keld": -2.0 - lead})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is None or heard.message.suspect is None


def test_an_addressee_the_closed_set_barely_heard_is_the_last_resort(case: Case, game: Game) -> None:
    fits = {" Thwaite": -2.0, " Keld": -2.0 - _narrow_lead()}
    recognizer = ScriptedRecognizer("Yeah, where were you at ten?", "", fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    heard = result.heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.suspect == "thwaite"
    assert heard.needs_confirmation and PassName.NARROW_PICK in [run.name for run in result.runs]


def test_a_confrontation_whose_suspect_was_heard_after_the_has_the_roles_scored(case: Case, round_two: Game) -> None:
    # "Confront the vicar about E7." heard with the role as another word: after "the" only a role fits.
    recognizer = ScriptedRecognizer("Confront the vehicle about the salmon.", "", fits={" vicar": -1.0, " E7": -1.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1:3] == ["closed set: Confront the", "closed set: Confront the vicar with"]
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "keld" and heard.message.exhibits == (7,)


def test_answers_heard_with_the_before_the_name_has_the_roles_scored(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Answers the gloigment.", "", fits={" clergyman": -1.0, " Keld": -0.5})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: Answers the" in recognizer.calls
    assert " Keld" not in result.scores[0].continuations  # "the Keld" is no way to name him
    assert result.heard.message is not None and result.heard.message.command is Command.ANSWERS
    assert result.heard.message.suspect == "keld"


NAME_SLOT_WORDS = UnderstandingSettings().name_slot_max_words


def _lost(case: Case, game: Game, said: str) -> LostName | None:
    understander = Understander(case.suspects)
    heard = understander.understand(said, game, recognition=0.95, seats=SEATS)
    return lost_name_for(heard, understander.matcher.with_protected(SEATS), NAME_SLOT_WORDS)


@pytest.mark.parametrize(
    ("said", "lost"),
    [
        # a request's object: the role's word is the slot, "the" stays before it
        ("Remind us what the person told us.", LostName("Remind us what the", "person", " told us", role=True)),
        # a template: a title stays before the slot, and only a name can follow it
        ("Can we have the answers from Mr. Lizard?", LostName("Can we have the answers from Mr.", "lizard", "", role=False)),
        # a possessive keeps its ending after the slot; openers are not part of what is scored
        ("So, let's hear the gloigment's answers again.", LostName("Let's hear the", "gloigment", "'s answers again", role=True)),
        # an accusation in the card's form: the accused's words run to the exhibits it cites
        (
            "Final answer, the person, exhibits E2, E5 and E10.",
            LostName("Final answer, the", "person", ", exhibits E2, E5 and E10", role=True),
        ),
        ("It was Quake E2, E5, E11.", LostName("It was", "quake", " E2, E5, E11", role=False)),
        # the opening's own mark stays, as Whisper wrote it: a name is scored after it
        ("Verdict, emote wait, exhibits E1, E8.", LostName("Verdict,", "emote wait", ", exhibits E1, E8", role=False)),
        ("Final answer: quake, exhibits E1, E8.", LostName("Final answer:", "quake", ", exhibits E1, E8", role=False)),
        # "The killer is" as Whisper writes it said quickly
        ("The killer's red, exhibits E5, E9.", LostName("The killer's", "red", ", exhibits E5, E9", role=False)),
    ],
)
def test_the_grammar_says_where_a_lost_name_stands(case: Case, game: Game, said: str, lost: LostName) -> None:
    assert _lost(case, game, said) == lost


@pytest.mark.parametrize(
    "said",
    [
        "What did Ann say?",  # someone at the table
        "What did you say?",  # a pronoun is no one's name
        "What did the vicar say?",  # names a suspect: the classifier made it a command already
        "What did the man in the long coat with the dog say?",  # too many words for a name
        "Thwaite's answers, please.",  # nothing before the name: the names matcher's work
        "The kitchen was empty.",  # no command in the grammar's words
        "It was a good point.",  # the accusation's opening, but no exhibit cited: talk
    ],
)
def test_no_name_is_lost_where_the_grammar_reads_none_or_the_words_name_someone(case: Case, game: Game, said: str) -> None:
    assert _lost(case, game, said) is None


def test_a_role_heard_as_another_word_is_found_in_the_name_s_place(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Remind us what the person told us.", "", fits={" parson": -1.2, " butler": -4.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: Remind us what the" in recognizer.calls
    scored = result.scores[0].continuations
    assert " parson" in scored and " Keld" not in scored  # after "the", the six's roles
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.ANSWERS and heard.message.suspect == "keld"
    assert [c.kind for c in heard.corrections] == [CorrectionKind.NAME]
    assert heard.transcript == "Remind us what the person told us."  # what Whisper wrote is kept


def test_a_lost_name_is_looked_for_in_the_beam_s_runners_up(case: Case, game: Game) -> None:
    # Whisper's best words went astray after the name; a runner-up kept the command's own.
    said = "Remind us what the person told will do."
    recognizer = ScriptedRecognizer(
        said, "", fits={" parson": -1.2, " butler": -4.0}, runners_up=(("Remind us what the person told us.", -0.5),)
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: Remind us what the" in recognizer.calls
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.ANSWERS and heard.message.suspect == "keld"
    assert heard.transcript == said


def test_an_accused_heard_as_another_word_is_found_in_the_accused_s_place(case: Case) -> None:
    said = "Final answer, the person, exhibits E2, E5 and E10."
    recognizer = ScriptedRecognizer(said, "", fits={" parson": -1.2, " butler": -4.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game_at_accusation(case), SEATS).heard
    assert "closed set: Final answer, the" in recognizer.calls
    assert heard.message is not None and heard.message.kind is MessageKind.ACCUSATION
    assert (heard.message.suspect, heard.message.exhibits) == ("keld", (2, 5, 10))


def test_a_surname_after_a_title_is_scored_among_the_names(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Can we have the answers from Mr. Lizard?", "", fits={" Thwaite": -1.0, " Ormerod": -3.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: Can we have the answers from Mr." in recognizer.calls
    assert " the butler" not in result.scores[0].continuations and " butler" not in result.scores[0].continuations
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.ANSWERS and heard.message.suspect == "thwaite"


@pytest.mark.parametrize(
    "fits",
    [
        {" parson": UnderstandingSettings().closed_set_floor - 0.5},  # the best does not fit
        {" parson": -2.0, " butler": -2.5},  # the best does not stand out
    ],
)
def test_no_name_is_put_that_the_closed_set_is_not_sure_of(case: Case, game: Game, fits: dict[str, float]) -> None:
    recognizer = ScriptedRecognizer("Remind us what the person told us.", "", fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert PassName.NAME_SLOT in [run.name for run in result.runs]
    assert result.heard.message is None or result.heard.message.kind is not MessageKind.COMMAND


def test_a_command_the_closed_set_scores_is_left_to_it(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Answers the gloigment.", "", fits={" Keld": -1.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert PassName.CLOSED_SET in [run.name for run in result.runs]
    assert PassName.NAME_SLOT not in [run.name for run in result.runs]
