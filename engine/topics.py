"""Which FILE topic a question asks about: card rule 4's "the line on the topic asked", REFEREEING's
"a question gets one topic, the first it asks".

A message is cut into units (sentences, and clauses that start a new question). A unit that asks
(a question word, "did/were/can you ...", "tell us ...", or a sentence ending in "?") is a question; a
clause that sets its time or place ("When you got down there, ...") belongs to the question after it;
any other sentence ("Nance heard something fall.") is context, read only when no question names a topic.
The first question that names a topic decides. Inside it a specific cue (turpentine, will, organ) outranks
a person's name, and a name outranks a plain cue (see, hear, the dead woman's name); then the earliest
cue wins, then the longer one, then a line that came into the FILE later.

The grammar of the question moves a cue up or down: one of the six as its subject ("is Mrs Ruddock telling
the truth?") counts as specific, unless a specific line in it names them while their own line is silent on
that thing ("does Joel inherit?" is the will's); someone else as the subject ("what did Cook serve?") names their line
only when it says more of what is asked, or is about them; "she" as the subject ("was she a careful woman?") names
the dead woman plainly; the moment of a trailing "when you ..." or the place of
"what were you doing at ..." is what is asked when nothing before it names a thing; a place phrase after
the thing asked ("could you hear the waits from your room?") is a circumstance and counts as a name (after
no more than a plain verb of the senses, as plain: "what could you hear from the piano?"); a thing asked
whether the suspect heard or saw it ("did you hear the stair door?") is answered by the line that says they
heard or saw it, or by the HELD line that speaks of it (a place so asked, "what did you hear in the hall?", only by
its own line); after a way of asking about anything, the thing "about" names is asked ("was there anything odd
about the bowl?", "... about it?" for the thing a lead-in names); one of the six at a place ("did you see Mrs Ruddock
at the plate room door?") gets the line that has them there; a setting clause about others ("When the bell
rang, ...") only says when, and one that places the suspect ("When you were out by the stables, ...") only
sets the scene: their cues (its place phrase) are the topic only when nothing else is asked.

When no cue but a plain one names a topic, the line's own words answer: the line that shares at least two rare words
with the question ("did you steal jam as a boy?": "stealing jam from the kitchen"; an irregular verb's past is its plain
form, "brought" is "bring"), weighed by how few of the case's lines say each word (LineWords), else the plain cue's line
or DEFLECT.

Last, the questions tables asked before vote (engine.asked): when they make one topic in the FILE, or DEFLECT, far
likelier than any other (VOTE_MARGIN), that topic answers, whatever the cues chose.

Cues match through inflection (a Snowball stemmer: "carols", "singing", "Keld's") and, for cues of
three or more words, through two intervening words ("where exactly were you"); a cue's closing "her" also
matches the dead woman named in its place ("found her": "found the mistress").
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cache

import snowballstemmer

from engine.asked import DEFLECT, AskedQuestion, TopicVotes, topic_votes
from engine.case import Case, EntryKind, FileEntry

_STEMMER = snowballstemmer.stemmer("english")
# How much likelier (a natural log) the asked questions must make one topic than the next before they overrule the
# cues, and before they overrule a specific cue: on the four earlier blind sets, each held out with the questions asked
# before it (bench/topic_folds.py), 3 to 5 and 6 to 10 gave the same gains within two questions a set; never
# overruling a specific cue gave back most of them.
VOTE_MARGIN = 4.0
VOTE_MARGIN_OVER_CUES = 8.0
LINES_VOTE = True  # each FILE line's own words count as one more question asked about its topic
MAX_GAP = 2  # words that may stand between the words of a cue of three or more ("where exactly were you")


# The past forms of English irregular verbs, as their plain form: a line's own words ("every paper I brought her") echo
# a question's ("did you bring her papers?"). A few are other words too ("left", "saw", "felt"): in a question to a
# suspect the verb is the common reading. Only the echo reads them: the cue lists give the forms they mean.
# fmt: off
_IRREGULAR = {
    form: verb
    for verb, forms in {
        "be": "was were been", "begin": "began begun", "break": "broke broken", "bring": "brought", "buy": "bought",
        "catch": "caught", "choose": "chose chosen", "come": "came", "do": "did done", "drink": "drank drunk",
        "drive": "drove driven", "eat": "ate eaten", "fall": "fell fallen", "feel": "felt", "fight": "fought",
        "find": "found", "forget": "forgot forgotten", "get": "got gotten", "give": "gave given", "go": "went gone",
        "hang": "hung", "have": "had", "hear": "heard", "hide": "hid hidden", "hold": "held", "keep": "kept",
        "know": "knew known", "lay": "laid", "lead": "led", "leave": "left", "lend": "lent", "lie": "lay lain",
        "lose": "lost", "make": "made", "mean": "meant", "meet": "met", "pay": "paid", "ride": "rode ridden",
        "ring": "rang rung", "run": "ran", "say": "said", "see": "saw seen", "sell": "sold", "send": "sent",
        "shake": "shook shaken", "sing": "sang sung", "sit": "sat", "sleep": "slept", "speak": "spoke spoken",
        "spend": "spent", "stand": "stood", "steal": "stole stolen", "swear": "swore sworn", "take": "took taken",
        "teach": "taught", "tell": "told", "think": "thought", "throw": "threw thrown", "wake": "woke woken",
        "wear": "wore worn", "win": "won", "write": "wrote written",
    }.items()
    for form in forms.split()
}
# fmt: on


@cache
def lemma_stem(word: str) -> str:
    """The stem of a word's plain form: an irregular verb's past as its present ("came": "come"), then Snowball."""
    return stem(_IRREGULAR.get(word, word))


@cache
def stem(word: str) -> str:
    """The Snowball (Porter2) stem of one lowercase word; a possessive's "'s" goes with it."""
    stemmed: str = _STEMMER.stemWord(word)
    return stemmed


def stems(text: str) -> tuple[str, ...]:
    return tuple(stem(token.text) for token in _tokens(text) if token.kind is _Kind.WORD)


class CueStrength(IntEnum):
    """How plainly a cue names its topic; a stronger cue in the same question wins."""

    SCENE = 0  # a setting clause about others, or where it puts the suspect: the topic only if nothing else is asked
    PLAIN = 1  # plain verbs, times of day and the dead woman's names: nearly every question touches them
    NAME = 2  # a person who is asked about
    SPECIFIC = 3  # a thing, a place, a question's own phrasing ("where were you")


@dataclass(frozen=True)
class Cue:
    stems: tuple[str, ...]
    strength: CueStrength
    entry: FileEntry
    names_suspect: bool = False  # a name of one of the six ("Thwaite"), not of another person ("Nance")

    @property
    def max_gap(self) -> int:
        """Words that may come between this cue's words: none for one or two words, two for longer cues."""
        return MAX_GAP if len(self.stems) >= 3 else 0


# --- cutting a message into units --------------------------------------------------------------------


class _Kind(IntEnum):
    WORD = 1
    STOP = 2  # ends a sentence: . ? ! ; : or a dash
    COMMA = 3


@dataclass(frozen=True)
class _Token:
    kind: _Kind
    text: str


_TOKEN = re.compile(r"(?P<word>[a-z0-9]+(?:'[a-z]+)*)|(?P<stop>[?!;:]|\.(?!\d)|—|–|(?<=\s)-(?=\s))|(?P<comma>,)")
_ABBREVIATIONS = frozenset("mr mrs miss ms dr st rev revd mister".split())

_WH = frozenset("who what where when why how which whose whom what's where's who's how's why's whether".split())
_AUX = frozenset(
    "did do does were was is are have has had can could would will shall should may might must didn't wasn't "
    "weren't isn't aren't don't doesn't haven't hasn't".split()
)
_IMPERATIVE = frozenset("tell describe explain say walk talk give remind account".split())
_SUBORDINATE = frozenset(
    "when while whilst after before if once since as until till during at in on by about regarding concerning".split()
)
_WH_DID = frozenset("where'd what'd how'd why'd when'd who'd".split())  # a question word's "'d" before "you": did
_FILLERS = frozenset("and but so then also now well ok okay please just oh".split())
# After "and" or a comma, an auxiliary starts a new question only when a subject follows it.
_SUBJECTS = frozenset(
    "you he she they we i it anyone anybody someone somebody anything there the your her his mr mrs miss".split()
)


def _tokens(text: str) -> list[_Token]:
    folded = text.lower().replace("’", "'").replace("‘", "'")
    found: list[_Token] = []
    for match in _TOKEN.finditer(folded):
        if match.group("word"):
            word = match.group("word")
            if word in _WH_DID:
                # "where'd you go" is "where did you go": the cues are written out in full
                found += [_Token(_Kind.WORD, word[:-2]), _Token(_Kind.WORD, "did")]
                continue
            found.append(_Token(_Kind.WORD, word))
        elif match.group("comma"):
            found.append(_Token(_Kind.COMMA, ","))
        else:
            mark = match.group("stop")
            if mark == "." and found and found[-1].kind is _Kind.WORD and found[-1].text in _ABBREVIATIONS:
                continue  # "Mr." does not end a sentence
            found.append(_Token(_Kind.STOP, mark))
    return found


class Role(IntEnum):
    QUESTION = 1
    SETTING = 2  # "When you got down there," / "At ten,": part of the question that follows
    CONTEXT = 3


@dataclass(frozen=True)
class Unit:
    words: tuple[str, ...]
    role: Role


def _starts_question(words: Sequence[str], at: int) -> bool:
    """Whether a new question begins at `at`: a question word, an auxiliary with a subject, or "tell us"."""
    while at < len(words) and words[at] in _FILLERS:
        at += 1
    if at >= len(words):
        return False
    first = words[at]
    following = words[at + 1] if at + 1 < len(words) else ""
    if first in _WH:
        return first != "when" and first != "where" or following in _AUX or following in _WH or following == ""
    if first in _AUX:
        return following in _SUBJECTS
    return first in _IMPERATIVE


def _role(words: Sequence[str], ends_with_question_mark: bool) -> Role:
    at = 0
    while at < len(words) and words[at] in _FILLERS:
        at += 1
    if at >= len(words):
        return Role.CONTEXT
    first = words[at]
    following = words[at + 1] if at + 1 < len(words) else ""
    if first in _WH and first in _SUBORDINATE and following not in _AUX and following not in _WH and following:
        return Role.SETTING  # "when you got down there"
    if first in _WH or first in _AUX or first in _IMPERATIVE or ends_with_question_mark:
        return Role.QUESTION
    if first in _SUBORDINATE:
        return Role.SETTING
    return Role.CONTEXT


def units(text: str) -> list[Unit]:
    """Sentences, cut again where a clause starts a new question ("..., and where were you?")."""
    found: list[Unit] = []
    pieces: list[list[str]] = [[]]
    for token in [*_tokens(text), _Token(_Kind.STOP, "")]:
        if token.kind is _Kind.WORD:
            pieces[-1].append(token.text)
        elif token.kind is _Kind.COMMA:
            pieces.append([])
        else:
            found += _sentence_units([piece for piece in pieces if piece], asked=token.text == "?")
            pieces = [[]]
    return found


def _sentence_units(pieces: list[list[str]], *, asked: bool) -> list[Unit]:
    """One sentence: a comma piece joins the clause before it unless it starts a new question; inside a
    clause, "and"/"or"/"but" followed by a new question cuts it too."""
    clauses: list[list[str]] = []
    for piece in pieces:
        if clauses and not _starts_question(piece, 0):
            clauses[-1] += piece
        else:
            clauses.append(list(piece))
    cut: list[list[str]] = []
    for clause in clauses:
        start = 0
        for at in range(1, len(clause)):
            if clause[at] in ("and", "or", "but") and _starts_question(clause, at + 1):
                cut.append(clause[start:at])
                start = at + 1
        cut.append(clause[start:])
    cut = [clause for clause in cut if clause]
    return [Unit(tuple(clause), _role(clause, asked and index == len(cut) - 1)) for index, clause in enumerate(cut)]


# --- matching cues and choosing the topic ------------------------------------------------------------

_DETERMINERS = frozenset("the her his your a my their its".split())
_ANAPHORS = frozenset("it that this them those then there".split())  # words that point back at a lead-in sentence
_HER = "her"
_BEFORE_HER_NAME = frozenset("the your my our mr mrs miss".split())  # "found [the] mistress", "saw [your] aunt"
_POINTING = frozenset("it that this them those".split())  # the anaphors that stand for a thing ("about it")
_Rank = tuple[int, int, int, int, int, int]
# Adverbs that hedge or stress a question without changing what it asks ("where exactly were you", "did you really hear")
_HEDGES = frozenset(stem(word) for word in "exactly precisely really actually honestly truly ever perhaps maybe".split())


@dataclass(frozen=True)
class _Hit:
    cue: Cue
    positions: tuple[int, ...]  # the words it matched
    strength: int  # the cue's strength, as it stands in this question

    @property
    def start(self) -> int:
        return self.positions[0]

    @property
    def gaps(self) -> int:
        return self.positions[-1] - self.positions[0] + 1 - len(self.positions)

    def rank(self, order: int) -> _Rank:
        """Smaller is better: stronger, unbroken, earlier, longer, then later into the FILE. Inside a setting
        clause every cue is SCENE; there a cue that was stronger before it was lowered still wins ("once Thwaite
        rang, where did you run to?" is the bell, not Thwaite)."""
        recent = 1 if self.cue.entry.after is not None or self.cue.entry.kind is EntryKind.HELD else 0
        lowered = -int(self.cue.strength) if self.strength == CueStrength.SCENE else 0
        return (-self.strength, lowered, min(self.gaps, 1), order + self.start, -len(self.positions), -recent)


def _match(
    stems_wanted: Sequence[str], max_gap: int, words: Sequence[str], start: int, dead_woman: Callable[[int], int]
) -> tuple[int, ...] | None:
    """The positions where `stems_wanted` matches `words` from `start` (its first stem is there), or None. A cue's
    closing "her" also matches the dead woman named in its place ("found her" in "found the mistress"):
    `dead_woman(at)` is where her name ends when it starts at `at`, else `at`."""
    positions = [start]
    at, gaps = start + 1, 0
    for index, wanted in enumerate(stems_wanted[1:], start=1):
        named = index == len(stems_wanted) - 1 and wanted == _HER
        while at < len(words) and words[at] in _HEDGES and words[at] != wanted:
            positions.append(at)  # "where [exactly] were you": a hedge between a cue's words is part of it
            at += 1
        while at < len(words) and words[at] != wanted and gaps < max_gap and not (named and dead_woman(at) > at):
            at, gaps = at + 1, gaps + 1
        if named and at < len(words) and words[at] != wanted and (end := dead_woman(at)) > at:
            positions += range(at, end)
            break
        if at >= len(words) or words[at] != wanted:
            return None
        positions.append(at)
        at += 1
    return tuple(positions)


class TopicIndex:
    """One suspect's cues, by the stem they start with."""

    def __init__(
        self,
        cues: Iterable[Cue],
        dead_woman: Iterable[str] = (),
        line_words: LineWords | None = None,
        votes: TopicVotes | None = None,
        lines: Sequence[FileEntry] = (),
    ) -> None:
        self._dead_woman = frozenset(dead_woman)  # the stems of the words that name the dead woman ("mistress", "blamire")
        self._line_words = line_words  # the words of the suspect's lines, for a question no cue names
        self._votes = votes  # the questions tables asked this suspect before
        self._lines = tuple(line for line in lines if line.kind is not EntryKind.DEFLECT)  # in FILE order
        self._by_first: dict[str, list[Cue]] = {}
        self._after_owner: dict[str, list[Cue]] = {}  # "the will" also heard as "Mrs. Blamire's will"
        self._entries: list[FileEntry] = []  # every entry a cue names, in FILE order
        for cue in cues:
            if cue.entry not in self._entries:
                self._entries.append(cue.entry)
            self._by_first.setdefault(cue.stems[0], []).append(cue)
            if len(cue.stems) == 2 and cue.stems[0] in _DETERMINERS:
                self._after_owner.setdefault(cue.stems[1], []).append(cue)

    def hits(self, words: Sequence[str], in_file: Callable[[FileEntry], bool]) -> list[_Hit]:
        """Every cue found in one unit. A cue inside a longer one's words is not a cue there ("during the
        carols" is a time, not the carols)."""
        stemmed = [stem(word) for word in words]

        def dead_woman(at: int) -> int:
            """Where the dead woman's name that starts at `at` ends ("the mistress", "Mrs Hester Blamire"), else `at`;
            not a possessive ("know Mrs Blamire's will" does not know her)."""
            end = at
            while end < len(words) and words[end] in _BEFORE_HER_NAME:
                end += 1
            named = end
            while named < len(words) and stemmed[named] in self._dead_woman and not words[named].endswith("'s"):
                named += 1
            return named if named > end else at

        found: list[_Hit] = []
        for start, word in enumerate(stemmed):
            candidates = [(cue, cue.stems) for cue in self._by_first.get(word, ())]
            if start > 0 and words[start - 1].endswith("'s"):
                candidates += [(cue, cue.stems[1:]) for cue in self._after_owner.get(word, ())]
            for cue, wanted in candidates:
                positions = _match(wanted, cue.max_gap, stemmed, start, dead_woman)
                if positions is None or not in_file(cue.entry):
                    continue
                found.append(_Hit(cue, positions, int(cue.strength)))
        return [hit for hit in found if not any(_inside(hit, other) for other in found)]

    def choose(self, question: str, in_file: Callable[[FileEntry], bool]) -> FileEntry | None:
        """The entry the question asks about, or None (DEFLECT): the cues' choice, unless the questions asked before
        overrule it (`overrule`)."""
        chosen = self._by_lines(question, in_file)
        if self._votes is None:
            return chosen

        def holds_specific_cue() -> bool:
            return any(hit.cue.strength > CueStrength.PLAIN for hit in self.hits(_folded_words(question), in_file))

        return overrule(chosen, self._votes, self._lines, question, in_file, holds_specific_cue)

    def _by_lines(self, question: str, in_file: Callable[[FileEntry], bool]) -> FileEntry | None:
        """The cues' choice. When no cue but a plain one names a topic, the line that shares the most rare words with
        the question ("was the punch strong?": "Thwaite made the punch, and made it strong.") answers, if it shares
        enough (LineWords.echoed)."""
        chosen = self._by_cues(question, in_file)
        if self._line_words is None:
            return chosen
        words = _folded_words(question)
        hits = self.hits(words, in_file)
        if any(hit.cue.strength > CueStrength.PLAIN for hit in hits):
            return chosen
        matched = frozenset(lemma_stem(words[at]) for hit in hits for at in hit.positions)
        echoed = self._line_words.echoed(echo_words(question) - matched, in_file)
        return echoed if echoed is not None else chosen

    def _by_cues(self, question: str, in_file: Callable[[FileEntry], bool]) -> FileEntry | None:
        """The entry the question's cues name (the rules of the module's docstring), or None."""
        groups: list[list[Unit]] = []  # each question with the setting clauses before it
        context: list[Unit] = []
        setting: list[Unit] = []
        for unit in units(question):
            if unit.role is Role.SETTING:
                setting.append(unit)
            elif unit.role is Role.QUESTION:
                groups.append([*setting, unit])
                setting = []
            else:
                context += [*setting, unit]
                setting = []
        context += setting
        around = self._best(context, in_file)
        for group in groups:
            best = self._best(group, in_file)
            if best is None:
                continue
            refers_back = any(word in _ANAPHORS for unit in group for word in unit.words)
            if refers_back and around is not None and around[0][0] < best[0][0]:
                if any(
                    hit.cue.entry is best[1].cue.entry and hit.strength >= CueStrength.SPECIFIC
                    for unit in context
                    for hit in self._weighed(unit, in_file)
                ):
                    return best[1].cue.entry  # "The bowl fell. Did you hear it?": the lead-in names the question's line too
                return around[1].cue.entry  # "The waits saw a candle. Did you see it?" asks about the candle
            if (
                around is not None
                and _about_it(group[-1].words)
                and _asks_about_anything(best[1].cue)
                and around[0][0] <= best[0][0]
            ):
                return around[1].cue.entry  # "The bowl: was there anything odd about it?" asks about the bowl
            return best[1].cue.entry
        return around[1].cue.entry if around is not None else None

    def _best(self, group: Sequence[Unit], in_file: Callable[[FileEntry], bool]) -> tuple[_Rank, _Hit] | None:
        best: tuple[_Rank, _Hit] | None = None
        offset = 0
        for unit in group:
            for hit in self._weighed(unit, in_file):
                ranked = (hit.rank(offset), hit)
                if best is None or ranked[0] < best[0]:
                    best = ranked
            offset += len(unit.words)
        return best

    def _weighed(self, unit: Unit, in_file: Callable[[FileEntry], bool]) -> list[_Hit]:
        """The unit's hits, each at the strength it has in this question: the grammar of a question can
        make a cue the thing asked about (raised) or a circumstance of it (lowered)."""
        hits = self.hits(unit.words, in_file)
        if unit.role is Role.SETTING and not _SECOND_PERSON & set(unit.words):
            # "When the bell rang, where were you?": a clause about others only says when
            return [_Hit(hit.cue, hit.positions, CueStrength.SCENE) for hit in hits]
        if unit.role is Role.SETTING:
            # "When you were out by the stables, did you see anyone?": where the suspect was only sets the scene
            return [
                _Hit(hit.cue, hit.positions, CueStrength.SCENE) if _after_place_preposition(unit.words, hit.start) else hit
                for hit in hits
            ]
        if unit.role is not Role.QUESTION:
            return hits
        her_line = self._her_line(in_file)
        opening = _opening(unit.words)
        if (
            her_line is not None
            and unit.words[opening + 1 : opening + 2] == ("she",)
            and unit.words[opening] in _AUX
            and len(unit.words) > opening + 2  # not a tag ("..., would she?")
        ):
            # "was she good to the servants?": "she", the question's subject, is the dead woman, named plainly
            hits = [*hits, _Hit(Cue(("she",), CueStrength.PLAIN, her_line), (opening + 1,), CueStrength.PLAIN)]
        subject = _subject_at(unit.words)
        focus = _focus_at(unit.words)
        if focus is not None and any(
            hit.start < focus
            and hit.strength == CueStrength.SPECIFIC
            and not _is_frame(hit.cue)
            and not _after_place_preposition(unit.words, hit.start)
            for hit in hits
        ):
            focus = None  # "which verse were they on when you heard the fall?" asks about the verse
        weighed: list[_Hit] = []
        for hit in hits:
            strength = hit.strength
            if hit.start == subject and strength == CueStrength.NAME and not hit.cue.names_suspect:
                # "what did Cook serve at supper?": someone else as the subject is asked about only in what their
                # line says of them; a line that says nothing else the question says is not the answer
                rest = _content_words(" ".join(word for at, word in enumerate(unit.words) if at not in hit.positions))
                said = _content_words(hit.cue.entry.words)
                if not rest & said and not set(hit.cue.stems) <= _content_words(hit.cue.entry.topic):
                    continue
            if hit.start == subject and hit.cue.names_suspect:
                if not any(_answers_for(other, hit) for other in hits):
                    strength = CueStrength.SPECIFIC  # "is Mrs Ruddock careful ...?" asks about Mrs Ruddock
            elif focus is not None and hit.start > focus and strength == CueStrength.SPECIFIC:
                strength += 1  # the moment or place asked about names the topic
            elif strength == CueStrength.SPECIFIC and (witnessed := self._witnessed(hit, hits, unit.words, in_file)):
                # "did you hear the stair door?": the line that says she heard the stair door
                weighed.append(_Hit(Cue(hit.cue.stems, CueStrength.SPECIFIC, witnessed), hit.positions, CueStrength.SPECIFIC + 1))
                continue
            elif strength == CueStrength.SPECIFIC and _after_place_preposition(unit.words, hit.start):
                before = [other for other in hits if other.positions[-1] < hit.start and other.start != subject]
                both = self._both([other for other in hits if other.positions[-1] < hit.start], hit, in_file)
                if both is not None:
                    # "did you see Mrs Ruddock at the plate room door?": the line that has her there
                    weighed.append(_Hit(Cue(hit.cue.stems, CueStrength.SPECIFIC, both), hit.positions, CueStrength.SPECIFIC + 1))
                    continue
                if before:
                    # "could you hear the waits [from your room]": where, not what, is asked; after no more than a
                    # plain verb of the senses ("what could you hear [from the piano]?") it is where she heard from
                    plain = all(other.strength == CueStrength.PLAIN for other in before)
                    sensed = plain and any(_senses(other, unit.words) for other in before)
                    strength = CueStrength.PLAIN if sensed else CueStrength.NAME
            weighed.append(_Hit(hit.cue, hit.positions, strength))
        return _raise_after_about(unit.words, weighed)

    def _her_line(self, in_file: Callable[[FileEntry], bool]) -> FileEntry | None:
        """The suspect's line about the dead woman: the one a plain cue of her name names."""
        for cues in self._by_first.values():
            for cue in cues:
                if cue.strength == CueStrength.PLAIN and set(cue.stems) <= self._dead_woman and in_file(cue.entry):
                    return cue.entry
        return None

    def _both(self, before: Sequence[_Hit], place: _Hit, in_file: Callable[[FileEntry], bool]) -> FileEntry | None:
        """The line that has one of the six at the place asked about ("did you see Mrs Ruddock [at the plate room
        door]?" is finding her), when neither the person's own line nor the place's line says it."""
        if any(other.strength == CueStrength.SPECIFIC for other in before):
            return None  # "which carol did the waits sing in the yard?" asks about the carol
        for other in before:
            if not other.cue.names_suspect or _speaks_of(other.cue.entry, place.cue.stems, admit=False):
                continue  # one of the six (not "upstairs [in the Blue Room]"), whose own line does not have them there
            for entry in self._entries:
                if entry in (other.cue.entry, place.cue.entry) or not in_file(entry):
                    continue
                if _speaks_of(entry, other.cue.stems, admit=False) and _speaks_of(entry, place.cue.stems, admit=False):
                    return entry
        return None

    def _witnessed(
        self, thing: _Hit, hits: Sequence[_Hit], words: Sequence[str], in_file: Callable[[FileEntry], bool]
    ) -> FileEntry | None:
        """The line that says the suspect heard or saw this thing, when the question asks whether they heard
        or saw it ("did you hear the stair door?", "did you see anything at the back stair window?")."""
        senses = frozenset().union(*(_senses(other, words) for other in hits if other.start < thing.start))
        if not senses:
            return None
        speaking = [entry for entry in self._entries if in_file(entry) and _speaks_of(entry, thing.cue.stems, admit=False)]
        said = [entry for entry in speaking if senses & _stems_of_text(entry.words)]
        # a HELD line is what the suspect saw or heard and kept back ("the plate room door stood ajar")
        kept_back = [entry for entry in speaking if entry.kind is EntryKind.HELD]
        if thing.cue.entry.kind is EntryKind.HELD and in_file(thing.cue.entry) and thing.cue.entry not in kept_back:
            kept_back.append(thing.cue.entry)  # its own cue: "the bedroom corridor" for "the end of the corridor"
        if _after_place_preposition(words, thing.start):
            # "what did you hear [in the hall]?": a place is what was seen or heard only in its own line or a HELD
            # one; another line that has the suspect hear something there ("in the hall it came through faint")
            # leaves the place where they heard from
            said = [entry for entry in said if entry is thing.cue.entry]
        return next(iter(said + kept_back), None)


# The stems of hearing and of seeing: a question asked with one is answered by a line that says it.
_SENSES = (frozenset({"hear", "heard", "listen"}), frozenset({"see", "saw", "seen", "notic", "watch", "spot"}))
_TIME_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve twenty half quarter midnight noon".split()
)
_INDEFINITE = frozenset(stem(word) for word in "anything anyone anybody something someone somebody nothing nobody".split())
_SECOND_PERSON = frozenset("you your yours yourself you've you'd you'll you're".split())
_HOW_WHAT = frozenset("long often much many far soon well".split())  # "how long", "how often": a question word still
_TITLES_BEFORE_NAMES = frozenset("mr mrs miss ms dr the young old".split())
_PLACE_PREPOSITIONS = frozenset("at in on by near with inside".split())
_CIRCUMSTANCE_PREPOSITIONS = frozenset("at in on by near from into inside outside through".split())


def _opening(words: Sequence[str]) -> int:
    """Where a unit's words begin once its fillers are passed."""
    at = 0
    while at < len(words) and words[at] in _FILLERS:
        at += 1
    return at


def _subject_at(words: Sequence[str]) -> int | None:
    """Where the subject of "[wh-word] auxiliary SUBJECT ..." starts ("does Thwaite count the spoons?",
    "what was Ormerod doing?"), past titles; None when the unit does not open that way."""
    at = _opening(words)
    if at < len(words) and words[at] in _WH:
        at += 1
        if at < len(words) and words[at] in _HOW_WHAT:
            at += 1  # "how long has Julius looked after ...", "how often did Joel ..."
    if at >= len(words) or words[at] not in _AUX:
        return None
    at += 1
    while at < len(words) and words[at] in _TITLES_BEFORE_NAMES:
        at += 1
    return at if at < len(words) and words[at] not in _SUBJECTS else None


def _focus_at(words: Sequence[str]) -> int | None:
    """Where the moment or place a question asks about starts: a trailing "when you ..." ("what did you
    see [when you got down there]") or the place of "what were you doing [at a pawnbroker's]"."""
    for at in range(2, len(words) - 1):
        if words[at] in ("when", "once", "after") and words[at + 1] == "you":
            return at
    for at in range(len(words) - 1):
        if words[at] == "doing" and at >= 2 and words[at - 1] == "you" and words[at + 1] in _PLACE_PREPOSITIONS:
            return at
    return None


def _raise_after_about(words: Sequence[str], hits: list[_Hit]) -> list[_Hit]:
    """ "Was there anything odd [about the bowl]?", "did you hear anything [about the will]?": after a way of asking
    about anything, the thing the question is about is what is asked. Not after a thing or one of the six ("is Mrs
    Ruddock telling the truth about the kitchen?" asks about her), not when the way of asking's own line speaks of
    the thing ("anything else about the back stair?" is the HELD line that heard its door), and not a time ("did you
    hear anything about twenty-five to eleven?")."""
    for about in (at for at, word in enumerate(words) if word == "about"):
        before = [hit for hit in hits if hit.positions[-1] < about]
        if not before or any(hit.strength >= CueStrength.SPECIFIC and not _asks_about_anything(hit.cue) for hit in before):
            continue
        end = about + 1  # the thing starts here, or past determiners and an owner ("about [your aunt's] will")
        while end < len(words) and (words[end] in _DETERMINERS or words[end].endswith("'s")):
            end += 1
        if about + 1 < len(words) and (words[about + 1] in _TIME_WORDS or words[about + 1].isdigit()):
            continue  # "about twenty-five to eleven" is a time, not a thing
        return [
            _Hit(hit.cue, hit.positions, hit.strength + 1)
            if about < hit.start <= end
            and hit.strength >= CueStrength.SPECIFIC
            and not any(_speaks_of(other.cue.entry, hit.cue.stems, admit=False) for other in before)
            else hit
            for hit in hits
        ]
    return hits


def _about_it(words: Sequence[str]) -> bool:
    """Whether a question asks "about it" (or them, that, this): about a thing named before it."""
    return any(word == "about" and following in _POINTING for word, following in zip(words, words[1:], strict=False))


def _asks_about_anything(cue: Cue) -> bool:
    """A way of asking ("what did you see") or a cue of anything at all ("anything odd", "hear anyone")."""
    return _is_frame(cue) or bool(_INDEFINITE & set(cue.stems))


def _after_place_preposition(words: Sequence[str], start: int) -> bool:
    at = start - 1
    while at >= 0 and words[at] in _DETERMINERS:
        at -= 1
    return at >= 0 and words[at] in _CIRCUMSTANCE_PREPOSITIONS


@cache
def _stems_of_text(text: str) -> frozenset[str]:
    return frozenset(stems(text))


def _speaks_of(entry: FileEntry, named: Sequence[str], *, admit: bool = True) -> bool:
    """Whether an entry's words (or its ADMIT) hold every word of a cue ("Joel", "spoons")."""
    said = _stems_of_text(entry.words) | (_stems_of_text(entry.admit) if entry.admit and admit else frozenset())
    return all(word in said for word in named)


def _answers_for(thing: _Hit, person: _Hit) -> bool:
    """Whether a specific cue's line answers a question whose subject is a person: it speaks of them, and
    their own line does not speak of the thing ("does Joel inherit?" is the will's, whose line names Joel;
    "does Thwaite count the spoons?" is Thwaite's, whose line says he counts them)."""
    return (
        thing.strength == CueStrength.SPECIFIC
        and _speaks_of(thing.cue.entry, person.cue.stems)
        and not _speaks_of(person.cue.entry, thing.cue.stems)
    )


def _senses(hit: _Hit, words: Sequence[str]) -> frozenset[str]:
    """The stems of the sense (hearing, seeing) a cue asks the suspect about ("did you hear", "what could you
    see"), if any: "you" comes before the verb ("could anyone see you?" does not ask what they saw)."""
    if not _SECOND_PERSON & set(words[: hit.positions[-1] + 1]):
        return frozenset()
    return frozenset().union(*(sense for sense in _SENSES if sense & set(hit.cue.stems)))


def _is_frame(cue: Cue) -> bool:
    """A cue that is a way of asking ("where were you", "what did you see"), not a thing asked about."""
    return cue.stems[0] in _WH or cue.stems[0] in _AUX


def _inside(hit: _Hit, other: _Hit) -> bool:
    return other is not hit and len(other.positions) > len(hit.positions) and set(hit.positions) <= set(other.positions)


# --- the lines' own words: a back-off for a question that no cue names ---------------------------------

# Words that say nothing of a topic: a line sharing them with a question does not echo it.
_FUNCTION_WORDS = frozenset(
    lemma_stem(word)
    for word in """
    a an the this that these those it its i me my mine myself you your yours yourself he him his she her hers herself
    we us our they them their theirs what which who whom whose where when why how whether if then than so and or but
    nor not no yes do does did done doing is am are was were be been being have has had having will would shall should
    can could may might must ought of to in on at by for with from into onto upon about as up down out off over under
    again there here all any some every each both either neither much many more most other such own same just only too
    very also still even ever never now ok okay oh well please really think say said tell told know anyone anything
    someone something anybody somebody nothing nobody one mr mrs miss ms
    """.split()
)
ECHO_WORDS = 2  # a line must share at least this many words with the question (one shared word is often a setting)
ECHO_WEIGHT = 4.5  # and their rarity (the natural log of lines over lines that say the word) must add up to this


@dataclass(frozen=True)
class LineWords:
    """The words of one suspect's lines, and how rare each word is across the case's FILE lines."""

    lines: tuple[tuple[FileEntry, frozenset[str]], ...]  # the suspect's lines (not DEFLECT), in FILE order
    rarity: Mapping[str, float]

    def echoed(self, asked: frozenset[str], in_file: Callable[[FileEntry], bool]) -> FileEntry | None:
        """The line in the FILE that shares the most rare words with a question's (stems, cue words taken out), when it
        shares at least ECHO_WORDS words worth ECHO_WEIGHT and no other line shares as much; else None."""
        asked = asked - _FUNCTION_WORDS
        scored = sorted(
            (
                (sum(self.rarity.get(word, 0.0) for word in shared), len(shared), index, entry)
                for index, (entry, words) in enumerate(self.lines)
                if in_file(entry) and (shared := asked & words)
            ),
            key=lambda row: (-row[0], row[2]),
        )
        if not scored:
            return None
        weight, count, _, entry = scored[0]
        if count < ECHO_WORDS or weight < ECHO_WEIGHT or (len(scored) > 1 and scored[1][0] >= weight):
            return None
        return entry


def echo_words(text: str) -> frozenset[str]:
    """The words a question or a line is echoed by: the stems of their plain forms ("came" and "come" are one)."""
    return frozenset(lemma_stem(word) for word in _folded_words(text))


def _content_words(text: str) -> frozenset[str]:
    return frozenset(word for word in echo_words(text) if word not in _FUNCTION_WORDS and not word.isdigit())


def line_words(case: Case) -> dict[str, LineWords]:
    """Every suspect's LineWords: a line's words are its text and its topic; a word's rarity is counted over every
    suspect's lines, so that what the whole house talks of (the bell, the snow) weighs little."""
    lines = [entry for entry in case.reveal.entries if entry.kind is not EntryKind.DEFLECT]
    words = {id(entry): _content_words(f"{entry.words} {entry.topic}") for entry in lines}
    saying = Counter(word for entry in lines for word in words[id(entry)])
    rarity = {word: math.log(len(lines) / count) for word, count in saying.items()}
    return {
        suspect.key: LineWords(tuple((entry, words[id(entry)]) for entry in lines if entry.suspect == suspect.key), rarity)
        for suspect in case.suspects
    }


def overrule(
    chosen: FileEntry | None,
    votes: TopicVotes,
    lines: Sequence[FileEntry],
    question: str,
    in_file: Callable[[FileEntry], bool],
    holds_specific_cue: Callable[[], bool],
    *,
    margin: float = VOTE_MARGIN,
    over_cues: float = VOTE_MARGIN_OVER_CUES,
) -> FileEntry | None:
    """The answer once the questions asked before have voted among the suspect's `lines` in the FILE and DEFLECT:
    `chosen` (the cues'), unless the vote makes one topic likelier than the next by `margin`, or by `over_cues` when
    the question holds a specific cue (`holds_specific_cue`, asked only when it decides). bench/topic_folds.py lays
    the same rule over an earlier commit's engine."""
    in_play = {line.topic for line in lines if in_file(line)} | {DEFLECT}
    vote = votes.vote(question, in_play)
    if vote is None or vote.margin < min(margin, over_cues):
        return chosen
    if vote.margin < (over_cues if holds_specific_cue() else margin):
        return chosen
    return next((line for line in lines if line.topic == vote.topic and in_file(line)), None)


def asked_votes(
    asked: Sequence[AskedQuestion], entries: Iterable[FileEntry], *, lines_vote: bool = LINES_VOTE
) -> dict[str, TopicVotes]:
    """Every suspect's TopicVotes, or none when the case has no questions asked before; with `lines_vote` each FILE
    line's own words are one more question asked about its topic."""
    if not asked:
        return {}
    said = [AskedQuestion(e.suspect, e.topic, e.words) for e in entries if e.kind is not EntryKind.DEFLECT]
    return topic_votes([*asked, *(said if lines_vote else ())])


# --- building the index from a case --------------------------------------------------------------------

_TITLE_WORDS = frozenset("mr mrs miss ms dr rev reverend mister the".split())


def _folded_words(text: str) -> tuple[str, ...]:
    return tuple(token.text for token in _tokens(text) if token.kind is _Kind.WORD)


@dataclass(frozen=True)
class _CaseWords:
    """The words of the case's people, folded, as cue_strength weighs a cue against them."""

    titles: frozenset[str]
    victim_phrases: frozenset[tuple[str, ...]]
    victim_words: frozenset[str]
    name_words: frozenset[str]  # the six's and the others'
    suspect_words: frozenset[str]  # the six's only


def _case_words(case: Case) -> _CaseWords:
    """Built once per case (kept in `case.derived`): every cue of the case is weighed against them."""
    cached = case.derived.get("cue-words")
    if isinstance(cached, _CaseWords):
        return cached
    public = case.public
    titles = frozenset({word for title in public.titles for word in _folded_words(title)} | _TITLE_WORDS)
    victim_phrases = frozenset(_folded_words(name) for name in public.victim)
    victim_words = frozenset(word for phrase in victim_phrases for word in phrase if word not in titles)
    suspect_words = _suspect_name_words(case)
    name_words = set(suspect_words)
    for other in public.others:
        name_words.update(_folded_words(other))
    words = _CaseWords(titles, victim_phrases, victim_words, frozenset(name_words), suspect_words)
    case.derived["cue-words"] = words
    return words


def cue_strength(case: Case, cue: str, plain: bool) -> CueStrength:
    """A plain cue as the author marked it; a name of the dead woman is plain; another person's name is a name."""
    if plain:
        return CueStrength.PLAIN
    known = _case_words(case)
    folded = _folded_words(cue)
    core = [word for word in folded if word not in known.titles]
    if folded in known.victim_phrases or (core and len(core) == 1 and core[0] in known.victim_words and folded == tuple(core)):
        return CueStrength.PLAIN
    if core and all(word in known.name_words for word in core):
        return CueStrength.NAME
    return CueStrength.SPECIFIC


def _dead_woman_stems(case: Case, suspect: str) -> frozenset[str]:
    """The words that name the dead woman to this suspect: her names, and the one-word plain cues of their line about
    her (the line whose plain cues name her: "mistress", "aunt", "cousin")."""
    known = _case_words(case)
    found = {stem(word) for word in known.victim_words}
    for entry in case.entries_for(suspect):
        cues = [_folded_words(cue) for cue in entry.plain_cues]
        if any(phrase in known.victim_phrases for phrase in cues):
            found.update(stem(phrase[0]) for phrase in cues if len(phrase) == 1)
    return frozenset(found)


def _suspect_name_words(case: Case) -> frozenset[str]:
    found: set[str] = set()
    for suspect in case.public.suspects:
        for phrase in (*suspect.aliases, suspect.name, *suspect.redirect):
            found.update(_folded_words(phrase))
    return frozenset(found)


def names_a_suspect(case: Case, cue: str) -> bool:
    """Whether a cue is one of the six's names, titles aside ("Mrs Ruddock", "the butler")."""
    known = _case_words(case)
    core = [word for word in _folded_words(cue) if word not in known.titles]
    return bool(core) and all(word in known.suspect_words for word in core)


def topic_indexes(case: Case) -> dict[str, TopicIndex]:
    """Every suspect's TopicIndex, built once per case and kept in `case.derived`."""
    cached = case.derived.get("topics")
    if isinstance(cached, dict):
        return cached
    indexes = build_topic_indexes(case)
    case.derived["topics"] = indexes
    return indexes


def build_topic_indexes(
    case: Case, keep_cue: Callable[[FileEntry, str], bool] | None = None, *, echo: bool = True, votes: bool = True
) -> dict[str, TopicIndex]:
    """Every suspect's TopicIndex, anew: bench/questions.py weighs the rules with some cues left out (`keep_cue`),
    without the lines' own words (`echo`) or without the questions asked before (`votes`)."""
    cues: dict[str, list[Cue]] = {suspect.key: [] for suspect in case.suspects}
    for entry in case.reveal.entries:
        for text, plain in [*((c, False) for c in entry.cues), *((c, True) for c in entry.plain_cues)]:
            cue_stems = stems(text)
            if cue_stems and (keep_cue is None or keep_cue(entry, text)):
                strength = cue_strength(case, text, plain)
                person = strength is CueStrength.NAME and names_a_suspect(case, text)
                cues[entry.suspect].append(Cue(cue_stems, strength, entry, person))
    echoes = line_words(case)
    asked = asked_votes(case.asked, case.reveal.entries) if votes else {}
    return {
        key: TopicIndex(found, _dead_woman_stems(case, key), echoes[key] if echo else None, asked.get(key), case.entries_for(key))
        for key, found in cues.items()
    }
