"""What every way of playing does first: load the case, lock the state folder and choose the night, or say
in one line why not. Text mode and the table screen both start here, so they part only after it."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from engine.case import REFUSAL, Case, CaseError
from voice_host.loop.casefiles import case_dir_or_bundled, read_case_dir
from voice_host.loop.journal import Night, StateFolder, StateProblem, choose_night, default_state_dir


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


@dataclass(frozen=True)
class NightChoice:
    """The night to go on with (None: a new night), and when starting a new one, the case's newest
    unfinished night, which the table is offered or told how to go on with."""

    night: Night | None
    unfinished: Night | None


def choose_night_or_say(folder: StateFolder, mystery: str, name: str | None, resume: bool) -> NightChoice | None:
    """The night chosen by --night / --resume; None once the folder's problem has been said on stderr.
    A --resume that finds nothing says so on stderr and starts a new night."""
    try:
        night, note = choose_night(folder, mystery, name, resume)
        if note is not None:
            print(note, file=sys.stderr)
        unfinished = folder.latest_unfinished(mystery) if night is None else None
    except StateProblem as problem:
        print(problem.line, file=sys.stderr)
        return None
    return NightChoice(night, unfinished)
