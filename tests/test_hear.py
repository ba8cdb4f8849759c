"""`third-carol hear --json` run as a program on real spoken fixtures (a representative subset).

Like wyoming-faster-whisper's tests: real audio in, the real models, the real command line. The
room condition is derived from the committed clean renders with the seeded function and written as
16 kHz WAV files, exactly what a user would pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from audio_fixtures.fixtures import Condition, Fixture, FixtureAudio, load_manifest, write_wav
from tests.conftest_speech import speech_fixture
from voice_host.loop.casefiles import load_bundled_case

KEYS = ["file", "heard", "text", "kind", "suspect", "exhibits", "command", "confidence", "confirm"]
FULL_NAMES = {suspect.key: suspect.name for suspect in load_bundled_case().suspects}
# One of each kind of thing a table says, every suspect, exhibits said both ways, a time, names the
# speaker mispronounced, and ordinary words a careless matcher would turn into names.
CLEAN = [
    "u000",  # Next.
    "u014",  # Read E3.
    "u016",  # Read E7.  (whisper writes "Read the salmon."; the slot pass hears E7)
    "u026",  # Answers Ormerod.
    "u047",  # Julius, when did you last see Mrs Blamire?
    "u056",  # Mrs Ruddock, what did you do at ten o'clock?  (a time, never an exhibit)
    "u089",  # Confront Phoebe with E3.
    "u090",  # Confront Thwaite with exhibit 3.
    "u101",  # Confront Phoebe with E9.  (whisper writes "with the iron"; the slot pass hears E9)
    "u062",  # Miss Marsden, what did you do at ten o'clock?  (whisper writes "Ms.")
    "u094",  # Confront Joel with exhibit 5.
    "u117",  # We accuse Abel Thwaite: E3, E7, E12.
    "u125",  # I was able to follow that, just about.  (able stays able)
    "u126",  # The waits came up the lane at nine.  (the waits stay the waits)
    "u131",  # Somebody called the house before supper.  (called stays called)
]
ROOM = ["u054", "u098"]


def run_hear(paths: list[Path]) -> list[dict[str, object]]:
    result = subprocess.run(
        [sys.executable, "-m", "voice_host.cli.main", "hear", "--json", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def fixtures() -> dict[str, Fixture]:
    return {f.id: f for f in load_manifest()}


@speech_fixture(scope="module")
def hear_run(fixtures: dict[str, Fixture], tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    """Every chosen file through one `third-carol hear --json` run (models load once)."""
    folder = tmp_path_factory.mktemp("hear")
    audio = FixtureAudio(list(fixtures.values()))
    paths: list[Path] = []
    for fixture_id in CLEAN:
        path = folder / f"{fixture_id}.wav"
        write_wav(path, audio.clean(fixture_id))
        paths.append(path)
    for fixture_id in ROOM:
        path = folder / f"{fixture_id}-room.wav"
        write_wav(path, audio.audio(fixture_id, Condition.ROOM))
        paths.append(path)
    rows = run_hear(paths)
    assert [row["file"] for row in rows] == [str(p) for p in paths]
    return {Path(str(row["file"])).stem: row for row in rows}


def test_every_line_has_exactly_the_documented_keys(hear_run: dict[str, dict[str, object]]) -> None:
    for row in hear_run.values():
        assert list(row) == KEYS
        assert isinstance(row["confidence"], float) and 0.0 <= row["confidence"] <= 1.0
        assert isinstance(row["confirm"], bool)
        assert row["kind"] in {"command", "question", "confrontation", "accusation", "table_talk", "other"}


@pytest.mark.parametrize("fixture_id", CLEAN)
def test_clean_speech_is_understood(
    fixture_id: str, hear_run: dict[str, dict[str, object]], fixtures: dict[str, Fixture]
) -> None:
    fixture = fixtures[fixture_id]
    row = hear_run[fixture_id]
    assert row["heard"], "nothing was transcribed"
    expected = {
        "kind": fixture.kind,
        "suspect": FULL_NAMES[fixture.suspect] if fixture.suspect else None,
        "exhibits": list(fixture.exhibits),
        "command": fixture.command,
    }
    assert {key: row[key] for key in expected} == expected, row


@pytest.mark.parametrize("fixture_id", ROOM)
def test_room_speech_is_understood_or_confirmed(
    fixture_id: str, hear_run: dict[str, dict[str, object]], fixtures: dict[str, Fixture]
) -> None:
    fixture = fixtures[fixture_id]
    row = hear_run[f"{fixture_id}-room"]
    right = (row["kind"], row["suspect"]) == (fixture.kind, FULL_NAMES.get(fixture.suspect or "", None))
    right = right and row["exhibits"] == list(fixture.exhibits)
    # Never a costly action on a wrong guess without asking first.
    assert right or row["confirm"] or row["kind"] not in ("question", "confrontation"), row


@pytest.mark.speech  # `hear` loads the models in its own process
def test_a_missing_file_is_reported_and_the_rest_still_heard(tmp_path: Path, fixtures: dict[str, Fixture]) -> None:
    good = tmp_path / "next.wav"
    write_wav(good, FixtureAudio(list(fixtures.values())).clean("u000"))
    result = subprocess.run(
        [sys.executable, "-m", "voice_host.cli.main", "hear", "--json", str(tmp_path / "absent.wav"), str(good)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 1
    assert "absent.wav" in result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["file"] for row in rows] == [str(good)]
    assert rows[0]["command"] == "next"


@pytest.mark.speech  # `hear` loads the models in its own process
def test_at_the_accusation_a_message_naming_one_of_the_six_is_an_accusation(tmp_path: Path, fixtures: dict[str, Fixture]) -> None:
    """`--at-accusation` judges in round A, whose rule makes "Confront Phoebe with E3." an accusation."""
    path = tmp_path / "confront.wav"
    write_wav(path, FixtureAudio(list(fixtures.values())).clean("u089"))  # Confront Phoebe with E3.
    result = subprocess.run(
        [sys.executable, "-m", "voice_host.cli.main", "hear", "--json", "--at-accusation", str(path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    (row,) = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    assert (row["kind"], row["suspect"], row["exhibits"]) == ("accusation", FULL_NAMES["marsden"], [3])
