"""A small plan of the house, drawn from THE HOUSE on the card: public facts only.

The plan is a fixed drawing of Hollin Fold; it is shown only when the case's public house text names
every place on it, so another case (or a changed house) gets its own words instead of a wrong map.
"""

from __future__ import annotations

import textwrap

# Every place the drawing shows, as THE HOUSE names it.
PLACES = (
    "great hall",
    "front door",
    "porch",
    "garden door",
    "main stair",
    "bedroom corridor",
    "library",
    "service door",
    "back passage",
    "kitchen",
    "plate room",
    "back stair",
    "yard door",
)

# Rooms in capitals, doors and stairs in lower case; the layout, not colour, carries the meaning.
HOLLIN_FOLD_PLAN = """\
UPSTAIRS
  BEDROOM CORRIDOR ════════════════════╗
    ║ main stair                       ║ back stair, from
GROUND FLOOR                           ║ the corridor's end
  ┌─╨───────── GREAT HALL ───────┐     ║
  │ front door ─ porch           │     ║
  │ garden door        LIBRARY   │     ║
  └───────╥─ service door ───────┘     ║
BELOW     ║ down                       ║ down
STAIRS    ║                            ║
  BACK PASSAGE ═══════╤════════════════╩═ PLATE ROOM
               KITCHEN, yard door beside  (far end)
(not to scale)"""


def house_plan(house_text: str, width: int = 40) -> tuple[str, bool]:
    """The plan to show and whether it is the drawing (True) or the card's words wrapped (False)."""
    lowered = " ".join(house_text.lower().split())
    if all(place in lowered for place in PLACES):
        return HOLLIN_FOLD_PLAN, True
    return textwrap.fill(" ".join(house_text.split()), width=width), False
