"""The closed-set pass: a command's empty slot (read E{n}, confront NAME with E{n}, answers NAME) filled from its few
possible values, scored against the audio on the encoder output already made, in batched decoder calls.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from engine.grammar import grammar as phrases_grammar
from engine.rules import EXHIBITS
from engine.text import after_words
from voice_host.understanding.names import NamesMatcher
from voice_host.understanding.normalise import Correction, CorrectionKind, strip_openers
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun
from voice_host.understanding.passes.slots import (
    ANSWERS_OPENING,
    ASK_OPENING,
    CONFRONT_OPENING,
    CONFRONT_WITH_OPENING,
    NOT_ADDRESSEES,
    READ_OPENING,
    Slot,
    fills,
)
from voice_host.understanding.understand import Heard, recognition_confidence


@dataclass(frozen=True)
class ClosedSlot:
    """One slot of a command the transcript looks like, and the small set of what could fill it."""

    slot: Slot
    prefix: str  # the words before the slot, as the command is said: "Read", "Confront Phoebe with"
    candidates: tuple[str, ...]  # continuations of the prefix: " E7", " exhibit 7", " Keld"
    values: tuple[int | str, ...]  # what each candidate means: an exhibit number or a suspect key


def exhibit_candidates() -> tuple[tuple[str, ...], tuple[int, ...]]:
    numbers = range(1, EXHIBITS + 1)
    candidates = (*(f" E{n}" for n in numbers), *(f" exhibit {n}" for n in numbers))
    return candidates, (*numbers, *numbers)


def name_candidates(matcher: NamesMatcher) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Every one-word name of the six (given names and surnames), as a continuation."""
    pairs = [(target.word, target.suspect) for target in matcher.targets if " " not in target.word]
    return tuple(f" {word}" for word, _ in pairs), tuple(key for _, key in pairs)


def closed_slot_for(heard: Heard, matcher: NamesMatcher) -> ClosedSlot | None:
    """The empty slot of a command the transcript looks like, or None.

    Only these qualify, each opening the message: "read …" without an exhibit, "confront SUSPECT
    with …" without one, "confront …" (either after the grammar's "we'd like to", "let's", ...) or
    "answers …" without a suspect. The transcript decides
    what the message is; the closed set only fills its argument. A slot the transcript filled is
    left as heard: on the tune fixtures the closed set's own choice there was never better and
    sometimes worse (a teen heard as E3 for E13 in the party).
    """
    if not heard.usable or heard.message is None:
        return None
    message = heard.message
    body = strip_openers(heard.text)
    read = READ_OPENING.match(body)
    if read and _said_after(body, read.end()) and not fills(message, Slot.EXHIBIT):
        return ClosedSlot(Slot.EXHIBIT, "Read", *exhibit_candidates())
    # "We'd like to confront Phoebe Marsden with the iron.": the grammar's ways of asking to do a thing
    # (<let_us>) may open a confrontation; they stay in the words its slot is scored after. ("Shall we
    # read it again?" is table talk: a read must open the message.)
    asked = len(body) - len(after_words(body, phrases_grammar().part_words("let_us", body)))
    confront = CONFRONT_WITH_OPENING.match(body, asked)
    if confront and _said_after(body, confront.end()) and message.suspect and not fills(message, Slot.EXHIBIT):
        return ClosedSlot(Slot.EXHIBIT, capitalised(body[: confront.end()]), *exhibit_candidates())
    # Any other "Confront" opening a message that is not a whole confrontation: the suspect, or the
    # exhibit with no "with" after the suspect to continue from, or both were lost. The suspect is
    # found first (when lost), then the exhibit after it: one small batched pass per lost slot, each
    # scoring only that slot's candidates (all sixteen exhibits with all six suspects at once is
    # 24 decoder sequences, not one or two: tens of seconds on two loaded cores).
    opening = CONFRONT_OPENING.match(body, asked)
    if opening and _said_after(body, opening.end()) and not fills(message, Slot.CONFRONTATION):
        return _suspect_slot(Slot.CONFRONTATION, capitalised(body[: opening.end()]), body[opening.end() :], matcher)
    answers = ANSWERS_OPENING.match(body)
    if answers and _said_after(body, answers.end()) and not fills(message, Slot.SUSPECT):
        return _suspect_slot(Slot.SUSPECT, "Answers", body[answers.end() :], matcher)
    # "Ask Flit, where were you?": the words after "Ask" named no one (not a pronoun: "Ask him").
    ask = ASK_OPENING.match(body)
    if ask and ask.group(2).split()[0].lower() not in NOT_ADDRESSEES and not fills(message, Slot.ADDRESSEE):
        return ClosedSlot(Slot.ADDRESSEE, "Ask", *name_candidates(matcher))
    return None


#: "the" heard where a suspect goes: a role follows it ("Confront the vehicle about E15." is the vicar).
_ARTICLE = re.compile(r"^[\s,.:;]*the\s+\w", re.IGNORECASE)


def suspect_candidates(matcher: NamesMatcher, role: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The six as one slot's continuations: their one-word roles (after a heard "the"), else their one-word names."""
    if role:
        roles = matcher.role_targets
        return tuple(f" {target.word}" for target in roles), tuple(target.suspect for target in roles)
    return name_candidates(matcher)


def _suspect_slot(slot: Slot, prefix: str, after: str, matcher: NamesMatcher) -> ClosedSlot:
    """A suspect slot scored after `prefix`: the roles after "the" when that was heard first, else the names."""
    if _ARTICLE.match(after):
        return ClosedSlot(slot, f"{prefix} the", *suspect_candidates(matcher, role=True))
    return ClosedSlot(slot, prefix, *suspect_candidates(matcher, role=False))


def capitalised(said: str) -> str:
    """Words as Whisper opens a sentence with them: the first letter a capital."""
    return f"{said[:1].upper()}{said[1:]}"


def _said_after(body: str, end: int) -> bool:
    """Whether any word was heard after the verb: a slot nothing was heard in is not filled."""
    return bool(re.search(r"\w", body[end:]))


@dataclass(frozen=True)
class ClosedSetPass:
    """Score the small known set that can fill a command's slot against the audio, and fill or correct it.

    When the transcript looks like a command with an argument (read E{n}, confront NAME with E{n},
    answers NAME), the argument is one of 16 exhibits or six suspects. Each candidate is scored on
    the encoder output the first pass made (`Recognizer.score_continuations`: batched decoder calls,
    mean token log-probability; a candidate that cannot come within `closed_set_margin` of the best
    is not followed to its end). The best fills the empty slot when it reaches
    `closed_set_floor` and leads the next best by `closed_set_margin`; it is a repair, so a costly
    result is confirmed. The closed set always picks
    something, so it never decides that a sentence is a command: the transcript does.
    """

    name: PassName = PassName.CLOSED_SET

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return closed_slot_for(hearing.current, hearing.matcher) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        wanted = closed_slot_for(heard, hearing.matcher)
        assert wanted is not None
        if wanted.slot is Slot.CONFRONTATION:
            self._confrontation(hearing, ears, wanted)
            return
        pick = closed_best(hearing, ears, wanted, self.name, may_ask=True)
        if pick is None:
            return
        if wanted.slot is Slot.ADDRESSEE:
            # The question as heard, put to the suspect the closed set found.
            body = strip_openers(hearing.current.text)
            ask = ASK_OPENING.match(body)
            assert ask is not None
            text = f"{body[: ask.start(2)]}{pick.said.strip()}{body[ask.end(2) :]}"
        else:
            text = _with_argument(wanted, pick.said)
        if pick.sure:
            fill_slot(hearing, ears, wanted.slot, text)
        else:
            keep_narrow(hearing, ears, wanted.slot, text)

    def _confrontation(self, hearing: Hearing, ears: Ears, names: ClosedSlot) -> None:
        """The suspect (unless heard), then the exhibit after "Confront NAME with"; both or nothing."""
        message = hearing.current.message
        assert message is not None
        suspect = message.suspect
        sure = True
        if suspect is None:
            found = closed_best(hearing, ears, names, self.name, may_ask=True)
            if found is None:
                return
            name, sure = found.said.strip(), found.sure
        else:
            heard_names = [w for w, key in zip(names.candidates, names.values, strict=True) if key == suspect]
            name = next((w.strip() for w in heard_names if w.strip().lower() in hearing.current.text.lower()), "")
            name = name or heard_names[0].strip()
        prefix = f"{names.prefix} {name} with"
        exhibit = closed_best(hearing, ears, ClosedSlot(Slot.EXHIBIT, prefix, *exhibit_candidates()), self.name, may_ask=True)
        if exhibit is not None:
            text = f"{prefix} E{exhibit.said.split()[-1].lstrip('E')}."
            if sure and exhibit.sure:
                fill_slot(hearing, ears, Slot.CONFRONTATION, text)
            else:
                keep_narrow(hearing, ears, Slot.CONFRONTATION, text)  # either slot barely stood out


@dataclass(frozen=True)
class ClosedPick:
    """The closed set's best candidate, as said, and whether it stood out from the next by the whole margin."""

    said: str  # " E7", " Francis": a next slot continues from it
    sure: bool = True  # False: it led by `closed_set_ask_margin` only (`keep_narrow`)


def closed_best(hearing: Hearing, ears: Ears, wanted: ClosedSlot, by: PassName, may_ask: bool = False) -> ClosedPick | None:
    """Score the slot's candidates (batched, in stages: recorded as `by`'s run); the best, if it fits and
    stands out, else None. `may_ask`: the caller keeps a best that stands out by `closed_set_ask_margin`
    only (`ClosedPick.sure` False) as a last resort to ask about; otherwise such a best is None too."""
    # Only the best and whatever comes within the margin of it decide: the rest need not be scored to the end.
    settings = ears.settings
    # The closed set always picks something: the best must fit (the floor) and stand out from
    # the next best (the margin), or the slot stays as heard.
    floor = settings.closed_set_exhibit_floor if wanted.slot is Slot.EXHIBIT else settings.closed_set_floor
    scores = ears.recognizer.score_continuations(
        hearing.audio, wanted.prefix, wanted.candidates, keep_within=settings.closed_set_margin, floor=floor
    )
    hearing.runs.append(PassRun(by, (), (scores,)))
    best: dict[int | str, float] = {}
    for value, score in zip(wanted.values, scores.scores, strict=True):
        best[value] = max(best.get(value, -math.inf), score)
    ranked = sorted(best.values(), reverse=True)
    lead = ranked[0] - ranked[1]
    least = settings.closed_set_ask_margin if may_ask else settings.closed_set_margin
    if ranked[0] < floor or lead < least:
        return None
    # The candidate that scored best, as said ("Francis" or "Keld": the next slot continues from it).
    said = max(zip(scores.scores, wanted.candidates, strict=True))[1]
    return ClosedPick(said, sure=lead >= settings.closed_set_margin)


def understand_repaired(hearing: Hearing, ears: Ears, kind: CorrectionKind, weight: float, text: str) -> Heard:
    """`text`, which a pass put in place of what was heard, understood as a repair of it."""
    repair = Correction(kind, hearing.current.text, text, weight)
    first = hearing.first_transcript
    recognition = recognition_confidence(first.avg_logprob, first.no_speech_prob)
    return ears.understander.understand(text, hearing.classifier, recognition, hearing.seats, repairs=(repair,))


def _filled(hearing: Hearing, ears: Ears, slot: Slot, text: str) -> Heard | None:
    """`text` understood as a repair of what was heard, if it does fill the slot."""
    weights = ears.settings.repairs
    kind, weight = (CorrectionKind.EXHIBIT, weights.exhibit) if slot is Slot.EXHIBIT else (CorrectionKind.NAME, weights.slot)
    filled = understand_repaired(hearing, ears, kind, weight, text)
    return replace(filled, transcript=hearing.current.transcript) if fills(filled.message, slot) else None


def fill_slot(hearing: Hearing, ears: Ears, slot: Slot, text: str) -> None:
    """Take the filled message as a repair (a costly one is confirmed), if it does fill the slot."""
    filled = _filled(hearing, ears, slot, text)
    if filled is not None:
        hearing.heard = filled


def keep_narrow(hearing: Hearing, ears: Ears, slot: Slot, text: str) -> None:
    """Keep the filled message as the last resort, asked about first even if free (`NarrowPickPass` takes it)."""
    filled = _filled(hearing, ears, slot, text)
    if filled is not None:
        hearing.keep_narrow(filled)


def _with_argument(wanted: ClosedSlot, candidate: str) -> str:
    """The command with the slot filled by a candidate: "Read E7.", "Confront Keld with E3.", "Answers Keld."."""
    if wanted.slot is Slot.EXHIBIT:
        return f"{wanted.prefix} E{candidate.split()[-1].lstrip('E')}."
    return f"{wanted.prefix}{candidate}."
