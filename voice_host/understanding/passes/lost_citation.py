"""The lost-citation pass: a message that says "exhibit" (or "explain") but lost the number has the sixteen scored
after its words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.messages import MessageKind
from engine.rules import EXHIBITS
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.closed_set import ClosedSlot, closed_best, exhibit_candidates, fill_slot, understand_repaired
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, whole_message
from voice_host.understanding.passes.slots import Slot
from voice_host.understanding.understand import Heard

# The card's words that cite an exhibit in a message put to a suspect ("Keld, explain E7", "To Keld:
# what do you say to exhibit 5?"); a question with one of these and no number lost its exhibit.
_CITING_WORD = re.compile(r"\b(?:exhibits?|explain)\b", re.IGNORECASE)
# The card's other ways to confront put to a suspect ("what about exhibit 4?", "what do you say to exhibit
# 13?"): after them a short rest of the clause may have been the exhibit ("what about and leave it to?").
# These words ask ordinary questions too ("what about your debts?"), so a number is filled only when one
# stands out, and the question is not asked about when none does.
_ASKING_ABOUT = re.compile(r"\b(?:what about|what do you say(?: to| about)?|how do you explain)\b", re.IGNORECASE)
_ASKING_ABOUT_MAX_WORDS = 4
# In any other message that is not whole, only "exhibit" says a number was meant after it.
_EXHIBIT_WORD = re.compile(r"\bexhibit\b", re.IGNORECASE)


@dataclass(frozen=True)
class LostCitation:
    """Where a message cites an exhibit whose number was lost, and what could fill it."""

    prefix: str  # the words up to the citing word, as heard: "To Julius, what do you say to exhibit"
    # A question to a suspect: what follows the lost number ("?": the heard word for the number is
    # dropped). Any other message: every word heard after the citing word (which were the number is
    # not known, so each way of dropping one to three of them, or none, is a reading).
    rest: str
    candidates: tuple[str, ...]  # " 7" after "exhibit"; " E7" or " exhibit 7" after "explain"
    values: tuple[int, ...]
    to_suspect: bool = True  # a question put to one of the six (else a message that is not whole)
    # whether the question, when no number stands out, is still asked about first (the card's own
    # citing words are; "what about ..." asks ordinary questions too)
    doubtful: bool = True

    def readings(self, citation: str) -> tuple[str, ...]:
        """The message with the number in its place: one text for a question, else each reading."""
        if self.to_suspect:
            return (f"{self.prefix}{citation}{self.rest}",)
        words = re.findall(r"[\s,]*[\w'-]+", self.rest)
        readings = []
        for dropped in (1, 2, 3, 0):
            if dropped <= len(words):
                after = self.rest[sum(len(word) for word in words[:dropped]) :]
                readings.append(f"{self.prefix}{citation}{after}")
        return tuple(dict.fromkeys(readings))


def lost_citation_for(heard: Heard) -> LostCitation | None:
    """A message whose words cite an exhibit but give no number, or None.

    A question to a suspect: "exhibit" followed by no number ("what do you say to exhibit, sir?"), or
    "explain" followed by no citation ("Miss Marsden, explain the eleven."): Whisper lost the number in
    the card's own words for a confrontation. Any other message that is not whole (`whole_message`:
    table talk, a request, a command without its argument) with "exhibit" followed by no number
    ("Could you read exhibit, fine?", "What does exhibit the love and say?"): the number is the one
    slot in doubt, whatever the words around it. Anything else is left as heard.
    """
    message = heard.message
    if not heard.usable or message is None:
        return None
    question = message.kind is MessageKind.QUESTION and message.suspect is not None
    if not question and whole_message(message):
        return None
    text = heard.text
    cues = _CITING_WORD if question else _EXHIBIT_WORD
    cue = next((m for m in cues.finditer(text) if not _cites_after(text, m.end())), None)
    if cue is None and question and not _CITING_WORD.search(text):
        return _lost_after_asking_about(text)
    if cue is None:
        return None
    after = text[cue.end() :]
    numbers = tuple(range(1, EXHIBITS + 1))
    after_exhibit = tuple(f" {n}" for n in numbers)  # " 7": "exhibit" is already heard
    if not question:
        if not re.search(r"\w", after):
            return None  # nothing heard where the number would be ("Read the exhibit."): not filled
        return LostCitation(text[: cue.end()], after, after_exhibit, numbers, to_suspect=False)
    if cue.group(0).lower().startswith("exhibit"):
        # The word Whisper heard for the number (one word, up to punctuation) is replaced.
        lost = re.match(r"[\s,]*(?:[\w'-]+)?", after)
        candidates = after_exhibit
        values: tuple[int, ...] = numbers
    else:
        # "explain the eleven": the rest of the clause was the exhibit.
        lost = re.match(r"[^.?!;:]*", after)
        candidates, values = exhibit_candidates()
    assert lost is not None
    return LostCitation(text[: cue.end()], after[lost.end() :], candidates, values)


def _lost_after_asking_about(text: str) -> LostCitation | None:
    """A question whose short rest of the clause after "what about" (or "what do you say to") may have been
    the exhibit ("Companion, what about and leave it to?"), or None."""
    about = next((m for m in _ASKING_ABOUT.finditer(text) if not _cites_after(text, m.end())), None)
    if about is None:
        return None
    clause = re.match(r"[^.?!;:]*", text[about.end() :])
    assert clause is not None
    if not 0 < len(clause.group().split()) <= _ASKING_ABOUT_MAX_WORDS:
        return None
    candidates, values = exhibit_candidates()
    if about.group().lower().endswith("say"):
        candidates = tuple(f" to{candidate}" for candidate in candidates)  # "what do you say to E5?"
    return LostCitation(text[: about.end()], text[about.end() + clause.end() :], candidates, values, doubtful=False)


def _cites_after(text: str, end: int) -> bool:
    """Whether an exhibit number follows the citing word ("exhibit 7", "explain E7")."""
    return bool(re.match(r"\W*(?:E\d|\d)", text[end:]))


@dataclass(frozen=True)
class LostCitationPass:
    """A message citing an exhibit whose number was lost: the 16 numbers scored in its place.

    A question to a suspect in the card's words for a confrontation ("To Julius, what do you say to
    exhibit, sir?", "Miss Marsden, explain the eleven."): taken as a question, it would spend the
    round's question on what was meant as a confrontation. The 16 exhibits are scored after the words
    as heard (the closed set's own scorer, floor and margin); the best fills the citation as a repair
    (so it is confirmed). When none stands out the question is still asked about first: the table may
    have meant a confrontation.
    Any other message that is not whole and says "exhibit" with no number after it ("Could you read
    exhibit, fine?"): the best number, when it stands out, is put in place of the words heard for it,
    and the message taken only if that makes it whole (a repair: a costly one is confirmed).
    """

    name: PassName = PassName.LOST_CITATION

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return lost_citation_for(hearing.current) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        lost = lost_citation_for(heard)
        assert lost is not None
        pick = closed_best(hearing, ears, ClosedSlot(Slot.EXHIBIT, lost.prefix, lost.candidates, lost.values), self.name)
        said = None if pick is None else pick.said
        if not lost.to_suspect:
            if said is not None:
                self._make_whole(hearing, ears, lost, f" {said.split()[-1]}")
            return
        if said is not None:
            number = said.split()[-1].lstrip("E")
            citation = f" {number}" if lost.prefix.lower().endswith(("exhibit", "exhibits")) else f" E{number}"
            citation = f" to{citation}" if said.startswith(" to ") else citation  # "what do you say" + " to E5"
            fill_slot(hearing, ears, Slot.EXHIBIT, lost.readings(citation)[0])
        if hearing.current.message is heard.message and lost.doubtful:
            hearing.heard = replace(heard, needs_confirmation=bool(heard.message and heard.message.costly))

    def _make_whole(self, hearing: Hearing, ears: Ears, lost: LostCitation, citation: str) -> None:
        """The first reading with the number in place that is a whole message, as a repair."""
        weight = ears.settings.repairs.exhibit
        for text in lost.readings(citation):
            found = understand_repaired(hearing, ears, CorrectionKind.EXHIBIT, weight, text)
            if whole_message(found.message):
                hearing.heard = replace(found, transcript=hearing.current.transcript)
                return
