"""The accused's-exhibits pass: an accusation that kept its name and lost its exhibits has them scored.

The scripted recognizer (tests/scripted_recognizer.py) scores each continuation by its own table, whatever
came before it: enough to drive the pass slot by slot.
"""

from __future__ import annotations

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import MessageKind
from tests.scripted_recognizer import AUDIO, SEATS, ScriptedRecognizer, passes_for
from voice_host.cli.hear import fresh_game, game_at_accusation
from voice_host.understanding.passes.accused_exhibits import accused_exhibits_prefix
from voice_host.understanding.passes.shared import Biasing, PassName
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Understander


@pytest.fixture
def accusing(case: Case) -> Game:
    return game_at_accusation(case)


Heard = tuple[MessageKind, str | None, tuple[int, ...], list[PassName]]  # kind, accused, exhibits, passes run


def _hear(case: Case, game: Game, said: str, fits: dict[str, float]) -> Heard:
    recognizer = ScriptedRecognizer(said, said, fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT).hear(AUDIO, game, SEATS)
    message = result.heard.message
    assert message is not None
    return message.kind, message.suspect, message.exhibits, [run.name for run in result.runs]


def test_a_lost_exhibit_is_found_after_the_accused_name(case: Case, accusing: Game) -> None:
    # "We accuse Phoebe Marsden: E6." heard as "… he says.": E6 fits after the name, then the list ends.
    heard = _hear(case, accusing, "We accuse Phoebe Marsden, he says.", {", E6": -1.0, ".": -0.5})
    assert heard[:3] == (MessageKind.ACCUSATION, "marsden", (6,))


def test_the_list_is_found_slot_by_slot_until_its_end(case: Case, accusing: Game) -> None:
    fits = {", E3": -1.0, " and E11": -1.5, ".": -4.0}
    kind, suspect, exhibits, runs = _hear(case, accusing, "We accuse Phoebe Marsden, he three and level.", fits)
    assert (kind, suspect, exhibits) == (MessageKind.ACCUSATION, "marsden", (3, 11))
    # One scoring per slot: E3, E11, and the end.
    assert runs.count(PassName.ACCUSED_EXHIBITS) == 3


def test_a_slot_nothing_stands_out_in_ends_the_list(case: Case, accusing: Game) -> None:
    # E3 and E8 fit the second slot alike (within the margin): the list is E3 alone.
    fits = {", E3": -1.0, " and E8": -1.8, " and E9": -1.9}
    assert _hear(case, accusing, "We accuse Phoebe Marsden, he tree, the hate.", fits)[2] == (3,)


def test_before_round_a_an_accusation_is_not_scored(case: Case) -> None:
    # In round 1 an accusation is only told to wait: its lost exhibits are not worth a scoring.
    game = fresh_game(case)
    heard = _hear(case, game, "We accuse Phoebe Marsden, he says.", {", E6": -1.0, ".": -0.5})
    assert PassName.ACCUSED_EXHIBITS not in heard[3] and heard[2] == ()


def test_nothing_is_taken_when_no_first_exhibit_fits(case: Case, accusing: Game) -> None:
    # "… because he lied": no exhibit reaches the floor; the accusation stands as heard, with none.
    below = UnderstandingSettings().closed_set_exhibit_floor - 0.5
    heard = _hear(case, accusing, "We accuse Joel, because he lied.", {", E4": below})
    assert heard[:3] == (MessageKind.ACCUSATION, "joel", ())


def test_a_shorter_list_than_the_one_heard_leaves_what_was_heard(case: Case, accusing: Game) -> None:
    # The stray "C." after the list makes it doubtful, but the scored list stops after E1: E16 stays.
    fits = {", E1": -1.0, ".": -0.5}
    assert _hear(case, accusing, "We accuse Francis Keld, E1, E16, C.", fits)[2] == (1, 16)


@pytest.mark.parametrize(
    ("said", "applies"),
    [
        ("We accuse Phoebe Marsden, he says.", True),
        ("Verdict, Reverend Keld, at 0.3.413.", True),
        ("It was the butler, be I.", True),
        ("We accuse Phoebe Marsden.", False),  # nothing after the name: no exhibits cited
        ("We accuse Phoebe Marsden: E3, E11.", False),  # the list is read whole
        ("Accuse Keld with exhibits 2, 6 and 13.", False),
        ("Phoebe, where were you at ten?", False),  # a question in round A is no accusation
    ],
)
def test_the_pass_runs_only_where_a_list_was_lost(case: Case, accusing: Game, said: str, applies: bool) -> None:
    understander = Understander(case.suspects)
    heard = understander.understand(said, accusing, 1.0, SEATS)
    assert (accused_exhibits_prefix(heard, understander.matcher) is not None) is applies
