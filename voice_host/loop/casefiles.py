"""Reading a case folder from disk (the engine itself does no I/O).

Only the case's own files are read: public.case, the sealed notice, the parts the notice names and the sealed
questions asked before (asked.sealed, if there),
each up to a size no real case comes near. A folder or file that cannot be read is a CaseError, so the
Host says the card's refusal line instead of a traceback.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from engine.asked import ASKED_FILE
from engine.case import NOTICE_FILE, PUBLIC_FILE, Case, CaseError, load_case, parse_notice
from engine.caseformat import CaseFormatError
from voice_host.loop.bounded import read_at_most

BUNDLED_CASE = "hollin-fold"
MAX_CASE_FILE = 4 * 1024 * 1024  # bytes; the bundled case's largest file (asked.sealed) is about 40 KB


def bundled_case_dir() -> Path:
    """The Hollin Fold case shipped inside the engine package."""
    return Path(str(resources.files("engine").joinpath("cases", BUNDLED_CASE)))


def _read_bounded(path: Path) -> bytes:
    """One file of the case, at most MAX_CASE_FILE bytes; CaseError when it cannot be read."""
    try:
        read = read_at_most(path, MAX_CASE_FILE)
    except IsADirectoryError:
        raise CaseError(f"{path.name} is a folder, not a file") from None
    except OSError as error:
        raise CaseError(f"{path.name} cannot be read ({error.strerror or error})") from None
    # Refused, never cut: the first part of a case file is not the case (a sealed part would fail its
    # seal for the wrong reason, a cut public.case would load as a shorter case than the one written).
    if read.cut:
        raise CaseError(f"{path.name} is larger than {MAX_CASE_FILE} bytes")
    return read.data


def _own_part_names(notice_bytes: bytes) -> tuple[str, ...]:
    """The part files the notice lists, if it can be read; load_case reports a notice that cannot."""
    try:
        notice = parse_notice(notice_bytes.decode("utf-8"), NOTICE_FILE)
    except (UnicodeDecodeError, CaseFormatError, CaseError):
        return ()
    return notice.parts


def read_case_files(folder: Path) -> dict[str, bytes]:
    """The case's own files by name: public.case, SYSTEM.md and the sealed parts its notice names.

    Raises CaseError when the folder or one of those files cannot be read; a missing file is left out
    (load_case names what is missing).
    """
    try:
        if not folder.is_dir():
            raise CaseError(f"the case folder {folder} is not there" if not folder.exists() else f"{folder} is not a folder")
        present = {path.name for path in folder.iterdir()}
    except OSError as error:
        raise CaseError(f"the case folder {folder} cannot be read ({error.strerror or error})") from None
    files: dict[str, bytes] = {}
    for name in (PUBLIC_FILE, NOTICE_FILE, ASKED_FILE):
        if name in present:
            files[name] = _read_bounded(folder / name)
    for name in _own_part_names(files.get(NOTICE_FILE, b"")):
        # A part is a plain file name inside the folder, never a path out of it.
        if name in present and name not in files and Path(name).name == name and not name.startswith("."):
            files[name] = _read_bounded(folder / name)
    return files


def read_case_dir(folder: Path) -> Case:
    """Load and verify a case folder; raises engine.case.CaseError."""
    return load_case(read_case_files(folder))


def load_bundled_case() -> Case:
    return read_case_dir(bundled_case_dir())


def case_dir_or_bundled(folder: Path | None) -> Path:
    return folder if folder is not None else bundled_case_dir()
