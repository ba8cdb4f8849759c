"""The card's fixed numbers: every case is played to them (a case's own counts, such as its suspects,
come from the case)."""

from __future__ import annotations

ROUNDS = 4
EXHIBITS_PER_ROUND = 4
EXHIBITS = ROUNDS * EXHIBITS_PER_ROUND  # E1-E16: each round reads its four
QUESTIONS_PER_ROUND = 4
MAX_COUNTED_EXHIBITS = 6  # the accusation counts the first six distinct exhibits it cites
