"""Hollin Fold through the real engine: each spoken question reaches its topic, and every lie breaks in play.

The questions are the `tune` part of spoilers/hollin-fold/questions.tsv: for every suspect and topic,
questions worded as a table says them aloud, each put to the suspect the card's way and labelled with the
line a fair referee would pick. A fresh game is seated with one player and, where a line is not yet in the
FILE (a HELD line), first breaks one of that suspect's lies. The `test` part is held out: bench/questions.py
reports it (docs/benchmarks.md), and no cue or rule is shaped on it.
"""

from __future__ import annotations

import csv
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from engine.case import Case, EntryKind, FileEntry
from engine.game import Game
from engine.messages import MessageKind
from engine.replies import PartKind
from tests.engine_support import spoken
from voice_host.loop.casefiles import load_bundled_case

QUESTIONS = Path(__file__).resolve().parents[1] / "spoilers" / "hollin-fold" / "questions.tsv"
DEFLECT = "DEFLECT"


@dataclass(frozen=True)
class Row:
    suspect: str
    topic: str
    question: str

    def __str__(self) -> str:
        return f"{self.suspect}/{self.topic}: {self.question}"


@cache
def case() -> Case:
    return load_bundled_case()


def read_rows(split: str = "tune") -> list[Row]:
    with QUESTIONS.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    reader = csv.DictReader(lines, delimiter="\t")
    return [Row(r["suspect_key"], r["topic"], r["question"]) for r in reader if r["split"] == split]


ROWS = read_rows()


def seated() -> Game:
    game = Game(case())
    game.start()
    game.handle("Ann")
    return game


def to_round(game: Game, number: int) -> None:
    while game.state.round < number:
        game.handle("next")
        game.handle("yes")


def round_of(exhibit: int) -> int:
    return (exhibit - 1) // 4 + 1


def lies_of(suspect: str) -> list[FileEntry]:
    return [entry for entry in case().entries_for(suspect) if entry.kind is EntryKind.LIE]


def break_first_lie(game: Game, suspect: str) -> None:
    """Break the suspect's lie that can break soonest, so their HELD lines open."""
    told = [lie for lie in lies_of(suspect) if lie.after is None]
    lie = min(told, key=lambda entry: min(entry.catch))
    exhibit = min(lie.catch)
    to_round(game, round_of(exhibit))
    game.handle(f"Confront {case().suspect(suspect).aliases[0]} with E{exhibit}")
    assert lie.label in game.state.broken


def expected_entry(row: Row) -> FileEntry:
    entries = case().entries_for(row.suspect)
    if row.topic == DEFLECT:
        return next(entry for entry in entries if entry.kind is EntryKind.DEFLECT)
    on_topic = [entry for entry in entries if entry.topic == row.topic]
    assert on_topic, f"{row.suspect} has no topic {row.topic!r}"
    first = [entry for entry in on_topic if entry.kind is not EntryKind.LIE or entry.after is None]
    assert len(first) == 1, f"{row.suspect}/{row.topic}: expected one line in the FILE from the start"
    return first[0]


# Tune questions still answered on another subject (bench/questions.py --misses tune lists them). The questions
# asked before (engine.asked) are these tune questions, so their votes answer most of what the cues and rules
# missed; these are the ones the votes are not sure enough of to overrule the cues (the reasons below are why the
# cues and rules miss them). Strict: one that starts getting its line fails here, so the list only shrinks.
KNOWN_MISSES = frozenset(
    {
        "Mr Ormerod, what train did you come up on?",
        # probes of everyday phrasings: neither of his lines names the plate room; a route asked as a place
        "Reverend, what did you see in the plate room?",
        "Joel, how did you get out to the stables?",
        # The third test set's misses at 9049beb, moved to tune on 2026-11-30, that the rules and cues still miss:
        # disputed labels, questions the card's rules do not put to the suspect, and a DEFLECT sharing a word.
        "Ask the butler whether he went below stairs before twenty-five to eleven.",
        "Miss Marsden, the fiddler says you were beside him. Were you there the whole time?",
        "Miss Marsden, name the carols the waits sang tonight.",
        # The fourth test set's misses at 5412fb8, moved to tune on 2026-12-01, that the rules and cues still miss.
        # Not put to the suspect by the card's rule 4 (the message neither starts with the name nor ends "NAME?" and
        # says you or your): the label assumes a reading the card does not give.
        "Nance heard something fall at the far end of the passage in the sixth verse. Thwaite, did you hear anything?",
        "Bessie Pratt was upstairs making up a room after supper. Mrs. Ruddock, were you with her?",
        "The waits sang facing the house. Joel, what did you see from across the yard?",
        "Who has the keys to the plate room, Mr. Thwaite?",
        "Where does the yard door lead, Mrs. Ruddock?",
        # DEFLECT questions that name what a line speaks of (the grey mare, Leeds): a second referee could take it
        "Joel, what's the grey mare called?",
        "Joel, how far is it to Leeds?",
        # probes of everyday questions: a DEFLECT that names what his line speaks of (the horses); a trailing "when the
        # waits went round" clause names the waits after the plain "upstairs"
        "Joel, who looks after the horses?",
        # probes asked at length: a place after "from" is a circumstance of "any sound" (her line of the senses); "dead"
        # is finding her's cue before the feeling asked; a lead-in's place outranks the person it names when the
        # question names nothing; "it" stands for the lead-in's second thing
        "Joel, are you upset she's dead, or relieved?",
        # The fifth blind set's misses when it moved to tune (2026-12-01), sorted. Ten cited an exhibit by number: the
        # card's rule 5 makes them confrontations, judged by what the suspect says (ADMIT, or the line of the rest asked
        # after "stands by what was said"); all ten are on subject so. The rest, by what went wrong:
        # disputed labels: the question asks whom the room was for (her Ormerod line) but making it up is her own
        # where-she-was; "where were you when Thwaite rang" is where he was by the ruling on setting clauses about others;
        # "did you serve the solicitor any punch?" is his punch (where he was: ladling it) as much as Mr Ormerod
        "Who were you making the Red Room up for, Mrs. Ruddock?",
        # a person asked "about" after a way of asking about anything: the rule raises only a thing
        "Vicar, did you hear anything about young Joel's money troubles?",
        # DEFLECT questions that name what a line speaks of (the piano, the fiddler, a curate, the Bishop,
        # the train, the snow): a person not of the six, or a thing, asked about for itself
        "Miss Marsden, do you know the fiddler's name?",
        "Ask Miss Marsden: how old is the piano in the hall?",
    }
)


def _marked(row: Row) -> object:
    if row.question in KNOWN_MISSES:
        return pytest.param(row, marks=pytest.mark.xfail(strict=True, reason="a known tune miss"))
    return row


@pytest.mark.parametrize("row", [_marked(row) for row in ROWS], ids=str)
def test_a_spoken_question_gets_its_topics_line(row: Row) -> None:
    game = seated()
    entry = expected_entry(row)
    if entry.kind is EntryKind.HELD:
        break_first_lie(game, row.suspect)
    message = game.preview(row.question)
    if message.kind is MessageKind.CONFRONTATION:
        confronted_on_topic(game, row, entry)
        return
    assert message.kind is MessageKind.QUESTION
    assert message.suspect == row.suspect
    assert spoken(game.handle(row.question)) == [entry.words]


def confronted_on_topic(game: Game, row: Row, entry: FileEntry) -> None:
    """A question that cites one exhibit by number is a confrontation (card rule 5), asked once the exhibit is read:
    a lie on the topic asked breaks and its ADMIT (or the lie it gives way to) is said, or the suspect "stands by
    what was said" and the rest is answered as a question, with the topic's line."""
    message = game.preview(row.question)
    assert message.suspect == row.suspect and len(message.exhibits) == 1
    to_round(game, round_of(message.exhibits[0]))
    broken = len(game.state.broken)
    reply = game.handle(row.question)
    system = [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]
    call = case().suspect(row.suspect).call
    if len(game.state.broken) > broken:
        lie = case().lie(game.state.broken[-1])
        assert f"{call} breaks." in system
        assert lie.topic == row.topic, f"broke {lie.label}, a lie on {lie.topic!r}"
        assert spoken(reply) == [lie.admit if lie.admit is not None else case().lie(lie.gives_way_to or "").words]
    else:
        assert f"{call} stands by what was said." in system
        assert spoken(reply) == [entry.words]


def test_every_topic_has_three_differently_worded_questions_and_a_deflect() -> None:
    asked: dict[tuple[str, str], set[str]] = defaultdict(set)
    for row in ROWS:
        asked[(row.suspect, row.topic)].add(row.question.lower())
    for suspect in case().suspects:
        topics = {entry.topic for entry in case().entries_for(suspect.key) if entry.kind is not EntryKind.DEFLECT}
        for topic in topics:
            assert len(asked[(suspect.key, topic)]) >= 3, f"{suspect.key}/{topic}"
        assert asked[(suspect.key, DEFLECT)], f"{suspect.key} has no DEFLECT question"
    known = {(s.key, e.topic) for s in case().suspects for e in case().entries_for(s.key)}
    assert set(asked) <= known, set(asked) - known


def chain_to(label: str) -> list[FileEntry]:
    chain = [case().lie(label)]
    while chain[0].after is not None:
        chain.insert(0, case().lie(chain[0].after))
    return chain


@pytest.mark.parametrize("label", [lie.label for lie in case().lies], ids=str)
def test_every_lie_breaks_in_play_with_each_exhibit_of_its_catch(label: str) -> None:
    *before, lie = chain_to(label)
    suspect = case().suspect(lie.suspect)
    for exhibit in lie.catch:
        game = seated()
        for earlier in before:
            first = min(earlier.catch)
            to_round(game, round_of(first))
            game.handle(f"Confront {suspect.aliases[0]} with E{first}")
        to_round(game, max(game.state.round, round_of(exhibit)))
        asked = game.handle(f"{suspect.aliases[0]}, tell us about the {lie.cues[0]}?")
        assert spoken(asked) == [lie.words], "the lie stands before it is confronted"
        reply = game.handle(f"Confront {suspect.aliases[0]} with E{exhibit}")
        system = [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]
        assert f"{suspect.call} breaks." in system
        after = lie.admit if lie.admit is not None else case().lie(lie.gives_way_to or "").words
        assert spoken(reply) == [after]
        assert game.state.broken[-1] == label


def test_the_case_meets_its_brief() -> None:
    lies = case().lies
    assert len(lies) >= 10
    assert {lie.suspect for lie in lies} == {suspect.key for suspect in case().suspects}
    assert sum(1 for lie in lies if lie.gives_way_to is not None) >= 2
    assert sum(1 for lie in lies if lie.silence is not None) == 1
    held = [entry for entry in case().reveal.entries if entry.kind is EntryKind.HELD]
    assert held
    for suspect in case().suspects:
        topics = {entry.topic for entry in case().entries_for(suspect.key) if entry.kind is not EntryKind.DEFLECT}
        assert len(topics) >= 10, suspect.key


def test_lies_quotes_the_statement_that_told_a_lie_never_asked_for() -> None:
    game = seated()
    to_round(game, 3)
    game.handle("Confront Ormerod with E9")
    statement = next(s.words for s in case().round(2).statements if s.suspect == "ormerod")
    reply = game.handle("lies")
    system = [part.text for part in reply.parts if part.kind is PartKind.SYSTEM]
    assert system == [f'O1, Julius Ormerod: claimed "{statement}"; now "{case().lie("O1").admit}"']
    assert case().lie("O1").words not in system[0], "the lie's own line was never said tonight"
