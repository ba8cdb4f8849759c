"""The Host's log: a file in the state folder, our notable events by default, every step with --verbose."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from voice_host.cli.logs import LOG_FILE, OUR_LOGGERS
from voice_host.cli.main import main


@pytest.fixture(autouse=True)
def _logging_as_it_was() -> Iterator[None]:
    """start_logging configures the process's logging: put it back for the next test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in OUR_LOGGERS}
    yield
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)
    logging.captureWarnings(False)


def play_text(state: Path, monkeypatch: pytest.MonkeyPatch, *options: str) -> str:
    """One typed message through `third-carol play --text`; the log file's text afterwards."""
    monkeypatch.setattr("sys.stdin", io.StringIO("Ann, Bob\n"))
    monkeypatch.setattr("sys.stdout", io.StringIO())
    assert main(["play", "--text", "--state-dir", str(state), *options]) == 0
    logging.getLogger("voice_host.test").debug("a step only --verbose keeps")
    logging.getLogger("voice_host.test").info("a notable event")
    logging.getLogger("some_library").info("a library's chatter")
    return (state / LOG_FILE).read_text(encoding="utf-8")


def test_the_log_is_a_file_beside_the_journal_with_our_notable_events(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = play_text(tmp_path, monkeypatch)
    assert list((tmp_path / "nights").glob("*.night"))  # the night beside the log
    assert "INFO    MainThread voice_host.cli.main: third-carol play --text --state-dir" in text
    assert "voice_host.test: a notable event" in text
    assert "a step only --verbose keeps" not in text
    assert "a library's chatter" not in text


def test_verbose_keeps_every_step_and_echoes_it_without_a_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = play_text(tmp_path, monkeypatch, "--verbose")
    assert "DEBUG   MainThread voice_host.test: a step only --verbose keeps" in text
    assert "a library's chatter" not in text
    assert "voice_host.test: a step only --verbose keeps" in capsys.readouterr().err


def test_the_log_rolls_over_instead_of_growing_for_ever(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    play_text(tmp_path, monkeypatch)
    for _ in range(250):  # 2.5 MB in lines of 10 kB: enough to fill the file and both backups
        logging.getLogger("voice_host.test").info("x" * 10_000)
    kept = sorted(path.name for path in tmp_path.glob(f"{LOG_FILE}*"))
    assert kept == [LOG_FILE, f"{LOG_FILE}.1", f"{LOG_FILE}.2"]
    assert all(path.stat().st_size <= 1_010_000 for path in tmp_path.glob(f"{LOG_FILE}*"))
