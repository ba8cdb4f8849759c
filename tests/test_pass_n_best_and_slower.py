"""The n-best and slower passes: another hearing of what was not yet a whole card message."""

from __future__ import annotations

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import Command, MessageKind
from tests.scripted_recognizer import ALONE, AUDIO, NBEST_WIDER, SEATS, UNSURE, ScriptedRecognizer, passes_for
from voice_host.ears.asr import Rejection
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.first import FirstPass
from voice_host.understanding.passes.n_best import Hypothesis, NBestPass, choose_hypothesis
from voice_host.understanding.passes.shared import Biasing, PassName, whole_message
from voice_host.understanding.passes.slower import SlowerPass
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Heard, Understander


def _hypothesis(understander: Understander, game: Game, said: str, logprob: float) -> Hypothesis:
    return Hypothesis(said, logprob, understander.understand(said, game, recognition=0.9, seats=SEATS))


@pytest.mark.parametrize(
    ("said", "whole"),
    [
        ("Keld, where were you at ten?", True),
        ("Confront Keld with E7.", True),
        ("Read E7.", True),
        ("Next.", True),
        ("Answers Keld.", True),
        ("We accuse Keld with E3 and E4.", True),
        ("Where were you at ten?", False),  # a question to no one
        ("Confront Phoebe with the iron.", False),  # the exhibit lost
        ("Read the salmon.", False),
        ("Answers Cobb.", False),  # answers, whose?
        ("We accuse Keld.", False),  # no exhibits
        ("Shall we go round the table again?", False),
    ],
)
def test_a_whole_card_message_has_everything_it_needs(understander: Understander, game: Game, said: str, whole: bool) -> None:
    assert whole_message(understander.understand(said, game, seats=SEATS).message) is whole


def test_the_n_best_choice_is_the_best_whole_message_close_behind(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Ass, Marsden, is it true you owed her money?", -0.25)
    others = [
        _hypothesis(understander, game, "Ass Marsden, is it true you owed her money?", -0.27),  # still table talk
        _hypothesis(understander, game, "Ask Marsden, is it true you owed her money?", -0.34),
        _hypothesis(understander, game, "As Marsden, is it true you owed her money?", -0.30),
    ]
    chosen = choose_hypothesis(first, others, behind=0.25)
    assert chosen is not None and chosen.said.startswith("As Marsden")  # the best scored of the whole ones
    assert choose_hypothesis(first, others, behind=0.04) is None  # none close enough behind


def test_the_n_best_measures_behind_the_best_of_all_not_the_first(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Top agent, did you see anybody?", -0.73)
    others = [
        _hypothesis(understander, game, "Top agent, did you see anyone?", -0.40),  # a wider beam found better words
        _hypothesis(understander, game, "To the agent, did you see anybody?", -0.71),
    ]
    assert choose_hypothesis(first, others, behind=0.25) is None
    assert choose_hypothesis(first, others, behind=0.35) is not None


@pytest.mark.parametrize(
    ("first", "runner_up"),
    [
        ("Keld, the yard door has been open all night.", "Keld, the yard door has been open all night?"),
        ("Number one suspect for me is still open.", "Number 1 suspect for me is still open."),
    ],
)
def test_a_runner_up_that_only_writes_the_words_otherwise_is_no_new_hearing(
    understander: Understander, game: Game, first: str, runner_up: str
) -> None:
    assert (
        choose_hypothesis(_hypothesis(understander, game, first, -0.2), [_hypothesis(understander, game, runner_up, -0.2)], 0.25)
        is None
    )


def test_a_runner_up_that_only_adds_a_sentence_is_no_new_hearing(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Wait for it, the next round will tell us.", -0.3)
    tail = _hypothesis(understander, game, "Wait for it, the next round will tell us. Yes, please.", -0.32)
    assert whole_message(tail.heard.message)  # "yes" said after table talk
    assert choose_hypothesis(first, [tail], behind=0.25) is None
    # Words added to a sentence Whisper had not finished are another hearing of it.
    first = _hypothesis(understander, game, "Read the", -0.3)
    assert choose_hypothesis(first, [_hypothesis(understander, game, "Read the twelve.", -0.32)], behind=0.25) is not None


def test_the_n_best_never_chooses_the_first_transcript_s_words_or_a_rejected_one(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Read it well.", -0.36)
    rejected = Hypothesis("Read E12.", -0.37, understander.understand("Read E12.", game, rejected="low_confidence"))
    assert choose_hypothesis(first, [first, rejected], behind=0.25) is None


# A beam of five: the transcript and four runners-up.
BEAM = (("Read it, well.", -0.40), ("Read the twelve.", -0.45), ("Read it all.", -0.5), ("Reddit well.", -0.6))


def test_the_n_best_pass_takes_a_whole_message_the_beam_had_close_behind(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read it well.", "", runners_up=BEAM)
    recognizer.avg_logprob = -0.36
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (12,)
    assert CorrectionKind.NBEST in [c.kind for c in heard.corrections]
    assert heard.transcript == "Read it well."  # what Whisper ranked first stays the transcript
    # The first pass's beam kept the runners-up: no search of the pass's own.
    assert "n-best" not in recognizer.calls
    assert [run.decodes for run in result.runs if run.name is PassName.NBEST] == [0]


def test_more_hypotheses_than_the_beam_kept_cost_one_search(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read it well.", "", runners_up=BEAM)
    recognizer.avg_logprob = -0.36
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=NBEST_WIDER).hear(AUDIO, game, SEATS)
    assert recognizer.calls.count("n-best") == 1
    assert [run.decodes for run in result.runs if run.name is PassName.NBEST] == [1]
    assert result.heard.message is not None and result.heard.message.exhibits == (12,)


def test_table_talk_the_beam_makes_a_question_is_asked_about_first(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Phoebe, one notice how nervous Julius was.", "", runners_up=(("Phoebe, anyone notice how nervous Julius was?", -0.1),)
    )
    recognizer.avg_logprob = -0.05
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.costly
    assert heard.needs_confirmation  # never a question spent on a runner-up


LOST_NUMBER = "Mrs. Marsden, explain the relevant."  # a question in a confrontation's words, no number heard


def _lost_number_heard(case: Case, game: Game, runners_up: tuple[tuple[str, float], ...]) -> Heard:
    """What the first and n-best passes make of `LOST_NUMBER` with these runners-up behind it."""
    recognizer = ScriptedRecognizer(LOST_NUMBER, "", runners_up=runners_up)
    recognizer.avg_logprob = -0.4
    return passes_for(case, recognizer, Biasing.PROMPT, passes=(FirstPass(), NBestPass())).hear(AUDIO, game, SEATS).heard


def test_a_confrontation_whose_number_was_lost_is_looked_for_among_the_runners_up(case: Case, game: Game) -> None:
    # The lost-citation pass found no number standing out; the beam had it close behind.
    heard = _lost_number_heard(
        case, game, (("Mrs. Marsden, explain the eleven.", -0.45), ("Mrs. Marsden, X-ray, the eleven.", -0.5))
    )
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (11,)
    assert CorrectionKind.NBEST in [c.kind for c in heard.corrections]


def test_a_question_with_a_lost_number_takes_no_runner_up_but_a_confrontation_of_the_same_suspect(case: Case, game: Game) -> None:
    heard = _lost_number_heard(case, game, (("Mrs. Marsden, explain the relative?", -0.41), ("Keld, explain the eleven.", -0.42)))
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.suspect == "marsden"
    assert CorrectionKind.NBEST not in [c.kind for c in heard.corrections]


def test_a_whole_message_costs_no_n_best_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Keld, where were you at ten?", "Keld, where were you at ten?")
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=NBEST_WIDER).hear(AUDIO, game, SEATS)
    assert "n-best" not in recognizer.calls and PassName.NBEST not in [run.name for run in result.runs]


def test_say_that_again_is_left_to_the_host(case: Case, game: Game) -> None:
    # No card message, but the session replays its last reply for it: a runner-up is not looked for.
    recognizer = ScriptedRecognizer(
        "Could you say that again, please?", "", runners_up=(("Could you save up again, please?", -0.1),)
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert PassName.NBEST not in [run.name for run in result.runs]
    assert result.heard.text == "Could you say that again, please?"


def test_the_n_best_pass_is_off_at_zero(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read it well.", "", runners_up=(("Read the twelve.", -0.40),))
    recognizer.avg_logprob = -0.36
    off = UnderstandingSettings(nbest_hypotheses=0)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=off).hear(AUDIO, game, SEATS)
    assert PassName.NBEST not in [run.name for run in result.runs]
    assert CorrectionKind.NBEST not in [c.kind for c in result.heard.corrections]


def test_a_rejected_transcript_costs_no_n_best_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Yes, yes, yes, yes.", "", runners_up=(("Yes.", -0.1),), rejected=Rejection.REPETITION)
    recognizer.avg_logprob = -0.1
    passes = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, passes=(FirstPass(), NBestPass()))
    heard = passes.hear(AUDIO, game, SEATS).heard
    assert "n-best" not in recognizer.calls and heard.message is None


# --- The slower pass --------------------------------------------------------------------------------


def test_a_misheard_command_is_heard_again_slower(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Re-man-lib it, six.", "", slower="Read, exhibit, six.", avg_logprob=UNSURE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS)
    assert "slower: 0.9" in recognizer.calls
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (6,)
    assert CorrectionKind.SLOWER in [c.kind for c in heard.corrections]
    assert heard.transcript == "Re-man-lib it, six."  # the first pass's words stay the transcript
    assert [run.name for run in result.runs] == [PassName.FIRST, PassName.SLOWER]  # nothing else was needed


def test_a_question_heard_slower_is_asked_about_first(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Excuse me, remember and Keld, did you leave the garden door open?",
        "",
        slower="Excuse me, Reverend Keld, did you leave the garden door open?",
    )
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.suspect == "keld"
    assert heard.needs_confirmation  # never a question spent on the slower view's words


@pytest.mark.parametrize("said", ["Keld, where were you at ten?", "Read E7.", "Next.", "Say that again."])
def test_a_whole_message_or_a_request_to_the_host_costs_no_slower_pass(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, said, slower="Give up.")
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS).heard
    assert "slower: 0.9" not in recognizer.calls and CorrectionKind.SLOWER not in [c.kind for c in heard.corrections]


def test_the_slower_view_changes_nothing_unless_it_hears_a_whole_message(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Well, we don't know the fire.", "", slower="Read the salmon.")
    passes = (FirstPass(), SlowerPass())
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, passes=passes).hear(ALONE, game, SEATS).heard
    assert "slower: 0.9" in recognizer.calls and heard.text == "Well, we don't know the fire."
    assert CorrectionKind.SLOWER not in [c.kind for c in heard.corrections]


def test_the_slower_pass_is_off_at_rate_one(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Re-man-lib it, six.", "", slower="Read, exhibit, six.")
    off = UnderstandingSettings(slower_playback_rate=1.0)
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=off).hear(ALONE, game, SEATS)
    assert not any(str(call).startswith("slower") for call in recognizer.calls)


def test_a_player_over_the_room_s_talk_is_not_heard_slower(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Re-man-lib it, six.", "", slower="Read, exhibit, six.", avg_logprob=UNSURE)
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)  # talk 15 dB under the player
    assert "slower: 0.9" not in recognizer.calls and "near voice" in recognizer.calls  # the near voice's case
