"""Exhibit citations exactly as the card's NAMES section defines them.

"E7", "exhibit 7", "#7", or numbers listed after "exhibits"; "E10–13" means E10 and E13. Clock times
and other numbers are never exhibits, and no word cites one. A number may be written as a word, one to
sixteen ("exhibit seven", "exhibits three and nine"), as speech is heard: a typed message reads as the
same message spoken (docs/rulings.md).
"""

from __future__ import annotations

import re
from typing import TypeVar

from engine.case import NUMBER_WORDS

T = TypeVar("T")

_DASH = r"\s*[-–—]\s*"
# A number as digits, or one to sixteen as a word, longest first ("seventeen" is no "seven").
# The phrase grammar's exhibit slot reads the same.
_WORD = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
NUMBER_WORD = rf"\b(?:{_WORD})(?![\w-])"
NUMERAL = rf"(?:\d{{1,3}}|{NUMBER_WORD})"
_RANGE = re.compile(r"\bE\s?(\d{1,3})" + _DASH + r"E?\s?(\d{1,3})\b(?![.:]\d)", re.IGNORECASE)
# After "E" a word needs a space or a dash ("E seven", "E-7"): "Eight" is no E and "ight".
_SINGLE = re.compile(
    rf"(?:\bE-?\s?(?=\d)|\bE(?:-|\s)\s?|\bexhibit\s+(?:no\.?\s*|number\s+)?#?|#\s?)({NUMERAL})\b(?![.:]\d)",
    re.IGNORECASE,
)
# A list's separators: a comma, "and", "or", "&", a dash, or a comma before the last ("2, 6, and 14").
_LIST = re.compile(
    rf"\bexhibits\s*:?\s*((?:(?:E\s?|#)?{NUMERAL}\b(?![.:]\d)(?:\s*(?:,\s*(?:and|&|or)\b|,|and|&|or|[-–—])\s*)?)+)",
    re.IGNORECASE,
)
_NUMBER = re.compile(NUMERAL, re.IGNORECASE)


def numeral_value(said: str) -> int:
    """A numeral's value: digits, or a number word (`NUMERAL` matched it)."""
    return int(said) if said.isdigit() else NUMBER_WORDS.index(said.lower()) + 1


def numerals(text: str) -> list[int]:
    """The value of every numeral in the text, in order (digits or number words; no citation word needed)."""
    return [numeral_value(match.group()) for match in _NUMBER.finditer(text)]


def cited_exhibits(text: str) -> list[int]:
    """Every exhibit number cited, in order of appearance (repeats kept; callers dedupe)."""
    found: list[tuple[int, int]] = []
    taken: list[tuple[int, int]] = []
    for match in _RANGE.finditer(text):
        found.append((match.start(1), int(match.group(1))))
        found.append((match.start(2), int(match.group(2))))
        taken.append(match.span())
    for match in _LIST.finditer(text):
        if any(start <= match.start(1) < end for start, end in taken):
            continue
        for number in _NUMBER.finditer(match.group(1)):
            found.append((match.start(1) + number.start(), numeral_value(number.group())))
        taken.append(match.span())
    for match in _SINGLE.finditer(text):
        if any(start <= match.start() < end for start, end in taken):
            continue
        found.append((match.start(1), numeral_value(match.group(1))))
    return [number for _, number in sorted(found)]


def distinct(items: list[T]) -> list[T]:
    """The items in order, each once."""
    seen: list[T] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen
