"""`./carol`, the one entry point: setup says what it is doing, one line per step."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(
    Path(sys.prefix).resolve() != (REPO / ".venv").resolve(),
    reason="runs ./carol setup on the venv these tests run in, which must be the repository's own .venv",
)
def test_setup_prints_a_line_for_each_step() -> None:
    done = subprocess.run([str(REPO / "carol"), "setup"], capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stderr
    steps = [line.split()[1] for line in done.stdout.splitlines() if line.startswith("carol: ") and "/3" in line]
    assert steps == ["1/3", "2/3", "3/3"], done.stdout
    assert "system packages" in done.stdout and "virtual environment" in done.stdout and "Python packages" in done.stdout
