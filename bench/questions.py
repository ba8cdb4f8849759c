"""Topic choice on Hollin Fold: how often a table's question reaches a FILE line, and the one a fair referee picks.

    .venv/bin/python bench/questions.py [--by-set] [--misses tune|test|all] [--questions FILE]
                                        [--no-echo] [--no-votes] [--drop-cues FRACTION --seed N]

Each question of spoilers/hollin-fold/questions.tsv is put to a fresh game seated with one player; where
the fair referee's line is a HELD line, one of that suspect's lies is broken first (so the line is in the
FILE). "reaches a line": the suspect answers with a FILE line, not DEFLECT (over questions labelled with a
line). "on subject": the answer is the labelled line (over every question, DEFLECT labels included). A
question that cites an exhibit by number is a confrontation (card rule 5), put once that exhibit is read: it
is on subject when what the suspect says is the labelled topic's line, the ADMIT of a lie it breaks included
(card: "stands by what was said" and "answer the rest as a question").
--no-echo answers without the lines' own words (only cues), --no-votes without the questions asked before;
--drop-cues leaves out that fraction of the case's cues, drawn by --seed: how the rules fare on wordings the cue lists
do not hold.
Targets (issue 12), on the test split: on subject >= 92%, reaches a line >= 95%.
"""

from __future__ import annotations

import argparse
import csv
import io
import random
import re
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
from engine.topics import build_topic_indexes  # noqa: E402
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
    blind_set: str = ""  # the held-out set it was written in ("first" ... "fifth"), "" for questions written as tune

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


# "# The second test set (201 questions, below) ..." starts a blind set; "# Tune ..." or "# Moved ..." ends it
_SET_HEADING = re.compile(r"^# The (\w+) test set\b.*?\(\d+ questions, below")
_SET_END = re.compile(r"^# (Tune|Moved)\b")


def read_questions(path: Path = QUESTIONS) -> list[Question]:
    return parse_questions(path.read_text(encoding="utf-8"))


def parse_questions(text: str) -> list[Question]:
    """The rows of a question set's text (bench/topic_folds.py reads them as an earlier commit had them)."""
    rows: list[str] = []
    sets: list[str] = []  # the blind set each row was written in, by the headings above it
    current = ""
    for line in io.StringIO(text, newline=""):
        if heading := _SET_HEADING.match(line):
            current = heading.group(1)
        elif _SET_END.match(line):
            current = ""
        elif not line.startswith("#") and line.strip():  # a blank line is no row
            rows.append(line)
            sets.append(current)
    reader = csv.DictReader(rows, delimiter="\t")
    return [
        Question(r["split"], r["suspect_key"], r["topic"], r["question"], blind_set)
        for r, blind_set in zip(reader, sets[1:], strict=True)
    ]


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
    to_round(game, (exhibit - 1) // 4 + 1)
    game.handle(f"Confront {case.suspect(suspect).aliases[0]} with E{exhibit}")


def topic_of(case: Case, suspect: str, words: str) -> str:
    for entry in case.entries_for(suspect):
        if entry.words == words or entry.admit == words:
            return DEFLECT if entry.kind is EntryKind.DEFLECT else entry.topic
    return "?"


def to_round(game: Game, number: int) -> None:
    while game.state.round < number:
        game.handle("next")
        game.handle("yes")


def ask(case: Case, question: Question) -> Outcome:
    game = seated(case)
    if expected_entry(case, question).kind is EntryKind.HELD:
        break_first_lie(case, game, question.suspect)
    message = game.preview(question.text)
    if message.kind is MessageKind.CONFRONTATION and len(message.exhibits) == 1:
        # a question that cites an exhibit by number is a confrontation (rule 5), asked once that exhibit is read:
        # the suspect breaks and speaks the ADMIT, or stands by what was said and answers the rest as a question
        to_round(game, (message.exhibits[0] - 1) // 4 + 1)
        message = game.preview(question.text)
    asked = (MessageKind.QUESTION, MessageKind.CONFRONTATION)
    put = message.kind in asked and message.suspect == question.suspect
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
    parser.add_argument("--by-set", action="store_true", help="on subject for each blind set written held out")
    parser.add_argument("--misses", choices=("tune", "test", "all"), help="list the questions not on subject")
    parser.add_argument("--no-echo", action="store_true", help="no back-off to the lines' own words")
    parser.add_argument("--no-votes", action="store_true", help="no votes of the questions asked before (engine.asked)")
    parser.add_argument("--drop-cues", type=float, default=0.0, help="leave out this fraction of the cues")
    parser.add_argument("--seed", type=int, default=1, help="which cues --drop-cues leaves out")
    args = parser.parse_args()
    case = hollin_fold()
    if args.no_echo or args.drop_cues or args.no_votes:
        draw = random.Random(args.seed)
        kept = {
            (entry.line, cue): draw.random() >= args.drop_cues
            for entry in case.reveal.entries
            for cue in (*entry.cues, *entry.plain_cues)
        }
        case.derived["topics"] = build_topic_indexes(
            case, lambda entry, cue: kept[(entry.line, cue)], echo=not args.no_echo, votes=not args.no_votes
        )
    outcomes = list(run(read_questions(args.questions), case))
    print("| split | questions | reaches a line | on subject |")
    print("|---|---|---|---|")
    for split in SPLITS:
        mine = [o for o in outcomes if o.question.split == split]
        if not mine:
            print(f"| {split} | 0 | none | none |")  # no rows of this split (a held-out set not yet written)
            continue
        lined = [o for o in mine if o.question.topic != DEFLECT]
        reach = sum(o.reaches_line for o in lined) / max(len(lined), 1)
        subject = sum(o.on_subject for o in mine) / max(len(mine), 1)
        print(
            f"| {split} | {len(mine)} | {reach:.1%} ({sum(o.reaches_line for o in lined)}/{len(lined)}) "
            f"| {subject:.1%} ({sum(o.on_subject for o in mine)}/{len(mine)}) |"
        )
    if args.by_set:
        # each blind set once held out: its figure shows how rules shaped on the rest carry over to strangers' wording
        print()
        print("| blind set | questions | reaches a line | on subject |")
        print("|---|---|---|---|")
        for blind_set in dict.fromkeys(o.question.blind_set for o in outcomes if o.question.blind_set):
            mine = [o for o in outcomes if o.question.blind_set == blind_set]
            lined = [o for o in mine if o.question.topic != DEFLECT]
            reached, on = sum(o.reaches_line for o in lined), sum(o.on_subject for o in mine)
            print(
                f"| {blind_set} | {len(mine)} | {reached / max(len(lined), 1):.1%} ({reached}/{len(lined)}) "
                f"| {on / max(len(mine), 1):.1%} ({on}/{len(mine)}) |"
            )
    if args.misses:
        print()
        for outcome in outcomes:
            if not outcome.on_subject and args.misses in ("all", outcome.question.split):
                got = outcome.answered if outcome.put_to_suspect else "(not put to the suspect)"
                print(f"{outcome.question.split}\t{outcome.question}\t-> {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
