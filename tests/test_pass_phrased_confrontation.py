"""The phrased-confrontation pass: an utterance that gave nothing but names one of the six and one exhibit number."""

from __future__ import annotations

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import MessageKind
from tests.scripted_recognizer import AUDIO, SEATS, ScriptedRecognizer, in_round_two, passes_for, seated_game
from voice_host.understanding.names import NamesMatcher
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.phrased_confrontation import NamedNumber, named_number
from voice_host.understanding.passes.shared import Biasing, PassName
from voice_host.understanding.understand import Heard

# "Joel Blamire, explain E14." with the verb and the E heard as other words.
MISHEARD = "Joel Blamire, it's clearly 14."


@pytest.fixture
def round_four(case: Case) -> Game:
    """E14 is read in round four; round two is as far as the helper goes, and the pass does not look at the round."""
    return in_round_two(seated_game(case))


def _hear(case: Case, game: Game, said: str, fits: dict[str, float]) -> tuple[Heard, list[PassName]]:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    return result.heard, [run.name for run in result.runs]


def test_a_confrontation_heard_as_other_words_around_its_name_and_number_is_the_card_s(case: Case, round_four: Game) -> None:
    heard, passes = _hear(case, round_four, MISHEARD, {" Joel Blamire, explain E14.": -1.2, f" {MISHEARD}": -0.8})
    assert PassName.PHRASED_CONFRONTATION in passes
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("joel", (14,))
    assert heard.needs_confirmation  # a confrontation spent on a phrasing the transcript did not say
    assert [c.kind for c in heard.corrections] == [CorrectionKind.PHRASED_CONFRONTATION]
    assert heard.transcript == MISHEARD


def test_a_confrontation_far_behind_the_words_heard_is_not_taken(case: Case, round_four: Game) -> None:
    heard, passes = _hear(case, round_four, MISHEARD, {" Joel Blamire, explain E14.": -3.5, f" {MISHEARD}": -0.8})
    assert PassName.PHRASED_CONFRONTATION in passes
    assert heard.message is None or heard.message.kind is not MessageKind.CONFRONTATION


def test_talk_with_a_name_and_a_time_is_never_scored_as_a_confrontation(case: Case, round_four: Game) -> None:
    heard, passes = _hear(case, round_four, "So Francis was in the kitchen at 10.", {" Francis, explain E10.": -0.1})
    assert PassName.PHRASED_CONFRONTATION not in passes
    assert heard.message is None or heard.message.kind is not MessageKind.CONFRONTATION


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("Confront, Mrs. Ruddock, come out, V6.", NamedNumber("Mrs. Ruddock", 6)),  # a title said before the name kept
        ("Confront table, Thwaite, about D3.", NamedNumber("Thwaite", 3)),
        ("Confront Abel, Thwaite, about D3.", NamedNumber("Abel Thwaite", 3)),  # a comma Whisper put in the name
        ("Tell Ormerod what you did at half passed nine.", None),  # a time, however it is spelled
        ("Confront, Julius Ormerod, with episode 40.", NamedNumber("Julius Ormerod", 14)),  # "fourteen" heard "forty"
        ("Mrs. Ruddock, it's likely one.", NamedNumber("Mrs. Ruddock", 1)),  # a number word ending the message
        ("Confront the butler, come out E6", NamedNumber("the butler", 6)),
        ("So Francis was in the kitchen at 10.", None),  # a time
        ("Ruddock, what about 10 o'clock?", None),
        ("Ask Mr Thwaite: where were you at 10.35?", None),
        ("Joel and Keld, 7", None),  # two of the six
        ("Keld, 7 or 9?", None),  # two numbers
        ("Keld, explain 25.", None),  # no such exhibit
    ],
)
def test_the_one_name_and_the_one_number_the_words_have(case: Case, said: str, found: NamedNumber | None) -> None:
    assert named_number(said, NamesMatcher(case.suspects)) == found
