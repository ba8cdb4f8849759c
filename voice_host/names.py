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

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import jellyfish
from rapidfuzz import fuzz

from voice_host.normalise import Correction, CorrectionKind, Normalised


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


# Titles are part of how a name is said, never a name to correct towards.
_TITLES = frozenset({"mr", "mrs", "miss", "ms", "master", "reverend", "rev", "the", "dr", "doctor"})
# The card's openers; dropped before classifying, never corrected (Ormerod -> "right" is common).
_OPENERS = frozenset(
    {"ok", "okay", "so", "right", "well", "now", "then", "um", "uh", "er", "erm", "oh", "and"}
)
# Words that can fill a name slot without being a name: "Ask him", "Confront the butler", "to all".
_STOP_WORDS = frozenset(
    """a an the him her them he she they it this that these those his hers their everyone everybody
    anyone anybody someone somebody all each every both either neither one who whom what where when
    why how which whether if about for to of in on at by with from and or but not no yes is was were
    are be been being did do does done had has have can could would should will shall may might must
    you your yours we us our me my i again please just also too very""".split()
)
_QUESTION_WORDS = frozenset(
    "who what where when why how did were was is are do does have had can could would will tell".split()
)
_YOU = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
# Words after which the next word is where the card expects a name.
_TRIGGERS_ANYWHERE = frozenset(
    {"ask", "confront", "accuse", "answers", "mr", "mrs", "miss", "ms", "reverend", "rev"}
)
_TRIGGER_PHRASES_AT_START = (("to",), ("question", "for"), ("it", "was"), ("the", "killer", "is"))
_WORD = re.compile(r"[A-Za-z][A-Za-z']*|@")

#: A word in a name slot is corrected when it scores at least this (0-1).
SLOT_THRESHOLD = 0.64


def _phonetic_keys(word: str) -> tuple[str, str]:
    word = word.lower()
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


class NamesMatcher:
    """Corrects misheard names in a case's name slots; knows the case's aliases for lookups."""

    def __init__(self, suspects: Iterable[SuspectNames], protected: Iterable[str] = ()) -> None:
        self._targets: list[NameTarget] = []
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
            for alias in (*suspect.aliases, *name_words):
                self._aliases.setdefault(alias.lower(), suspect.key)
        self._protected = frozenset(word.lower() for word in protected)

    @property
    def targets(self) -> tuple[NameTarget, ...]:
        return tuple(self._targets)

    def with_protected(self, words: Iterable[str]) -> NamesMatcher:
        """The same matcher that also never touches these words (the table's seat names)."""
        clone = object.__new__(NamesMatcher)
        clone._targets = self._targets
        clone._aliases = self._aliases
        clone._protected = self._protected | frozenset(word.lower() for word in words)
        return clone

    def suspects_named(self, text: str) -> tuple[str, ...]:
        """Suspect keys named in the text by any alias, whole words, in order of first mention."""
        found: list[tuple[int, str]] = []
        lowered = text.lower()
        for alias, key in self._aliases.items():
            match = re.search(rf"(?<![\w']){re.escape(alias)}(?![\w'])", lowered)
            if match:
                found.append((match.start(), key))
        ordered: list[str] = []
        for _, key in sorted(found):
            if key not in ordered:
                ordered.append(key)
        return tuple(ordered)

    def best(self, heard: str, only: str | None = None) -> tuple[NameTarget, float] | None:
        """The closest name to a heard word (optionally only one suspect's names), with its score."""
        scored = [
            (target, name_similarity(heard, target.word))
            for target in self._targets
            if only is None or target.suspect == only
        ]
        if not scored:
            return None
        return max(scored, key=lambda pair: pair[1])

    def correct(self, text: str) -> Normalised:
        """Correct misheard names in name slots; every other word is left exactly as heard."""
        tokens = [_Token(m.group(0), m.start(), m.end()) for m in _WORD.finditer(text)]
        slots = self._name_slots(text, tokens)
        corrections: list[Correction] = []
        replacements: dict[int, str] = {}
        given_names = {t.word.lower(): t.suspect for t in self._targets if t.given}
        after_given: dict[int, str] = {}  # token index -> suspect whose given name it follows
        for index, token in enumerate(tokens):
            lowered = token.text.lower()
            if lowered in self._aliases:
                if lowered in given_names:
                    after_given[index + 1] = given_names[lowered]
                continue
            follows = after_given.get(index)
            in_slot = index in slots
            if not in_slot and follows is None:
                continue
            if (
                lowered in _STOP_WORDS
                or lowered in _OPENERS
                or lowered in _TITLES
                or lowered in self._protected
            ):
                continue
            if token.text == "@":
                continue
            # After a given name, only that suspect's other names fit ("Abel weight" -> Abel Thwaite).
            found = self.best(token.text, only=follows if not in_slot else None)
            if found is None:
                continue
            target, score = found
            if score < SLOT_THRESHOLD:
                continue
            replacements[index] = target.word
            if target.given:
                after_given[index + 1] = target.suspect
            corrections.append(Correction(CorrectionKind.NAME, token.text, target.word, round(score, 3)))
        if not replacements:
            return Normalised(text)
        pieces: list[str] = []
        cursor = 0
        for index in sorted(replacements):
            token = tokens[index]
            pieces.append(text[cursor : token.start])
            pieces.append(replacements[index])
            cursor = token.end
        pieces.append(text[cursor:])
        return Normalised("".join(pieces), tuple(corrections))

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
            elif follower in _QUESTION_WORDS and says_you:
                slots.add(first)
        # A name alone would be "What do you ask?"; a lone misheard word is left alone.
        for phrase in _TRIGGER_PHRASES_AT_START:
            if tuple(lowered[first : first + len(phrase)]) == phrase and first + len(phrase) < len(tokens):
                slots.add(first + len(phrase))
        for index, word in enumerate(lowered[:-1]):
            if word in _TRIGGERS_ANYWHERE or word == "@":
                slots.add(index + 1)
            elif word == "accuse" or (word == "we" and lowered[index + 1] == "accuse"):
                slots.add(index + 1)
        # "..., NAME?" that says you or your.
        last = len(tokens) - 1
        if last > first and says_you and text[tokens[last].end :].strip().startswith("?"):
            gap = text[tokens[last - 1].end : tokens[last].start]
            if "," in gap:
                slots.add(last)
        return slots
