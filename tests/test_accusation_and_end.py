"""THE ACCUSATION and SCORING & ENDGAME."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.case import Case, EntryKind
from engine.game import Game
from engine.messages import MessageKind
from engine.replies import PartKind
from tests.engine_support import TEST_CASES, frost_case, par_exhibits, play, seated, system_lines, to_round, wyke_case

READ_BACK = "You accuse {name}. Exhibits counted: {exhibits}. Say yes when the whole table agrees, or give the accusation again."


# The data-driven tests run on every test case: Frost Fair (three suspects) and Wyke Mill (four, a male victim).
EACH_CASE = pytest.mark.parametrize("load", list(TEST_CASES.values()), ids=list(TEST_CASES))


def at_accusation(case: Case | None = None) -> Game:
    game = seated(case=case)
    to_round(game, 4)
    play(game, "next", "yes")
    assert game.state.round_label == "A"
    return game


@pytest.mark.parametrize(
    ("message", "name", "exhibits"),
    [
        ("We accuse Bram: E5, E7, E6, E13, E14", "Bram Oakes", "E5, E7, E6, E13, E14"),
        ("**Accusation:** Bram Oakes, exhibits 7, 10 and 14", "Bram Oakes", "E7, E10, E14"),
        ("We accuse Bram: exhibits 2, 6, 13, and 14", "Bram Oakes", "E2, E6, E13, E14"),  # a comma before "and"
        ("It was Bram because E7 shows the scarf and Ada saw him", "Bram Oakes", "E7"),
        ("We think it was Bram, not Ada. E1 E2 E3 E4 E5 E6 E7 E7", "Bram Oakes", "E1, E2, E3, E4, E5, E6"),
        ("Not Ada, never Cole: the pieman did it", "Bram Oakes", "none"),
        ("Bram rather than Cole", "Bram Oakes", "none"),
        ("Final answer: Cole. He wanted the booth, and Bram was at the tent", "Cole Finch", "none"),
        ("The killer is Bram - proof E5; E7 (and Ada)", "Bram Oakes", "E5, E7"),
        ("E10–13 point to Bram, are we right?", "Bram Oakes", "E10, E13"),
        ("We accuse Bram: exhibits seven, ten and fourteen", "Bram Oakes", "E7, E10, E14"),  # numbers as words
    ],
)
def test_the_accusation_is_parsed_by_the_cards_steps(message: str, name: str, exhibits: str) -> None:
    game = at_accusation()
    reply = game.handle(message)
    assert system_lines(reply) == [READ_BACK.format(name=name, exhibits=exhibits)]
    assert "| acc:read |" in reply.ledger


def test_two_named_before_the_cut_asks_which_one_person() -> None:
    game = at_accusation()
    assert system_lines(game.handle("Ada and Bram together")) == ["Which one person?"]
    assert game.state.accusation.value == "none"


@pytest.mark.parametrize(
    ("load", "message", "line"),
    [
        (frost_case, "We accuse Finch", "Cole Finch? Call him Cole."),
        (wyke_case, "We accuse Tolley", "Grace Tolley? Call her Grace."),
    ],
    ids=list(TEST_CASES),
)
def test_a_redirect_word_in_the_accusation_gets_call_and_the_suspects_pronoun(
    load: Callable[[], Case], message: str, line: str
) -> None:
    game = at_accusation(load())
    assert system_lines(game.handle(message)) == [line]


def test_a_question_in_round_a_gets_the_questions_are_done() -> None:
    game = at_accusation()
    assert system_lines(game.handle("Bram, where were you?")) == ["The questions are done."]
    assert game.preview("Bram, where were you?").kind is MessageKind.QUESTION


def test_yes_locks_the_read_back_and_anything_else_does_not() -> None:
    game = at_accusation()
    play(game, "We accuse Bram: E7")
    reply = game.handle("what?")
    assert system_lines(reply) == ["Not locked."] and "| acc:none |" in reply.ledger
    play(game, "We accuse Bram: E7")
    assert system_lines(game.handle("yes, and E5")) == ["Not locked."]  # a new number
    play(game, "We accuse Bram: E7")
    # someone else named: not a lock; by THE ACCUSATION's definition it is a new accusation, read back
    assert system_lines(game.handle("yes, Cole")) == [READ_BACK.format(name="Cole Finch", exhibits="none")]
    assert game.state.accusation.value == "read"
    play(game, "We accuse Bram: E7")
    reply = game.handle("We accuse Cole: E11")  # a new accusation gets a new read-back
    assert system_lines(reply) == [READ_BACK.format(name="Cole Finch", exhibits="E11")]


def _end(reply_text: list[str]) -> dict[str, str]:
    return {line.split(" ")[0]: line for line in reply_text}


@EACH_CASE
def test_the_right_person_with_all_three_parts_is_proved(load: Callable[[], Case]) -> None:
    case = load()
    public = case.public
    game = at_accusation(case)
    culprit = case.suspect(case.reveal.grading.culprit)
    play(game, f"We accuse {culprit.call}: " + ", ".join(f"E{n}" for n in par_exhibits(case)))
    reply = game.handle("Yes, lock it")
    lines = system_lines(reply)
    assert lines[0] == "Correct."
    assert reply.parts[1].kind is PartKind.NARRATION and reply.parts[1].text == game.case.reveal.solution
    assert "Parts counted: could, how, why." in lines
    assert "Lies broken: 0." in lines
    assert "Score: 40 (par 40). Verdict: Proved." in lines
    assert reply.parts[-2].kind is PartKind.LEDGER and "| acc:locked |" in reply.parts[-2].text
    turns = game.state.turn
    assert reply.parts[-1].text == (
        f"RESULT: AIGC|{public.game}|{public.mystery}|{public.version}|end:solved|ch:{public.chapter}|"
        f"turns:{turns}|players:3|links:3|lies:0|score:40|tape:0|sha:none"
    )


def test_the_right_person_without_proof_is_named_and_lies_add_one_each() -> None:
    game = seated()
    play(game, "Confront Ada with E3")
    to_round(game, 4)
    play(game, "next", "yes", "We accuse Bram", "yes")
    reply_lines = system_lines(game.handle("statements"))  # after RESULT: the SOLUTION is quoted
    assert reply_lines == []
    game2 = seated()
    play(game2, "Confront Ada with E3")
    to_round(game2, 4)
    play(game2, "next", "yes", "We accuse Bram: E7, E10")
    reply = game2.handle("yes")
    lines = system_lines(reply)
    assert "Parts counted: could." in lines and "Score: 21 (par 40). Verdict: Named." in lines
    assert "|end:solved|" in reply.parts[-1].text and "|links:1|lies:1|score:21|" in reply.parts[-1].text


@pytest.mark.parametrize(
    ("load", "name"),
    [
        (frost_case, "Ada Quill"),
        (frost_case, "Cole Finch"),
        (wyke_case, "Grace Tolley"),
        (wyke_case, "Walter Pinch"),
        (wyke_case, "Dinah Marr"),
    ],
)
def test_a_wrong_accusation_is_unsolved_and_scores_lies_only(load: Callable[[], Case], name: str) -> None:
    case = load()
    game = at_accusation(case)
    play(game, f"We accuse {name}: " + ", ".join(f"E{n}" for n in par_exhibits(case)))
    reply = game.handle("yes")
    lines = system_lines(reply)
    assert lines[0] == f"Not {name}."
    assert "Score: 0 (par 40). Verdict: Unsolved." in lines
    assert "|end:wrong|" in reply.parts[-1].text and "|links:0|" in reply.parts[-1].text


@EACH_CASE
def test_after_result_the_night_is_over_and_a_new_accusation_changes_nothing(load: Callable[[], Case]) -> None:
    case = load()
    game = at_accusation(case)
    culprit = case.suspect(case.reveal.grading.culprit)
    innocent = next(s for s in case.suspects if s is not culprit)
    play(game, f"We accuse {innocent.call}", "yes")
    reply = game.handle(f"We accuse {culprit.call}: E7")
    assert [p.kind for p in reply.parts] == [PartKind.NARRATION, PartKind.LEDGER]
    assert reply.parts[0].text == game.case.reveal.solution
    assert "| acc:locked |" in reply.ledger
    line = next(e for e in case.reveal.entries if e.kind is EntryKind.LINE)
    reply = game.handle(f"{case.suspect(line.suspect).call}, {line.cues[0]}?")
    assert [(p.speaker, p.text) for p in reply.parts if p.kind is PartKind.SUSPECT] == [(line.suspect, line.words)]


@EACH_CASE
def test_give_up_mid_round_reads_the_solution_and_scores_lies(load: Callable[[], Case]) -> None:
    case = load()
    game = seated(case=case)
    lie = next(lie for lie in case.lies if lie.after is None and min(lie.catch) <= 4)
    play(game, f"Confront {case.suspect(lie.suspect).call} with E{min(lie.catch)}", "give up")
    reply = game.handle("yes")
    lines = system_lines(reply)
    assert not any(line.startswith(("Correct", "Not ")) for line in lines)
    assert "Lies broken: 1." in lines and "Score: 1 (par 40). Verdict: Unsolved." in lines
    assert "|end:gave-up|" in reply.parts[-1].text and "|players:3|" in reply.parts[-1].text
