"""What people say, as data: a small declarative phrase grammar in the template language of hassil.

The phrasings live in `phrases.toml` beside this module; this module only reads them. A template is
words, `(a|b)` alternatives, `[a|b]` optional words, `{slot}` values from a list and `<part>` shared
expansions, as in Home Assistant's intents (hassil is not imported: the engine keeps to the standard
library). Each intent names what it means (a card command, a question about the state, a rules
passage...) and carries its own test sentences.

A template matches a whole message, word for word, after `engine.text.words` (lowercase, no
punctuation): "Could you read exhibit 7, please?" is `could you read exhibit 7 please`. The first
intent in the file that matches wins, so the order in the file is part of the grammar. A message no
template says whole may still be a command said with courtesy or a reason around it ("I'll pass,
thanks"): `Grammar.in_clauses` matches its clauses one by one ([clauses]). Matching is pure and
deterministic, so a journal replays through it unchanged.
"""

from __future__ import annotations

import itertools
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from engine.exhibits import NUMERAL, numeral_value
from engine.text import words

PHRASES_FILE = Path(__file__).with_name("phrases.toml")
# An exhibit cited in a request's object: "exhibit 7", "number 7", "e7" (a bare number never cites one).
_CITED = re.compile(r"\b(?:exhibit|number|e) ?\d")
# Nobody says a command or asks the Host about the game in more words than this; longer messages
# are never matched (and a long message is not scanned by every template).
MAX_PHRASE_WORDS = 24
# Words that join a clause to the one before it ("but not that one"): a clause opens after them.
_JOINERS = frozenset({"but", "and", "or", "though", "so"})
# The words that may follow a request's opening verb in a clause that only goes on with the command
# beside it ("read them back", "list 'em", "read it again, please").
_GOING_ON = frozenset(
    "it them 'em em back again out please those these that this over up for us me then now once more time".split()
)
# Where a message's clauses part: a comma, a stop, a colon or semicolon, an exclamation or question mark, a
# spaced dash; a title's full stop ("Mr. Thwaite") is no break.
_CLAUSE_BREAK = re.compile(r"[,;:!?]+|(?<!\bMr)(?<!\bMrs)(?<!\bMs)(?<!\bDr)(?<!\bRev)\.+|\s[-–—]\s")


class GrammarError(ValueError):
    """A template or the phrase file is malformed."""


class IntentKind(Enum):
    COMMAND = "command"  # a card command in other words: `card` is the card's own message
    HOST = "host"  # a request to the voice host itself (repeat), never a game message
    STATE = "state"  # a question about the state, answered from it
    RULES = "rules"  # a rules question, answered from a HOW TO PLAY passage
    WHO = "who"  # who one of the six is, by name or role


class StateQuestion(Enum):
    """The state questions the Host answers, each with one line of FULL STATE (or the prompt line)."""

    TURN = "turn"
    QUESTIONS = "questions"
    ROUND = "round"
    EXHIBITS = "exhibits"
    LIES = "lies"
    SEATS = "seats"
    ACCUSATION = "accusation"
    FULL = "full"


# --- the template language ------------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str


@dataclass(frozen=True)
class Slot:
    name: str
    possessive: bool = False  # written `{name}'s`: the slot's last word carries 's


@dataclass(frozen=True)
class Part:
    name: str  # a shared expansion, `<name>`


@dataclass(frozen=True)
class Choice:
    options: tuple[Phrase, ...]
    optional: bool


@dataclass(frozen=True)
class Phrase:
    items: tuple[Word | Slot | Part | Choice, ...]


_TOKEN = re.compile(r"\s*(?:(?P<open>[(\[])|(?P<close>[)\]])|(?P<bar>\|)|\{(?P<slot>[a-z_]+)\}(?P<poss>'s)?|<(?P<part>[a-z_]+)>|"
                    r"(?P<word>[^\s()\[\]|{}<>]+))")  # fmt: skip


def parse_template(template: str) -> Phrase:
    """`(hear|read) [us] the statements [again]` as a tree of words, choices, slots and parts."""
    tokens: list[tuple[str, str]] = []
    pos = 0
    template = template.strip()
    while pos < len(template):
        match = _TOKEN.match(template, pos)
        if match is None or match.end() == pos:
            raise GrammarError(f"cannot read {template!r} at {pos}")
        pos = match.end()
        kind = match.lastgroup
        if kind == "poss":
            tokens.append(("slot", match.group("slot") + "'s"))
        elif kind is not None:
            tokens.append((kind, match.group(kind)))
    sequence, end = _parse_sequence(tokens, 0, template)
    if end != len(tokens):
        raise GrammarError(f"unbalanced brackets in {template!r}")
    return sequence


def _parse_sequence(tokens: list[tuple[str, str]], pos: int, template: str) -> tuple[Phrase, int]:
    items: list[Word | Slot | Part | Choice] = []
    while pos < len(tokens):
        kind, value = tokens[pos]
        if kind in ("close", "bar"):
            break
        if kind == "open":
            options: list[Phrase] = []
            pos += 1
            while True:
                option, pos = _parse_sequence(tokens, pos, template)
                options.append(option)
                if pos >= len(tokens):
                    raise GrammarError(f"unclosed bracket in {template!r}")
                if tokens[pos][0] == "bar":
                    pos += 1
                    continue
                break
            closing = tokens[pos][1]
            if (value, closing) not in (("(", ")"), ("[", "]")):
                raise GrammarError(f"mismatched brackets in {template!r}")
            items.append(Choice(tuple(options), optional=value == "["))
            pos += 1
            continue
        if kind == "slot":
            possessive = value.endswith("'s")
            items.append(Slot(value.removesuffix("'s"), possessive))
        elif kind == "part":
            items.append(Part(value))
        else:
            for word in words(value):  # "let's" stays one word; "re-read" is two, as a message's are
                items.append(Word(word))
        pos += 1
    return Phrase(tuple(items)), pos


# --- slot lists -----------------------------------------------------------------------------------


class ListKind(Enum):
    VALUES = "values"  # fixed phrases, each with the value it stands for
    EXHIBIT = "exhibit"  # the card's exhibit citations: E7, exhibit 7, exhibit number 7, #7, number 7
    WILDCARD = "wildcard"  # any few words (a name: the caller decides whether it is one)


@dataclass(frozen=True)
class SlotList:
    name: str
    kind: ListKind
    values: Mapping[str, str] = field(default_factory=dict)  # phrase -> value (VALUES); never alone (WILDCARD)

    def pattern(self, group: str, possessive: bool) -> str:
        end = "'s " if possessive else " "
        if self.kind is ListKind.EXHIBIT:
            return rf"(?:exhibit (?:number )?|number |e )?e?(?P<{group}>{NUMERAL}){end}"
        if self.kind is ListKind.WILDCARD:
            return rf"(?P<{group}>(?:\S+ ){{0,4}}?[^\s']+){end}"
        phrases = sorted(self.values, key=len, reverse=True)
        return rf"(?P<{group}>" + "|".join(re.escape(" ".join(words(p))) for p in phrases) + rf"){end}"

    def excludes(self, said: str) -> bool:
        """A wildcard's values are what it never is on its own ("you" is no one's name), nor its first
        word ("what did you just say" names no one as "you just")."""
        return self.kind is ListKind.WILDCARD and (said in self.values or said.split()[0] in self.values)

    def value(self, said: str) -> str:
        if self.kind is ListKind.VALUES:
            return self.values[said]
        if self.kind is ListKind.EXHIBIT:
            return str(numeral_value(said))
        return said


# --- intents --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Intent:
    """One thing people mean, the ways they say it, and the sentences that test it."""

    name: str
    kind: IntentKind
    templates: tuple[str, ...]
    tests: tuple[str, ...]
    card: str = ""  # COMMAND: the card's message, with {slot}s ("read E{exhibit}")
    # COMMAND: what the command is for ("statements", "{exhibit}"), found anywhere in a request (`Requests`)
    objects: tuple[str, ...] = ()
    state: StateQuestion | None = None  # STATE
    passage: str = ""  # RULES: the case's HOW TO PLAY passage ("help", "asking"...)


@dataclass(frozen=True)
class IntentMatch:
    intent: Intent
    slots: Mapping[str, str]

    @property
    def card_message(self) -> str:
        """The card's own message this phrasing stands for ("read E7"), for a COMMAND intent."""
        return self.intent.card.format_map(dict(self.slots))

    @property
    def meaning(self) -> str:
        """What it means, to tell two matches apart: the card's message, else the intent ("repeat")."""
        return self.card_message or self.intent.name


@dataclass(frozen=True)
class Requests:
    """How a request for a command in words no template lists is told from table talk (phrases.toml's
    [requests]): it asks (a cue opens it or is anywhere in it), names the object of one command, says no
    negation, and is short. Tests are (sentence, card message) pairs; not_tests stay table talk."""

    openings: tuple[str, ...] = ()  # cues that open the message ("read", "remind us")
    # a question word that opens the message asks for a command only when the command gives something to
    # hear (`about`: "what was in exhibit 7?" is read E7; "what happens if we give up?" asks about a rule)
    question_openings: tuple[str, ...] = ()
    about: frozenset[str] = frozenset()
    # a player saying what they (or the table) will do opens a request only for a command that is theirs
    # to announce (`declared`: "I'll skip my question" is pass; "I'm thinking about the lies we broke" is not lies)
    declarations: tuple[str, ...] = ()
    declared: frozenset[str] = frozenset()
    anywhere: tuple[str, ...] = ()  # cues found anywhere ("can you", "again")
    negations: frozenset[str] = frozenset()
    max_words: int = 0
    tests: tuple[tuple[str, str], ...] = ()
    not_tests: tuple[str, ...] = ()


@dataclass(frozen=True)
class Clauses:
    """A command said with courtesy or a reason around it (phrases.toml's [clauses]): "I'll pass, thanks",
    "No, we've still got questions", "Grandma didn't hear, say it again". The message is split into its
    clauses at punctuation; when the clauses that a template says whole all mean one thing of `kinds`
    (agreement with another command is that command: "That's it, we give up") and every other clause is
    short, cites no number, opens with no negation (unless the command is no: "Give up? Never."), asks
    for nothing else (no request opening, no command's object: "Go on, read out the lies") and is
    judged neutral by the caller (it names none of the six), the message means that thing. Tests are
    (sentence, card message or intent name) pairs; not_tests keep their meaning."""

    kinds: frozenset[IntentKind] = frozenset()
    never_alone: frozenset[str] = frozenset()  # a clause that is only these words means nothing here ("stop")
    max_clause_words: int = 0
    tests: tuple[tuple[str, str], ...] = ()
    not_tests: tuple[str, ...] = ()


@dataclass(frozen=True)
class Asking:
    """Other words for the card's "Ask NAME" (phrases.toml's [asking]): "can we ask", "question to",
    "over to" open a message and "Ask" takes their place. Tests are (sentence, rewritten) pairs."""

    openings: tuple[str, ...] = ()
    tests: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RequestMatch:
    """A request naming one command's object: the command and the words of the object found."""

    said: IntentMatch
    object_words: str
    start: int = 0  # where the object is in the message's words, as characters
    end: int = 0


@dataclass(frozen=True)
class _Compiled:
    intent: Intent
    pattern: re.Pattern[str]
    groups: Mapping[str, str]  # regex group -> slot name


class Grammar:
    """The phrase grammar: intents in order, each template compiled to one anchored pattern."""

    def __init__(
        self,
        intents: tuple[Intent, ...],
        lists: Mapping[str, SlotList],
        parts: Mapping[str, str],
        requests: Requests | None = None,
        asking: Asking | None = None,
        clauses: Clauses | None = None,
    ) -> None:
        self.intents = intents
        self.requests = requests or Requests()
        self.asking = asking or Asking()
        self.clauses = clauses or Clauses()
        self.lists = dict(lists)
        self._parts = {name: parse_template(text) for name, text in parts.items()}
        self._by_name = {intent.name: intent for intent in intents}
        if len(self._by_name) != len(intents):
            raise GrammarError("two intents share a name")
        self._compiled: list[_Compiled] = []
        # Templates by the words they can start with, so a message is tried only against those that
        # could say it (a slot that can come first puts its template under every word).
        self._by_first: dict[str, list[int]] = {}
        self._any_first: list[int] = []
        for intent in intents:
            for template in intent.templates:
                groups: dict[str, str] = {}
                tree = parse_template(template)
                index = len(self._compiled)
                self._compiled.append(_Compiled(intent, re.compile(self._regex(tree, groups, ())), groups))
                first, _, anything = self._first_words(tree, ())
                if anything:
                    self._any_first.append(index)
                for word in first:
                    self._by_first.setdefault(word, []).append(index)
        # Requests and other words for "Ask": openings match where the message starts; `anywhere` cues and
        # commands' objects at any of its words (objects are tried from each word in turn).
        self._openings = [self._span(t) for t in self.requests.openings]
        self._question_openings = [self._span(t) for t in self.requests.question_openings]
        self._declarations = [self._span(t) for t in self.requests.declarations]
        self._anywhere = [self._span(t, anywhere=True) for t in self.requests.anywhere]
        self._asking = [self._span(t) for t in self.asking.openings]
        self._part_patterns: dict[str, re.Pattern[str]] = {}  # `part_words`' patterns, made when first asked
        self._objects: list[_Compiled] = []
        for intent in intents:
            for template in intent.objects:
                groups = {}
                self._objects.append(_Compiled(intent, self._span(template, groups), groups))

    # -- matching --------------------------------------------------------------------------------

    def match(self, text: str, kinds: frozenset[IntentKind] | None = None) -> IntentMatch | None:
        """The first intent (in file order) one of whose templates says the whole of `text`."""
        return next(self.matches(text, kinds), None)

    def matches(self, text: str, kinds: frozenset[IntentKind] | None = None) -> Iterator[IntentMatch]:
        """Every template that says the whole of `text`, in file order (a caller that finds a slot's
        value is not what it needs, such as a {name} that names no one, takes the next)."""
        tokens = self._without_vocatives(words(text))
        if not tokens or len(tokens) > MAX_PHRASE_WORDS:
            return
        said = " ".join(tokens) + " "
        for index in sorted({*self._by_first.get(tokens[0], ()), *self._any_first}):
            compiled = self._compiled[index]
            if kinds is not None and compiled.intent.kind not in kinds:
                continue
            found = compiled.pattern.fullmatch(said)
            if found is None:
                continue
            said_slots = {compiled.groups[group]: value for group, value in found.groupdict().items() if value is not None}
            if any(self.lists[name].excludes(value) for name, value in said_slots.items()):
                continue
            yield IntentMatch(compiled.intent, {name: self.lists[name].value(value) for name, value in said_slots.items()})

    def intent(self, name: str) -> Intent:
        return self._by_name[name]

    def _without_vocatives(self, tokens: list[str]) -> list[str]:
        """The message's words without who it is said to at its end ("statements again host", "no bro"):
        phrases.toml's [lists.vocative], one or two of them, never the whole message."""
        vocatives = self.lists.get("vocative")
        if vocatives is None:
            return tokens
        kept = list(tokens)
        for _ in range(2):
            for size in (2, 1):
                if len(kept) > size and " ".join(kept[-size:]) in vocatives.values:
                    kept = kept[:-size]
                    break
        return kept

    def in_clauses(
        self,
        text: str,
        kinds: frozenset[IntentKind] | None = None,
        accept: Callable[[IntentMatch], bool] = lambda _: True,
        neutral: Callable[[str], bool] = lambda _: True,
    ) -> IntentMatch | None:
        """What a message of several clauses means when one of them is a whole command and the rest only
        courtesy or a reason (`Clauses`), or None. `kinds` narrows the clauses' kinds further; `accept`
        drops a clause's match the grammar cannot judge (a {name} that names no one); `neutral` judges
        the other clauses (the engine: they name none of the six)."""
        rules = self.clauses
        wanted = rules.kinds if kinds is None else rules.kinds & kinds
        clauses = [clause for clause in _CLAUSE_BREAK.split(text) if words(clause)]
        if len(clauses) < 2 or len(words(text)) > MAX_PHRASE_WORDS:
            return None
        found: list[IntentMatch] = []
        others: list[str] = []
        for clause in clauses:
            said = None
            if " ".join(words(clause)) not in rules.never_alone:
                said = next((m for m in self.matches(clause, wanted) if accept(m)), None)
            if said is not None:
                found.append(said)
            else:
                others.append(clause)
        meanings = {said.meaning for said in found}
        if len(meanings) > 1 and "yes" in meanings:
            # "That's it, we give up": agreement said with another command is that command.
            found = [said for said in found if said.meaning != "yes"]
            meanings.discard("yes")
        if len(meanings) != 1:
            return None  # no command, or two different ones: nothing is meant here
        said = found[0]
        refusing = said.card_message == "no"
        if all(self._only_around(clause, refusing, said.meaning) and neutral(clause) for clause in others):
            return said
        return None

    def _only_around(self, clause: str, refusing: bool = False, meaning: str | None = None) -> bool:
        """Whether a clause beside a command is only courtesy or a reason ([clauses]): short, no number, no
        refusal (unless the command is no), asking for nothing else. A clause that asks only for the command's
        own objects agrees with it ("We're giving up, what's the solution?": the answer is give up's)."""
        tokens = words(clause)
        if len(tokens) > self.clauses.max_clause_words or any(c.isdigit() for c in clause):
            return False
        opening = next((token for token in tokens if token not in _JOINERS), "")
        if not refusing and opening in self.requests.negations:
            return False  # a clause that refuses: "Give up? Never.", "yes, but not that one"
        said_words = " ".join(tokens) + " "
        opening_hit = next((hit for p in self._openings if (hit := p.match(said_words))), None)
        # "Julius Ormerod's answers, read them back": a verb and pronouns only go on with the command.
        asks_more = opening_hit is not None and bool(set(said_words[opening_hit.end() :].split()) - _GOING_ON)
        objects = self._objects_in(said_words)
        first = next(objects, None)
        if first is None:
            return not asks_more
        # A clause that asks for something else ("Go on, read out the lies") is more than courtesy.
        return meaning is not None and all(found.said.meaning == meaning for found in (first, *objects))

    def requested(self, text: str, accept: Callable[[RequestMatch], bool] = lambda _: True) -> IntentMatch | None:
        """The command a short request asks for in words no template lists ("Can you read out exhibit 7
        for us?" is read E7), or None: when `text` does not ask (no cue), says a negation, is long, or
        names the objects of two commands (two requests in one is no request); an object inside a longer
        one it overlaps is part of it ("statements from round 2" is not also "statements"). `accept` drops what the
        grammar cannot judge (a {name} that names no one)."""
        request = self.request(text, accept)
        return request[0].said if request else None

    def request(self, text: str, accept: Callable[[RequestMatch], bool] = lambda _: True) -> tuple[RequestMatch, ...]:
        """The objects of the one command a request asks for (`requested`), or () when it asks for none."""
        whole = self._requested(text, accept)
        if whole or len(words(text)) > MAX_PHRASE_WORDS:
            return whole
        # A request said with courtesy or a reason around it, in a clause of its own ("Can you skip me?
        # I've no idea what to ask."): the other clauses as [clauses] has them.
        clauses = [clause for clause in _CLAUSE_BREAK.split(text) if words(clause)]
        if len(clauses) < 2:
            return ()
        for at, clause in enumerate(clauses):
            said = self._requested(clause, accept)
            others = clauses[:at] + clauses[at + 1 :]
            if said and all(self._only_around(other) for other in others):
                return said
        return ()

    def _requested(self, text: str, accept: Callable[[RequestMatch], bool]) -> tuple[RequestMatch, ...]:
        tokens = words(text)
        rules = self.requests
        if not tokens or len(tokens) > rules.max_words or rules.negations.intersection(tokens):
            return ()
        said = " ".join(tokens) + " "
        asks = any(p.match(said) for p in self._openings) or any(p.search(said) for p in self._anywhere)
        questions = any(p.match(said) for p in self._question_openings)
        declares = any(p.match(said) for p in self._declarations)
        if not (asks or questions or declares):
            return ()

        def meant_here(match: RequestMatch) -> bool:
            name = match.said.intent.name
            return asks or (questions and name in rules.about) or (declares and name in rules.declared)

        found = [m for m in self._objects_in(said) if accept(m) and meant_here(m)]
        # Of two objects that share words the longer is meant ("the statements" in "the statements from round 2").
        outer = [m for m in found if not any(o.start < m.end and m.start < o.end and
                                             o.end - o.start > m.end - m.start for o in found)]  # fmt: skip
        meant = {match.said.card_message for match in outer}
        return tuple(outer) if len(meant) == 1 else ()

    def asking_words(self, text: str) -> int:
        """How many of `text`'s first words are other words for "Ask" ("could you ask", "question to"):
        the longest opening of [asking] that is followed by more words, or 0."""
        tokens = words(text)
        said = " ".join(tokens) + " "
        longest = 0
        for pattern in self._asking:
            hit = pattern.match(said)
            if hit is not None and hit.end() < len(said):
                longest = max(longest, len(hit.group().split()))
        return longest

    def part_words(self, part: str, text: str) -> int:
        """How many of `text`'s first words the phrase part `<part>` says ("we'd like to" for <let_us>),
        when more words follow, or 0."""
        if part not in self._part_patterns:
            self._part_patterns[part] = self._span(f"<{part}>")
        said = " ".join(words(text)) + " "
        hit = self._part_patterns[part].match(said)
        return len(hit.group().split()) if hit is not None and hit.end() < len(said) else 0

    def _objects_in(self, said: str) -> Iterator[RequestMatch]:
        starts = [0] + [i + 1 for i, c in enumerate(said[:-1]) if c == " "]
        for compiled in self._objects:
            # From every word; per end, the earliest start ("exhibit 7", not "7"), but a {name} takes the
            # fewest words ("can we hear joel's answers" is joel's, not "can we hear joel"'s).
            wildcard = any(self.lists[name].kind is ListKind.WILDCARD for name in compiled.groups.values())
            by_end: dict[int, re.Match[str]] = {}
            for start in starts:
                hit = compiled.pattern.match(said, start)
                if hit is not None and (wildcard or hit.end() not in by_end):
                    by_end[hit.end()] = hit
            for hit in by_end.values():
                slots = {compiled.groups[g]: v for g, v in hit.groupdict().items() if v is not None}
                if any(self.lists[name].excludes(value) for name, value in slots.items()):
                    continue
                if any(self.lists[name].kind is ListKind.EXHIBIT for name in slots) and not _CITED.search(hit.group()):
                    continue  # a bare number is never an exhibit (NAMES): "10 o'clock" is no E10
                values = {name: self.lists[name].value(value) for name, value in slots.items()}
                yield RequestMatch(IntentMatch(compiled.intent, values), hit.group().strip(), hit.start(), hit.end() - 1)

    def _span(self, template: str, groups: dict[str, str] | None = None, anywhere: bool = False) -> re.Pattern[str]:
        """A template as a pattern for a run of a message's words, not the whole message; `anywhere`: for
        `search`, starting only at a word."""
        regex = self._regex(parse_template(template), {} if groups is None else groups, ())
        return re.compile(("(?<![^ ])" if anywhere else "") + regex)

    def _first_words(self, node: Phrase, seen: tuple[str, ...]) -> tuple[set[str], bool, bool]:
        """The words a phrase can start with, whether it can be empty, and whether a slot can come first."""
        first: set[str] = set()
        for item in node.items:
            if isinstance(item, Word):
                return first | {item.text}, False, False
            if isinstance(item, Slot):
                slot_list = self._list(item.name)
                if slot_list.kind is not ListKind.VALUES:
                    return first, False, True
                return first | {words(phrase)[0] for phrase in slot_list.values if words(phrase)}, False, False
            options = (self._part(item.name),) if isinstance(item, Part) else item.options
            nullable = isinstance(item, Choice) and item.optional
            for option in options:
                words_, empty, anything = self._first_words(option, (*seen, item.name) if isinstance(item, Part) else seen)
                if anything:
                    return first, False, True
                first |= words_
                nullable = nullable or empty
            if not nullable:
                return first, False, False
        return first, True, False

    def _regex(self, node: Phrase, groups: dict[str, str], seen: tuple[str, ...]) -> str:
        out: list[str] = []
        for item in node.items:
            if isinstance(item, Word):
                out.append(re.escape(item.text) + " ")
            elif isinstance(item, Slot):
                slot_list = self._list(item.name)
                group = f"g{len(groups)}"
                groups[group] = item.name
                out.append(slot_list.pattern(group, item.possessive))
            elif isinstance(item, Part):
                if item.name in seen:
                    raise GrammarError(f"<{item.name}> refers to itself")
                out.append("(?:" + self._regex(self._part(item.name), groups, (*seen, item.name)) + ")")
            else:
                options = "|".join(self._regex(option, groups, seen) for option in item.options)
                out.append(f"(?:{options})" + ("?" if item.optional else ""))
        return "".join(out)

    def _list(self, name: str) -> SlotList:
        if name not in self.lists:
            raise GrammarError(f"no list {{{name}}}")
        return self.lists[name]

    def _part(self, name: str) -> Phrase:
        if name not in self._parts:
            raise GrammarError(f"no part <{name}>")
        return self._parts[name]

    # -- generating ------------------------------------------------------------------------------

    def phrasings(self, name: str, slots: Mapping[str, str] | None = None, limit: int = 10_000) -> Iterator[str]:
        """Every sentence intent `name` accepts, in order, with `slots` filled in (at most `limit`).

        A slot with no value given takes each of its list's phrases; an exhibit or wildcard slot must be
        given ({"exhibit": "E7"}, {"name": "Thwaite"}). Used to make closed sets of candidates."""
        given = dict(slots or {})
        count = 0
        for template in self.intent(name).templates:
            for sentence in self._expand(parse_template(template), given, ()):
                text = " ".join(sentence.split())
                if not text:
                    continue
                yield text
                count += 1
                if count >= limit:
                    return

    def _expand(self, node: Phrase, given: Mapping[str, str], seen: tuple[str, ...]) -> Iterator[str]:
        pieces: list[list[str]] = []
        for item in node.items:
            if isinstance(item, Word):
                pieces.append([item.text])
            elif isinstance(item, Slot):
                suffix = "'s" if item.possessive else ""
                if item.name in given:
                    pieces.append([given[item.name] + suffix])
                else:
                    slot_list = self._list(item.name)
                    if slot_list.kind is not ListKind.VALUES:
                        raise GrammarError(f"give a value for {{{item.name}}}")
                    pieces.append([phrase + suffix for phrase in slot_list.values])
            elif isinstance(item, Part):
                pieces.append(list(self._expand(self._part(item.name), given, (*seen, item.name))))
            else:
                options = [text for option in item.options for text in self._expand(option, given, seen)]
                pieces.append([*options, ""] if item.optional else options)
        for combination in itertools.product(*pieces):
            yield " ".join(piece for piece in combination if piece)


# --- loading the phrase file ------------------------------------------------------------------------


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise GrammarError(f"{where} must be a list of strings")
    return tuple(value)


def parse_grammar(text: str) -> Grammar:
    data = tomllib.loads(text)
    parts = data.get("parts", {})
    if not isinstance(parts, dict) or not all(isinstance(v, str) for v in parts.values()):
        raise GrammarError("[parts] must map names to templates")
    lists: dict[str, SlotList] = {}
    for name, spec in data.get("lists", {}).items():
        list_kind = ListKind(spec.get("kind", "values"))
        values = spec.get("values", {})
        if isinstance(values, list):
            values = {v: v for v in values}
        lists[name] = SlotList(name, list_kind, {str(k): str(v) for k, v in values.items()})
    intents: list[Intent] = []
    for raw in data.get("intent", []):
        name = raw["name"]
        kind = IntentKind(raw["kind"])
        intent = Intent(
            name=name,
            kind=kind,
            templates=_strings(raw.get("sentences"), f"intent {name}: sentences"),
            tests=_strings(raw.get("tests", []), f"intent {name}: tests"),
            card=str(raw.get("card", "")),
            objects=_strings(raw.get("objects", []), f"intent {name}: objects"),
            state=StateQuestion(raw["state"]) if "state" in raw else None,
            passage=str(raw.get("passage", "")),
        )
        if kind is IntentKind.COMMAND and not intent.card:
            raise GrammarError(f"intent {name}: a command names its card message")
        if kind is IntentKind.STATE and intent.state is None:
            raise GrammarError(f"intent {name}: a state question names its state")
        if kind is IntentKind.RULES and not intent.passage:
            raise GrammarError(f"intent {name}: a rules question names its passage")
        if intent.objects and kind is not IntentKind.COMMAND:
            raise GrammarError(f"intent {name}: only a command has objects")
        intents.append(intent)
    return Grammar(
        tuple(intents),
        lists,
        parts,
        _requests(data.get("requests", {})),
        _asking(data.get("asking", {})),
        _clauses(data.get("clauses", {})),
    )


def _pairs(raw: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in raw):
        raise GrammarError(f"{where} must be [sentence, result] pairs")
    return tuple((str(a), str(b)) for a, b in raw)


def _asking(raw: Any) -> Asking:
    if not isinstance(raw, dict):
        raise GrammarError("[asking] must be a table")
    openings = _strings(raw.get("openings", []), "[asking] openings")
    return Asking(openings=openings, tests=_pairs(raw.get("tests", []), "[asking] tests"))


def _clauses(raw: Any) -> Clauses:
    if not isinstance(raw, dict):
        raise GrammarError("[clauses] must be a table")
    return Clauses(
        kinds=frozenset(IntentKind(kind) for kind in _strings(raw.get("kinds", []), "[clauses] kinds")),
        never_alone=frozenset(_strings(raw.get("never_alone", []), "[clauses] never_alone")),
        max_clause_words=int(raw.get("max_clause_words", 0)),
        tests=_pairs(raw.get("tests", []), "[clauses] tests"),
        not_tests=_strings(raw.get("not_tests", []), "[clauses] not_tests"),
    )


def _requests(raw: Any) -> Requests:
    if not isinstance(raw, dict):
        raise GrammarError("[requests] must be a table")
    return Requests(
        openings=_strings(raw.get("openings", []), "[requests] openings"),
        question_openings=_strings(raw.get("question_openings", []), "[requests] question_openings"),
        about=frozenset(_strings(raw.get("about", []), "[requests] about")),
        declarations=_strings(raw.get("declarations", []), "[requests] declarations"),
        declared=frozenset(_strings(raw.get("declared", []), "[requests] declared")),
        anywhere=_strings(raw.get("anywhere", []), "[requests] anywhere"),
        negations=frozenset(_strings(raw.get("negations", []), "[requests] negations")),
        max_words=int(raw.get("max_words", 0)),
        tests=_pairs(raw.get("tests", []), "[requests] tests"),
        not_tests=_strings(raw.get("not_tests", []), "[requests] not_tests"),
    )


@cache
def grammar() -> Grammar:
    """The game's phrase grammar (phrases.toml), read once."""
    return parse_grammar(PHRASES_FILE.read_text(encoding="utf-8"))


def phrases(name: str) -> tuple[str, ...]:
    """The values of one of the grammar's word lists ("openers", "yes", "no"...), longest first."""
    slot_list = grammar().lists[name]
    return tuple(sorted(slot_list.values, key=len, reverse=True))
