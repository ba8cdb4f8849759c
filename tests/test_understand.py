"""Understanding: transcript -> normalised, corrected text -> the engine's classifier -> confirm or not.

The recognition passes that hear the audio again are tested through a scripted recognizer in tests/test_cascade.py
and tests/test_pass_*.py."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import Command, MessageKind
from tests.scripted_recognizer import SEATS
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.shared import Vocabulary
from voice_host.understanding.settings import RepairWeights, UnderstandingSettings
from voice_host.understanding.understand import Understander, recognition_confidence


@dataclass(frozen=True)
class FakeTranscript:
    text: str
    avg_logprob: float
    no_speech_prob: float = 0.01


def test_a_clear_question_goes_through_without_confirmation(understander: Understander, game: Game) -> None:
    heard = understander.understand("Thwaite, where were you at ten?", game, recognition=0.9, seats=SEATS)
    assert heard.message is not None
    assert heard.message.kind is MessageKind.QUESTION
    assert heard.message.suspect == "thwaite"
    assert heard.message.exhibits == ()
    assert heard.text == "Thwaite, where were you at 10?"
    assert not heard.needs_confirmation


def test_a_misheard_name_is_corrected_and_the_costly_action_confirmed(understander: Understander, round_two: Game) -> None:
    heard = understander.understand("Confront weight with E seven.", round_two, recognition=0.95, seats=SEATS)
    assert heard.text == "Confront Thwaite with E7."
    assert heard.message is not None
    assert heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "thwaite"
    assert heard.message.exhibits == (7,)
    assert [c.kind for c in heard.corrections] == [CorrectionKind.NAME]
    assert heard.confidence < 0.95
    assert heard.needs_confirmation


def test_a_lenient_exhibit_is_confirmed(understander: Understander, round_two: Game) -> None:
    heard = understander.understand("Confront Keld with 3D7.", round_two, recognition=0.95, seats=SEATS)
    assert heard.message is not None
    assert heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.exhibits == (7,)
    assert heard.needs_confirmation


def test_low_recognition_confidence_confirms_a_costly_action(understander: Understander, game: Game) -> None:
    sure = understander.understand("Keld, where were you?", game, recognition=0.9, seats=SEATS)
    unsure = understander.understand("Keld, where were you?", game, recognition=0.3, seats=SEATS)
    assert not sure.needs_confirmation
    assert unsure.needs_confirmation


def test_free_messages_are_never_confirmed(understander: Understander, game: Game) -> None:
    for text in ("Lines.", "The waits came up the lane at nine.", "Reed E two", "statements"):
        heard = understander.understand(text, game, recognition=0.2, seats=SEATS)
        assert heard.message is not None
        assert not heard.message.costly
        assert not heard.needs_confirmation, text


def test_repaired_commands_reach_the_classifier(understander: Understander, game: Game) -> None:
    heard = understander.understand("Nest.", game, seats=SEATS)
    assert heard.message is not None
    assert (heard.message.kind, heard.message.command) == (MessageKind.COMMAND, Command.NEXT)
    heard = understander.understand("Reed E three", game, seats=SEATS)
    assert heard.message is not None
    assert (heard.message.command, heard.message.exhibits) == (Command.READ, (3,))


def test_ordinary_words_stay_and_invent_no_suspect(understander: Understander, game: Game) -> None:
    heard = understander.understand("The waits came up the lane at nine.", game, seats=SEATS)
    assert heard.text == "The waits came up the lane at 9."
    assert heard.message is not None
    assert heard.message.suspect is None
    assert heard.corrections == ()


def test_a_name_only_the_biased_pass_heard_is_uncertain(understander: Understander, game: Game) -> None:
    heard = understander.understand("Ormerod, where were you?", game, recognition=0.95, seats=SEATS, uncertain_names=("ormerod",))
    assert heard.uncertain_names == ("ormerod",)
    assert heard.needs_confirmation
    # An uncertain name not in the final text changes nothing.
    other = understander.understand("Keld, where were you?", game, recognition=0.95, seats=SEATS, uncertain_names=("ormerod",))
    assert other.uncertain_names == ()
    assert not other.needs_confirmation


def test_rejected_or_empty_transcripts_are_not_usable(understander: Understander, game: Game) -> None:
    assert not understander.understand("", game).usable
    rejected = understander.understand("Thank you.", game, rejected="phantom")
    assert not rejected.usable
    assert rejected.rejected == "phantom"


def test_transcript_confidence_comes_from_whisper(understander: Understander, game: Game) -> None:
    heard = understander.understand_transcript(FakeTranscript("Keld, where were you?", math.log(0.9)), game, SEATS)
    assert heard.confidence == pytest.approx(0.9 * (1 - 0.5 * 0.01), abs=0.01)
    assert recognition_confidence(-math.inf, 0.0) == 0.0
    assert recognition_confidence(0.0, 1.0) == pytest.approx(0.5)


def test_vocabulary_has_the_case_names_and_no_numbers(case: Case) -> None:
    vocabulary = Vocabulary.for_suspects(case.suspects)
    for suspect in case.suspects:
        assert suspect.name in vocabulary.prompt
    assert not any(ch.isdigit() for ch in vocabulary.prompt + vocabulary.hotwords)


def test_a_repeated_yes_is_confirmed_before_spending(understander: Understander, game: Game) -> None:
    game.handle("next")
    looped = understander.understand("Yes, yes, yes, yes.", game, recognition=0.95, seats=SEATS)
    assert looped.message is not None and looped.message.command is Command.YES and looped.message.costly
    assert looped.needs_confirmation
    once = understander.understand("Yes.", game, recognition=0.95, seats=SEATS)
    assert once.message is not None and once.message.costly and not once.needs_confirmation


def test_every_repair_weight_comes_from_the_settings(case: Case, round_two: Game) -> None:
    """A lenient exhibit costs the settings' exhibit weight, the one number for it (normalise has none)."""
    for weight in (0.5, 0.4):
        settings = UnderstandingSettings(repairs=RepairWeights(exhibit=weight))
        understander = Understander(case.suspects, settings)
        heard = understander.understand("Confront Keld with 3D7.", round_two, recognition=1.0, seats=SEATS)
        assert [c.kind for c in heard.corrections] == [CorrectionKind.EXHIBIT]
        assert heard.confidence == pytest.approx(weight)
