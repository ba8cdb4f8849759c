"""Small text helpers shared by the classifier: cleaning, the card's pre-strip, word matching."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from functools import cache

MAX_MESSAGE = 4000  # longer messages are cut: nobody says more than this in one breath

_MARKDOWN = re.compile(r"(\*\*|__|\*|`+|~~)")
_LINE_MARKS = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-+*]\s+(?=\S))")
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def bounded(text: str) -> str:
    """A message as the game takes it: at most MAX_MESSAGE characters, however it came in."""
    return text[:MAX_MESSAGE]


def clean(text: str) -> str:
    """Drop control and invisible format characters (RTL marks, zero-width joiners), fold spaces."""
    kept = []
    for char in text[:MAX_MESSAGE]:
        category = unicodedata.category(char)
        if char in "\n\t":
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        else:
            kept.append(char)
    return re.sub(r"\s+", " ", "".join(kept)).strip()


def strip_markdown(text: str) -> str:
    text = _LINE_MARKS.sub("", text)
    return _MARKDOWN.sub("", text).strip()


@cache
def _opener() -> re.Pattern[str]:
    # The openers are one of the phrase grammar's word lists; the grammar reads words() from here,
    # so it is imported when first needed.
    from engine.grammar import phrases

    return re.compile(r"^(?:" + "|".join(re.escape(word) for word in phrases("opener")) + r")\b[\s,.!:;-]*", re.IGNORECASE)


def drop_openers(text: str) -> str:
    """The card's openers (ok, so, right, well, now, then) at the start, as many as there are."""
    while True:
        stripped = _opener().sub("", text, count=1).strip()
        if stripped == text or not stripped:
            return text
        text = stripped


def _folded(text: str) -> str:
    """Lowercase, curly apostrophes straight (as `words` reads a message)."""
    return text.lower().replace("’", "'").replace("‘", "'")


def word_spans(text: str) -> list[tuple[int, int]]:
    """Where each of `words(text)` stands in `text` (start, end)."""
    # Positions in the folded text are the text's: folding keeps the length of the letters words are made of.
    return [match.span() for match in _WORD.finditer(_folded(text))]


def after_words(text: str, count: int) -> str:
    """`text` after its first `count` words (as `words` counts them), without the marks that follow them."""
    ends = [end for _, end in word_spans(text)]
    if count <= 0 or count > len(ends):
        return text
    return text[ends[count - 1] :].lstrip(" ,.:;!-–—")


def words(text: str) -> list[str]:
    """Lowercase words with apostrophes kept inside them ("o'clock", "ruddock's")."""
    return _WORD.findall(_folded(text))


def find_phrase(haystack: list[str], phrase: list[str]) -> int | None:
    """Index of the first whole-word occurrence of `phrase` in `haystack`.

    The phrase's last word may carry a plural or possessive ending ("carols", "Keld's"), as people say them.
    """
    if not phrase or len(phrase) > len(haystack):
        return None
    last = phrase[-1]
    endings = (last, last + "s", last + "es", last + "'s")
    for start in range(len(haystack) - len(phrase) + 1):
        if haystack[start : start + len(phrase) - 1] == phrase[:-1] and haystack[start + len(phrase) - 1] in endings:
            return start
    return None


def tab_rows(text: str, width: int, bad_row: Callable[[int], Exception]) -> Iterator[list[str]]:
    """The fields of each line of a tab-separated data file (blank and `#` lines skipped); a line without exactly
    `width` fields, each with something in it, raises `bad_row(line number)`."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != width or not all(field.strip() for field in fields):
            raise bad_row(number)
        yield fields
