"""The game's visible state: what the LEDGER and FULL STATE are made from."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.rules import QUESTIONS_PER_ROUND


class Accusation(Enum):
    NONE = "none"
    READ = "read"  # a read-back waits for yes
    LOCKED = "locked"


class Phase(Enum):
    SEATING = "seating"  # rd 0: no names yet
    ROUNDS = "rounds"  # rd 1-4
    ACCUSATION = "accusation"  # rd A
    OVER = "over"  # after RESULT


@dataclass(frozen=True)
class GameState:
    """A read-only snapshot; the screen and the voice host read this, never the engine's insides."""

    turn: int  # t: replies so far
    round: int  # 0-4; 4 while in the accusation
    phase: Phase
    questions_used: int  # q: 0-4
    seats: tuple[str, ...]  # seat names in order ("you" for just me)
    next_seat: int | None  # 1-based seat who asks next, None before seating
    broken: tuple[str, ...]  # lie labels in the order broken
    accusation: Accusation
    exhibits_read: tuple[int, ...]
    solo: bool  # "just me"
    in_accusation: bool = False  # rd A: reached the accusation (stays so after the end)
    over: bool = False  # RESULT has been printed

    @property
    def round_label(self) -> str:
        return "A" if self.in_accusation else str(self.round)

    @property
    def questions_left(self) -> int:
        return QUESTIONS_PER_ROUND - self.questions_used

    @property
    def next_seat_name(self) -> str | None:
        if self.next_seat is None or not self.seats:
            return None
        return self.seats[self.next_seat - 1]
