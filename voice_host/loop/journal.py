"""Nothing lost: each night is journalled, move by move, in a file of its own.

A night's file is a run of self-delimiting, checksummed records (`<length> <crc32> <json>\\n`), each
written and flushed to disk before the reply is shown. `--resume` replays a night's messages through a
fresh Game, which rebuilds the exact state because the engine is deterministic.

A record cut short by a crash, or a byte changed on disk, ends what is read: the night resumes at its
last whole record and says so once. Nothing is ever appended after a bad record: the resumed night goes
on in a new file that continues the old one, and no night's file is ever deleted or overwritten. The
state folder is locked while a game runs, so a second Host on the same folder is refused in one line.
"""

from __future__ import annotations

import errno
import json
import os
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from filelock import FileLock, Timeout

from engine.case import Case
from engine.game import Game
from engine.replies import PartKind, Reply
from engine.text import MAX_MESSAGE, bounded
from voice_host.loop.bounded import read_at_most

NIGHTS = "nights"  # one file per night, named by when it began
NIGHT_SUFFIX = ".night"
LAST_SAVE = "last-save.txt"
LOCK = "third-carol.lock"
_HEAD = re.compile(rb"(0|[1-9][0-9]{0,6}) ([0-9a-f]{8}) ")
MAX_RECORD = 64 * 1024  # bytes; a move is a message of at most MAX_MESSAGE characters and a ledger line
MAX_NIGHT_FILE = 64 * 1024 * 1024  # bytes read of one night; a long night is well under a megabyte
OTHER_FOLDER = "or play with --state-dir and another folder"


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "third-carol"


class StateProblem(Exception):
    """The state folder cannot be used; `line` says what is wrong and what to do, in one line."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


# -- records -------------------------------------------------------------------------------------


def encode_record(entry: dict[str, object]) -> bytes:
    payload = json.dumps(entry, ensure_ascii=True, separators=(",", ":")).encode("ascii")
    return b"%d %08x " % (len(payload), zlib.crc32(payload)) + payload + b"\n"


def _decode_payload(payload: bytes) -> dict[str, object] | None:
    try:
        entry = json.loads(payload.decode("utf-8"))
    except (ValueError, RecursionError):  # bad UTF-8 or JSON, a number too long to read, deep nesting
        return None
    return entry if isinstance(entry, dict) else None


def scan_records(data: bytes) -> tuple[list[dict[str, object]], list[bytes], bool]:
    """The whole records at the start of `data`, their raw bytes, and whether nothing follows them."""
    entries: list[dict[str, object]] = []
    raw: list[bytes] = []
    position = 0
    while position < len(data):
        head = _HEAD.match(data, position)
        if head is None:
            break
        length = int(head.group(1))
        start, end = head.end(), head.end() + length
        if length > MAX_RECORD or data[end : end + 1] != b"\n":
            break
        payload = data[start:end]
        if zlib.crc32(payload) != int(head.group(2), 16):
            break
        entry = _decode_payload(payload)
        if entry is None:
            break
        entries.append(entry)
        raw.append(data[position : end + 1])
        position = end + 1
    return entries, raw, position == len(data)


def _header(mystery: str, continues: Sequence[str]) -> dict[str, object]:
    """A night's first record; `continues` names the files it takes over from (they are kept as they are)."""
    return {"night": 1, "case": mystery, "started": datetime.now().isoformat(timespec="seconds"), "continues": list(continues)}


def _move(message: str, reply: Reply) -> dict[str, object]:
    # Only what a resume uses: the message (bounded as the game takes it), and the ledger and whether
    # the night ended, so a night can be listed without replaying it.
    return {"message": bounded(message), "ledger": reply.ledger, "over": any(p.kind is PartKind.RESULT for p in reply.parts)}


@dataclass(frozen=True)
class Night:
    """One night's file as read back: its whole records, and whether anything after them was cut."""

    path: Path
    case: str | None
    started: str | None
    continues: tuple[str, ...]
    messages: tuple[str, ...]
    last_ledger: str | None
    over: bool
    whole: bool  # every byte of the file is a whole record: the night can be appended to
    records: tuple[bytes, ...] = field(repr=False)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def unfinished(self) -> bool:
        return bool(self.messages) and not self.over

    @property
    def turn(self) -> str:
        """The t of the last LEDGER journalled whole ("?" when there is none)."""
        found = re.match(r"\[L\] t:(\d+)", self.last_ledger or "")
        return found.group(1) if found else "?"


def read_night(path: Path) -> Night:
    """A night's whole records; StateProblem when the file cannot be read at all."""
    try:
        read = read_at_most(path, MAX_NIGHT_FILE)
    except IsADirectoryError:
        raise StateProblem(f"The night {path} is a folder, not a file. Move it away, {OTHER_FOLDER}.") from None
    except OSError as error:
        raise StateProblem(f"The night {path} cannot be read ({error.strerror}). {_fix(error)}") from None
    # Cut, never refused: a night is a log the table wrote move by move, and its whole records up to the
    # limit are a game that resumes, as after a crash; one cut here is not whole, so it is never appended to.
    entries, raw, whole = scan_records(read.data)
    whole = whole and not read.cut
    head = entries[0] if entries else {}
    if not (isinstance(head.get("case"), str) and head.get("night") == 1):
        # Without its first record a night names no case and no move can be trusted.
        return Night(path, None, None, (), (), None, False, False, ())
    messages: list[str] = []
    last_ledger: str | None = None
    over = False
    kept = 1
    for entry in entries[1:]:
        message, ledger = entry.get("message"), entry.get("ledger")
        if not (isinstance(message, str) and len(message) <= MAX_MESSAGE and isinstance(ledger, str) and not over):
            whole = False
            break
        messages.append(message)
        last_ledger, over = ledger, entry.get("over") is True
        kept += 1
    continues = head.get("continues")
    started = head.get("started")
    superseded = tuple(name for name in continues if isinstance(name, str)) if isinstance(continues, list) else ()
    return Night(
        path,
        str(head["case"]),
        started if isinstance(started, str) else None,
        superseded,
        tuple(messages),
        last_ledger,
        over,
        whole,
        tuple(raw[:kept]),
    )


def _fix(error: OSError) -> str:
    """What to do about an OSError, in a few words."""
    if isinstance(error, PermissionError) or error.errno == errno.EROFS:
        return f"Make it writable, {OTHER_FOLDER}."
    if error.errno == errno.ENOSPC:
        return "Free some space on the disk."
    return f"Check the disk, {OTHER_FOLDER}."


def _fsync_folder(folder: Path) -> None:
    """A new or renamed file's name is on disk only once its folder is flushed too."""
    with suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


# -- the state folder ----------------------------------------------------------------------------


class StateFolder:
    """The per-user state folder, locked while one game runs: its nights and the last SAVE."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.nights_dir = root / NIGHTS
        self._lock: FileLock | None = None

    @classmethod
    def open(cls, root: Path) -> StateFolder:
        """Make (if need be), check and lock the folder; StateProblem in one line when it cannot be used."""
        folder = cls(root)
        folder._make()
        folder._take_lock()
        return folder

    def _make(self) -> None:
        root = self.root
        if root.exists() and not root.is_dir():
            raise StateProblem(f"The state folder {root} is a file, not a folder. Move that file away, {OTHER_FOLDER}.")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            blocker = next((parent for parent in root.parents if parent.exists() and not parent.is_dir()), root)
            raise StateProblem(
                f"The state folder {root} cannot be made: {blocker} is a file. Move that file away, {OTHER_FOLDER}."
            ) from None
        except OSError as error:
            raise StateProblem(f"The state folder {root} cannot be made ({error.strerror}). {_fix(error)}") from None
        nights = self.nights_dir
        if nights.exists() and not nights.is_dir():
            raise StateProblem(f"{nights} is a file, but the nights are kept there. Move that file away, {OTHER_FOLDER}.")
        try:
            nights.mkdir(exist_ok=True)
        except OSError as error:
            raise StateProblem(f"The state folder {root} cannot be written ({error.strerror}). {_fix(error)}") from None

    def _take_lock(self) -> None:
        lock = FileLock(self.root / LOCK, timeout=0)
        try:
            lock.acquire()
        except Timeout:
            raise StateProblem(
                f"Another Third Carol is already playing from {self.root}. Close it first, {OTHER_FOLDER}."
            ) from None
        except OSError as error:
            raise StateProblem(f"The state folder {self.root} cannot be written ({error.strerror}). {_fix(error)}") from None
        self._lock = lock

    def close(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def __enter__(self) -> StateFolder:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # nights

    def _night_paths(self) -> Iterator[Path]:
        try:
            paths = sorted(self.nights_dir.iterdir())
        except OSError as error:
            raise StateProblem(f"The nights in {self.nights_dir} cannot be listed ({error.strerror}). {_fix(error)}") from None
        for path in paths:
            if path.name.endswith(NIGHT_SUFFIX) and path.is_file():
                yield path

    def nights(self) -> list[Night]:
        """Every night on disk, oldest first; one that cannot be read is passed over."""
        found = []
        for path in self._night_paths():
            with suppress(StateProblem):
                found.append(read_night(path))
        return found

    def latest_unfinished(self, mystery: str | None = None) -> Night | None:
        """The newest night with moves, not over and not continued in a later file."""
        nights = self.nights()
        continued = {name for night in nights for name in night.continues}
        for night in reversed(nights):
            if night.unfinished and night.name not in continued and (mystery is None or night.case == mystery):
                return night
        return None

    def nothing_to_resume(self) -> str:
        """Why --resume finds no night to go on with, in one line."""
        nights = self.nights()
        if nights and nights[-1].case is None:
            return (
                f"The night {nights[-1].name} cannot be read from its first record; it is kept in {self.nights_dir}. "
                "A new night begins."
            )
        return f"No unfinished night in {self.nights_dir}; a new night begins."

    def night(self, name: str) -> Night:
        path = self.nights_dir / Path(name).name
        if not path.name.endswith(NIGHT_SUFFIX):
            path = path.with_name(path.name + NIGHT_SUFFIX)
        if not path.exists():
            raise StateProblem(f"There is no night {path.name} in {self.nights_dir}. Its files are listed there.")
        return read_night(path)

    def journal(self, mystery: str, resuming: Night | None = None) -> Journal:
        return Journal(self, mystery, resuming)

    def new_night_path(self, attempt: int = 0) -> Path:
        """`0007_2026-12-24_21-05-33.night`: numbered after the last night on disk, so names sort in order."""
        numbers = [int(m.group(1)) for p in self._night_paths() if (m := re.match(r"(\d{1,9})_", p.name))]
        stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
        return self.nights_dir / f"{max(numbers, default=0) + 1 + attempt:04d}_{stamp}{NIGHT_SUFFIX}"

    def write_last_save(self, text: str) -> str | None:
        """Replace last-save.txt atomically (a new file, flushed, renamed over the old); a problem line or None."""
        target = self.root / LAST_SAVE
        temporary = self.root / f".{LAST_SAVE}.{os.getpid()}.tmp"
        try:
            with temporary.open("w", encoding="utf-8") as out:
                out.write(text + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, target)
        except OSError as error:
            with suppress(OSError):
                temporary.unlink()
            what = "it is a folder" if target.is_dir() else error.strerror
            return f"The SAVE could not be written to {target} ({what}); copy it from the reply instead."
        _fsync_folder(self.root)
        return None


# -- one night's journal -------------------------------------------------------------------------


Writer = Callable[[int, bytes], int]


@dataclass
class Journal:
    """Writes one night. `start` opens its file (or goes on in the resumed one); `record` adds a move.

    Every record written is also kept in memory: after a failed write (a full disk) the file may end in
    a torn record, so the night goes on in a new file holding all of them, at the next move that can
    be written.
    """

    folder: StateFolder
    mystery: str
    resuming: Night | None = None
    write: Writer = os.write  # the one call that puts bytes on disk (fault-injection tests replace it)
    path: Path | None = None
    _records: list[bytes] = field(default_factory=list)
    _descriptor: int | None = None
    _continues: list[str] = field(default_factory=list)  # the files this night went on from

    @property
    def started(self) -> bool:
        return bool(self._records)

    def start(self, replayed: Sequence[tuple[str, Reply]] = ()) -> list[str]:
        """Begin the night's file: a new one, or the resumed night's own when it was read whole."""
        resumed = self.resuming
        if resumed is not None and resumed.whole and resumed.case == self.mystery:
            self._records = list(resumed.records)
            self.path = resumed.path
            try:
                self._descriptor = os.open(resumed.path, os.O_WRONLY | os.O_APPEND)
            except OSError:
                self.path = None  # go on in a new file that continues it
                self._continues.append(resumed.name)
            return []
        if resumed is not None:
            self._continues.append(resumed.name)
        self._records = [encode_record(_header(self.mystery, self._continues))]
        self._records += [encode_record(_move(message, reply)) for message, reply in replayed]
        return self._flush_to_new_file()

    def record(self, message: str, reply: Reply) -> list[str]:
        """Append one move and flush it to disk before the reply is shown; problem lines, if any."""
        record = encode_record(_move(message, reply))
        self._records.append(record)
        problems: list[str] = []
        if self._descriptor is None:
            problems += self._flush_to_new_file()
        else:
            problems += self._append(record)
        for part in reply.parts:
            if part.kind is PartKind.SAVE:
                line = self.folder.write_last_save(part.text)
                if line is not None:
                    problems.append(line)
        return problems

    def close(self) -> None:
        if self._descriptor is not None:
            with suppress(OSError):
                os.close(self._descriptor)
            self._descriptor = None

    def _append(self, record: bytes) -> list[str]:
        assert self._descriptor is not None
        try:
            self._write_all(self._descriptor, record)
            os.fsync(self._descriptor)
        except OSError as error:
            # The file may now end in a torn record: never write after it. The next move starts a
            # new file that continues this one, with every move in it.
            self.close()
            if self.path is not None:
                self._continues.append(self.path.name)
            self.path = None
            return [self._not_saved(error)]
        return []

    def _flush_to_new_file(self) -> list[str]:
        """Write every record so far to a new night file (its first record naming the night it continues)."""
        self._records[0] = encode_record(_header(self.mystery, self._continues))
        try:
            for attempt in range(100):
                candidate = self.folder.new_night_path(attempt)
                try:
                    descriptor = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
                except FileExistsError:
                    continue  # never overwrite a night
                break
            else:
                return [f"No new night file can be made in {self.folder.nights_dir}. Move some old nights away."]
        except (OSError, StateProblem) as error:
            return [self._not_saved(error)]
        try:
            self._write_all(descriptor, b"".join(self._records))
            os.fsync(descriptor)
        except OSError as error:
            with suppress(OSError):
                os.close(descriptor)
            self._continues.append(candidate.name)  # it may end torn: the next file continues it
            return [self._not_saved(error)]
        _fsync_folder(self.folder.nights_dir)
        self.path, self._descriptor = candidate, descriptor
        return []

    def _write_all(self, descriptor: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            written = self.write(descriptor, bytes(view))
            view = view[written:]

    def _not_saved(self, error: OSError | StateProblem) -> str:
        if isinstance(error, StateProblem):
            return error.line
        return (
            f"This move could not be saved in {self.folder.nights_dir} ({error.strerror}). {_fix(error)} "
            "The night is kept in memory and saved with the next move."
        )


def choose_night(folder: StateFolder, mystery: str, name: str | None, resume: bool) -> tuple[Night | None, str | None]:
    """The night to go on with: the one named (--night), else with --resume the newest unfinished one.

    Returns it (None for a new night) and a line to show when --resume finds none; StateProblem when
    the named night is not there or is for another case.
    """
    if name:
        night = folder.night(name)
    elif resume:
        latest = folder.latest_unfinished()
        if latest is None:
            return None, folder.nothing_to_resume()
        night = latest
    else:
        return None, None
    if night.case is not None and night.case != mystery:
        raise StateProblem(
            f"The night {night.name} is for the case {night.case}, not {mystery}. Play it with --case and that case's folder."
        )
    return night, None


def replay(case: Case, messages: Sequence[str]) -> tuple[Game, list[tuple[str, Reply]], Reply]:
    """A fresh game with `messages` applied in order: the game, each message with its reply, the last reply."""
    game = Game(case)
    last = game.start()
    replies: list[tuple[str, Reply]] = []
    for message in messages:
        last = game.handle(message)
        replies.append((message, last))
    return game, replies, last


def resume_notice(night: Night, game: Game) -> str | None:
    """Said once, when a night was cut back to its last whole record."""
    if night.whole:
        return None
    return f"The last move was not saved whole; resuming at turn {game.state.turn}."
