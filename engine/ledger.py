"""The LEDGER line and the FULL STATE list, exactly as the card prints them."""

from __future__ import annotations

from engine.rules import QUESTIONS_PER_ROUND, ROUNDS
from engine.state import Accusation, GameState


def ledger_line(state: GameState, version: str) -> str:
    seat = "-" if state.next_seat is None else f"{state.next_seat}/{len(state.seats)}"
    broken = ",".join(state.broken) if state.broken else "none"
    return (
        f"[L] t:{state.turn} | rd:{state.round_label} | q:{state.questions_used}/{QUESTIONS_PER_ROUND} | seat:{seat} | "
        f"broken:{broken} | acc:{state.accusation.value} | {version}"
    )


def full_state(state: GameState, joining: tuple[str, ...] = ()) -> str:
    """A list of facts, never an interpretation."""
    seats = " · ".join(f"{index} {name}" for index, name in enumerate(state.seats, start=1)) or "none"
    exhibits = ", ".join(f"E{n}" for n in state.exhibits_read) or "none"
    lines = [
        "FULL STATE",
        f"Round: {state.round_label if state.round_label == 'A' else f'{state.round} of {ROUNDS}'}",
        f"Seats: {seats}",
        f"Next to ask: {state.next_seat_name or '-'}" + (f" (seat {state.next_seat})" if state.next_seat is not None else ""),
        f"Exhibits read: {exhibits}",
        f"Lies broken: {', '.join(state.broken) if state.broken else 'none'}",
        f"Questions left: {state.questions_left} of {QUESTIONS_PER_ROUND}",
    ]
    if joining:
        lines.append(f"Joining next round: {', '.join(joining)}")
    if state.accusation is not Accusation.NONE:
        lines.append(f"Accusation: {state.accusation.value}")
    return "\n".join(lines)
