"""A case: the public part, the sealed notice, and the reveal it seals.

`load_case` takes the case folder's files as bytes (reading them is the caller's I/O), checks the seal
exactly as card rule 2 asks, and returns typed, validated data. Any failure is a CaseError, whose
reason says precisely what is wrong; the Host then says only REFUSAL.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from engine.asked import ASKED_FILE, AskedFormatError, AskedQuestion, parse_asked, unknown_topics
from engine.caseformat import END_OF_FILE, CaseFormatError, Record, RecordSchema, parse_records
from engine.rules import EXHIBITS, EXHIBITS_PER_ROUND, ROUNDS
from engine.seal import SealError, sha256_hex, unseal_part

REFUSAL = "The case file did not come through whole; this chat can't run it."
PUBLIC_FILE = "public.case"
NOTICE_FILE = "SYSTEM.md"


# The number of suspects in words, as the card's fixed lines say it ("Only the six can be questioned.").
# Number words one to sixteen: a case's count of suspects in words, and (in voice_host) an exhibit cited aloud.
NUMBER_WORDS = (
    "one", "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
)  # fmt: skip
# Their ordinals: an exhibit by its place ("the seventh exhibit").
ORDINAL_WORDS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
)  # fmt: skip


class CaseError(Exception):
    """The case cannot be played; `reason` says exactly why (file, part, line)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- the public part -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Pronouns:
    """How a person is spoken of: `he/him/his`, `she/her/her`, `they/them/their`."""

    subject: str
    object: str
    possessive: str

    def render(self) -> str:
        return f"{self.subject}/{self.object}/{self.possessive}"


#: The pronouns of anyone whose case does not give theirs.
THEY = Pronouns("they", "them", "their")


@dataclass(frozen=True)
class Suspect:
    key: str
    name: str  # full name: "Joel Blamire"
    role: str
    aliases: tuple[str, ...]  # the card's NAMES for this suspect
    call: str  # what the Host calls them: "{call} breaks."
    redirect: tuple[str, ...] = ()  # words that get "{name}? Call {pronouns.object} {call}."
    line: int = 0
    pronouns: Pronouns = THEY


@dataclass(frozen=True)
class RulePassage:
    key: str
    cues: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class PublicPart:
    mystery: str
    game: str
    rules: str
    version: str
    chapter: str
    title: str
    verify: str
    epilogue: str
    reveal_address: str
    titles: tuple[str, ...]
    victim: tuple[str, ...]  # how the dead may be named: never a suspect
    others: tuple[str, ...]  # people who are not suspects: "Only the six can be questioned."
    suspects: tuple[Suspect, ...]
    opening: str
    house: str
    rules_passages: tuple[RulePassage, ...]
    victim_pronouns: Pronouns = THEY  # "who killed her", "Thwaite killed her"
    number_word: str = "six"  # the suspects counted in words: "Only the six can be questioned."


@dataclass(frozen=True)
class Notice:
    mystery: str
    commitment: str
    reveal_name: str
    parts: tuple[str, ...]

    @property
    def commitment_opening(self) -> str:
        return f"{self.commitment[:16]}…"


# --- the sealed reveal ---------------------------------------------------------------------------


class EntryKind(Enum):
    LINE = "line"
    LIE = "lie"
    HELD = "held"
    DEFLECT = "deflect"


@dataclass(frozen=True)
class FileEntry:
    """One line of a suspect's FILE."""

    kind: EntryKind
    suspect: str
    topic: str
    cues: tuple[str, ...]
    words: str
    line: int
    label: str | None = None  # LIE only
    catch: tuple[int, ...] = ()
    admit: str | None = None
    gives_way_to: str | None = None
    after: str | None = None  # told only after this lie breaks
    silence: str | None = None  # the admit's last sentence; after it the suspect says only this
    plain_cues: tuple[str, ...] = ()  # cues that name the topic only when nothing more specific is asked


@dataclass(frozen=True)
class Exhibit:
    number: int
    title: str
    text: str
    line: int

    @property
    def round(self) -> int:
        return (self.number - 1) // EXHIBITS_PER_ROUND + 1


@dataclass(frozen=True)
class Statement:
    round: int
    suspect: str
    words: str
    line: int


@dataclass(frozen=True)
class Round:
    number: int
    scene: str
    exhibits: tuple[Exhibit, ...]
    statements: tuple[Statement, ...]  # in the case's suspect order


class GradePart(Enum):
    COULD = "could"
    HOW = "how"
    WHY = "why"


@dataclass(frozen=True)
class Grading:
    culprit: str
    sets: tuple[tuple[GradePart, tuple[frozenset[int], ...]], ...]  # per part, alternative exhibit sets
    line: int

    def sets_for(self, part: GradePart) -> tuple[frozenset[int], ...]:
        return dict(self.sets)[part]


@dataclass(frozen=True)
class Reveal:
    mystery: str
    rounds: tuple[Round, ...]
    entries: tuple[FileEntry, ...]
    solution: str
    grading: Grading
    file: str


@dataclass(frozen=True)
class Case:
    public: PublicPart
    notice: Notice
    reveal: Reveal
    reveal_sha256: str
    # The questions tables asked before, labelled with their topics (engine.asked): they vote for a question's topic.
    # Sealed beside the reveal but outside its commitment: they choose which line answers, never what a line says.
    asked: tuple[AskedQuestion, ...] = ()
    # Indexes built from the case once and shared by every Game of it (name patterns, cue tables).
    derived: dict[str, object] = field(default_factory=dict, compare=False, repr=False)

    @property
    def suspects(self) -> tuple[Suspect, ...]:
        return self.public.suspects

    def suspect(self, key: str) -> Suspect:
        for suspect in self.public.suspects:
            if suspect.key == key:
                return suspect
        raise KeyError(key)

    def exhibit(self, number: int) -> Exhibit:
        round_ = self.reveal.rounds[(number - 1) // EXHIBITS_PER_ROUND]
        return round_.exhibits[(number - 1) % EXHIBITS_PER_ROUND]

    def round(self, number: int) -> Round:
        return self.reveal.rounds[number - 1]

    def entries_for(self, suspect: str) -> tuple[FileEntry, ...]:
        return tuple(entry for entry in self.reveal.entries if entry.suspect == suspect)

    def lie(self, label: str) -> FileEntry:
        for entry in self.reveal.entries:
            if entry.label == label:
                return entry
        raise KeyError(label)

    @property
    def lies(self) -> tuple[FileEntry, ...]:
        return tuple(entry for entry in self.reveal.entries if entry.kind is EntryKind.LIE)


# --- parsing -------------------------------------------------------------------------------------


def _schema(min_args: int, max_args: int, required: str = "", optional: str = "") -> RecordSchema:
    return RecordSchema(min_args, max_args, frozenset(required.split()), frozenset(optional.split()))


PUBLIC_SCHEMAS = {
    "case": _schema(
        1,
        1,
        "game rules version chapter title verify epilogue reveal-address",
        "titles victim others victim-pronouns number-word",
    ),
    "suspect": _schema(1, 1, "name role aliases call", "redirect pronouns"),
    "opening": _schema(0, 0, "text"),
    "house": _schema(0, 0, "text"),
    "rule": _schema(1, 1, "cues text"),
}
NOTICE_SCHEMAS = {"notice": _schema(1, 1, "commitment reveal parts")}
REVEAL_SCHEMAS = {
    "reveal": _schema(1, 1),
    "round": _schema(1, 1, "scene"),
    "exhibit": _schema(1, 1, "title text"),
    "statement": _schema(2, 2, "says"),
    "line": _schema(2, 2, "cues says", "plain-cues"),
    "lie": _schema(3, 3, "cues says catch", "admit gives-way-to after silence plain-cues"),
    "held": _schema(2, 2, "cues says", "plain-cues"),
    "deflect": _schema(1, 1, "says"),
    "solution": _schema(0, 0, "text"),
    "grading": _schema(0, 0, "culprit could how why"),
}
_KEY = re.compile(r"^[a-z][a-z0-9_-]*$")
_EXHIBIT = re.compile(r"^E([1-9][0-9]?)$")
_LABEL = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


def _single(records: list[Record], kind: str, file: str) -> Record:
    found = [record for record in records if record.kind == kind]
    if not found:
        raise CaseFormatError(file, 1, f"no '{kind}' record")
    if len(found) > 1:
        raise found[1].error(f"a second '{kind}' record (the first is on line {found[0].line})")
    return found[0]


def _key(record: Record, value: str) -> str:
    if not _KEY.match(value):
        raise record.error(f"{value!r} is not a key (lowercase letters, digits, - or _)")
    return value


def _text(record: Record, name: str) -> str:
    """A narration field: quotes around it are allowed and dropped."""
    value = record.value(name).strip()
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        return record.quoted(name)
    return value


def _pronouns(record: Record, name: str, default: Pronouns) -> Pronouns:
    """`he/him/his`: subject, object and possessive, one word each."""
    found = record.get(name)
    if found is None:
        return default
    forms = [form.strip() for form in found.value.split("/")]
    if len(forms) != 3 or not all(re.fullmatch(r"[^\W\d_]+", form) for form in forms):
        raise record.error(f"'{name}' is three words with '/' between them, like he/him/his, got {found.value!r}", found.line)
    return Pronouns(*(form.lower() for form in forms))


def _number_word(record: Record, count: int) -> str:
    """The `number-word` field, or the count of suspects in words."""
    found = record.get("number-word")
    if found is not None:
        if not re.fullmatch(r"[^\W\d_]+(?:-[^\W\d_]+)?", found.value):
            raise record.error(f"'number-word' is one word, like six, got {found.value!r}", found.line)
        return found.value.lower()
    if count > len(NUMBER_WORDS):
        raise record.error(f"a case with {count} suspects needs 'number-word' (the number in words)")
    return NUMBER_WORDS[count - 1]


def parse_public(text: str, file: str = PUBLIC_FILE) -> PublicPart:
    records = parse_records(text, file, PUBLIC_SCHEMAS)
    head = _single(records, "case", file)
    suspects: list[Suspect] = []
    seen: dict[str, int] = {}
    for record in records:
        if record.kind != "suspect":
            continue
        key = _key(record, record.args[0])
        if key in seen:
            raise record.error(f"suspect {key!r} is defined twice (first on line {seen[key]})")
        seen[key] = record.line
        suspects.append(
            Suspect(
                key=key,
                name=record.value("name"),
                role=record.value("role"),
                aliases=record.listed("aliases"),
                call=record.value("call"),
                redirect=record.listed("redirect"),
                line=record.line,
                pronouns=_pronouns(record, "pronouns", THEY),
            )
        )
    if not suspects:
        raise head.error("a case needs at least one suspect")
    alias_owner: dict[str, str] = {}
    for suspect in suspects:
        for alias in suspect.aliases:
            owner = alias_owner.setdefault(alias.lower(), suspect.key)
            if owner != suspect.key:
                raise CaseFormatError(file, suspect.line, f"alias {alias!r} names both {owner} and {suspect.key}")
    passages = tuple(
        RulePassage(record.args[0], record.listed("cues"), _text(record, "text")) for record in records if record.kind == "rule"
    )
    return PublicPart(
        mystery=_key(head, head.args[0]),
        game=head.value("game"),
        rules=head.value("rules"),
        version=head.value("version"),
        chapter=head.value("chapter"),
        title=head.value("title"),
        verify=head.value("verify"),
        epilogue=head.value("epilogue"),
        reveal_address=head.value("reveal-address"),
        titles=head.listed("titles"),
        victim=head.listed("victim"),
        others=head.listed("others"),
        suspects=tuple(suspects),
        opening=_text(_single(records, "opening", file), "text"),
        house=_text(_single(records, "house", file), "text"),
        rules_passages=passages,
        victim_pronouns=_pronouns(head, "victim-pronouns", THEY),
        number_word=_number_word(head, len(suspects)),
    )


def parse_notice(text: str, file: str = NOTICE_FILE) -> Notice:
    record = _single(parse_records(text, file, NOTICE_SCHEMAS), "notice", file)
    commitment = record.value("commitment").strip().lower()
    if not re.fullmatch(r"[0-9a-f]{64}", commitment):
        raise record.error("the commitment must be 64 hex digits", record.fields["commitment"].line)
    return Notice(
        mystery=_key(record, record.args[0]),
        commitment=commitment,
        reveal_name=record.value("reveal"),
        parts=record.listed("parts"),
    )


def _exhibit_number(record: Record, value: str, line: int) -> int:
    match = _EXHIBIT.match(value.strip())
    if not match or not 1 <= int(match.group(1)) <= EXHIBITS:
        raise record.error(f"{value.strip()!r} is not an exhibit E1 to E{EXHIBITS}", line)
    return int(match.group(1))


def parse_reveal(text: str, file: str, suspects: tuple[Suspect, ...]) -> Reveal:
    """Parse the plain reveal and check that it is complete and self-consistent."""
    records = parse_records(text, file, REVEAL_SCHEMAS, require_end=True)
    keys = {suspect.key for suspect in suspects}
    head = _single(records, "reveal", file)

    def suspect_of(record: Record, value: str) -> str:
        if value not in keys:
            raise record.error(f"{value!r} is not a suspect of this case ({', '.join(sorted(keys))})")
        return value

    scenes: dict[int, str] = {}
    exhibits: dict[int, Exhibit] = {}
    statements: dict[tuple[int, str], Statement] = {}
    entries: list[FileEntry] = []
    labels: dict[str, int] = {}
    for record in records:
        if record.kind == "round":
            if not record.args[0].isdigit() or not 1 <= int(record.args[0]) <= ROUNDS:
                raise record.error(f"rounds are numbered 1 to {ROUNDS}")
            number = int(record.args[0])
            if number in scenes:
                raise record.error(f"round {number} is given twice")
            scenes[number] = _text(record, "scene")
        elif record.kind == "exhibit":
            number = _exhibit_number(record, record.args[0], record.line)
            if number in exhibits:
                raise record.error(f"E{number} is given twice (first on line {exhibits[number].line})")
            exhibits[number] = Exhibit(number, record.value("title"), _text(record, "text"), record.line)
        elif record.kind == "statement":
            if not record.args[0].isdigit() or not 1 <= int(record.args[0]) <= ROUNDS:
                raise record.error(f"a statement's round is 1 to {ROUNDS}")
            number, who = int(record.args[0]), suspect_of(record, record.args[1])
            if (number, who) in statements:
                raise record.error(f"{who} has two statements in round {number}")
            statements[(number, who)] = Statement(number, who, record.quoted("says"), record.line)
        elif record.kind in ("line", "held"):
            entries.append(
                FileEntry(
                    kind=EntryKind(record.kind),
                    suspect=suspect_of(record, record.args[0]),
                    topic=record.args[1],
                    cues=record.listed("cues"),
                    words=record.quoted("says"),
                    line=record.line,
                    plain_cues=record.listed("plain-cues"),
                )
            )
        elif record.kind == "deflect":
            entries.append(
                FileEntry(
                    EntryKind.DEFLECT, suspect_of(record, record.args[0]), "DEFLECT", (), record.quoted("says"), record.line
                )
            )
        elif record.kind == "lie":
            label = record.args[0]
            if not _LABEL.match(label):
                raise record.error(f"{label!r} is not a lie label (letters and digits)")
            if label in labels:
                raise record.error(f"lie label {label!r} is used twice (first on line {labels[label]})")
            labels[label] = record.line
            catch_field = record.fields["catch"]
            catch = tuple(_exhibit_number(record, item, catch_field.line) for item in record.listed("catch"))
            admit = record.optional_quoted("admit")
            gives_way = record.get("gives-way-to")
            if (admit is None) == (gives_way is None):
                raise record.error(f"lie {label} needs exactly one of 'admit' or 'gives-way-to'")
            silence = record.optional_quoted("silence")
            if silence is not None and (admit is None or not _last_sentence(admit, silence)):
                raise record.error(
                    f"lie {label}: 'silence' must be the last sentence of its 'admit'", record.fields["silence"].line
                )
            after = record.get("after")
            entries.append(
                FileEntry(
                    kind=EntryKind.LIE,
                    suspect=suspect_of(record, record.args[1]),
                    topic=record.args[2],
                    cues=record.listed("cues"),
                    words=record.quoted("says"),
                    line=record.line,
                    label=label,
                    catch=catch,
                    admit=admit,
                    gives_way_to=gives_way.value if gives_way else None,
                    after=after.value if after else None,
                    silence=silence,
                    plain_cues=record.listed("plain-cues"),
                )
            )
    for entry in entries:
        if entry.kind is not EntryKind.DEFLECT and not entry.cues:
            raise CaseFormatError(file, entry.line, f"topic {entry.topic!r} of {entry.suspect} has no cues")
        for ref in (entry.after, entry.gives_way_to):
            if ref is not None and ref not in labels:
                raise CaseFormatError(file, entry.line, f"lie {entry.label} refers to {ref!r}, which is not a lie label")
    by_label = {entry.label: entry for entry in entries if entry.label}
    for entry in by_label.values():
        if entry.gives_way_to is not None:
            target = by_label[entry.gives_way_to]
            if target.suspect != entry.suspect or target.after != entry.label:
                raise CaseFormatError(
                    file,
                    entry.line,
                    f"lie {entry.label} gives way to {target.label}, which must be {entry.suspect}'s and 'after: {entry.label}'",
                )
    for suspect in suspects:
        deflects = [e for e in entries if e.suspect == suspect.key and e.kind is EntryKind.DEFLECT]
        if len(deflects) != 1:
            raise CaseFormatError(file, head.line, f"{suspect.key} needs exactly one deflect line, has {len(deflects)}")
    rounds: list[Round] = []
    for number in range(1, ROUNDS + 1):
        if number not in scenes:
            raise CaseFormatError(file, head.line, f"round {number} has no 'round' record with its scene")
        numbers = range((number - 1) * EXHIBITS_PER_ROUND + 1, number * EXHIBITS_PER_ROUND + 1)
        missing = [f"E{n}" for n in numbers if n not in exhibits]
        if missing:
            raise CaseFormatError(file, head.line, f"round {number} is missing {', '.join(missing)}")
        lacking = [s.key for s in suspects if (number, s.key) not in statements]
        if lacking:
            raise CaseFormatError(file, head.line, f"round {number} has no statement from {', '.join(lacking)}")
        rounds.append(
            Round(
                number,
                scenes[number],
                tuple(exhibits[n] for n in numbers),
                tuple(statements[(number, s.key)] for s in suspects),
            )
        )
    solution = _text(_single(records, "solution", file), "text")
    grading_record = _single(records, "grading", file)
    culprit = suspect_of(grading_record, grading_record.value("culprit").strip())
    sets: list[tuple[GradePart, tuple[frozenset[int], ...]]] = []
    for part in GradePart:
        found = grading_record.fields[part.value]
        alternatives = tuple(
            frozenset(_exhibit_number(grading_record, item, found.line) for item in group.split())
            for group in grading_record.listed(part.value)
        )
        sets.append((part, alternatives))
    return Reveal(
        mystery=_key(head, head.args[0]),
        rounds=tuple(rounds),
        entries=tuple(entries),
        solution=solution,
        grading=Grading(culprit, tuple(sets), grading_record.line),
        file=file,
    )


def _last_sentence(admit: str, silence: str) -> bool:
    """Whether `silence` is the whole last sentence of `admit`: what comes before it ends a sentence."""
    admit, silence = admit.strip(), silence.strip()
    if not admit.endswith(silence):
        return False
    before = admit[: len(admit) - len(silence)]
    return not before or re.search(r"[.!?…][\"”’')]*\s+$", before) is not None


def join_reveal(files: Mapping[str, bytes], notice: Notice) -> bytes:
    """Unseal and join the notice's parts; the result must end with END OF FILE."""
    joined = b""
    for index, name in enumerate(notice.parts, start=1):
        if name not in files:
            raise CaseError(f"part {index} of {len(notice.parts)} ({name}) is missing")
        try:
            joined += unseal_part(files[name])
        except SealError as error:
            raise CaseError(f"part {index} of {len(notice.parts)} ({name}) is damaged: {error}") from None
    lines = joined.decode("utf-8", errors="replace").rstrip("\r\n").split("\n")
    if lines[-1].strip() != END_OF_FILE:
        raise CaseError(f"the joined reveal does not end with {END_OF_FILE} (line {len(lines)}: {lines[-1][:40]!r})")
    return joined


def load_case(files: Mapping[str, bytes]) -> Case:
    """Check the seal and build the case; raises CaseError with the precise reason."""
    try:
        if PUBLIC_FILE not in files:
            raise CaseError(f"{PUBLIC_FILE} is missing")
        if NOTICE_FILE not in files:
            raise CaseError(f"{NOTICE_FILE} (the sealed notice) is missing")
        public = parse_public(_utf8(files[PUBLIC_FILE], PUBLIC_FILE), PUBLIC_FILE)
        notice = parse_notice(_utf8(files[NOTICE_FILE], NOTICE_FILE), NOTICE_FILE)
        joined = join_reveal(files, notice)
        digest = sha256_hex(joined)
        if digest != notice.commitment:
            raise CaseError(f"the reveal's SHA-256 {digest} does not match the notice's commitment {notice.commitment}")
        reveal = parse_reveal(_utf8(joined, notice.reveal_name), notice.reveal_name, public.suspects)
    except CaseFormatError as error:
        raise CaseError(str(error)) from None
    for name, found in (("notice", notice.mystery), ("reveal", reveal.mystery)):
        if found != public.mystery:
            raise CaseError(f"the {name} is for {found!r}, but {PUBLIC_FILE} is {public.mystery!r}")
    return Case(public, notice, reveal, digest, _asked(files, reveal))


def _asked(files: Mapping[str, bytes], reveal: Reveal) -> tuple[AskedQuestion, ...]:
    """The case's sealed asked questions, if it has them; each must name a suspect and topic of the reveal."""
    if ASKED_FILE not in files:
        return ()
    try:
        asked = parse_asked(_utf8(unseal_part(files[ASKED_FILE]), ASKED_FILE))
    except (SealError, AskedFormatError) as error:
        raise CaseError(f"{ASKED_FILE} is damaged: {error}") from None
    topics: dict[str, set[str]] = {}
    for entry in reveal.entries:
        topics.setdefault(entry.suspect, set()).add(entry.topic)
    if stray := unknown_topics(asked, topics):
        raise CaseError(f"{ASKED_FILE}: {stray[0].suspect} has no topic {stray[0].topic!r} ({len(stray)} such question(s))")
    return asked


def _utf8(data: bytes, file: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CaseError(f"{file}: not UTF-8 at byte {error.start}") from None
