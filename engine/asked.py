"""How tables asked before: the case's labelled questions vote for the topic of a new one.

The cues name a topic by the words the case's author listed. Six question sets written blind, each measured
before any cue was shaped on it, landed 86-91% on subject with cues alone: strangers ask in words no list holds.
The questions a table asked before, each labelled with the line a fair referee picks (the `tune` part of the
case's question set, sealed beside the reveal as `asked.sealed`), say which words go with which line far more
often than a cue list can. They vote by naive Bayes over a question's words and word pairs, and the vote
overrules the cues only when it is sure (engine.topics, VOTE_MARGIN); otherwise the cues' choice stands.

Pure and deterministic like the rest of the engine: the asked questions come in as text, ties go to the topic
that sorts first.
"""

from __future__ import annotations

import csv
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from engine.text import tab_rows

ASKED_FILE = "asked.sealed"
DEFLECT = "DEFLECT"  # the label of a question no line of the suspect fits
TUNE = "tune"  # the only split of a question set that is sealed as asked: `test` is held out

SMOOTHING = 0.3  # added to every word count (Lidstone): shaped on the earlier blind sets, each held out in turn
# Words that ask rather than say what is asked about; their pairs still count ("where were", "did you see").
_ASKING_WORDS = frozenset(
    "the a an and or of to in on at for with you your did do does was were is are i me my we it that this what when"
    " where why how who which had have has be been mr mrs miss reverend so then there".split()
)
_WORD = re.compile(r"[a-z']+")


@dataclass(frozen=True)
class AskedQuestion:
    """One question a table asked, and the topic of the suspect's line a fair referee answers it with."""

    suspect: str  # the suspect's key
    topic: str  # a FILE topic of that suspect, or DEFLECT
    text: str


@dataclass(frozen=True)
class Vote:
    topic: str  # a FILE topic of the suspect, or DEFLECT
    margin: float  # how much likelier than the next topic in play, as a natural log


def features(text: str) -> list[str]:
    """The words that say what is asked about, and every pair of neighbouring words."""
    words = _WORD.findall(text.lower().replace("\u2019", "'"))
    return [word for word in words if word not in _ASKING_WORDS] + [f"{a} {b}" for a, b in zip(words, words[1:], strict=False)]


class TopicVotes:
    """One suspect's asked questions, counted by topic."""

    def __init__(self, asked: Iterable[AskedQuestion]) -> None:
        counts: dict[str, Counter[str]] = {}
        questions: Counter[str] = Counter()
        for question in asked:
            counts.setdefault(question.topic, Counter()).update(features(question.text))
            questions[question.topic] += 1
        self._known = frozenset(feature for counted in counts.values() for feature in counted)
        vocabulary = len(self._known) + 1
        total = sum(questions.values())
        self._prior = {topic: math.log(count / total) for topic, count in questions.items()}
        self._likely: dict[str, dict[str, float]] = {}
        self._unseen: dict[str, float] = {}  # a known word this topic's questions never used
        for topic, counted in counts.items():
            denominator = sum(counted.values()) + SMOOTHING * vocabulary
            self._likely[topic] = {feature: math.log((n + SMOOTHING) / denominator) for feature, n in counted.items()}
            self._unseen[topic] = math.log(SMOOTHING / denominator)

    def scores(self, question: str, in_play: Collection[str]) -> dict[str, float]:
        """Each topic in play that was asked before, with the log-likelihood of the question under it."""
        known = [feature for feature in features(question) if feature in self._known]
        return {
            topic: prior + sum(self._likely[topic].get(feature, self._unseen[topic]) for feature in known)
            for topic, prior in self._prior.items()
            if topic in in_play
        }

    def vote(self, question: str, in_play: Collection[str]) -> Vote | None:
        """The likeliest topic in play and its margin over the next, or None when fewer than two are in play."""
        scored = sorted(self.scores(question, in_play).items(), key=lambda item: (-item[1], item[0]))
        if len(scored) < 2:
            return None
        return Vote(scored[0][0], scored[0][1] - scored[1][1])


def topic_votes(asked: Iterable[AskedQuestion]) -> dict[str, TopicVotes]:
    """Every suspect's TopicVotes."""
    by_suspect: dict[str, list[AskedQuestion]] = {}
    for question in asked:
        by_suspect.setdefault(question.suspect, []).append(question)
    return {suspect: TopicVotes(questions) for suspect, questions in by_suspect.items()}


class AskedFormatError(ValueError):
    """A line of the asked questions is not suspect, topic and question."""


def parse_asked(text: str, file: str = ASKED_FILE) -> tuple[AskedQuestion, ...]:
    """The sealed asked questions: one `suspect<TAB>topic<TAB>question` a line; `#` lines are comments."""

    def bad_row(number: int) -> AskedFormatError:
        return AskedFormatError(f"{file}:{number}: expected suspect, topic and question, tab-separated")

    return tuple(AskedQuestion(*fields) for fields in tab_rows(text, 3, bad_row))


def format_asked(asked: Iterable[AskedQuestion]) -> str:
    lines = ["# The questions a table asked, each with the topic a fair referee answers (see engine/asked.py)."]
    lines += [f"{question.suspect}\t{question.topic}\t{question.text}" for question in asked]
    return "\n".join(lines) + "\n"


def tune_questions(question_set: str) -> tuple[AskedQuestion, ...]:
    """The `tune` rows of a case's question set (spoilers/<case>/questions.tsv: split, suspect_key, topic, question)."""
    rows = [line for line in question_set.splitlines() if line.strip() and not line.startswith("#")]
    return tuple(
        AskedQuestion(row["suspect_key"], row["topic"], row["question"])
        for row in csv.DictReader(rows, delimiter="\t")
        if row["split"] == TUNE
    )


def unknown_topics(asked: Iterable[AskedQuestion], topics: Mapping[str, Collection[str]]) -> list[AskedQuestion]:
    """The asked questions whose suspect or topic the case does not have (`topics`: each suspect's FILE topics)."""
    return [q for q in asked if q.suspect not in topics or (q.topic != DEFLECT and q.topic not in topics[q.suspect])]
