"""Reading a case folder from disk (the engine itself does no I/O)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.case import Case, load_case

BUNDLED_CASE = "hollin-fold"


def bundled_case_dir() -> Path:
    """The Hollin Fold case shipped inside the engine package."""
    return Path(str(resources.files("engine").joinpath("cases", BUNDLED_CASE)))


def read_case_files(folder: Path) -> dict[str, bytes]:
    if not folder.is_dir():
        return {}
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir()) if path.is_file()}


def read_case_dir(folder: Path) -> Case:
    """Load and verify a case folder; raises engine.case.CaseError."""
    return load_case(read_case_files(folder))


def load_bundled_case() -> Case:
    return read_case_dir(bundled_case_dir())


def case_dir_or_bundled(folder: Path | None) -> Path:
    return folder if folder is not None else bundled_case_dir()
