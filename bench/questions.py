"""Topic choice on Hollin Fold: how often a table's question reaches a FILE line, and the one a fair referee picks.

    .venv/bin/python bench/questions.py [--misses tune|test|all] [--questions FILE]

Each question of spoilers/hollin-fold/questions.tsv is put to a fresh game seated with one player; where
the fair referee's line is a HELD line, one of that suspect's lies is broken first (so the line is in the
FILE). "reaches a line": the suspect answers with a FILE line, not DEFLECT (over questions labelled with a
line). "on subject": the answer is the labelled line (over every question, DEFLECT labels included).
Targets (issue 12), on the test split: on subject >= 92%, reaches a line >= 95%.
"""

from __future__ import annotations

import argparse
import csv
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.case import Case, EntryKind, FileEntry  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.messages import MessageKind  # noqa: E402
from engine.replies import PartKind  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402

QUESTIONS = Path(__file__).resolve().parents[1] / "spoilers" / "hollin-fold" / "questions.tsv"
DEFLECT = "DEFLECT"
SPLITS = ("tune", "test")


@dataclass(frozen=True)
class Question:
    split: str
    suspect: str
    topic: str  # the fair referee's topic, or DEFLECT
    text: str

    def __str__(self) -> str:
        return f"{self.suspect}/{self.topic}: {self.text}"


@dataclass(frozen=True)
class Outcome:
    question: Question
    put_to_suspect: bool  # the classifier took it as a question to that suspect
    answered: str | None  # the topic of the line said (DEFLECT for the deflect line), None if nothing was said

    @property
    def reaches_line(self) -> bool:
        return self.answered is not None and self.answered != DEFLECT

    @property
    def on_subject(self) -> bool:
        return self.answered == self.question.topic


def read_questions(path: Path = QUESTIONS) -> list[Question]:
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    rows = csv.DictReader(lines, delimiter="\t")
    return [Question(r["split"], r["suspect_key"], r["topic"], r["question"]) for r in rows]


@cache
def hollin_fold() -> Case:
    return load_bundled_case()


def seated(case: Case) -> Game:
    game = Game(case)
    game.start()
    game.handle("Ann")
    return game


def expected_entry(case: Case, question: Question) -> FileEntry:
    entries = case.entries_for(question.suspect)
    if question.topic == DEFLECT:
        return next(entry for entry in entries if entry.kind is EntryKind.DEFLECT)
    on_topic = [entry for entry in entries if entry.topic == question.topic]
    if not on_topic:
        raise ValueError(f"{question.suspect} has no topic {question.topic!r}")
    return next(entry for entry in on_topic if entry.kind is not EntryKind.LIE or entry.after is None)


def break_first_lie(case: Case, game: Game, suspect: str) -> None:
    """Break the suspect's lie that can break soonest, so their HELD lines are in the FILE."""
    told = [entry for entry in case.entries_for(suspect) if entry.kind is EntryKind.LIE and entry.after is None]
    lie = min(told, key=lambda entry: min(entry.catch))
    exhibit = min(lie.catch)
    while game.state.round < (exhibit - 1) // 4 + 1:
        game.handle("next")
        game.handle("yes")
    game.handle(f"Confront {case.suspect(suspect).aliases[0]} with E{exhibit}")


def topic_of(case: Case, suspect: str, words: str) -> str:
    for entry in case.entries_for(suspect):
        if entry.words == words or entry.admit == words:
            return DEFLECT if entry.kind is EntryKind.DEFLECT else entry.topic
    return "?"


def ask(case: Case, question: Question) -> Outcome:
    game = seated(case)
    if expected_entry(case, question).kind is EntryKind.HELD:
        break_first_lie(case, game, question.suspect)
    message = game.preview(question.text)
    put = message.kind is MessageKind.QUESTION and message.suspect == question.suspect
    said = [part.text for part in game.handle(question.text).parts if part.kind is PartKind.SUSPECT]
    answered = topic_of(case, question.suspect, said[0]) if put and said else None
    return Outcome(question, put, answered)


def run(questions: list[Question], case: Case | None = None) -> Iterator[Outcome]:
    case = case or hollin_fold()
    for question in questions:
        yield ask(case, question)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=QUESTIONS)
    parser.add_argument("--misses", choices=("tune", "test", "all"), help="list the questions not on subject")
    args = parser.parse_args()
    outcomes = list(run(read_questions(args.questions)))
    print("| split | questions | reaches a line | on subject |")
    print("|---|---|---|---|")
    for split in SPLITS:
        mine = [o for o in outcomes if o.question.split == split]
        lined = [o for o in mine if o.question.topic != DEFLECT]
        reach = sum(o.reaches_line for o in lined) / max(len(lined), 1)
        subject = sum(o.on_subject for o in mine) / max(len(mine), 1)
        print(f"| {split} | {len(mine)} | {reach:.1%} ({sum(o.reaches_line for o in lined)}/{len(lined)}) "
              f"| {subject:.1%} ({sum(o.on_subject for o in mine)}/{len(mine)}) |")
    if args.misses:
        print()
        for outcome in outcomes:
            if not outcome.on_subject and args.misses in ("all", outcome.question.split):
                got = outcome.answered if outcome.put_to_suspect else "(not put to the suspect)"
                print(f"{outcome.question.split}\t{outcome.question}\t-> {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
