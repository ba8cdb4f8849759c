"""Letters three rows tall, for the one word the table reads from across the room: who asks next.

A 3x5 pixel font drawn with half blocks (two pixel rows a text row). Anything the font lacks (other
scripts, long names) returns None and the caller shows plain text instead.
"""

from __future__ import annotations

# Each glyph: five rows of three pixels, "#" lit.
_FONT: dict[str, tuple[str, str, str, str, str]] = {
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "F": ("###", "#..", "##.", "#..", "#.."),
    "G": (".##", "#..", "#.#", "#.#", ".##"),
    "H": ("#.#", "#.#", "###", "#.#", "#.#"),
    "I": ("###", ".#.", ".#.", ".#.", "###"),
    "J": ("..#", "..#", "..#", "#.#", ".#."),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "L": ("#..", "#..", "#..", "#..", "###"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "N": ("##.", "#.#", "#.#", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "Q": (".#.", "#.#", "#.#", "##.", ".##"),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "U": ("#.#", "#.#", "#.#", "#.#", ".#."),
    "V": ("#.#", "#.#", "#.#", ".#.", ".#."),
    "W": ("#.#", "#.#", "###", "###", "#.#"),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "Z": ("###", "..#", ".#.", "#..", "###"),
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    " ": ("...", "...", "...", "...", "..."),
    "-": ("...", "...", "###", "...", "..."),
    ".": ("...", "...", "...", "...", ".#."),
    "'": (".#.", ".#.", "...", "...", "..."),
}

_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def big_text(text: str, max_width: int) -> str | None:
    """`text` in capitals three rows tall, or None if a letter is missing or it would be wider than max_width."""
    glyphs = [_FONT.get(character) for character in text.upper()]
    if not glyphs or any(glyph is None for glyph in glyphs) or len(glyphs) * 4 - 1 > max_width:
        return None
    pixels = ["", "", "", "", "", ""]  # five rows and a blank sixth, so rows pair up evenly
    for index, glyph in enumerate(glyphs):
        assert glyph is not None
        gap = "." if index else ""
        for row in range(5):
            pixels[row] += gap + glyph[row]
        pixels[5] += gap + "..."
    lines = []
    for top, bottom in ((0, 1), (2, 3), (4, 5)):
        lines.append("".join(_HALF[pixels[top][x] == "#", pixels[bottom][x] == "#"] for x in range(len(pixels[top]))))
    return "\n".join(lines)
