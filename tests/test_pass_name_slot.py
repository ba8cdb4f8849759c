"""The name-slot pass: a command in the grammar's words whose {name} named no one has the six scored in its place."""

from __future__ import annotations

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import Command, MessageKind
from tests.scripted_recognizer import AUDIO, SEATS, ScriptedRecognizer, passes_for, seated_game
from voice_host.loop.casefiles import load_bundled_case
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.name_slot import LostName, lost_name_for
from voice_host.understanding.passes.shared import Biasing, PassName
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Understander

MAX_WORDS = UnderstandingSettings().name_slot_max_words


@pytest.fixture(scope="module")
def case() -> Case:
    return load_bundled_case()


@pytest.fixture
def game(case: Case) -> Game:
    return seated_game(case)


def _lost(case: Case, game: Game, said: str) -> LostName | None:
    understander = Understander(case.suspects)
    heard = understander.understand(said, game, recognition=0.95, seats=SEATS)
    return lost_name_for(heard, understander.matcher.with_protected(SEATS), MAX_WORDS)


@pytest.mark.parametrize(
    ("said", "lost"),
    [
        # a request's object: the role's word is the slot, "the" stays before it
        ("Remind us what the person told us.", LostName("Remind us what the", "person", " told us", role=True)),
        # a template: a title stays before the slot, and only a name can follow it
        ("Can we have the answers from Mr. Lizard?", LostName("Can we have the answers from Mr.", "lizard", "", role=False)),
        # a possessive keeps its ending after the slot; openers are not part of what is scored
        ("So, let's hear the gloigment's answers again.", LostName("Let's hear the", "gloigment", "'s answers again", role=True)),
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
