"""The fair-play checker: what a program can prove about a case (design: case-model.md).

`lint_case` is pure: it takes a parsed public part and reveal (and, for line numbers of rounds, the
reveal's raw records) and returns every finding at once, so an author fixes a case in one pass.
`lint_sources` parses plain texts first, and `lint_case_files` also checks the seal of a case folder.
A strict parse error stops the check there and is reported as one error with its file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import product

from engine.case import (
    NOTICE_FILE,
    NUMBER_WORDS,
    PUBLIC_FILE,
    REVEAL_SCHEMAS,
    Case,
    CaseError,
    EntryKind,
    FileEntry,
    GradePart,
    Pronouns,
    PublicPart,
    Reveal,
    join_reveal,
    parse_notice,
    parse_public,
    parse_reveal,
)
from engine.caseformat import CaseFormatError, Record, parse_records
from engine.classify import Action, Classifier, Situation
from engine.rules import EXHIBITS_PER_ROUND, MAX_COUNTED_EXHIBITS, QUESTIONS_PER_ROUND, ROUNDS
from engine.seal import sha256_hex
from engine.state import Accusation, Phase
from engine.text import words
from engine.topics import stems, topic_indexes

WORDS_PER_MINUTE = 150
MAX_OPENING_WORDS = 600  # a round opening read aloud in under four minutes
MAX_EXHIBIT_WORDS = 90  # an exhibit heard in under about forty seconds

#: The card's NAMES for Hollin Fold, by suspect key: the bundled case must match them exactly.
HOLLIN_FOLD = "hollin-fold"
HOLLIN_FOLD_NAMES: Mapping[str, tuple[str, ...]] = {
    "thwaite": ("Thwaite", "Abel", "butler"),
    "ruddock": ("Ruddock", "Martha", "housekeeper"),
    "joel": ("Joel", "nephew", "heir"),
    "marsden": ("Phoebe", "Marsden", "companion"),
    "keld": ("Keld", "Francis", "curate", "parson", "vicar", "reverend", "clergyman"),
    "ormerod": ("Ormerod", "Julius", "man of business", "agent", "lawyer", "solicitor"),
}
HOLLIN_FOLD_REDIRECT = ("joel", "Blamire")  # "Joel Blamire? Call him Joel."
HOLLIN_FOLD_VICTIM = Pronouns("she", "her", "her")  # card: "there when she was struck", "did you kill ... her"

# A spoken word for counting read-aloud length: "10.35", "twenty-five" and "Amos's" are one word each.
_SPOKEN_WORD = re.compile(r"[A-Za-z0-9]+(?:['’.\-][A-Za-z0-9]+)*")


class Severity(Enum):
    ERROR = "error"  # the case breaks fair play or cannot be played as written
    WARNING = "warning"  # allowed, but probably not what the author meant


@dataclass(frozen=True)
class Finding:
    severity: Severity
    file: str
    line: int
    message: str

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def render(self) -> str:
        return f"{self.file}:{self.line}: {self.severity.value}: {self.message}"


@dataclass(frozen=True)
class RoundLength:
    """How long a round opening takes to read aloud: SCENE, exhibits with titles, statements (and THE HOUSE)."""

    round: int
    words: int

    @property
    def minutes(self) -> float:
        return self.words / WORDS_PER_MINUTE

    def render(self) -> str:
        return f"round {self.round} opening: {self.words} words, {self.minutes:.1f} min at {WORDS_PER_MINUTE} wpm"


@dataclass(frozen=True)
class LintReport:
    findings: tuple[Finding, ...]
    lengths: tuple[RoundLength, ...]

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.is_error)

    @property
    def ok(self) -> bool:
        return not self.errors


def spoken_words(text: str) -> int:
    return len(_SPOKEN_WORD.findall(text))


# --- entry points --------------------------------------------------------------------------------


def lint_case_files(files: Mapping[str, bytes]) -> LintReport:
    """Lint a case folder's files (as bytes): the seal first, then everything `lint_case` checks."""
    for name in (PUBLIC_FILE, NOTICE_FILE):
        if name not in files:
            return _failed(name, 1, f"{name} is missing")
    try:
        notice = parse_notice(_decode(files[NOTICE_FILE], NOTICE_FILE), NOTICE_FILE)
    except CaseFormatError as error:
        return _failed(error.file, error.line, error.message)
    except CaseError as error:
        return _failed(NOTICE_FILE, 1, error.reason)
    try:
        joined = join_reveal(files, notice)
    except CaseError as error:
        return _failed(NOTICE_FILE, 1, error.reason)
    digest = sha256_hex(joined)
    seal: list[Finding] = []
    if digest != notice.commitment:
        seal.append(
            Finding(
                Severity.ERROR,
                NOTICE_FILE,
                1,
                f"the reveal's SHA-256 {digest} does not match the commitment {notice.commitment}: reseal it",
            )
        )
    try:
        public_text = _decode(files[PUBLIC_FILE], PUBLIC_FILE)
        reveal_text = _decode(joined, notice.reveal_name)
    except CaseError as error:
        return _failed(PUBLIC_FILE, 1, error.reason)
    report = lint_sources(public_text, reveal_text, reveal_file=notice.reveal_name)
    if report.ok and notice.mystery != parse_public(public_text).mystery:
        seal.append(Finding(Severity.ERROR, NOTICE_FILE, 1, f"the notice is for {notice.mystery!r}, not this case"))
    return LintReport((*seal, *report.findings), report.lengths)


def lint_sources(
    public_text: str, reveal_text: str, *, public_file: str = PUBLIC_FILE, reveal_file: str = "reveal.txt"
) -> LintReport:
    """Parse the plain public part and reveal strictly, then lint them."""
    try:
        public = parse_public(public_text, public_file)
        records = parse_records(reveal_text, reveal_file, REVEAL_SCHEMAS, require_end=True)
        reveal = parse_reveal(reveal_text, reveal_file, public.suspects)
    except CaseFormatError as error:
        return _failed(error.file, error.line, error.message)
    return lint_case(public, reveal, records, public_file=public_file)


def lint_case(
    public: PublicPart, reveal: Reveal, records: Sequence[Record] = (), *, public_file: str = PUBLIC_FILE
) -> LintReport:
    """Every fair-play finding for a parsed case. `records` (the reveal's raw records) adds order checks."""
    findings: list[Finding] = []
    findings += _check_identity(public, reveal, public_file)
    findings += _check_names(public, public_file)
    findings += _check_order(reveal, records)
    findings += _check_files(public, reveal)
    findings += _check_lies(reveal)
    findings += _check_grading(public, reveal)
    lengths = _lengths(public, reveal)
    findings += _check_lengths(reveal, lengths)
    return LintReport(tuple(findings), lengths)


# --- the checks ----------------------------------------------------------------------------------


def _check_identity(public: PublicPart, reveal: Reveal, public_file: str) -> list[Finding]:
    if reveal.mystery == public.mystery:
        return []
    return [_error(reveal.file, 1, f"the reveal is for {reveal.mystery!r}, but {public_file} is {public.mystery!r}")]


def _check_names(public: PublicPart, public_file: str) -> list[Finding]:
    """The six against the card's NAMES (for Hollin Fold), the number word, and each suspect's `call` among their names."""
    found: list[Finding] = []
    if public.mystery == HOLLIN_FOLD:
        keys = [suspect.key for suspect in public.suspects]
        if sorted(keys) != sorted(HOLLIN_FOLD_NAMES):
            found.append(
                _error(
                    public_file,
                    1,
                    f"Hollin Fold has six suspects ({', '.join(HOLLIN_FOLD_NAMES)}); this case has {', '.join(keys)}",
                )
            )
        for suspect in public.suspects:
            card = HOLLIN_FOLD_NAMES.get(suspect.key)
            if card is None:
                continue
            if _folded(suspect.aliases) != _folded(card):
                found.append(
                    _error(
                        public_file,
                        suspect.line,
                        f"{suspect.key}'s aliases must be the card's NAMES exactly: {'; '.join(card)}",
                    )
                )
        key, word = HOLLIN_FOLD_REDIRECT
        for suspect in public.suspects:
            if suspect.key == key and word.lower() not in _folded(suspect.redirect):
                found.append(_error(public_file, suspect.line, f"{key} needs 'redirect: {word}' (card: NAMES)"))
            if suspect.key == key and suspect.pronouns.object != "him":
                found.append(_error(public_file, suspect.line, f"{key} needs 'pronouns: he/him/his' (card: \"Call him Joel.\")"))
        if public.victim_pronouns != HOLLIN_FOLD_VICTIM:
            found.append(
                _error(
                    public_file,
                    1,
                    f"Hollin Fold needs 'victim-pronouns: {HOLLIN_FOLD_VICTIM.render()}' (card: \"who killed her\")",
                )
            )
    count = len(public.suspects)
    if count <= len(NUMBER_WORDS) and public.number_word != NUMBER_WORDS[count - 1]:
        found.append(
            _warning(
                public_file,
                1,
                f"number-word is {public.number_word!r}, but the case has {count} suspects ({NUMBER_WORDS[count - 1]})",
            )
        )
    titles = _folded(public.titles)
    for suspect in public.suspects:
        names = _folded(suspect.aliases) | {part.lower() for part in suspect.name.split()}
        call = [part for part in words(suspect.call) if part not in titles]
        if not call or " ".join(call) not in names and not set(call) <= names:
            found.append(
                Finding(
                    Severity.WARNING,
                    public_file,
                    suspect.line,
                    f"{suspect.key}'s call {suspect.call!r} is not one of their names",
                )
            )
    return found


def _check_order(reveal: Reveal, records: Sequence[Record]) -> list[Finding]:
    """Exhibits in order, each inside its own round (after its `round` record, before the next)."""
    if not records:
        return []
    found: list[Finding] = []
    round_lines = {int(r.args[0]): r.line for r in records if r.kind == "round" and r.args[0].isdigit()}
    last = 0
    for record in records:
        if record.kind != "exhibit":
            continue
        number = int(record.args[0][1:])
        if number < last:
            found.append(_error(reveal.file, record.line, f"E{number} comes after E{last}: exhibits go in order"))
        last = max(last, number)
        own = (number - 1) // EXHIBITS_PER_ROUND + 1
        start = round_lines.get(own, 0)
        end = round_lines.get(own + 1)
        if record.line < start or (end is not None and record.line > end):
            found.append(_error(reveal.file, record.line, f"E{number} belongs under 'round: {own}'"))
    return found


def _check_files(public: PublicPart, reveal: Reveal) -> list[Finding]:
    """Topics and cues: every topic cued, no cue shared between two topics of one suspect."""
    found: list[Finding] = []
    aliases = {suspect.key: _folded(suspect.aliases) for suspect in public.suspects}
    for suspect in public.suspects:
        entries = [e for e in reveal.entries if e.suspect == suspect.key and e.kind is not EntryKind.DEFLECT]
        topics: dict[str, list[FileEntry]] = {}
        for entry in entries:
            topics.setdefault(entry.topic, []).append(entry)
        owner: dict[tuple[str, ...], tuple[str, FileEntry]] = {}
        for topic, group in topics.items():
            lines = [e for e in group if e.kind is EntryKind.LINE]
            if len(lines) > 1:
                found.append(
                    _error(reveal.file, lines[1].line, f"{suspect.key} has two plain lines on '{topic}'; one is never said")
                )
            cue_sets = {_folded((*e.cues, *e.plain_cues)) for e in group}
            if len(cue_sets) > 1:
                found.append(_warning(reveal.file, group[1].line, f"{suspect.key}'s lines on '{topic}' have different cues"))
            for entry in group:
                if not entry.cues:
                    found.append(_error(reveal.file, entry.line, f"{suspect.key}'s topic '{topic}' has no cue"))
                for cue in (*entry.cues, *entry.plain_cues):
                    key = stems(cue)  # "carol" and "carols" are one cue
                    if not key:
                        found.append(_error(reveal.file, entry.line, f"cue {cue!r} has no words"))
                        continue
                    previous = owner.setdefault(key, (topic, entry))
                    if previous[0] != topic:
                        found.append(
                            _error(
                                reveal.file,
                                entry.line,
                                f"{suspect.key}: cue {cue!r} is on both '{previous[0]}' (line {previous[1].line}) and '{topic}'",
                            )
                        )
                    found += _alias_cue(reveal.file, suspect.key, entry, cue, aliases)
        found += _overlapping_cues(reveal.file, suspect.key, owner)
    return found


def _alias_cue(file: str, key: str, entry: FileEntry, cue: str, aliases: Mapping[str, frozenset[str]]) -> list[Finding]:
    """A name as a cue takes every question that names that person; allowed only on a topic about them."""
    folded = " ".join(words(cue))
    cues = _folded(entry.cues)
    for other, names in aliases.items():
        if folded not in names:
            continue
        if other == key:
            return [_warning(file, entry.line, f"{key}'s cue {cue!r} is their own name: every question says it")]
        if not names <= cues:
            return [
                _warning(
                    file,
                    entry.line,
                    f"{key}'s cue {cue!r} names {other}, but topic '{entry.topic}' is not about {other} "
                    f"(its cues lack some of {other}'s names)",
                )
            ]
    return []


def _overlapping_cues(file: str, key: str, owner: Mapping[tuple[str, ...], tuple[str, FileEntry]]) -> list[Finding]:
    """A cue that begins with another topic's cue: both match at the same word, and the longer wins."""
    found: list[Finding] = []
    for longer, (topic, entry) in owner.items():
        for shorter, (other_topic, _) in owner.items():
            if other_topic != topic and len(shorter) < len(longer) and longer[: len(shorter)] == shorter:
                found.append(
                    _warning(
                        file,
                        entry.line,
                        f"{key}: cue {' '.join(longer)!r} ('{topic}') begins with cue {' '.join(shorter)!r} "
                        f"('{other_topic}'); check the longer one is meant to win",
                    )
                )
    return found


def _check_lies(reveal: Reveal) -> list[Finding]:
    """Lies: every suspect lies at least once, `after` has no cycles, and every lie can break in play."""
    found: list[Finding] = []
    lies = {e.label: e for e in reveal.entries if e.kind is EntryKind.LIE and e.label is not None}
    suspects = {e.suspect for e in reveal.entries}
    for key in sorted(suspects):
        if not any(lie.suspect == key for lie in lies.values()):
            deflect = next(e for e in reveal.entries if e.suspect == key)
            found.append(_error(reveal.file, deflect.line, f"{key} tells no lie: every suspect needs one"))
    for lie in lies.values():
        if lie.after is not None and lie.after in lies and lies[lie.after].suspect != lie.suspect:
            found.append(
                _warning(reveal.file, lie.line, f"lie {lie.label} of {lie.suspect} is told after {lie.after}, another's lie")
            )
    found += _shared_catches(reveal.file, lies)
    for label, lie in lies.items():
        chain = _chain(label, lies)
        if chain is None:
            found.append(_error(reveal.file, lie.line, f"lie {label} is told only after a cycle of lies: it is never told"))
            continue
        schedule = _earliest_breaks(chain, lies)
        if schedule is None:
            steps = " -> ".join(chain)
            found.append(
                _error(
                    reveal.file,
                    lie.line,
                    f"lie {label} cannot be broken in play: {steps} needs more confrontations than four rounds "
                    f"of {QUESTIONS_PER_ROUND} questions allow",
                )
            )
            continue
        if lie.after is not None:
            told_from = schedule[-2]  # the round its predecessor can first break in
            if all(_round_of(n) < told_from for n in lie.catch):
                found.append(
                    _warning(
                        reveal.file,
                        lie.line,
                        f"lie {label} can first be told in round {told_from}, but every exhibit in its CATCH "
                        f"({_exhibits(lie.catch)}) was read before then",
                    )
                )
    return found


def _shared_catches(file: str, lies: Mapping[str, FileEntry]) -> list[Finding]:
    """One exhibit in the CATCH of two lies that can stand at once breaks only the first in the FILE."""
    found: list[Finding] = []
    ordered = sorted(lies.values(), key=lambda entry: entry.line)
    for index, first in enumerate(ordered):
        for second in ordered[index + 1 :]:
            if first.suspect != second.suspect or _in_chain(first, second, lies) or _in_chain(second, first, lies):
                continue
            shared = sorted(set(first.catch) & set(second.catch))
            if shared:
                found.append(
                    _warning(
                        file,
                        second.line,
                        f"{_exhibits(shared)} catches both {first.label} and {second.label} of {first.suspect}; "
                        f"one confrontation breaks only {first.label}",
                    )
                )
    return found


def _in_chain(earlier: FileEntry, later: FileEntry, lies: Mapping[str, FileEntry]) -> bool:
    """Whether `later` is told only after `earlier` breaks (directly or down a chain)."""
    seen: set[str] = set()
    current = later
    while current.after is not None and current.after in lies and current.after not in seen:
        if current.after == earlier.label:
            return True
        seen.add(current.after)
        current = lies[current.after]
    return False


def _chain(label: str, lies: Mapping[str, FileEntry]) -> list[str] | None:
    """The lies that must break before `label` is told, oldest first, ending with `label`; None on a cycle."""
    chain = [label]
    while (after := lies[chain[0]].after) is not None and after in lies:
        if after in chain:
            return None
        chain.insert(0, after)
    return chain


def _earliest_breaks(chain: Sequence[str], lies: Mapping[str, FileEntry]) -> list[int] | None:
    """The earliest round each lie of the chain can break in, one confrontation per question, in order."""
    rounds: list[int] = []
    current, used = 1, 0
    for label in chain:
        ready = min(_round_of(n) for n in lies[label].catch)  # an exhibit, once read, can be cited later
        if ready > current:
            current, used = ready, 0
        if used == QUESTIONS_PER_ROUND:
            current, used = current + 1, 0
        if current > ROUNDS:
            return None
        used += 1
        rounds.append(current)
    return rounds


def _check_grading(public: PublicPart, reveal: Reveal) -> list[Finding]:
    found: list[Finding] = []
    grading = reveal.grading
    line = grading.line
    keys = {suspect.key for suspect in public.suspects}
    if grading.culprit not in keys:
        found.append(_error(reveal.file, line, f"the culprit {grading.culprit!r} is not one of the suspects"))
    parts = {part: grading.sets_for(part) for part in GradePart}
    for part, sets in parts.items():
        if not sets:
            found.append(_error(reveal.file, line, f"GRADING has no exhibit set for {part.value}"))
    if any(not sets for sets in parts.values()):
        return found
    for number, round_ in enumerate(reveal.rounds, start=1):
        inside = frozenset(exhibit.number for exhibit in round_.exhibits)
        if all(any(s <= inside for s in sets) for sets in parts.values()):
            found.append(
                _error(reveal.file, line, f"round {number}'s exhibits alone prove could, how and why: the round gives it away")
            )
    smallest = min(len(frozenset().union(*choice)) for choice in product(*parts.values()))
    if smallest > MAX_COUNTED_EXHIBITS:
        found.append(
            _error(
                reveal.file,
                line,
                f"proving all three parts takes {smallest} exhibits, but an accusation counts only {MAX_COUNTED_EXHIBITS}",
            )
        )
    if all(len(sets) < 2 for sets in parts.values()):
        found.append(_warning(reveal.file, line, "no part of GRADING has two alternative exhibit sets"))
    return found


def _lengths(public: PublicPart, reveal: Reveal) -> tuple[RoundLength, ...]:
    lengths = []
    for number, round_ in enumerate(reveal.rounds, start=1):
        texts: list[str] = [public.house] if number == 1 else []
        texts.append(round_.scene)
        for exhibit in round_.exhibits:
            texts += [exhibit.title, exhibit.text]
        texts += [statement.words for statement in round_.statements]
        lengths.append(RoundLength(number, sum(spoken_words(text) for text in texts)))
    return tuple(lengths)


def _check_lengths(reveal: Reveal, lengths: Iterable[RoundLength]) -> list[Finding]:
    found: list[Finding] = []
    for length in lengths:
        if length.words > MAX_OPENING_WORDS:
            found.append(
                _warning(
                    reveal.file,
                    1,
                    f"round {length.round}'s opening is {length.words} words ({length.minutes:.1f} min aloud); "
                    f"keep it to {MAX_OPENING_WORDS}",
                )
            )
    for round_ in reveal.rounds:
        for exhibit in round_.exhibits:
            count = spoken_words(exhibit.text)
            if count > MAX_EXHIBIT_WORDS:
                found.append(
                    _warning(reveal.file, exhibit.line, f"E{exhibit.number} is {count} words; keep it to {MAX_EXHIBIT_WORDS}")
                )
    return found


# --- small helpers -------------------------------------------------------------------------------


def _failed(file: str, line: int, message: str) -> LintReport:
    return LintReport((_error(file, line, message),), ())


def _error(file: str, line: int, message: str) -> Finding:
    return Finding(Severity.ERROR, file, line, message)


def _warning(file: str, line: int, message: str) -> Finding:
    return Finding(Severity.WARNING, file, line, message)


def _folded(items: Iterable[str]) -> frozenset[str]:
    return frozenset(" ".join(words(item)) for item in items)


def _round_of(exhibit: int) -> int:
    return (exhibit - 1) // EXHIBITS_PER_ROUND + 1


def _exhibits(numbers: Iterable[int]) -> str:
    return ", ".join(f"E{n}" for n in numbers)


def _decode(data: bytes, file: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CaseError(f"{file}: not UTF-8 at byte {error.start}") from None


__all__ = [
    "HOLLIN_FOLD_NAMES",
    "Finding",
    "LintReport",
    "RoundLength",
    "Severity",
    "lint_case",
    "lint_case_files",
    "lint_sources",
    "spoken_words",
]


# --- how the question set reaches each line ------------------------------------------------------


@dataclass(frozen=True)
class LineReach:
    """How many of the `tune` questions put to a suspect reach one FILE topic (every line on it)."""

    suspect: str
    topic: str
    labels: tuple[str, ...]  # the lie labels on this topic, if any
    questions: int

    def render(self) -> str:
        labels = f" ({', '.join(self.labels)})" if self.labels else ""
        none = "  <- no tune question reaches it" if self.questions == 0 else ""
        return f"  {self.suspect} | {self.topic}{labels}: {self.questions}{none}"


def tune_reach(case: Case, questions: Iterable[tuple[str, str]]) -> tuple[LineReach, ...]:
    """For each FILE topic, how many questions (suspect key, question as the table says it) reach it.

    The question goes through the card's MESSAGES rules as typed at round 1; every line counts as in the
    FILE (a HELD line, a lie told only after another), so a line reached only once a lie breaks still counts.
    """
    classifier = Classifier(case)
    situation = Situation(
        phase=Phase.ROUNDS,
        round=1,
        seats=("Ann",),
        solo=False,
        exhibits_read=frozenset(range(1, EXHIBITS_PER_ROUND + 1)),
        accusation=Accusation.NONE,
        read_back=None,
        pending=None,
        first_message=False,
        awaiting_nickname=False,
    )
    indexes = topic_indexes(case)
    counts: dict[tuple[str, str], int] = {}
    for suspect, text in questions:
        decision = classifier.classify(text, situation)
        if decision.action is not Action.QUESTION or decision.suspect != suspect:
            continue
        entry = indexes[suspect].choose(decision.rest, lambda _: True)
        if entry is not None:
            counts[(suspect, entry.topic)] = counts.get((suspect, entry.topic), 0) + 1
    found: list[LineReach] = []
    for person in case.suspects:
        topics: dict[str, list[FileEntry]] = {}
        for entry in case.entries_for(person.key):
            if entry.kind is not EntryKind.DEFLECT:
                topics.setdefault(entry.topic, []).append(entry)
        for topic, entries in topics.items():
            labels = tuple(entry.label for entry in entries if entry.label is not None)
            found.append(LineReach(person.key, topic, labels, counts.get((person.key, topic), 0)))
    return tuple(found)
