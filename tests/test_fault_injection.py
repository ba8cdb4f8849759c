"""Fault injection: random nights with kills, torn writes, flipped bytes, a second process and a full disk.

After every fault the night is resumed from disk alone, as a new Host process would, and must equal the
reference game (the same messages through a fresh Game) up to the last whole record. Nothing raises.
"""

from __future__ import annotations

import errno
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from engine.game import Game
from tests.engine_support import frost_case
from voice_host.loop.journal import Journal, StateFolder, StateProblem, _move, encode_record, replay, scan_records

# Moves that walk a Frost Fair night through seating, questions, confrontations, rounds and the end.
MOVES = [
    "Ann, Bob and Cy",
    "Ada, where were you?",
    "Confront Ada with E3",
    "Bram, where were you at nine?",
    "pass",
    "save",
    "next",
    "yes",
    "lies",
    "read E2",
    "We accuse Ada: E3, E7",
    "give up",
    "no",
    "what a night \x1b[31m [/] ",
]


def _reference(messages: list[str]) -> Game:
    game = Game(frost_case())
    game.start()
    for message in messages:
        game.handle(message)
    return game


class DiskFull:
    """A writer that puts part of what it is given on disk, then fails as a full disk does."""

    def __init__(self, failures: int, keep: int) -> None:
        self.failures = failures
        self.keep = keep

    def __call__(self, descriptor: int, data: bytes) -> int:
        import os

        if self.failures <= 0:
            return os.write(descriptor, data)
        self.failures -= 1
        if self.keep and len(data) > 1:
            os.write(descriptor, data[: min(self.keep, len(data) - 1)])
        raise OSError(errno.ENOSPC, "No space left on device")


class NightOnDisk(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.root = Path(tempfile.mkdtemp(prefix="third-carol-faults-"))
        self.case = frost_case()
        self.history: list[str] = []  # every message the table saw a reply to, in order
        self.saved = 0  # how many of them are whole on disk
        self.expected: int | None = 0  # what a resume must give back, when the faults make it certain
        self.folder: StateFolder | None = None
        self.journal: Journal | None = None
        self.game: Game | None = None
        self._launch()

    def teardown(self) -> None:
        self._kill()
        shutil.rmtree(self.root, ignore_errors=True)

    # -- a Host process --------------------------------------------------------------------------

    def _launch(self) -> None:
        """A new process on the folder: resume the latest unfinished night, or begin one."""
        folder = StateFolder.open(self.root)
        night = folder.latest_unfinished()
        mystery = self.case.public.mystery
        if night is None:
            game = Game(self.case)
            game.start()
            resumed: list[str] = []
            journal = folder.journal(mystery)
            journal.start()
        else:
            game, replayed, _last = replay(self.case, night.messages)
            resumed = list(night.messages)
            journal = folder.journal(mystery, night)
            assert journal.start(replayed) == []
        # Up to the last whole record: a prefix of what the table saw, and exactly the reference there.
        assert resumed == self.history[: len(resumed)]
        if self.expected is not None:
            assert len(resumed) == self.expected or (self.expected == len(self.history) and _over(self.history))
        assert game.state == _reference(resumed).state
        self.history, self.saved, self.expected = resumed, len(resumed), len(resumed)
        self.folder, self.journal, self.game = folder, journal, game

    def _kill(self) -> None:
        """The process ends at once: its lock and file go; nothing more is written."""
        if self.journal is not None:
            self.journal.close()
        if self.folder is not None:
            self.folder.close()
        self.folder = self.journal = self.game = None

    # -- the table plays ---------------------------------------------------------------------------

    @precondition(lambda self: self.game is not None and not self.game.state.over)
    @rule(message=st.sampled_from(MOVES))
    def play(self, message: str) -> None:
        assert self.game is not None and self.journal is not None
        reply = self.game.handle(message)
        problems = self.journal.record(message, reply)
        self.history.append(message)
        if not problems:
            self.saved = len(self.history)
        self.expected = self.saved

    # -- faults ------------------------------------------------------------------------------------

    @rule()
    def kill_and_resume(self) -> None:
        self._kill()
        self._launch()

    @precondition(lambda self: self.journal is not None and self.journal.path is not None)
    @rule(message=st.sampled_from(MOVES), keep=st.floats(min_value=0.0, max_value=0.99))
    def torn_write_then_kill(self, message: str, keep: float) -> None:
        """Killed while writing a move: part of its record is on disk, and its reply was never shown."""
        assert self.game is not None and self.journal is not None and self.journal.path is not None
        reply = self.game.handle(message)
        record = encode_record(_move(message, reply))
        path = self.journal.path
        self._kill()
        with path.open("ab") as out:
            out.write(record[: int(len(record) * keep)])
        self._launch()

    @precondition(lambda self: self.journal is not None and self.journal.path is not None and self.saved == len(self.history))
    @rule(where=st.floats(min_value=0.0, max_value=0.999), bit=st.integers(min_value=0, max_value=7))
    def flipped_byte_then_kill(self, where: float, bit: int) -> None:
        assert self.journal is not None and self.journal.path is not None
        path = self.journal.path
        self._kill()
        data = bytearray(path.read_bytes())
        position = int(len(data) * where)
        _entries, raw, _whole = scan_records(bytes(data))
        ends, total = [], 0
        for record in raw:
            total += len(record)
            ends.append(total)
        data[position] ^= 1 << bit
        path.write_bytes(bytes(data))
        if position < ends[0]:
            self.expected = None  # the first record is gone: an older night of the chain may resume
        else:
            self.expected = sum(1 for end in ends[1:] if end <= position)
        self._launch()

    @precondition(lambda self: self.game is not None and not self.game.state.over)
    @rule(
        moves=st.lists(st.sampled_from(MOVES), min_size=1, max_size=4),
        failures=st.integers(min_value=1, max_value=3),
        keep=st.integers(min_value=0, max_value=40),
        then_kill=st.booleans(),
    )
    def disk_fills_while_playing(self, moves: list[str], failures: int, keep: int, then_kill: bool) -> None:
        """The next writes fail part-way, as on a full disk; the table plays on, and may be killed after."""
        assert self.journal is not None and self.game is not None
        self.journal.write = DiskFull(failures, keep)
        for message in moves:
            if self.game.state.over:
                break
            self.play(message)
        if then_kill:
            self.kill_and_resume()

    @rule()
    def a_second_process_is_refused(self) -> None:
        try:
            StateFolder.open(self.root).close()
        except StateProblem as problem:
            assert str(self.root) in problem.line
        else:
            raise AssertionError("a second process opened a locked state folder")

    @invariant()
    def nothing_saved_is_more_than_was_seen(self) -> None:
        assert self.saved <= len(self.history)


def _over(history: list[str]) -> bool:
    return _reference(history).state.over


NightOnDisk.TestCase.settings = settings(
    # Scaled by the loaded profile (a fast lane runs fewer), each example a short night.
    max_examples=max(10, settings().max_examples // 10),
    stateful_step_count=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_nights_survive_every_fault = NightOnDisk.TestCase
