"""The fuzzy NAMES matcher: put a misheard suspect's name right, only where the card expects a name.

Whisper hears "Thwaite" as "wait" or "weight" and "Keld" as "killed". A plain fuzzy match would
also turn "the waits" into Thwaite and "who killed her" into Keld, so a word is only ever compared
with the names when it sits in a name slot of the card's patterns: the start of the message before
a comma / "you" / a question word, right after ask, question for, to (at the start), @, confront,
accuse, answers, Mr, Mrs, Miss, Reverend, or at the end as "..., NAME?". Similarity is spelling
(rapidfuzz) and sound (jellyfish's metaphone, NYSIIS and match rating), so "killed" reaches "Keld"
and "ormeride" reaches "Ormerod". The names come from the case, never from this file.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Protocol

import jellyfish
from rapidfuzz import fuzz

from engine.classify import QUESTION_WORDS
from engine.grammar import phrases
from engine.messages import COMMAND_WORDS
from voice_host.understanding.normalise import CITATION, Correction, CorrectionKind, Normalised
from voice_host.understanding.settings import DEFAULT_SETTINGS, NameThresholds, RepairWeights


class SuspectNames(Protocol):
    """What the matcher needs of a case's suspect (engine.case.Suspect has these)."""

    @property
    def key(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class NameTarget:
    """A proper name a misheard word may be corrected to."""

    word: str  # as the case spells it: "Thwaite"
    suspect: str  # suspect key
    given: bool  # a given name, so the next word may be the same suspect's surname


@dataclass(frozen=True)
class _Token:
    text: str
    start: int
    end: int


# The titles a player says before a surname ("Mrs Ruddock", "Reverend Keld"): the word after one is a
# name slot. The cascade's addressee pass reads its titles from here too.
SPOKEN_TITLES = ("mr", "mrs", "miss", "ms", "reverend", "rev")
# How each title sounds said in full, and how the card writes it: a word heard for one ("Reviment Keld").
_TITLE_SOUNDS = {"mister": "Mr", "missus": "Mrs", "miss": "Miss", "reverend": "Reverend"}
# Titles are part of how a name is said, never a name to correct towards.
_TITLES = frozenset({*SPOKEN_TITLES, "the", "dr", "doctor"})
_SAID_TITLE = "|".join((*SPOKEN_TITLES, "dr"))
# The card's openers; dropped before classifying, never corrected (Ormerod -> "right" is common).
_OPENERS = frozenset(phrases("opener"))
# Words that can fill a name slot without being a name: "Ask him", "Confront the butler", "to all".
# The card's own command words are never a misheard name ("Read, exhibit ..." is not Ruddock).
_COMMAND_WORDS = COMMAND_WORDS
_STOP_WORDS = frozenset(
    """a an the him her them he she they it this that these those his hers their everyone everybody
    anyone anybody someone somebody all each every both either neither one who whom what where when
    why how which whether if about for to of in on at by with from and or but not no yes is was were
    are be been being did do does done had has have can could would should will shall may might must
    you your yours we us our me my i again please just also too very""".split()
) | {"pardon"}  # "Pardon, what was that?" asks again; it is no "Parson"
_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
# "Walk us through your evening, Joel.": asking for an account, as a question word does.
_THROUGH = re.compile(r"^\W*(?:walk|talk|run|take)\s+(?:us|me)\s+through\b", re.IGNORECASE)
# Words after which the next word is where the card expects a name.
_TRIGGERS_ANYWHERE = frozenset({"ask", "confront", "accuse", "answers", *SPOKEN_TITLES})
_TRIGGER_PHRASES_AT_START = (("to",), ("question", "for"), ("it", "was"), ("the", "killer", "is"))
_WORD = re.compile(r"[A-Za-z][A-Za-z']*|@")
_ANSWERS = ("answers", "answer")

# How whisper mishears the card's openings when a name follows.
_ASK_SOUNDALIKES = frozenset({"as", "asked", "asks", "osk", "ast", "oz", "us", "aske", "assk", "oscar", "past"})
# Words that are "Ask" only before a name heard exactly and then the question ("Pass, Martha Ruddock, who did you
# pass ...?", "Has Phoebe, what did you hear ...?"): alone they are a card command or everyday talk.
_ASK_BEFORE_AN_ADDRESS = frozenset({"pass", "has", "ass"})
# How whisper mishears the "for" of the card's "Question for NAME" (tune room and kitchen renders); number
# words are digits by the time names are read ("Question three angels" -> "Question 3 angels").
_FOR_SOUNDALIKES = frozenset({"of", "through", "3", "4", "far", "fore", "fur", "to"})
_CONFRONT_SOUNDALIKES = frozenset(
    {"confirm", "confirmed", "confirms", "conference", "confronts", "confronted", "comfort", "confrontation"}
)


def _bare(word: str) -> str:
    """A word without its possessive ending, lowercased: "Keld's" -> "keld"."""
    return re.sub(r"'s?$", "", word.lower().rstrip("."))


def _phonetic_keys(word: str) -> tuple[str, str]:
    # Whisper hears an initial "th" as t, d or w ("Thwaite" -> "Dwight", "wait"): key it as t.
    word = word.lower().replace("th", "t")
    return jellyfish.metaphone(word), jellyfish.nysiis(word)


def name_similarity(heard: str, name: str) -> float:
    """How alike a heard word and a name are, by spelling and by sound, 0-1."""
    heard_l, name_l = heard.lower().replace("'", ""), name.lower()
    if not heard_l or not name_l:
        return 0.0
    spelling = fuzz.ratio(heard_l, name_l)
    heard_m, heard_n = _phonetic_keys(heard_l)
    name_m, name_n = _phonetic_keys(name_l)
    sound = max(fuzz.ratio(heard_m, name_m), fuzz.ratio(heard_n, name_n))
    bonus = 5.0 if jellyfish.match_rating_comparison(heard_l, name_l) else 0.0
    return min(1.0, (0.4 * spelling + 0.6 * sound + bonus) / 100)


@cache
def common_given_names(count: int) -> frozenset[str]:
    """The `count` commonest given names of each of the US census's lists (the `names` package's 1990 data:
    women's and men's), lowercased: the people a table talks to and about."""
    found: set[str] = set()
    for listing in ("dist.female.first", "dist.male.first"):
        lines = resources.files("names").joinpath(listing).read_text(encoding="ascii").splitlines()
        found.update(line.split()[0].lower() for line in lines[:count] if line.strip())
    return frozenset(found)


@cache  # a case's matcher is made for every game and every test: its names are compared once
def people_at_the_table(count: int, below: float, targets: tuple[str, ...], own: frozenset[str]) -> frozenset[str]:
    """The commonest given names (`common_given_names(count)`) that are none of the case's own words (`own`) and are
    less than `below` alike (`name_similarity`) to every name in `targets`."""
    return frozenset(
        name
        for name in common_given_names(count) - own
        if max((name_similarity(name, target) for target in targets), default=0.0) < below
    )


class NamesMatcher:
    """Corrects misheard names in a case's name slots; knows the case's aliases for lookups."""

    def __init__(
        self,
        suspects: Iterable[SuspectNames],
        protected: Iterable[str] = (),
        thresholds: NameThresholds = DEFAULT_SETTINGS.names,
        weights: RepairWeights = DEFAULT_SETTINGS.repairs,
    ) -> None:
        self.thresholds = thresholds
        self.weights = weights
        self._targets: list[NameTarget] = []
        self._joined: list[NameTarget] = []  # full names, compared with one run-together word
        self._roles: list[NameTarget] = []  # role words ("parson"), only ever after "the" in a slot
        self._aliases: dict[str, str] = {}  # lowercased alias (may be several words) -> suspect key
        for suspect in suspects:
            name_words = [w for w in re.findall(r"[A-Za-z']+", suspect.name) if w.lower() not in _TITLES]
            proper = [a for a in suspect.aliases if " " not in a and a[:1].isupper()]
            seen: set[str] = set()
            for index, word in enumerate(name_words + proper):
                if word.lower() in seen:
                    continue
                seen.add(word.lower())
                given = index < len(name_words) - 1
                self._targets.append(NameTarget(word, suspect.key, given))
            if len(name_words) > 1:
                # Whisper runs a full name together: "Ablethweight".
                self._joined.append(NameTarget(" ".join(name_words), suspect.key, False))
            for alias in suspect.aliases:
                if " " not in alias and not alias[:1].isupper():
                    self._roles.append(NameTarget(alias, suspect.key, False))
            for alias in (*suspect.aliases, *name_words):
                self._aliases.setdefault(alias.lower(), suspect.key)
        self._protected = frozenset(word.lower() for word in protected)
        # The commonest given names that sound unlike every suspect's name: said first, before a comma, they
        # call someone at the table ("Lauren, can you do the typing?"), not a suspect heard wrong.
        own = frozenset(word for alias in self._aliases for word in alias.split())
        targets = tuple(target.word for target in self._targets)
        self._people = people_at_the_table(thresholds.given_names, thresholds.person_below, targets, own)

    @property
    def targets(self) -> tuple[NameTarget, ...]:
        return tuple(self._targets)

    @property
    def role_targets(self) -> tuple[NameTarget, ...]:
        """The one-word roles the table calls a suspect by after "the" ("the vicar")."""
        return tuple(self._roles)

    def protects(self, word: str) -> bool:
        """Whether `word` is someone at the table rather than a suspect: a seat's name the matcher is told
        never to touch, or a common given name unlike every suspect's ("Ann", "Lauren")."""
        lowered = word.lower()
        return lowered in self._protected or lowered in self._people

    def with_protected(self, words: Iterable[str]) -> NamesMatcher:
        """The same matcher that also never touches these words (the table's seat names)."""
        clone = object.__new__(NamesMatcher)
        clone._targets = self._targets
        clone._joined = self._joined
        clone._roles = self._roles
        clone._aliases = self._aliases
        clone.thresholds = self.thresholds
        clone.weights = self.weights
        clone._protected = self._protected | frozenset(word.lower() for word in words)
        clone._people = self._people
        return clone

    def suspects_named(self, text: str) -> tuple[str, ...]:
        """Suspect keys named in the text by any alias, whole words, in order of first mention."""
        ordered: list[str] = []
        for _, _, key in sorted(self._mentions(text)):
            if key not in ordered:
                ordered.append(key)
        return tuple(ordered)

    def first_mention(self, text: str, suspect: str) -> tuple[int, int] | None:
        """Where the text first names the suspect by any alias (start and end), or None."""
        spans = [(start, end) for start, end, key in self._mentions(text) if key == suspect]
        return min(spans, default=None)

    def name_end(self, text: str, suspect: str) -> int | None:
        """Where the text's first naming of the suspect ends, its words taken together ("Phoebe
        Marsden, E3": after "Marsden"), or None when the text does not name them."""
        spans = sorted((start, end) for start, end, key in self._mentions(text) if key == suspect)
        if not spans:
            return None
        end = spans[0][1]
        for start, stop in spans[1:]:
            if start <= end + 1:  # the next word of the same name ("Phoebe" then "Marsden")
                end = max(end, stop)
        return end

    def _mentions(self, text: str) -> list[tuple[int, int, str]]:
        """Each alias's first whole-word mention in the text: start, end and the suspect's key."""
        found: list[tuple[int, int, str]] = []
        lowered = text.lower()
        for alias, key in self._aliases.items():
            match = re.search(rf"(?<![\w']){re.escape(alias)}(?![\w'])", lowered)
            if match:
                found.append((match.start(), match.end(), key))
        return found

    def best(
        self, heard: str, only: str | None = None, targets: Sequence[NameTarget] | None = None
    ) -> tuple[NameTarget, float] | None:
        """The closest name to a heard word (optionally only one suspect's names), with its score."""
        scored = [
            (target, name_similarity(heard, target.word.replace(" ", "")))
            for target in (self._targets if targets is None else targets)
            if only is None or target.suspect == only
        ]
        if not scored:
            return None
        return max(scored, key=lambda pair: pair[1])

    def correct(self, text: str) -> Normalised:
        """Correct misheard names in name slots; every other word is left exactly as heard."""
        text, corrections = self._repair_address(text)
        tokens = [_Token(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]
        slots = self._name_slots(text, tokens)
        # "Confront X with ...": X can only be a name, so a weaker likeness will do (and any
        # correction is confirmed before a question is spent).
        confront = re.match(r"^\W*confront\s+([A-Za-z']+)\b.*\bwith\b", text, re.IGNORECASE | re.DOTALL)
        confront_slot = next((i for i, t in enumerate(tokens) if confront and t.start == confront.start(1)), -1)
        replacements: dict[int, tuple[int, str]] = {}  # first token index -> (tokens replaced, name)
        given_names = {t.word.lower(): t.suspect for t in self._targets if t.given}
        after_given: dict[int, str] = {}  # token index -> suspect whose given name it follows
        skip_to = 0
        for index, token in enumerate(tokens):
            if index < skip_to:
                continue
            lowered = token.text.lower()
            if _bare(lowered) in self._aliases:  # "Keld's answers": a name heard exactly, possessive or not
                lowered = _bare(lowered)
                if lowered in given_names:
                    after_given[index + 1] = given_names[lowered]
                continue
            follows = after_given.get(index)
            in_slot = index in slots
            # "Waits answers": the name is the word without its possessive s, and keeps it.
            owner = index + 1 < len(tokens) and tokens[index + 1].text.lower() in _ANSWERS
            possessive = in_slot and owner and lowered.endswith("s") and len(lowered) > 3
            if not in_slot and follows is None:
                continue
            if lowered == "the" and in_slot and index + 1 < len(tokens):
                # "Ask the person" -> "Ask the parson": after "the" only a role word fits.
                role = tokens[index + 1].text
                found = self._like_a_role(role) if role.lower() not in self._aliases else None
                if found is not None:
                    replacements[index + 1] = (1, found[0].word)
                    corrections.append(Correction(CorrectionKind.NAME, role, found[0].word, round(found[1], 3)))
                    skip_to = index + 2
                continue
            if token.text == "@":
                continue
            if in_slot and lowered in self._people and self._calls_someone(text, tokens, index):
                continue
            if self._never_a_name(lowered):
                # A name split in two whose first half is a small word: "or Murad" -> Ormerod.
                spanned = self._best_span(tokens, index, pairs_only=True) if in_slot else None
                if spanned is None or spanned[1] < self.thresholds.split:
                    continue
                target, score, span = spanned
            else:
                heard_word = re.sub(r"'?s$", "", token.text) if possessive else token.text
                # After a given name, only that suspect's other names fit ("Abel weight" -> Abel Thwaite).
                found = self.best(heard_word, only=follows if not in_slot else None)
                spanned = found + (1,) if found is not None else None
                addressed = self._addressed_role(text, tokens, index, slots) if in_slot else None
                if addressed is not None and (found is None or addressed[1] > found[1]):
                    # "Vicker, explain E7.": a role said as the address. Often an ordinary word ("Here,
                    # you ..."), so always asked about before a question is spent.
                    target, score = addressed
                    meant = target.word.capitalize() if token.text[:1].isupper() else target.word
                    replacements[index] = (1, meant)
                    skip_to = index + 1
                    corrections.append(Correction(CorrectionKind.NAME, token.text, meant, self.weights.address_role))
                    continue
                if in_slot:
                    wider = self._best_span(tokens, index)
                    if wider is not None and (spanned is None or wider[1] > spanned[1] + self.thresholds.span_margin):
                        spanned = wider
                threshold = self.thresholds.confront if index == confront_slot else self.thresholds.slot
                if spanned is None or spanned[1] < threshold:
                    continue
                target, score, span = spanned
            replacements[index] = (span, f"{target.word}'s" if possessive and span == 1 else target.word)
            skip_to = index + span
            if target.given:
                after_given[index + span] = target.suspect
            heard = text[token.start : tokens[index + span - 1].end]
            corrections.append(Correction(CorrectionKind.NAME, heard, target.word, round(score, 3)))
        if not replacements:
            return Normalised(text, tuple(corrections))
        pieces: list[str] = []
        cursor = 0
        for index in sorted(replacements):
            span, word = replacements[index]
            pieces.append(text[cursor : tokens[index].start])
            pieces.append(word)
            cursor = tokens[index + span - 1].end
        pieces.append(text[cursor:])
        return Normalised("".join(pieces), tuple(corrections))

    def _repair_trailing_name(self, text: str, corrections: list[Correction]) -> str:
        """ "Who did you see? Phoebe." -> "Who did you see, Phoebe?": whisper ends the question early.

        And a question said aloud has no mark Whisper can hear: "Where were you at 10, man of
        business." opens with a question word, says you and ends on a name, so it ends "NAME?"
        (docs/rulings.md).
        """
        unmarked = re.search(
            rf",\s*((?:(?:the|{_SAID_TITLE})\.?\s+)?[A-Za-z']+(?:\s+[A-Za-z']+){{0,2}})\s*[.!]?\s*$", text, re.IGNORECASE
        )
        if unmarked and not text.rstrip().endswith("?") and self._asks_someone(text[: unmarked.start()]):
            if self._names_one(unmarked.group(1)):
                return f"{text[: unmarked.end(1)]}?"
        # The name alone after the question, with its title or in full ("? Miss Marsden.", "? Abel Thwaite.").
        match = re.search(rf"\?\s+((?:(?:{_SAID_TITLE})\.?\s+)?[A-Za-z']+(?:\s+[A-Za-z']+)?)\s*[.!?]?\s*$", text, re.IGNORECASE)
        if not match or not _YOU.search(text[: match.start()]):
            return text
        word = match.group(1)
        if self._names_one(word) and not word.lower().startswith("the "):  # "Who did you see? The butler." answers
            name = word
        elif " " in word.strip():
            return text
        else:
            if self._never_a_name(word.lower()):
                return text
            found = self.best(word)
            if found is None or found[1] < self.thresholds.slot:
                return text
            name = found[0].word
            corrections.append(Correction(CorrectionKind.NAME, word, name, round(found[1], 3)))
        return f"{text[: match.start()]}, {name}?"

    def _addressed_role(
        self, text: str, tokens: Sequence[_Token], index: int, slots: set[int]
    ) -> tuple[NameTarget, float] | None:
        """The role a word opening a question to someone sounds like ("Vicker, ..." -> vicar), or None.

        Only the message's first name slot, with a comma, colon or dash after it and then a question
        word, you or your, or an exhibit; the role must be as alike as a role after "the" must be."""
        if index != min(slots) or index + 1 >= len(tokens):
            return None
        if not any(mark in text[tokens[index].end : tokens[index + 1].start] for mark in ",:-"):
            return None
        rest = text[tokens[index].end :]
        if not (tokens[index + 1].text.lower() in QUESTION_WORDS or _YOU.search(rest) or CITATION.search(rest)):
            return None
        return self._like_a_role(tokens[index].text)

    def _like_a_role(self, word: str) -> tuple[NameTarget, float] | None:
        """The role a word sounds like, when as alike as a role after "the" must be (`NameThresholds.role`)."""
        found = self.best(word, targets=self._roles)
        return found if found is not None and found[1] >= self.thresholds.role else None

    def _may_name(self, word: str) -> bool:
        """Whether a word may begin a name in a name slot: a name or role, "the" (a role follows), or a word
        as like one of the six's names as a slot asks."""
        lowered = word.lower()
        if lowered in self._aliases or lowered == "the":
            return True
        if self._never_a_name(lowered):
            return False
        found = self.best(word)
        return found is not None and found[1] >= self.thresholds.slot

    def _asks_after_name(self, rest: str) -> bool:
        """Whether the words are a suspect's name heard exactly (one or two words), a comma, then a question
        word or you: a question put to them."""
        found = re.match(r"([A-Za-z']+(?:\s+[A-Za-z']+)?),\s*([A-Za-z']+)", rest)
        if found is None or not self._names_one(found.group(1)):
            return False
        return found.group(2).lower() in QUESTION_WORDS or bool(_YOU.fullmatch(found.group(2)))

    def _addressed(self, rest: str) -> bool:
        """Whether the words after a misheard opening may begin the one addressed: a name, or "the" and a
        role, as heard or alike enough; never a possessive ("Question of the butler's story" is talk)."""
        first = re.match(r"(the\s+)?([A-Za-z']+)", rest, re.IGNORECASE)
        if first is None or first.group(2).lower().endswith("'s"):
            return False
        word = first.group(2)
        if first.group(1) is None:
            return self._may_name(word)
        said = rest[first.start(2) :].lower()
        if any(" " in alias and said.startswith(alias) for alias in self._aliases):
            return True  # "the man of business"
        return word.lower() in self._aliases or self._like_a_role(word) is not None

    def _names_one(self, said: str) -> bool:
        """Whether the words name one of the six as the card allows: an alias, or their names in full,
        with or without a title ("Miss Marsden", "the butler", "Abel Thwaite")."""
        words = [_bare(word) for word in re.findall(r"[A-Za-z'.]+", said)]
        while words and words[0] in _TITLES:
            words = words[1:]
        if not words:
            return False
        if " ".join(words) in self._aliases:
            return True
        return len({self._aliases.get(word) for word in words}) == 1 and words[0] in self._aliases

    @staticmethod
    def _asks_someone(text: str) -> bool:
        """Words that open with a question word (or "walk us through") and say you: a question, whatever
        Whisper's marks."""
        first = re.findall(r"[A-Za-z']+", text.lower())[:1]
        opens = bool(first) and first[0] in QUESTION_WORDS or bool(_THROUGH.match(text))
        return opens and bool(_YOU.search(text))

    def _repair_role_phrase(self, text: str, corrections: list[Correction]) -> str:
        """A role of several words heard with one word off, at the start or the end: "Men of business, what
        did you hear?" -> "Man of business, ..."; the other words must be heard exactly."""
        for alias in (alias for alias in self._aliases if " " in alias):
            size = len(alias.split())
            words = r"[A-Za-z']+" + r"\s+[A-Za-z']+" * (size - 1)
            for place in (rf"^\W*({words})\b", rf",\s*(?:the\s+)?({words})\W*$"):
                found = re.search(place, text)
                if found is None:
                    continue
                heard = found.group(1)
                pairs = list(zip(heard.lower().split(), alias.split(), strict=True))
                differ = [(said, meant) for said, meant in pairs if said != meant]
                likeness = name_similarity(*differ[0]) if len(differ) == 1 else 0.0
                if likeness < self.thresholds.role:
                    continue
                meant = alias if heard[:1].islower() else alias[:1].upper() + alias[1:]
                corrections.append(Correction(CorrectionKind.NAME, heard, meant, round(likeness, 3)))
                text = text[: found.start(1)] + meant + text[found.end(1) :]
        return text

    def _repair_leading_title(self, text: str, corrections: list[Correction]) -> str:
        """ "Reviment Keld, where ..." -> "Reverend Keld": at the start, a word that sounds like a title
        before a suspect's name heard exactly is that title (Whisper writes a robotic or accented
        "Reverend" as another word, and the address is then lost)."""
        match = re.match(r"^(\W*)([A-Za-z]+)\s+([A-Za-z']+)", text)
        if not match:
            return text
        heard, name = match.group(2), match.group(3)
        lowered = heard.lower()
        if lowered in self._aliases or self._never_a_name(lowered) or _bare(name.lower()) not in self._aliases:
            return text
        likeness, title = max((name_similarity(lowered, sound), title) for sound, title in _TITLE_SOUNDS.items())
        if likeness < self.thresholds.title:
            return text
        corrections.append(Correction(CorrectionKind.NAME, heard, title, self.weights.misheard_opening))
        return text[: match.start(2)] + title + text[match.end(2) :]

    def _repair_leading_full_name(self, text: str, corrections: list[Correction]) -> str:
        """ "Able to wait, where ..." / "Dole Blamire, ..." -> the full name, when a comma follows."""
        match = re.match(r"^(\W*)((?:[A-Za-z']+,?\s+){1,2}[A-Za-z']+)(?=\s*,)", text)
        if not match:
            return text
        words = match.group(2).replace(",", " ").split()
        lead = words[0].lower().rstrip(".")
        if lead in self._protected or lead in _OPENERS or lead in _TITLES:
            return text
        bare = [_bare(word) for word in words]
        if all(word in self._aliases for word in bare):
            return text
        # A full name heard exactly is not a misheard one ("It's Julius Ormerod, ..."), and a card
        # word is never part of a name ("Julius Ormerod's answers, please").
        if any(word in _COMMAND_WORDS for word in bare) or self._has_full_name(bare):
            return text
        found = self.best("".join(words), targets=self._joined)
        if found is None or found[1] < self.thresholds.split:
            return text
        corrections.append(Correction(CorrectionKind.NAME, match.group(2), found[0].word, round(found[1], 3)))
        return text[: match.start(2)] + found[0].word + text[match.end(2) :]

    def _has_full_name(self, words: Sequence[str]) -> bool:
        """Whether two words in a row are one suspect's full name, exactly ("julius", "ormerod")."""
        full_names = {target.word.lower() for target in self._joined}
        return any(f"{first} {second}" in full_names for first, second in itertools.pairwise(words))

    @staticmethod
    def _calls_someone(text: str, tokens: Sequence[_Token], index: int) -> bool:
        """Whether the word opens the message (after openers only) and a comma follows it: a vocative."""
        opening = all(t.text.lower() in _OPENERS for t in tokens[:index])
        return opening and text[tokens[index].end :].lstrip().startswith(",")

    def _never_a_name(self, lowered: str) -> bool:
        return (
            lowered in _STOP_WORDS
            or lowered in _OPENERS
            or lowered in _TITLES
            or lowered in _COMMAND_WORDS
            or lowered in self._protected
        )

    def _best_span(self, tokens: Sequence[_Token], index: int, pairs_only: bool = False) -> tuple[NameTarget, float, int] | None:
        """A full name run together ("Ablethweight"), or one name heard as two words ("or Murad")."""
        word = tokens[index].text
        candidates: list[tuple[NameTarget, float, int]] = []
        single = None if pairs_only else self.best(word, targets=self._joined)
        if single is not None:
            candidates.append((*single, 1))
        if index + 1 < len(tokens):
            following = tokens[index + 1].text
            plain = following.lower()
            if plain not in self._aliases and following != "@" and not self._never_a_name(plain):
                if plain not in QUESTION_WORDS:
                    pair = self.best(word + following)
                    if pair is not None:
                        candidates.append((*pair, 2))
        if not candidates:
            return None
        return max(candidates, key=lambda found: found[1])

    def _repair_address(self, text: str) -> tuple[str, list[Correction]]:
        """The card's openings misheard: "As Keld, ..." -> "Ask Keld", "Confirm Keld with" -> "Confront"."""
        corrections: list[Correction] = []
        text = self._repair_role_phrase(text, corrections)
        text = self._repair_trailing_name(text, corrections)
        # Before the leading full name, which would take "Reacuse Julius Ormerod" for a name.
        # "With, use Abel Thwaite, E3", "I will use Abel ...", "Acuse the heir ...": We accuse, when a name follows.
        accuse = re.match(
            r"^(\W*)((?:with|we|i will|will|we'll|we've)[,\s]+(?:use|accused|abuse|excuse|cues|accuse)|"
            r"we accused|reacuse|re-accuse|accused|acuse|accuses)\b",
            text,
            re.IGNORECASE,
        )
        if accuse and accuse.group(2).lower() != "we accuse" and self.suspects_named(text[accuse.end() :]):
            corrections.append(Correction(CorrectionKind.COMMAND, accuse.group(2), "We accuse", self.weights.misheard_opening))
            text = text[: accuse.start(2)] + "We accuse" + text[accuse.end(2) :]
        text = self._repair_leading_title(text, corrections)
        text = self._repair_leading_full_name(text, corrections)
        # "in front Keld with", "can front Keld with": Confront heard as two words.
        two = re.match(r"^(\W*)([A-Za-z]+\s+front)\b", text, re.IGNORECASE)
        if two and re.search(r"\bwith\b", text[two.end() :], re.IGNORECASE):
            corrections.append(Correction(CorrectionKind.COMMAND, two.group(2), "Confront", self.weights.misheard_opening))
            text = text[: two.start(2)] + "Confront" + text[two.end(2) :]
        question = re.match(r"^(\W*)(questions?[\s,]+([A-Za-z]+|\d))[\s,]+", text, re.IGNORECASE)
        if question and question.group(3).lower() in _FOR_SOUNDALIKES and self._addressed(text[question.end() :]):
            # "Question of ranzis, ...", "Question through the man of business, ...": the card's "Question for".
            corrections.append(
                Correction(CorrectionKind.COMMAND, question.group(2), "Question for", self.weights.misheard_opening)
            )
            return text[: question.start(2)] + "Question for" + text[question.end(2) :], corrections
        match = re.match(r"^(\W*)([A-Za-z]+)([\s,]+)([A-Za-z']+)", text)
        if not match:
            return text, corrections
        first, following = match.group(2), match.group(4)
        lowered = first.lower()
        replacement = None
        # (Whether a name follows is a fuzzy match: asked only once the opening could be a misheard command.)
        if (
            lowered in _ASK_SOUNDALIKES
            and self._may_name(following)
            or lowered in _ASK_BEFORE_AN_ADDRESS
            and self._asks_after_name(text[match.start(4) :])
        ):
            replacement = "Ask"
            # "Osk, wait, where ..." -> "Ask wait, where ...": the comma belonged to the mishearing.
            text = text[: match.start(3)] + " " + text[match.end(3) :]
        elif (
            lowered != "confront"
            and (lowered in _CONFRONT_SOUNDALIKES or fuzz.ratio(lowered, "confront") >= 75)
            and re.search(r"\bwith\b", text[match.end() :], re.I)
            and self._may_name(following)
        ):
            replacement = "Confront"
        if replacement is None:
            return text, corrections
        corrections.append(Correction(CorrectionKind.COMMAND, first, replacement, self.weights.misheard_opening))
        return text[: match.start(2)] + replacement + text[match.end(2) :], corrections

    def _name_slots(self, text: str, tokens: Sequence[_Token]) -> set[int]:
        """Indexes of the tokens that sit where the card's patterns expect a name."""
        slots: set[int] = set()
        if not tokens:
            return slots
        says_you = bool(_YOU.search(text))
        lowered = [token.text.lower() for token in tokens]
        first = 0
        # Drop the card's pre-strip: a seat name with ":" or "asks", and openers.
        if len(tokens) > 1 and lowered[0] in self._protected:
            gap = text[tokens[0].end : tokens[1].start]
            if ":" in gap or lowered[1] == "asks":
                first = 1 if ":" in gap else 2
        while first < len(tokens) and lowered[first] in _OPENERS:
            first += 1
        if first >= len(tokens):
            return slots
        # Start of the message: "NAME, ...", "NAME: ...", "NAME - ...", "NAME you ...", "NAME where ...?".
        if first + 1 < len(tokens):
            gap = text[tokens[first].end : tokens[first + 1].start]
            follower = lowered[first + 1]
            if any(mark in gap for mark in ",:-") or follower in ("you", "your"):
                slots.add(first)
            elif follower in QUESTION_WORDS and says_you:
                slots.add(first)
            elif follower in _ANSWERS and lowered[first].endswith("s"):
                slots.add(first)  # "Waits answers, please.": NAME's answers, the possessive run in
        # A name alone would be "What do you ask?"; a lone misheard word is left alone.
        for phrase in _TRIGGER_PHRASES_AT_START:
            if tuple(lowered[first : first + len(phrase)]) == phrase and first + len(phrase) < len(tokens):
                slots.add(first + len(phrase))
        for index, word in enumerate(lowered[:-1]):
            if word in SPOKEN_TITLES and index and lowered[index - 1] == "the":
                continue  # "the reverend told us": a title after "the" is the role itself, no surname follows
            if word in _TRIGGERS_ANYWHERE or word == "@":
                slots.add(index + 1)
            elif word == "accuse" or (word == "we" and lowered[index + 1] == "accuse"):
                slots.add(index + 1)
        # "..., NAME?" that says you or your (Whisper may end the question first: "...? Wait.").
        last = len(tokens) - 1
        if last > first and says_you:
            gap = text[tokens[last - 1].end : tokens[last].start]
            ends = text[tokens[last].end :].strip()
            if ("," in gap and ends.startswith("?")) or ("?" in gap and ends in ("", ".", "?", "!")):
                slots.add(last)
        return slots
