"""Grading an accusation from the reveal's GRADING, and the card's score."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.case import GradePart, Grading


class Verdict(Enum):
    UNSOLVED = "Unsolved"
    NAMED = "Named"
    PROVED = "Proved"


@dataclass(frozen=True)
class Outcome:
    correct: bool
    gave_up: bool
    parts: tuple[GradePart, ...]  # parts shown by the counted exhibits (right person only)
    lies: int
    score: int
    verdict: Verdict

    @property
    def end(self) -> str:
        if self.gave_up:
            return "gave-up"
        return "solved" if self.correct else "wrong"


PAR = 40


def grade(grading: Grading, accused: str | None, counted: tuple[int, ...], lies: int) -> Outcome:
    """Right person 10, plus 10 per part with one of its sets all counted; 1 per lie. Wrong or give-up: lies only."""
    if accused is None:
        return Outcome(False, True, (), lies, lies, Verdict.UNSOLVED)
    if accused != grading.culprit:
        return Outcome(False, False, (), lies, lies, Verdict.UNSOLVED)
    chosen = set(counted)
    parts = tuple(part for part, sets in grading.sets if any(group <= chosen for group in sets))
    verdict = Verdict.PROVED if len(parts) == len(GradePart) else Verdict.NAMED
    return Outcome(True, False, parts, lies, 10 + 10 * len(parts) + lies, verdict)
