"""Pure view models: what each panel shows, worked out from the engine's state and replies.

Kept apart from the widgets so that the wording is tested without running Textual, and so that
nothing here can reach into the engine's insides: only `GameState`, `Reply` parts and `Message`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from engine.replies import PartKind, Reply, ReplyPart
from engine.rules import EXHIBITS_PER_ROUND, QUESTIONS_PER_ROUND
from engine.state import Accusation, GameState, Phase

HOST = "Host"
FILLED_MARK = "●"  # a question still to ask
USED_MARK = "○"  # a question spent


@dataclass(frozen=True)
class LedgerView:
    """The compact ledger, one field a widget."""

    round: str  # "-" before seating, "1".."4", or "A"
    round_caption: str  # "Seating", "Round 2", "Accusation", "Night over"
    questions_left: int
    marks: str  # one mark a question: filled for each question left, hollow for each spent
    next_seat: str  # who asks next, or "-"
    broken: str  # lie labels in order, or "none"
    accusation: str  # "none", "read back: say yes", "locked"
    ledger_line: str  # the card's LEDGER line, verbatim


def ledger_view(state: GameState, ledger_line: str) -> LedgerView:
    if state.phase is Phase.SEATING:
        round_value, caption = "-", "Seating"
    elif state.over or state.phase is Phase.OVER:
        round_value, caption = state.round_label, "Night over"
    elif state.round_label == "A":
        round_value, caption = "A", "Accusation"
    else:
        round_value, caption = str(state.round), f"Round {state.round}"
    left = max(0, min(QUESTIONS_PER_ROUND, state.questions_left))
    accusation = {
        Accusation.NONE: "none",
        Accusation.READ: "read back: say yes",
        Accusation.LOCKED: "locked",
    }[state.accusation]
    return LedgerView(
        round=round_value,
        round_caption=caption,
        questions_left=left,
        marks=FILLED_MARK * left + USED_MARK * (QUESTIONS_PER_ROUND - left),
        next_seat=state.next_seat_name or "-",
        broken=" ".join(state.broken) if state.broken else "none",
        accusation=accusation,
        ledger_line=ledger_line,
    )


def plain_taken_as(taken_as: str, state: GameState) -> str:
    """The session calls anything neither command, question nor talk "other": say what it is."""
    if taken_as != "other":
        return taken_as
    return "seat names" if state.phase is Phase.SEATING else "a word to the Host"


def speaker_label(part: ReplyPart) -> str:
    """Who says a part aloud: the suspect by name for their own words, else the Host."""
    if part.kind in (PartKind.STATEMENT, PartKind.SUSPECT) and part.speaker_name:
        return part.speaker_name
    return HOST


# A sentence ends at . ! or ? (with any closing quote) before a space, except after a title.
_SENTENCE_END = re.compile(r"(?<!\bMr)(?<!\bMrs)(?<!\bMiss)(?<!\bDr)(?<!\bSt)[.!?…][\"'”’)]*(?=\s)")


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the sentences of `text`, so the one being spoken can be highlighted."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        end = match.end()
        spans.append(_trim(text, start, end))
        start = end
    if text[start:].strip():
        spans.append(_trim(text, start, len(text)))
    return spans


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _loose(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


def find_sentence(text: str, sentence: str, spoken_form: Callable[[str], str] = lambda text: text) -> tuple[int, int] | None:
    """The span of `text` holding the sentence the speaker reports, or None if none does.

    The speaker reports the words as said (abbreviations spelled out, times reworded), so each shown
    sentence is put through `spoken_form` first and compared loosely: case, spacing and punctuation aside.
    """
    wanted = _loose(sentence)
    if not wanted:
        return None
    spans = sentence_spans(text)
    forms = [_loose(spoken_form(text[start:end])) for start, end in spans]
    for span, form in zip(spans, forms, strict=True):
        if form == wanted:
            return span
    for span, form in zip(spans, forms, strict=True):
        # The speaker may split more finely than the screen (a newline ends its sentence).
        if wanted in form:
            return span
    return None


@dataclass(frozen=True)
class ExhibitView:
    number: int
    title: str
    text: str

    @property
    def heading(self) -> str:
        return f"E{self.number}  {self.title}"


@dataclass(frozen=True)
class StatementView:
    speaker: str
    text: str


class Evidence:
    """The evidence in, gathered from the replies as the Host reads it out (nothing sealed is looked up)."""

    def __init__(self) -> None:
        self.exhibits: dict[int, ExhibitView] = {}
        self.statements: tuple[StatementView, ...] = ()
        self.statements_round = 0

    def take(self, reply: Reply, state: GameState) -> bool:
        """Note the exhibits and statements a reply reads; True when anything new came in."""
        changed = False
        for part in reply.parts:
            if part.kind is PartKind.EXHIBIT and part.exhibit is not None:
                view = ExhibitView(part.exhibit, part.title or "", part.text)
                if self.exhibits.get(part.exhibit) != view:
                    self.exhibits[part.exhibit] = view
                    changed = True
        statements = tuple(
            StatementView(speaker_label(part), part.text) for part in reply.parts if part.kind is PartKind.STATEMENT
        )
        this_round = range(EXHIBITS_PER_ROUND * (state.round - 1) + 1, EXHIBITS_PER_ROUND * state.round + 1)
        opening = any(part.kind is PartKind.EXHIBIT and part.exhibit in this_round for part in reply.parts)
        if statements and opening:
            # Only a round opening reads this round's statements with its exhibits; "statements" on
            # request may be an earlier round's and must not pass for this one's.
            self.statements = statements
            self.statements_round = state.round
            changed = True
        return changed

    def ordered(self, read: Iterable[int]) -> list[ExhibitView]:
        """Exhibits read so far, by number; a number read but not yet seen shows without a title."""
        numbers = sorted(set(read) | set(self.exhibits))
        return [self.exhibits.get(n, ExhibitView(n, "", "")) for n in numbers]


@dataclass(frozen=True)
class FullStateView:
    round: str
    seats: tuple[str, ...]  # "1 Ann", "2 Bob ◀ next"
    next_seat: str
    exhibits_read: str
    broken: str
    questions_left: str


def full_state_view(state: GameState) -> FullStateView:
    seats = tuple(
        f"{number} {name}" + ("  ◀ asks next" if number == state.next_seat else "")
        for number, name in enumerate(state.seats, start=1)
    )
    return FullStateView(
        round="Accusation" if state.round_label == "A" else str(state.round),
        seats=seats,
        next_seat=state.next_seat_name or "-",
        exhibits_read=" ".join(f"E{n}" for n in state.exhibits_read) or "none",
        broken=" ".join(state.broken) or "none",
        questions_left=f"{state.questions_left} of {QUESTIONS_PER_ROUND}",
    )
