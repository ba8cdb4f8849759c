"""Nothing lost: every message and reply goes to a journal file as it happens, and round-end SAVE
blocks go to a file beside it. `--resume` replays the journal's messages through a fresh Game, which
rebuilds the exact state because the engine is deterministic."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from engine.case import Case
from engine.game import Game
from engine.replies import PartKind, Reply

JOURNAL = "journal.jsonl"
LAST_SAVE = "last-save.txt"


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "third-carol"


@dataclass
class Journal:
    folder: Path

    @property
    def path(self) -> Path:
        return self.folder / JOURNAL

    def start_new(self, mystery: str, opening: Reply) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with self.path.open("w", encoding="utf-8") as out:
            out.write(json.dumps({"case": mystery}) + "\n")
            out.write(json.dumps({"reply": opening.render()}) + "\n")
            out.flush()
            os.fsync(out.fileno())

    def record(self, message: str, reply: Reply) -> None:
        """Append one exchange and flush it to disk before the reply is shown."""
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"message": message, "reply": reply.render()}) + "\n")
            out.flush()
            os.fsync(out.fileno())
        for part in reply.parts:
            if part.kind is PartKind.SAVE:
                (self.folder / LAST_SAVE).write_text(part.text + "\n", encoding="utf-8")

    def messages(self) -> list[str]:
        if not self.path.exists():
            return []
        found = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                break  # a line cut short by a crash: everything before it stands
            if isinstance(entry, dict) and isinstance(entry.get("message"), str):
                found.append(entry["message"])
        return found

    def case_name(self) -> str | None:
        if not self.path.exists():
            return None
        first = self.path.read_text(encoding="utf-8").split("\n", 1)[0]
        try:
            entry = json.loads(first)
        except json.JSONDecodeError:
            return None
        return entry.get("case") if isinstance(entry, dict) else None


def replay(case: Case, messages: list[str]) -> tuple[Game, Reply | None]:
    """A fresh game with `messages` applied in order; returns the game and the last reply."""
    game = Game(case)
    last = game.start()
    for message in messages:
        last = game.handle(message)
    return game, last
