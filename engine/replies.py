"""What the engine says: a reply is a tuple of typed parts.

The voice host speaks some parts in the right voice, the screen lays them out, and text mode prints
them plainly. Nothing here knows about audio or terminals.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class PartKind(Enum):
    NARRATION = "narration"  # the Host's own words: opening, THE HOUSE, a SCENE line
    EXHIBIT = "exhibit"  # an exhibit read word for word (exhibit and title set)
    STATEMENT = "statement"  # a suspect's round statement (speaker set)
    SUSPECT = "suspect"  # a suspect's FILE line in answer to a question (speaker set)
    SYSTEM = "system"  # a fixed line of the card: "Question 2 of 4: Ann.", "Not locked." ...
    FULL_STATE = "full_state"  # the FULL STATE list, shown on screen, never spoken
    SAVE = "save"  # the SAVE block, shown, never spoken
    RESULT = "result"  # the RESULT line, shown, never spoken
    LEDGER = "ledger"  # the LEDGER line, last in every reply, never spoken


#: Parts that belong on screen only; the voice host never speaks them.
SILENT_KINDS = frozenset({PartKind.FULL_STATE, PartKind.SAVE, PartKind.RESULT, PartKind.LEDGER})


@dataclass(frozen=True)
class ReplyPart:
    kind: PartKind
    text: str
    speaker: str | None = None  # suspect key, for STATEMENT and SUSPECT parts
    speaker_name: str | None = None  # the suspect's full name, for display
    exhibit: int | None = None  # exhibit number, for EXHIBIT parts
    title: str | None = None  # exhibit title, for EXHIBIT parts

    def render(self) -> str:
        """The part as plain text, as text mode prints it."""
        if self.kind is PartKind.EXHIBIT:
            return f"E{self.exhibit}. {self.title}\n{self.text}"
        if self.kind in (PartKind.STATEMENT, PartKind.SUSPECT):
            return f'{self.speaker_name}: "{self.text}"'
        return self.text

    @property
    def spoken(self) -> bool:
        return self.kind not in SILENT_KINDS


@dataclass(frozen=True)
class Reply:
    parts: tuple[ReplyPart, ...]

    @property
    def ledger(self) -> str:
        """The LEDGER line: last in every reply, except the final one where RESULT follows it."""
        return next(part.text for part in reversed(self.parts) if part.kind is PartKind.LEDGER)

    @property
    def spoken_parts(self) -> tuple[ReplyPart, ...]:
        return tuple(part for part in self.parts if part.spoken)

    def render(self) -> str:
        return "\n\n".join(part.render() for part in self.parts)
