"""A free command asked for in words no template lists: the words of what tables said vote for it.

The phrase grammar's templates carry over to a new writer's words only in part: three blind sets of
commands in other words, each measured before anything was shaped on it, landed 55-73% (bench/phrasings.py).
The phrasings tables said before, each labelled with its command (engine/said/commands.tsv), and what tables
say to themselves (engine/said/talk.tsv, and the phrase grammar's sentences that must stay as they are) say
which words go with a command far more often than a template can: "any lies busted yet, mate?" shares "lies"
and "busted" with lines labelled `lies`, and nothing with talk. They vote by naive Bayes over a message's
words and word pairs, as the asked questions vote for a topic (engine.asked), with `talk` as one more class, and
`put to` another (engine/said/put_to.tsv: "could the butler tell us if he heard anything" is no request for his
answers so far).

The classifier asks the votes last, at rule 8: only for a message that nothing else took, and only when the
command is far likelier than talk (MARGIN). A suspect's name is one word, `xname`, and an exhibit number
another, `xnumber`, so the examples (written for Hollin Fold) count for any case; the classifier then reads
the name or the number from the message itself. A word after a negation is a word of its own ("don't skip
me" is not "skip me").

Pure and deterministic like the rest of the engine: the examples are read from the package, and ties go to
the command that sorts first. bench/request_folds.py holds the examples out by folds (where MARGIN and
SMOOTHING were chosen); bench/phrasings.py measures the blind sets.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import snowballstemmer

from engine.case import NUMBER_WORDS, ORDINAL_WORDS, parse_public
from engine.grammar import grammar
from engine.names import NameIndex
from engine.text import tab_rows

SAID_DIR = Path(__file__).resolve().parent / "said"
COMMANDS_FILE = SAID_DIR / "commands.tsv"
TALK_FILE = SAID_DIR / "talk.tsv"
PUT_TO_FILE = SAID_DIR / "put_to.tsv"
EXAMPLES_CASE = Path(__file__).resolve().parent / "cases" / "hollin-fold" / "public.case"  # the examples' names

TALK = "talk"  # the class of what a table says to itself
PUT_TO = "put to"  # the class of questions and confrontations put to one of the six ("could the butler tell us ...")
NOT_COMMANDS = (TALK, PUT_TO)
# The commands a vote may name: the card's free commands that take words ("yes" and "no" answer the Host's own
# questions, and the grammar's lists hold them) and the voice host's "repeat".
VOTED = ("statements", "lies", "read", "answers", "pass", "next", "save", "give up", "repeat")
SMOOTHING = 0.3  # added to every word count (Lidstone); shaped on five folds of the tune examples
# How much likelier (a natural log) the command must be than talk (or a message put to one of the six): on five
# folds of the examples (bench/request_folds.py), 12 took 94.9% of the commands (88.9% with the votes off), no line
# of talk the templates let be and no question; 10 took 95.7% and one line of talk more.
MARGIN = 12.0
# How much likelier than the next command: two commands near alike ("could you read the bit heaven", read
# without its number, or the statements? 2.2 apart) are neither. On the folds no command was taken as another
# even at 0; 4 costs 4 of 1048 there, for speech heard wrong.
LEAD = 4.0
KEPT_WEIGHT = 5  # how many times each of the grammar's sentences that must stay as they are counts (below)

NAME = "xname"  # one of the six, however named
NUMBER = "xnumber"  # an exhibit's (or any) number
_STEMMER = snowballstemmer.stemmer("english")
_WORD = re.compile(r"[a-z0-9']+")
_CLAUSE = re.compile(r"[,.;:!?]|\s[-\u2013\u2014]\s")  # a negation reaches the end of its clause
_CITED = re.compile(r"(?:\be|#)(\d+)\b")
# Numbers said as words count as numbers: typed "exhibit seven" and heard "exhibit 7" are one example.
_NUMBER_WORDS = frozenset((*NUMBER_WORDS, *ORDINAL_WORDS))


@dataclass(frozen=True)
class Said:
    """One example: what was said, and the command it asks for (`read E7` and `answers keld` as `read`, `answers`)
    or `talk`."""

    label: str
    text: str
    argument: str | None = None  # read's exhibit number ("7"), answers' suspect key ("keld")


@dataclass(frozen=True)
class RequestVote:
    command: str  # one of VOTED
    margin: float  # how much likelier than talk or a message put to one of the six, as a natural log
    lead: float  # how much likelier than the next command (the margin when there is none)


def features(text: str, names: NameIndex | None) -> list[str]:
    """The message's stemmed words, a name as NAME and a number as NUMBER, and every pair of neighbouring words
    (the first and last with the message's edges, so "^ can" and "again $" count). A word after a negation in
    its clause (the grammar's [requests] negations) is a word of its own, `~word`: "don't read the statements
    again" shares no word with "read the statements again" but "don't"."""
    said = text.lower().replace("\u2019", "'")
    for mention in reversed(names.mentions(said) if names is not None else []):
        said = f"{said[: mention.start]} {NAME}{said[mention.end :]}"  # "Keld's" is "xname's", as a word
    said = _CITED.sub(f" {NUMBER} ", said)
    negations = grammar().requests.negations
    stems: list[str] = []
    for clause in _CLAUSE.split(said):
        negated = False
        for word in _WORD.findall(clause):
            stems.append(f"~{_stem(word)}" if negated else _stem(word))
            negated = negated or word in negations
    return [*stems, *(f"{a} {b}" for a, b in zip(["^", *stems], [*stems, "$"], strict=True))]


@cache  # the stemmer is pure Python: a table's words repeat
def _stem(word: str) -> str:
    if word.isdigit() or word in _NUMBER_WORDS:
        return NUMBER
    bare = word.removesuffix("'s")
    return bare if bare in (NAME, NUMBER) else str(_STEMMER.stemWord(bare))


class RequestVotes:
    """The examples, counted by command."""

    def __init__(self, examples: Iterable[tuple[str, list[str]]]) -> None:
        counts: dict[str, Counter[str]] = {}
        for label, said in examples:
            counts.setdefault(label, Counter()).update(said)
        if TALK not in counts:
            raise ValueError("the request votes need examples of talk")
        self._known = frozenset(feature for counted in counts.values() for feature in counted)
        vocabulary = len(self._known) + 1
        self._likely: dict[str, dict[str, float]] = {}
        self._unseen: dict[str, float] = {}  # a known word this command's examples never used
        for label, counted in sorted(counts.items()):
            denominator = sum(counted.values()) + SMOOTHING * vocabulary
            self._likely[label] = {feature: math.log((n + SMOOTHING) / denominator) for feature, n in counted.items()}
            self._unseen[label] = math.log(SMOOTHING / denominator)

    def scores(self, said: list[str]) -> dict[str, float]:
        """Each class's log-likelihood of the words (the classes weigh alike: no prior)."""
        known = [feature for feature in said if feature in self._known]
        return {
            label: sum(likely.get(feature, self._unseen[label]) for feature in known) for label, likely in self._likely.items()
        }

    def vote(self, said: list[str]) -> RequestVote | None:
        """The likeliest command, its margin over talk and its lead over the next command, or None when talk is
        the likeliest."""
        scores = self.scores(said)
        ranked = sorted(scores, key=lambda label: (-scores[label], label))
        best = ranked[0]
        if best in NOT_COMMANDS:
            return None
        other = max(scores[label] for label in NOT_COMMANDS if label in scores)
        runner_up = next((scores[label] for label in ranked[1:] if label not in NOT_COMMANDS), other)
        return RequestVote(best, scores[best] - other, scores[best] - runner_up)


class SaidFormatError(ValueError):
    """A line of an examples file is not a label and what was said."""


def parse_said(text: str, file: str, label: str | None = None) -> tuple[Said, ...]:
    """One `label<TAB>said` a line (`#` lines are comments); `label` gives every line that label instead."""

    def bad_row(number: int) -> SaidFormatError:
        return SaidFormatError(f"{file}:{number}: expected a label and what was said, tab-separated")

    found: list[Said] = []
    for fields in tab_rows(text, 2, bad_row):
        command, argument = _command_of(fields[0].strip())
        found.append(Said(label or command, fields[1].strip(), None if label else argument))
    return tuple(found)


def _command_of(label: str) -> tuple[str, str | None]:
    """ "read E7" is `read` of "7", "answers keld" is `answers` of "keld"; the rest as written."""
    first, _, rest = label.partition(" ")
    if first == "read":
        return first, rest.removeprefix("E") or None
    if first == "answers":
        return first, rest or None
    return label, None


@cache
def said_commands() -> tuple[Said, ...]:
    """What tables said for each command (engine/said/commands.tsv), read once."""
    return parse_said(COMMANDS_FILE.read_text(encoding="utf-8"), COMMANDS_FILE.name)


@cache
def examples_names() -> NameIndex:
    """How the examples name the six: Hollin Fold's NAMES, for which they were written."""
    return NameIndex(parse_public(EXAMPLES_CASE.read_text(encoding="utf-8")))


@cache
def request_votes() -> RequestVotes:
    """The votes of the engine's own examples (engine/said), counted once."""
    names = examples_names()
    phrases = grammar()
    examples = (
        *said_commands(),
        *parse_said(TALK_FILE.read_text(encoding="utf-8"), TALK_FILE.name, label=TALK),
        *parse_said(PUT_TO_FILE.read_text(encoding="utf-8"), PUT_TO_FILE.name, label=PUT_TO),
    )
    # The phrase grammar's own sentences that must stay what they are ("which of us is going to save the game"):
    # each is the one example of a way of talking that sounds like a command, so it counts KEPT_WEIGHT times.
    kept = [Said(TALK, sentence) for sentence in (*phrases.requests.not_tests, *phrases.clauses.not_tests)]
    examples = (*examples, *(kept * KEPT_WEIGHT))
    return RequestVotes((e.label, features(e.text, names)) for e in examples if e.label in (*VOTED, *NOT_COMMANDS))


def voted_command(text: str, names: NameIndex | None) -> RequestVote | None:
    """The command the examples' words vote for, when it is at least MARGIN likelier than talk and LEAD likelier
    than the next command; else None."""
    vote = request_votes().vote(features(text, names))
    return vote if vote is not None and vote.margin >= MARGIN and vote.lead >= LEAD else None
