"""The questions tables asked before (engine.asked): how they vote, when they overrule the cues, how they are sealed."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from engine.asked import ASKED_FILE, DEFLECT, AskedQuestion, TopicVotes, format_asked, tune_questions
from engine.case import PUBLIC_FILE, Case, CaseError, load_case
from engine.seal import seal_part
from tests.engine_support import FROST_FAIR, FROST_SOURCE, frost_case, frost_files, hollin_case, play, seated, spoken, to_round
from voice_host.cli.main import main as third_carol
from voice_host.loop.casefiles import read_case_dir

QUESTIONS = Path(__file__).resolve().parents[1] / "spoilers" / "hollin-fold" / "questions.tsv"


def asked(topic: str, *questions: str, suspect: str = "bram") -> list[AskedQuestion]:
    return [AskedQuestion(suspect, topic, question) for question in questions]


MUFFLERS = asked("the scarf", "Bram, whose muffler was that?", "Bram, did you own a muffler?", "Bram, a wool muffler?")
RASPS = asked("the blade", "Bram, did you borrow a rasp?", "Bram, where is the rasp now?", "Bram, who lent you a rasp?")
WHEREABOUTS = asked("where he was", "Bram, where did you stand?", "Bram, where were you standing?")
ELSEWHERE = asked(DEFLECT, "Bram, do you like the river?", "Bram, is the ice thick?")


def with_asked(questions: list[AskedQuestion]) -> Case:
    return dataclasses.replace(frost_case(), asked=tuple(questions), derived={})


def test_votes_go_to_the_topic_whose_questions_share_the_words() -> None:
    votes = TopicVotes([*MUFFLERS, *WHEREABOUTS, *ELSEWHERE])
    vote = votes.vote("Bram, was the muffler yours?", {"the scarf", "where he was", DEFLECT})
    assert vote is not None
    assert vote.topic == "the scarf"
    assert vote.margin > 0


def test_a_vote_is_only_among_the_topics_in_play() -> None:
    votes = TopicVotes([*MUFFLERS, *RASPS, *WHEREABOUTS])
    vote = votes.vote("Bram, who lent you the rasp?", {"the scarf", "where he was"})
    assert vote is not None
    assert vote.topic != "the blade"


def test_no_vote_with_fewer_than_two_topics_in_play() -> None:
    assert TopicVotes([*MUFFLERS, *WHEREABOUTS]).vote("Bram, the muffler?", {"the scarf"}) is None


def test_a_sure_vote_answers_a_question_no_cue_names() -> None:
    game = seated(case=with_asked([*MUFFLERS, *WHEREABOUTS, *ELSEWHERE]))
    assert spoken(play(game, "Bram, whose muffler was it?")) == ["Lots of men wear green."]
    plain = seated()  # the same question with no questions asked before: no cue names a muffler
    assert spoken(play(plain, "Bram, whose muffler was it?")) == ["Pies are my business, not that."]


def test_an_unsure_vote_leaves_the_cues_choice() -> None:
    # as many questions about the scarf as about where he was say "green": the cue "green" decides
    even = [*asked("the scarf", "Bram, the green one?"), *asked("where he was", "Bram, by the green booth?")]
    game = seated(case=with_asked([*even, *ELSEWHERE]))
    assert spoken(play(game, "Bram, was it green?")) == ["Lots of men wear green."]


def test_a_held_line_is_voted_for_only_once_it_is_in_the_file() -> None:
    game = seated(case=with_asked([*RASPS, *MUFFLERS, *WHEREABOUTS, *ELSEWHERE]))
    assert spoken(play(game, "Bram, did you borrow a rasp?")) == ["Pies are my business, not that."]
    to_round(game, 2)  # exhibits 5 to 8 are read
    play(game, "Confront Bram with E5")  # his lie about the booth breaks: his HELD line is in the FILE
    # (he says nothing more after his admit, so the topic is asked of the engine, not of him)
    chosen = game.topic_entry("bram", "did you borrow a rasp?")
    assert chosen is not None
    assert chosen.words == "I borrowed a file, that is all."


def test_the_sealed_asked_questions_are_the_question_sets_tune_rows() -> None:
    tune = tune_questions(QUESTIONS.read_text(encoding="utf-8"))
    assert hollin_case().asked == tune, (
        "asked.sealed is stale: run third-carol seal spoilers/hollin-fold/reveal.txt engine/cases/hollin-fold"
    )


def test_seal_keeps_the_test_rows_out(tmp_path: Path) -> None:
    question_set = tmp_path / "questions.tsv"
    question_set.write_text(
        "# a comment\nsplit\tsuspect_key\ttopic\tquestion\n"
        "tune\tbram\tthe scarf\tBram, whose muffler?\n"
        "test\tbram\tthe scarf\tBram, is that muffler yours?\n",
        encoding="utf-8",
    )
    folder = tmp_path / "case"
    folder.mkdir()
    shutil.copy(FROST_FAIR / PUBLIC_FILE, folder / PUBLIC_FILE)
    assert third_carol(["seal", str(FROST_SOURCE), str(folder), "--asked", str(question_set)]) == 0
    assert read_case_dir(folder).asked == (AskedQuestion("bram", "the scarf", "Bram, whose muffler?"),)


def test_asked_questions_naming_a_topic_the_case_lacks_are_refused() -> None:
    stray = format_asked(asked("the ferry", "Bram, did you take the ferry?"))
    with pytest.raises(CaseError, match="bram has no topic 'the ferry'"):
        load_case({**frost_files(), ASKED_FILE: seal_part(stray.encode()).encode()})


def test_a_damaged_asked_file_is_refused() -> None:
    with pytest.raises(CaseError, match=f"{ASKED_FILE} is damaged"):
        load_case({**frost_files(), ASKED_FILE: b"not base64 at all!"})
