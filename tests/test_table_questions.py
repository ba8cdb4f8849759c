"""The table's questions about the game, answered from the state or HOW TO PLAY, free (issue 16)."""

from __future__ import annotations

from functools import cache

import pytest

from engine.case import Case
from engine.game import SEALED, Game
from engine.replies import PartKind, Reply
from voice_host.loop.casefiles import load_bundled_case


@cache
def hollin() -> Case:
    return load_bundled_case()


def game_at_question_two() -> Game:
    """Round 1 at Hollin Fold, seated Ada and Ben, one question asked."""
    game = Game(hollin())
    game.start()
    game.handle("Ada, Ben")
    game.handle("Thwaite, where were you at ten?")
    return game


def answer_or_spent(game: Game, question: str) -> tuple[list[str], bool]:
    """The Host's own lines in reply to `question`, and whether it spent a question."""
    before = game.state.questions_used
    reply = game.handle(question)
    lines = [p.text for p in reply.parts if p.kind in (PartKind.SYSTEM, PartKind.FULL_STATE)]
    return lines, game.state.questions_used != before


def answer(game: Game, question: str) -> list[str]:
    lines, spent = answer_or_spent(game, question)
    assert not spent, f"{question!r} spent a question"
    return lines


def passage(key: str) -> str:
    return next(p.text for p in hollin().public.rules_passages if p.key == key)


STATE = {
    "Question 2 of 4: Ben.": ["whose turn is it?", "who's next?", "who asks next", "whose go is it now?", "who is up?"],
    "Questions left: 3 of 4": [
        "how many questions do we have left?",
        "how many questions left?",
        "any questions left?",
        "how many more questions can we ask?",
        "do we have questions left this round?",
    ],
    "Round: 1 of 4": [
        "what round are we in?",
        "which round is it?",
        "what round is this",
        "are we in round one?",
        "what's the round",
    ],
    "Exhibits read: E1, E2, E3, E4": [
        "which exhibits have we got?",
        "what exhibits have we seen so far?",
        "which exhibits have been read?",
        "how many exhibits do we have?",
        "list the exhibits",
    ],
    "Lies broken: none": [
        "have we broken any lies?",
        "how many lies have we broken?",
        "any lies broken yet?",
        "which lies have been broken?",
        "did we catch anyone in a lie?",
    ],
    "Seats: 1 Ada · 2 Ben": [
        "who's playing?",
        "what's the seating order?",
        "who is at the table?",
        "list the seats",
        "what order are we in?",
    ],
    "Accusation: none": [
        "is there an accusation waiting?",
        "have we accused anyone?",
        "is the accusation locked?",
        "has an accusation been made?",
        "what's our accusation?",
    ],
}


@pytest.mark.parametrize(("line", "question"), [(line, q) for line, qs in STATE.items() for q in qs])
def test_a_state_question_gets_its_full_state_line_free(line: str, question: str) -> None:
    assert answer(game_at_question_two(), question) == [line]


def test_where_are_we_gets_the_full_state() -> None:
    for question in ("full state", "where are we?", "what's the state of play?", "status", "can you give us the full state?"):
        (lines,) = answer(game_at_question_two(), question)
        assert lines.startswith("FULL STATE\nRound: 1 of 4\nSeats: 1 Ada · 2 Ben\nNext to ask: Ben (seat 2)")


def test_a_state_answer_follows_the_state() -> None:
    game = game_at_question_two()
    game.handle("pass")  # free: the seat moves on, the question is not spent
    assert answer(game, "whose turn is it?") == ["Question 2 of 4: Ada."]
    for question in ("Ruddock, what did you hear?", "Keld, where were you?", "Joel, where were you?"):
        game.handle(question)
    assert answer(game, "whose turn is it?") == ["The round's questions are spent. Say next."]
    assert answer(game, "how many questions are left?") == ["Questions left: 0 of 4"]


RULES = {
    "help": ["help", "how do we play?", "how does this work?", "can you explain the rules?", "what do we do now?"],
    "asking": [
        "how do I ask a question?",
        "how do we question a suspect?",
        "how do you talk to one of the six?",
        "can we interview the suspects?",
        "how does questioning work?",
    ],
    "confronting": [
        "how do we confront someone?",
        "how can I catch a lie?",
        "how do I use an exhibit?",
        "what does confront do?",
        "how do lies get broken?",
    ],
    "accusing": [
        "how do we accuse someone?",
        "when can we accuse?",
        "how do we name the killer?",
        "how does the accusation work?",
        "how do I make an accusation?",
    ],
    "scoring": [
        "how does scoring work?",
        "how do we win?",
        "how many points do we get?",
        "what's the scoring?",
        "how is it scored?",
    ],
    "free": [
        "what happens if we give up?",
        "what does give up do?",
        "how do we give up?",
        "what does save do?",
        "how do we save the game?",
    ],
    "next": [
        "how do we get to the next round?",
        "what does next do?",
        "how do we move on?",
        "when does the next round start?",
        "how do we end the round?",
    ],
    "suspects": ["who are the suspects?", "who are the six?", "name the suspects", "who can we question?", "list the six"],
}


@pytest.mark.parametrize(("key", "question"), [(key, q) for key, qs in RULES.items() for q in qs])
def test_a_rules_question_gets_its_how_to_play_passage_free(key: str, question: str) -> None:
    assert answer(game_at_question_two(), question) == [passage(key)]


def test_help_is_the_five_short_lines_of_the_opening() -> None:
    (text,) = answer(game_at_question_two(), "help")
    lines = text.split("\n")
    assert len(lines) == 5 and all(line in hollin().public.opening.split("\n") for line in lines)


WHO = {
    "Abel Thwaite, the butler.": [
        "who is the butler?",
        "who's Abel?",
        "who is Thwaite again?",
        "who's Mr. Thwaite?",
        "tell me who the butler is",
    ],
    "Francis Keld, the curate, snowed in after supper.": [
        "who is the curate?",
        "who's the vicar?",
        "who is the Reverend Keld?",
        "who's Francis?",
        "what does the parson do?",
    ],
    "Julius Ormerod, Mrs. Blamire's man of business, up from town.": [
        "who is Julius Ormerod?",
        "who's the lawyer?",
        "who is Ormerod again?",
        "who's the man of business?",
        "who is the solicitor?",
    ],
}


@pytest.mark.parametrize(("line", "question"), [(line, q) for line, qs in WHO.items() for q in qs])
def test_who_is_one_of_the_six_gets_the_six_own_words(line: str, question: str) -> None:
    assert answer(game_at_question_two(), question) == [line]


@pytest.mark.parametrize(
    "question",
    [
        "who did it?",
        "who is the killer?",
        "who is lying?",
        "which lies are still standing?",
        "give us a hint",
        "what's in the butler's file?",
        "summarise what we know",
        "can you give us a timeline?",
        "check our theory: the butler and E3",
        "are we right?",
    ],
)
def test_rule_8_stays_exact(question: str) -> None:
    assert answer(game_at_question_two(), question) == [SEALED]


def test_what_is_public_is_not_sealed() -> None:
    game = game_at_question_two()
    for question in ("have we broken any lies?", "which exhibits have we got?", "who's playing?", "lies", "statements"):
        reply: Reply = game.handle(question)
        assert SEALED not in [p.text for p in reply.parts]


def test_rules_questions_are_answered_before_the_names_too() -> None:
    game = Game(hollin())
    game.start()
    assert answer(game, "how do we accuse someone?") == [passage("accusing")]
    assert answer(game, "whose turn is it?") == ["Who is at the table? First names or nicknames, one to eight."]
    assert game.state.seats == ()


def test_a_question_while_a_read_back_waits_is_not_locked_as_the_card_says() -> None:
    game = game_at_question_two()
    while not game.state.in_accusation:
        game.handle("next")
        game.handle("yes")
    game.handle("We accuse Thwaite: E3")
    assert answer(game, "whose turn is it?") == ["Not locked."]


def test_typed_phrasings_replay_identically_from_the_journal() -> None:
    game = game_at_question_two()
    for message in ("could you read exhibit 2", "skip me", "whose turn is it?", "move on to the next round", "that's right"):
        game.handle(message)
    replayed = Game(hollin())
    replayed.start()
    for message in game.journal:
        replayed.handle(message)
    assert replayed.state == game.state and game.state.round == 2
