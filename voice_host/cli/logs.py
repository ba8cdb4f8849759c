"""The Host's own log: stdlib logging, one logger per module, into a file in the state folder.

The file sits beside the journal (`--state-dir`, or the per-user state folder), so what went wrong at
the table is where the night's messages are. Only this project's loggers are let through below
WARNING: a library's chatter does not bury ours. `--verbose` adds the DEBUG lines (what was heard and
how long each step took), and also echoes them on standard error when no screen is drawn there.
"""

from __future__ import annotations

import logging
import sys
from logging.handlers import RotatingFileHandler
from pathlib import Path

LOG_FILE = "third-carol.log"
LOG_BYTES = 1_000_000  # then the file rolls over: one night's log never fills a disk
LOG_BACKUPS = 2
OUR_LOGGERS = ("engine", "models", "voice_host")
FORMAT = "%(asctime)s %(levelname)-7s %(threadName)s %(name)s: %(message)s"


def start_logging(folder: Path, verbose: bool = False, echo: bool = False) -> Path | None:
    """Log to `folder`/third-carol.log (INFO and up; DEBUG with `verbose`); `echo`: also to stderr
    when verbose. Returns the log file's path (None when the folder cannot take one)."""
    path = folder / LOG_FILE
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8")
    except OSError:
        # A state folder that cannot be used (a file, read-only, under a file): play says so in one
        # line when it opens the folder; logging must not stop the night first with a traceback.
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    if verbose and echo:
        shown = logging.StreamHandler(sys.stderr)
        shown.setFormatter(logging.Formatter(FORMAT))
        root.addHandler(shown)
    root.setLevel(logging.WARNING)
    for name in OUR_LOGGERS:
        logging.getLogger(name).setLevel(logging.DEBUG if verbose else logging.INFO)
    logging.captureWarnings(True)
    return path
