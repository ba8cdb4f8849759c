"""The table screen: its view models (pure) and Pilot tests that type a short game into the app."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.messages import Command, Message, MessageKind
from engine.replies import PartKind, Reply, ReplyPart
from engine.state import Accusation, GameState, Phase
from voice_host.screen.house import HOLLIN_FOLD_PLAN, house_plan
from voice_host.screen.views import (
    Evidence,
    describe_message,
    find_sentence,
    full_state_view,
    ledger_view,
    sentence_spans,
    speaker_label,
)

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


# --- what was heard ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("message", "taken_as"),
    [
        (
            Message(MessageKind.QUESTION, "Abel, where were you?", suspect="thwaite"),
            "question to Abel Thwaite",
        ),
        (
            Message(MessageKind.CONFRONTATION, "Confront Abel with E7", suspect="thwaite", exhibits=(7,)),
            "confrontation of Abel Thwaite with E7",
        ),
        (
            Message(MessageKind.ACCUSATION, "We accuse Joel: E3, E9", suspect="joel", exhibits=(3, 9)),
            "accusation of Joel Blamire with E3, E9",
        ),
        (Message(MessageKind.COMMAND, "read E3", exhibits=(3,), command=Command.READ), "command: read E3"),
        (Message(MessageKind.COMMAND, "next", command=Command.NEXT), "command: next"),
        (
            Message(MessageKind.COMMAND, "answers Joel", suspect="joel", command=Command.ANSWERS),
            "command: answers Joel Blamire",
        ),
        (Message(MessageKind.TABLE_TALK, "I think it was the butler"), "table talk"),
        (Message(MessageKind.OTHER, "Ann, Bob"), "a word to the Host"),
    ],
)
def test_describe_message_says_what_a_message_was_taken_as(message: Message, taken_as: str) -> None:
    assert describe_message(message, NAMES) == taken_as


def test_describe_message_never_shows_the_words_of_the_question() -> None:
    # The topic a question asks about is the suspect's FILE's business, never the screen's.
    message = Message(MessageKind.QUESTION, "Abel, what about the back stair?", suspect="thwaite")
    assert "stair" not in describe_message(message, NAMES)


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
    exhibits = tuple(
        ReplyPart(PartKind.EXHIBIT, f"text {n}", exhibit=n, title=f"title {n}")
        for n in range(first, first + 4)
    )
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
