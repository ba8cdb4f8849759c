"""The card's SAVE block: writing it exactly, reading it back leniently."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.text import clean

BEGIN = "-----BEGIN AIGC SAVE-----"
END = "-----END AIGC SAVE-----"
_KEYS = ("game", "m", "rules", "turn", "rd", "q", "seat", "table", "broken", "sha")
_FIELD = re.compile(r"(?:^|\s)(" + "|".join(_KEYS) + r"):")
_NUMBER_DIGITS = 9  # a number with more digits is out of any range: read as the largest (or smallest) one


@dataclass(frozen=True)
class SaveBlock:
    game: str
    mystery: str
    rules: str
    turn: int
    round: str  # "1"-"4" or "A" as written; repaired on resume
    questions: int
    seat: int
    table: tuple[str, ...]
    broken: tuple[str, ...]
    sha: str = "none"

    def render(self) -> str:
        broken = ",".join(self.broken) if self.broken else "none"
        return "\n".join(
            [
                BEGIN,
                f"game:{self.game}",
                f"m:{self.mystery}",
                f"rules:{self.rules}",
                f"turn:{self.turn}",
                f"rd:{self.round}",
                f"q:{self.questions}",
                f"seat:{self.seat}",
                f"table:{','.join(self.table)}",
                f"broken:{broken}",
                f"sha:{self.sha}",
                END,
            ]
        )


def looks_like_save(text: str) -> bool:
    return BEGIN in text


def parse_save(text: str) -> SaveBlock | None:
    """Read a pasted SAVE block; None when it is not whole (no END, or a field missing or garbled)."""
    start = text.find(BEGIN)
    end = text.find(END, start + len(BEGIN))
    if start < 0 or end < 0:
        return None
    # Cleaned as any typed message is: control characters never reach a name or split a field.
    body = " ".join(clean(text[start + len(BEGIN) : end]).split())
    matches = list(_FIELD.finditer(body))
    values: dict[str, str] = {}
    for index, match in enumerate(matches):
        stop = matches[index + 1].start() if index + 1 < len(matches) else len(body)
        values.setdefault(match.group(1), body[match.end() : stop].strip())
    if any(key not in values for key in _KEYS if key != "sha"):
        return None

    def number(key: str) -> int | None:
        found = re.fullmatch(r"([-+]?)(\d+)", values[key])
        if found is None:
            return None
        sign, digits = -1 if found.group(1) == "-" else 1, found.group(2).lstrip("0") or "0"
        # Never int() a 5,000-digit number: out of range is all the game needs to know to repair it.
        return sign * (int(digits) if len(digits) <= _NUMBER_DIGITS else 10**_NUMBER_DIGITS - 1)

    turn, questions, seat = number("turn"), number("q"), number("seat")
    if turn is None or questions is None or seat is None:
        return None
    table = tuple(name.strip() for name in values["table"].split(",") if name.strip())
    broken_text = values["broken"].strip()
    broken = (
        ()
        if broken_text.lower() in ("none", "")
        else tuple(label.strip() for label in re.split(r"[,\s]+", broken_text) if label.strip())
    )
    return SaveBlock(
        game=values["game"],
        mystery=values["m"],
        rules=values["rules"],
        turn=turn,
        round=values["rd"].strip().upper(),
        questions=questions,
        seat=seat,
        table=table,
        broken=broken,
        sha=values.get("sha", "none"),
    )
