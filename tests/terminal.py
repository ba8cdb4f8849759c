"""A real terminal for end-to-end tests: tmux runs a command in a pseudo-terminal of a given size, and
the test reads what the terminal shows as text (`capture-pane`), types lines and presses keys.

Each `Terminal` has a tmux server of its own (a socket in a temporary folder, no user configuration),
started with the environment the test gives and ended with `kill-server` on that socket. Waiting is
polling the screen until a deadline, never a fixed sleep.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

SESSION = "carol"
EXITED = "[terminal: the command exited with "  # then its status and "]", printed by the pane's shell
POLL = 0.1  # seconds between looks at the screen while waiting for something to appear on it

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (Debian: tmux)")


def installed_command() -> Path:
    """The `third-carol` command installed in this Python's environment (the venv's bin/)."""
    return Path(sys.executable).parent / "third-carol"


def words(screen: str) -> str:
    """The screen's text with every run of whitespace (line ends included) made one space."""
    return " ".join(screen.split())


def panel_text(screen: str, marker: str) -> str:
    """The words of the panel whose first line holds `marker`: from the panel's left border (or the
    screen's edge), down the rows below, each row up to the panel's right border; whitespace (line
    wraps) made single spaces."""
    lines = screen.splitlines()
    row = next((index for index, line in enumerate(lines) if marker in line), None)
    if row is None:
        return ""
    column = lines[row].rfind("\u2502", 0, lines[row].index(marker)) + 1
    taken: list[str] = []
    for line in lines[row:]:
        part = line[column:].split("│", 1)[0]  # up to the panel's right border
        if part.startswith("╰") or not part.strip():  # its bottom border, or the end of its text
            break
        taken.append(part)
    return " ".join(" ".join(taken).split())


class ScreenTimeout(AssertionError):
    """What was awaited never showed; the message carries the last screen seen."""


class Terminal:
    """One command running in a COLSxROWS tmux pane, read back as text."""

    def __init__(self, folder: Path, size: tuple[int, int], command: Sequence[str], env: Mapping[str, str]) -> None:
        self.folder = folder
        self.size = size
        self.socket = folder / "tmux.sock"
        cols, rows = size
        # The server inherits this environment, and the pane's command gets it from the server.
        self._tmux(
            "new-session", "-d", "-s", SESSION, "-x", str(cols), "-y", str(rows),
            f"{shlex.join(command)}; echo \"{EXITED}$?]\"",
            env={**env, "TERM": "xterm-256color"}, config=True,
        )  # fmt: skip
        # Keep the pane when the command ends, so its last screen and exit status can be read.
        self._tmux("set-option", "-t", SESSION, "remain-on-exit", "on")

    def _tmux(self, *args: str, env: Mapping[str, str] | None = None, config: bool = False) -> str:
        command = ["tmux", *(["-f", "/dev/null"] if config else []), "-S", str(self.socket), *args]
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=30, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"tmux {' '.join(args[:1])} failed: {done.stderr.strip()}")
        return done.stdout

    def screen(self, *, scrollback: bool = False) -> str:
        """What the terminal shows now: one line per row, trailing blanks dropped; with `scrollback`,
        the lines scrolled off the top too."""
        return self._tmux("capture-pane", "-p", "-t", SESSION, *(["-S", "-"] if scrollback else []))

    def capture_with_colours(self) -> str:
        """The screen with its colour and style codes (for drawing it as a picture)."""
        return self._tmux("capture-pane", "-e", "-p", "-t", SESSION)

    def wait_until(self, shows: Callable[[str], bool], timeout: float, what: str) -> str:
        """The screen, once `shows(screen)` holds on a settled screen (two looks in a row alike: tmux
        may be half way through drawing a large frame); ScreenTimeout with the last screen if never."""
        deadline = time.monotonic() + timeout
        seen = self.screen()
        while True:
            if shows(seen):
                again = self.screen()
                if again == seen:
                    return seen
                seen = again
                continue
            if time.monotonic() > deadline:
                raise ScreenTimeout(f"after {timeout:.0f} s the screen never showed {what}:\n{seen}")
            time.sleep(POLL)
            seen = self.screen()

    def wait_for(self, *texts: str, timeout: float = 30) -> str:
        """The screen, once every one of `texts` is on it (a text wrapped over two rows counts)."""
        return self.wait_until(lambda seen: all(text in words(seen) for text in texts), timeout, " and ".join(map(repr, texts)))

    def type(self, line: str) -> None:
        """Type a line as a player does, then Enter."""
        self._tmux("send-keys", "-t", SESSION, "-l", line)
        self._tmux("send-keys", "-t", SESSION, "Enter")

    def press(self, key: str) -> None:
        """A key by tmux's name for it: Escape, F6, C-q, ..."""
        self._tmux("send-keys", "-t", SESSION, key)

    def resize(self, cols: int, rows: int) -> None:
        self.size = (cols, rows)
        self._tmux("resize-window", "-t", SESSION, "-x", str(cols), "-y", str(rows))

    @property
    def exited(self) -> int | None:
        """The command's exit status once it has ended (the shell prints it after), else None."""
        found = re.findall(rf"^{re.escape(EXITED)}(\d+)\]$", self.screen(scrollback=True), flags=re.M)
        return int(found[-1]) if found else None

    def close(self) -> None:
        """End this terminal's tmux server (and with it the command, if still running)."""
        subprocess.run(["tmux", "-S", str(self.socket), "kill-server"], capture_output=True, timeout=30, check=False)
