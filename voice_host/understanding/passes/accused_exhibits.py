"""The accused's-exhibits pass: an accusation whose accused was heard but not its exhibit list has the sixteen scored
slot by slot after the name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.messages import MessageKind
from engine.rules import EXHIBITS, MAX_COUNTED_EXHIBITS
from voice_host.understanding.names import NamesMatcher
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.closed_set import ClosedSlot, closed_best, understand_repaired
from voice_host.understanding.passes.shared import Ears, Hearing, PassName
from voice_host.understanding.passes.slots import Slot
from voice_host.understanding.understand import Heard

# What an exhibit list after the accused's name is made of, as the classifier reads it: citations of
# E1-E16, the list's own words and punctuation. Any other word heard there ("he says", "at 0.3.413",
# "exhibit, sporty") is where numbers were lost.
_EXHIBIT_LIST = re.compile(
    r"(?:[\s,.:;&!-]|\b(?:and|with|exhibits?|E?(?:1[0-6]|[1-9]))\b)*",
    re.IGNORECASE,
)


def accused_exhibits_prefix(heard: Heard, matcher: NamesMatcher) -> str | None:
    """The words up to the end of the accused's name, when what was heard after it is no exhibit list.

    An accusation ("We accuse Phoebe Marsden, he says.", "It was the butler, be I.") names its
    accused, and its exhibits are a short list of one to six of sixteen numbers: the transcript keeps
    the name and loses the numbers. Nothing after the name (an accusation citing no exhibits) and a
    list the classifier reads whole ("… Marsden: E3, E11.") are left as heard.
    """
    message = heard.message
    if not heard.usable or message is None or message.kind is not MessageKind.ACCUSATION or message.suspect is None:
        return None
    end = matcher.name_end(heard.text, message.suspect)
    if end is None:
        return None
    tail = heard.text[end:]
    if not re.search(r"\w", tail) or _EXHIBIT_LIST.fullmatch(tail):
        return None
    return heard.text[:end]


@dataclass(frozen=True)
class AccusedExhibitsPass:
    """An accusation whose exhibits were lost after the accused's name: the list scored slot by slot.

    The closed set is the sixteen exhibits, one slot at a time on the encoder output already made:
    after the words up to the name ("We accuse Phoebe Marsden"), the first exhibit in the ways Whisper
    writes a list (", E7", ", exhibits 7", and both after "with"); then after each exhibit found, every exhibit not
    yet in the list (", E9", " and E9") and the list's end ("."), one batched decoder call per slot.
    Each slot is the closed set's own (`closed_best`: its floor and margin), and the list ends where
    the end wins or nothing stands out; a list
    that is only part of the one heard leaves what was heard. The card reads an accusation back
    before anything is locked, so the list found is taken as it is. Only in round A: before it an
    accusation is only told to wait.
    """

    name: PassName = PassName.ACCUSED_EXHIBITS

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        # Before round A an accusation is only told to wait: its exhibits change nothing.
        return hearing.classifier.accusing() and accused_exhibits_prefix(hearing.current, hearing.matcher) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        prefix = accused_exhibits_prefix(heard, hearing.matcher)
        assert prefix is not None and heard.message is not None
        numbers = range(1, EXHIBITS + 1)
        # Each way of opening the list is one forced path: the numbers after it are single tokens.
        openings = {", E": "E", ", exhibits ": "", " with E": "E", " with exhibits ": ""}
        first = self._slot(hearing, ears, prefix, {f"{said}{n}": (n, form) for said, form in openings.items() for n in numbers})
        if first is None:
            return
        said, (number, form) = first
        found = [number]
        while len(found) < MAX_COUNTED_EXHIBITS:
            left = [n for n in numbers if n not in found]
            candidates: dict[str, tuple[int, str]] = {".": (0, form)}
            for joiner in (",", " and"):
                candidates.update({f"{joiner} {form}{n}": (n, form) for n in left})
            step = self._slot(hearing, ears, said, candidates)
            if step is None or step[1][0] == 0:
                break
            said, found = said + step[0], [*found, step[1][0]]
        if set(found) < set(heard.message.exhibits):
            return  # the list ended sooner than the one heard ("E1, E8, E13, E16, C."): what was heard stands
        text = f"{prefix.rstrip(' ,.:;')}: {', '.join(f'E{n}' for n in found)}."
        repaired = understand_repaired(hearing, ears, CorrectionKind.EXHIBIT, ears.settings.repairs.exhibit, text)
        message = repaired.message
        if message is not None and message.kind is MessageKind.ACCUSATION and message.suspect == heard.message.suspect:
            hearing.heard = replace(repaired, transcript=heard.transcript)

    def _slot(
        self, hearing: Hearing, ears: Ears, said: str, candidates: dict[str, tuple[int, str]]
    ) -> tuple[str, tuple[int, str]] | None:
        """The candidate (and what it means: its exhibit, 0 for the list's end) that fills the next slot
        after `said`, or None."""
        continuations = tuple(candidates)
        values = tuple(candidates[continuation][0] for continuation in continuations)
        best = closed_best(hearing, ears, ClosedSlot(Slot.EXHIBIT, said, continuations, values), self.name)
        return None if best is None else (best.said, candidates[best.said])
