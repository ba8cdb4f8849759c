"""What every way of playing does first: load the case and lock the state folder, or say in one line why not."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from engine.case import REFUSAL, Case, CaseError
from voice_host.loop.casefiles import case_dir_or_bundled, read_case_dir
from voice_host.loop.journal import StateFolder, StateProblem, default_state_dir


def open_case_and_folder(case_dir: Path | None, state_dir: Path | None, out: TextIO) -> tuple[Case, StateFolder] | None:
    """The case and its (not yet entered) state folder; None once the card's refusal (on `out`) or the
    folder's problem (on stderr) has been said."""
    try:
        case = read_case_dir(case_dir_or_bundled(case_dir))
    except CaseError as error:
        out.write(REFUSAL + "\n")
        out.flush()
        print(f"reason: {error.reason}", file=sys.stderr)
        return None
    try:
        folder = StateFolder.open(state_dir or default_state_dir())
    except StateProblem as problem:
        print(problem.line, file=sys.stderr)
        return None
    return case, folder
