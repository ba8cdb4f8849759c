"""The addressee pass: a question or confrontation put to someone whose name was lost ("Sir Goyer, how did you …",
"Er, explain E9.") has the six's names and roles scored in its head's place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.classify import ADDRESS_WORDS, QUESTION_WORDS
from engine.messages import MessageKind
from voice_host.understanding.names import SPOKEN_TITLES, NamesMatcher
from voice_host.understanding.normalise import CITATION, CorrectionKind, strip_openers
from voice_host.understanding.passes.closed_set import (
    ClosedSlot,
    capitalised,
    closed_best,
    name_candidates,
    understand_repaired,
)
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, unusable
from voice_host.understanding.passes.slots import Slot
from voice_host.understanding.understand import Heard

# The card's ways to put a question (MESSAGES rule 4) that come before the name, and the titles said
# with a surname (the names matcher's): kept as heard, the name after them is the slot.
_TITLE = "(?:" + "|".join(SPOKEN_TITLES) + ")"
_ADDRESS_WORDS = "|".join(words.replace(" ", r"\s+") for words in ADDRESS_WORDS)
_ADDRESS_OPENING = re.compile(rf"^\W*(?:(?:{_ADDRESS_WORDS})\b[\s,.:]*)?(?:{_TITLE}\b\.?\s*)?", re.IGNORECASE)
_TITLED = re.compile(rf"{_TITLE}\.?$", re.IGNORECASE)
# The head of a message put to someone: up to four words before its first comma, colon or stop.
_HEAD = re.compile(r"^\W*((?:[\w'.-]+\s+){0,3}?[\w'.-]+)\s*[,:;.!?]\s*(.*)$", re.DOTALL)
_TITLE_STOP = re.compile(r"\b(Mr|Mrs|Ms|Rev|Dr)\.", re.IGNORECASE)
_YOU_WORDS = re.compile(r"\b(?:you|your|yours|yourself)\b", re.IGNORECASE)
_PUT_VERBS = frozenset({"explain", "tell", "describe"})  # a message opening with one of these is said to someone


@dataclass(frozen=True)
class LostAddressee:
    """A message put to someone whose name was lost: the words kept before the name, and what was put after it."""

    prefix: str  # "Ask", "Question for", "Mrs.", or "" (the name opened the message)
    question: str  # "how did you get mud on your shoes?", or a confrontation's "explain E9."


def lost_addressee_for(heard: Heard) -> LostAddressee | None:
    """A message shaped like a question or confrontation put to someone, whose head named no one, or None.

    The head is the words before the first comma, colon or stop (at most four, none of them a
    question word or "you"); what follows must read as a question (it opens with a question word,
    says "you" or ends with "?") or cite an exhibit ("explain E9."). "Sir Goyer, how did you get mud
    on your shoes?", "Yeah, where were you at 10?" and "Er, explain E9." qualify; "Who killed her,
    though?", "Well, I think so." and "So, what about E9?" do not.
    """
    if heard.rejected is not None or not heard.text:
        return None
    message = heard.message
    if message is not None and message.suspect is not None:
        return None
    if not (unusable(heard) or (message is not None and message.kind is MessageKind.QUESTION)):
        return None
    # "Mrs. Logick, …": a title's full stop is not where the head ends.
    head = _HEAD.match(_TITLE_STOP.sub(r"\1", heard.text))
    if head is None:
        return None
    words = re.findall(r"[\w']+", head.group(1).lower())
    if any(word in QUESTION_WORDS or _YOU_WORDS.fullmatch(word) for word in words):
        return None
    question = head.group(2).strip()
    first = re.findall(r"[\w']+", question.lower())[:1]
    asks = bool(question.endswith("?") or _YOU_WORDS.search(question) or (first and first[0] in QUESTION_WORDS))
    cites = bool(CITATION.search(question))  # "Blit, E9 is odd.": put to someone, the card makes it a confrontation
    if not (asks or cites):
        return None
    if not strip_openers(head.group(1)).strip(" ,.:;") and not (cites and first and first[0] in _PUT_VERBS):
        # "Okay, what do you think?", "So, what about E9?": only an opener before talk at the table. But
        # "explain E9." after one is put to no one at all, so the opener may be the name misheard ("Er" for "Heir").
        return None
    opening = _ADDRESS_OPENING.match(head.group(1))
    prefix = opening.group(0).strip(" ,.:") if opening else ""
    if prefix and len(prefix) >= len(head.group(1).strip(" ,.:")):
        return None  # nothing heard where the name goes ("To, where ...")
    return LostAddressee(prefix, question)


def _address_candidates(matcher: NamesMatcher, titled: bool, opening: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The six's one-word names, and (without a title before them) their roles after "the".

    Opening the message (nothing kept before the slot), they are written as Whisper opens a sentence
    ("The heir"), and the bare roles are said too: the table calls out "Vicar, ..." or "Heir, ...".
    """
    names, keys = name_candidates(matcher)
    if titled:
        return names, keys
    roles = [(f" the {target.word}", target.suspect) for target in matcher.role_targets]
    if opening:
        roles = [(f" {capitalised(said.strip())}", key) for said, key in roles]
        roles += [(f" {capitalised(target.word)}", target.suspect) for target in matcher.role_targets]
    return (*names, *(said for said, _ in roles)), (*keys, *(key for _, key in roles))


_PUT_TO_SOMEONE = (MessageKind.QUESTION, MessageKind.CONFRONTATION)


@dataclass(frozen=True)
class AddresseePass:
    """A question or confrontation put to someone whose name was lost: score the six in the name's place.

    Whisper writes an espeak voice's "The lawyer, how did you ..." as "Sir Goyer, how did you ...",
    "Mrs Ruddock, your letter ..." as "Mrs. Logick, ..." and a piper voice's "Heir, explain E9." as
    "Er, explain E9.": the message is in the card's form, but its head names no one the matcher can
    reach. The six's names (and, with no title heard, their roles after "the") are scored in the
    head's place, after the card's opening words heard before it ("Ask", "Question for", "To", a
    title), with the closed set's own scorer, floor and margin. The best is put in the head's place
    and the message goes to them as a repair, always asked about first (a question or a confrontation
    is spent on the closed set's choice); a best only `closed_set_ask_margin` ahead is the narrow pick,
    taken only when no later pass finds a whole message.
    """

    name: PassName = PassName.ADDRESSEE

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return lost_addressee_for(hearing.current) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        lost = lost_addressee_for(heard)
        assert lost is not None
        titled = bool(_TITLED.search(lost.prefix))
        candidates, values = _address_candidates(hearing.matcher, titled, opening=not lost.prefix)
        pick = closed_best(hearing, ears, ClosedSlot(Slot.ADDRESSEE, lost.prefix, candidates, values), self.name, may_ask=True)
        if pick is None:
            return
        text = f"{lost.prefix} {pick.said.strip()}, {lost.question}".strip()
        found = understand_repaired(hearing, ears, CorrectionKind.NAME, ears.settings.repairs.slot, text)
        put = found.message
        if put is None or put.kind not in _PUT_TO_SOMEONE or put.suspect is None:
            return
        found = replace(found, transcript=heard.transcript, needs_confirmation=True)
        if pick.sure:
            hearing.heard = found
        else:
            hearing.keep_narrow(found)  # barely ahead: taken last, only if no pass finds a whole message
