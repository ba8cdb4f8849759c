"""The LEDGER line and the FULL STATE list, exactly as the card prints them."""

from __future__ import annotations

from dataclasses import dataclass

from engine.rules import QUESTIONS_PER_ROUND, ROUNDS
from engine.state import Accusation, GameState


def ledger_line(state: GameState, version: str) -> str:
    seat = "-" if state.next_seat is None else f"{state.next_seat}/{len(state.seats)}"
    broken = ",".join(state.broken) if state.broken else "none"
    return (
        f"[L] t:{state.turn} | rd:{state.round_label} | q:{state.questions_used}/{QUESTIONS_PER_ROUND} | seat:{seat} | "
        f"broken:{broken} | acc:{state.accusation.value} | {version}"
    )


@dataclass(frozen=True)
class FullState:
    """FULL STATE, line by line: a list of facts, never an interpretation. A state question is answered
    with one of these lines."""

    round: str
    seats: str
    next_to_ask: str
    exhibits: str
    lies: str
    questions: str
    accusation: str
    joining: str | None = None
    accusation_waits: bool = False

    def lines(self) -> list[str]:
        lines = ["FULL STATE", self.round, self.seats, self.next_to_ask, self.exhibits, self.lies, self.questions]
        if self.joining is not None:
            lines.append(self.joining)
        if self.accusation_waits:
            lines.append(self.accusation)
        return lines


def full_state_of(state: GameState, joining: tuple[str, ...] = ()) -> FullState:
    seats = " · ".join(f"{index} {name}" for index, name in enumerate(state.seats, start=1)) or "none"
    exhibits = ", ".join(f"E{n}" for n in state.exhibits_read) or "none"
    return FullState(
        round=f"Round: {state.round_label if state.round_label == 'A' else f'{state.round} of {ROUNDS}'}",
        seats=f"Seats: {seats}",
        next_to_ask=f"Next to ask: {state.next_seat_name or '-'}"
        + (f" (seat {state.next_seat})" if state.next_seat is not None else ""),
        exhibits=f"Exhibits read: {exhibits}",
        lies=f"Lies broken: {', '.join(state.broken) if state.broken else 'none'}",
        questions=f"Questions left: {state.questions_left} of {QUESTIONS_PER_ROUND}",
        accusation=f"Accusation: {state.accusation.value}",
        joining=f"Joining next round: {', '.join(joining)}" if joining else None,
        accusation_waits=state.accusation is not Accusation.NONE,
    )


def full_state(state: GameState, joining: tuple[str, ...] = ()) -> str:
    """A list of facts, never an interpretation."""
    return "\n".join(full_state_of(state, joining).lines())
