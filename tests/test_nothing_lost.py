"""Nothing lost, ever: the journal, the state folder and what a player sees after a crash."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from engine.game import Game
from tests.engine_support import FROST_FAIR, frost_case, run_text_mode
from voice_host.cli.text_mode import messages_from
from voice_host.loop import journal
from voice_host.loop.journal import (
    LAST_SAVE,
    NIGHTS,
    StateFolder,
    StateProblem,
    encode_record,
    read_night,
)

MOVES = ["Ann, Bob and Cy", "Confront Ada with E3", "Bram, where were you?", "Cole, where were you?", "pass"]


def _ledgers(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("[L]")]


def _reference_ledger(messages: list[str]) -> str:
    game = Game(frost_case())
    reply = game.start()
    for message in messages:
        reply = game.handle(message)
    return reply.ledger


def _nights(state: Path) -> list[Path]:
    return sorted((state / NIGHTS).glob("*.night"))


def _one_line(result: subprocess.CompletedProcess[str], *words: str) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0]
    return lines[0]


# -- a torn or bad record --------------------------------------------------------------------------


def test_a_torn_last_record_resumes_at_the_last_whole_one_and_says_so_once(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "\n".join(MOVES) + "\n")
    [night] = _nights(tmp_path)
    data = night.read_bytes()
    night.write_bytes(data[:-7])  # a kill in the middle of writing the last move
    resumed = run_text_mode(tmp_path, "Ada, where were you?\nnext\n", "--resume")
    notice = "The last move was not saved whole; resuming at turn 5."
    assert resumed.stdout.startswith(notice)
    assert _ledgers(resumed.stdout)[0] == _reference_ledger(MOVES[:-1])
    # Two more moves, then another resume: they are all there, and the notice is not said again.
    again = run_text_mode(tmp_path, "", "--resume")
    assert notice not in again.stdout
    assert _ledgers(again.stdout)[-1] == _reference_ledger([*MOVES[:-1], "Ada, where were you?", "next"])
    assert night.read_bytes() == data[:-7]  # the torn night itself is kept as it was


def test_nothing_is_appended_after_a_bad_record(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "\n".join(MOVES) + "\n")
    [night] = _nights(tmp_path)
    damaged = bytearray(night.read_bytes())
    damaged[len(damaged) // 2] ^= 0x20
    night.write_bytes(bytes(damaged))
    run_text_mode(tmp_path, "pass\n", "--resume")
    assert night.read_bytes() == bytes(damaged)
    continued = read_night(_nights(tmp_path)[-1])
    assert continued.continues == (night.name,) and continued.whole
    assert continued.messages[-1] == "pass"


@pytest.mark.parametrize(
    "payload",
    [
        b'{"message":"\xff\xfe","ledger":"[L] t:9","over":false}',  # not UTF-8
        b"[" * 100_000 + b"]" * 100_000,  # nesting deeper than any reader goes
        b'{"message":"pass","ledger":"[L] t:9","over":' + b"9" * 5000 + b"}",  # a 5,000-digit number
    ],
    ids=["bad-utf8", "deep-nesting", "5000-digits"],
)
def test_a_record_that_sums_right_but_cannot_be_read_ends_the_night_there(tmp_path: Path, payload: bytes) -> None:
    run_text_mode(tmp_path, "\n".join(MOVES[:3]) + "\n")
    [night] = _nights(tmp_path)
    record = b"%d %08x " % (len(payload), zlib.crc32(payload)) + payload + b"\n"
    night.write_bytes(night.read_bytes() + record + encode_record({"message": "pass", "ledger": "x", "over": False}))
    resumed = run_text_mode(tmp_path, "", "--resume")
    assert resumed.returncode == 0
    assert "resuming at turn 4" in resumed.stdout
    assert _ledgers(resumed.stdout)[-1] == _reference_ledger(MOVES[:3])


def test_a_flipped_first_byte_keeps_the_night_and_says_so(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "\n".join(MOVES) + "\n")
    [night] = _nights(tmp_path)
    damaged = bytearray(night.read_bytes())
    damaged[0] ^= 0x01
    night.write_bytes(bytes(damaged))
    resumed = run_text_mode(tmp_path, "Ann\n", "--resume")
    assert night.name in resumed.stderr and "kept" in resumed.stderr
    assert night.read_bytes() == bytes(damaged)
    assert len(_nights(tmp_path)) == 2


def test_a_night_past_the_read_limit_is_cut_to_its_whole_records_and_never_appended_to(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run_text_mode(tmp_path, "\n".join(MOVES) + "\n")
    [night] = _nights(tmp_path)
    monkeypatch.setattr(journal, "MAX_NIGHT_FILE", night.stat().st_size)
    at_limit = read_night(night)  # a night of exactly the limit is read whole
    assert at_limit.whole and at_limit.messages == tuple(MOVES)
    # The limit falls where the last record begins: what is read is all whole records, yet the night
    # went on past them, so it resumes before that record and is not whole (never appended to).
    monkeypatch.setattr(journal, "MAX_NIGHT_FILE", night.read_bytes()[:-1].rfind(b"\n") + 1)
    cut = read_night(night)
    assert not cut.whole and cut.messages == tuple(MOVES[:-1])


# -- every night in its own file -------------------------------------------------------------------


def test_every_night_has_its_own_file_and_none_is_overwritten(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "Ann\nnext\nyes\n")
    [first] = _nights(tmp_path)
    before = first.read_bytes()
    run_text_mode(tmp_path, "give up\nyes\n")
    run_text_mode(tmp_path, "Bo\n")
    nights = _nights(tmp_path)
    assert len(nights) == 3 and nights[0] == first and first.read_bytes() == before


def test_play_keeps_an_unfinished_night_and_says_how_to_go_on_with_it(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "\n".join(MOVES) + "\n")
    [unfinished] = _nights(tmp_path)
    fresh = run_text_mode(tmp_path, "Dee\n")
    assert f"--night {unfinished.name}" in fresh.stderr
    assert _ledgers(fresh.stdout)[-1].startswith("[L] t:2 | rd:1")  # a new night went on meanwhile
    back = run_text_mode(tmp_path, "", "--night", unfinished.name)
    assert _ledgers(back.stdout)[-1] == _reference_ledger(MOVES)


def test_a_finished_night_is_not_offered_again(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "Ann\ngive up\nyes\n")
    assert "No unfinished night" in run_text_mode(tmp_path, "", "--resume").stderr
    assert "unfinished" not in run_text_mode(tmp_path, "Bo\n").stderr


# -- the state folder ------------------------------------------------------------------------------


def test_a_second_process_on_the_same_folder_gets_one_line(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with StateFolder.open(state):
        second = run_text_mode(state, "Ann\n")
    _one_line(second, str(state), "Another Third Carol")
    assert second.stdout == ""


def test_the_state_folder_is_a_file(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.write_text("not a folder")
    _one_line(run_text_mode(state, "Ann\n"), str(state), "is a file")


def test_the_state_folder_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    _one_line(run_text_mode(tmp_path / "file" / "state", "Ann\n"), str(tmp_path / "file"), "is a file")


def test_the_nights_folder_is_a_file(tmp_path: Path) -> None:
    (tmp_path / NIGHTS).write_text("x")
    _one_line(run_text_mode(tmp_path, "Ann\n"), NIGHTS, "Move that file away")


def test_an_old_journal_that_is_a_folder_does_not_stop_the_night(tmp_path: Path) -> None:
    (tmp_path / "journal.jsonl").mkdir()
    result = run_text_mode(tmp_path, "Ann\n")
    assert result.returncode == 0 and _ledgers(result.stdout)[-1].startswith("[L] t:2 | rd:1")


def test_a_read_only_state_folder_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # As root nothing is read-only to us: make every new file in the folder fail as a read-only one would.
    real_open = os.open
    state = tmp_path / "state"
    state.mkdir()

    def read_only(path: str | os.PathLike[str], flags: int, *args: int, **kwargs: object) -> int:
        if str(path).startswith(str(state)) and flags & os.O_CREAT:
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", read_only)
    with pytest.raises(StateProblem, match="Make it writable"):
        StateFolder.open(state)


def test_last_save_is_replaced_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = StateFolder.open(tmp_path)
    assert folder.write_last_save("the first save") is None
    real_fsync = os.fsync
    synced: list[int] = []

    def failing_fsync(descriptor: int) -> None:
        synced.append(descriptor)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    line = folder.write_last_save("the second save, cut short by a full disk")
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert synced and line is not None and "could not be written" in line
    assert (tmp_path / LAST_SAVE).read_text() == "the first save\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    folder.close()


def test_a_last_save_that_is_a_folder_is_one_line_and_the_reply_is_shown(tmp_path: Path) -> None:
    (tmp_path / LAST_SAVE).mkdir()
    result = run_text_mode(tmp_path, "Ann\nsave\nnext\n")
    assert result.returncode == 0
    assert "-----BEGIN AIGC SAVE-----" in result.stdout and "copy it from the reply" in result.stderr
    assert read_night(_nights(tmp_path)[0]).messages == ("Ann", "save", "next")


def test_a_long_message_is_journalled_only_as_far_as_it_is_read(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "Ann\nAda, where were you? " + "x" * 5_000_000 + "\n")
    [night] = _nights(tmp_path)
    assert night.stat().st_size < 10_000


# -- standard input --------------------------------------------------------------------------------


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "utf-8:strict"}, {"LC_ALL": "C.UTF-8"}], ids=["strict", "c-locale"])
def test_bytes_that_are_not_utf8_on_stdin_do_not_stop_the_night(tmp_path: Path, env: dict[str, str]) -> None:
    result = run_text_mode(tmp_path, b"Ann\n\xff\xfe what\nAda, where were you?\n", env=env)
    assert result.returncode == 0
    assert _ledgers(result.stdout)[-1].startswith("[L] t:4 | rd:1 | q:1/4")
    assert _ledgers(run_text_mode(tmp_path, "", "--resume").stdout)[-1] == _ledgers(result.stdout)[-1]


def test_a_begin_with_no_end_does_not_swallow_the_rest() -> None:
    lines = ["Ann", "-----BEGIN AIGC SAVE-----", "game:frost-fair-test", "Ada, where were you?", "next"]
    assert list(messages_from(lines)) == [
        "Ann",
        "-----BEGIN AIGC SAVE-----\ngame:frost-fair-test",
        "Ada, where were you?",
        "next",
    ]


def test_a_line_that_merely_holds_the_marker_is_one_message() -> None:
    lines = ["Ada, what is -----BEGIN AIGC SAVE----- about?", "Bram, where were you?"]
    assert list(messages_from(lines)) == lines


def test_a_whole_pasted_save_is_still_one_message() -> None:
    block = ["-----BEGIN AIGC SAVE-----", "game:x m:y rules:1", "turn:3", "table:Ann, Bob", "-----END AIGC SAVE-----"]
    assert list(messages_from([*block, "pass"])) == ["\n".join(block), "pass"]


def test_the_journal_keeps_only_moves_and_checksums_each(tmp_path: Path) -> None:
    run_text_mode(tmp_path, "Ann\npass\n")
    [night] = _nights(tmp_path)
    lines = night.read_bytes().splitlines()
    assert len(lines) == 3  # the night's header and two moves
    length, crc, payload = lines[1].split(b" ", 2)
    assert int(length) == len(payload) and int(crc, 16) == zlib.crc32(payload)
    assert json.loads(payload)["message"] == "Ann"


def test_a_real_kill_between_moves_loses_nothing_that_was_shown(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "voice_host.cli.main", "play", "--text", "--case", str(FROST_FAIR)]
    host = subprocess.Popen(
        [*command, "--state-dir", str(tmp_path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert host.stdin is not None and host.stdout is not None
    shown: list[str] = []
    for message in MOVES[:3]:
        host.stdin.write(message.encode() + b"\n")
        host.stdin.flush()
        # Each reply ends with its LEDGER line: once it is shown, the move is on disk.
        while not (line := host.stdout.readline().decode()).startswith("[L] t:" + str(len(shown) + 2)):
            assert line, "the Host stopped"
        shown.append(line.strip())
    host.send_signal(signal.SIGKILL)
    host.wait()
    resumed = run_text_mode(tmp_path, "", "--resume")
    assert _ledgers(resumed.stdout) == [shown[-1]] == [_reference_ledger(MOVES[:3])]
    assert "not saved whole" not in resumed.stdout
