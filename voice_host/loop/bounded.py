"""Reading a file from disk no further than a limit, so a file that grew without bound cannot fill memory.

What to do with a file that goes on past its limit is the reader's own choice (casefiles refuses a case
file, journal cuts a night): this only says whether it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class BoundedRead:
    """The first bytes of a file, at most the limit, and whether the file went on past it."""

    data: bytes
    cut: bool


def read_at_most(path: Path, limit: int) -> BoundedRead:
    """At most `limit` bytes of `path`; an OSError (IsADirectoryError among them) is the caller's to word."""
    with path.open("rb") as source:
        data = source.read(limit + 1)  # one byte past the limit tells a file of exactly `limit` from a longer one
    return BoundedRead(data[:limit], len(data) > limit)
