"""What the screen drives: the game through the voice host's `HostSession`, with the journal.

The screen only calls `begin`, `typed`, `heard`, `repeat` and reads `state`; everything it shows comes
from the `Reply` parts and `GameState` handed back here.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.replies import PartKind, Reply, ReplyPart
from engine.state import GameState
from voice_host.loop.journal import resume_notice
from voice_host.loop.session import HostSession, SessionOutput, describe
from voice_host.screen.views import ExhibitView, plain_taken_as

if TYPE_CHECKING:
    from engine.classify import Situation
    from engine.game import Game
    from engine.messages import Message
    from voice_host.loop.journal import Journal, Night
    from voice_host.understanding.understand import Heard


@dataclass(frozen=True)
class Exchange:
    """One message from the table (None for the opening) and the Host's reply to it."""

    said: str | None  # what the table said
    taken_as: str | None  # what it was taken as: "question to Abel Thwaite", "table talk" ...
    reply: Reply


class TableDriver:
    """Drives one game for the screen: typed lines, heard utterances, repeats; journals every message."""

    def __init__(self, game: Game, journal: Journal | None = None, resuming: Night | None = None) -> None:
        self.game = game
        self.journal = journal
        self.names = {suspect.key: suspect.name for suspect in game.case.suspects}
        self.session = HostSession(game, self.names, on_sent=self._journal if journal is not None else None)
        self.resuming = resuming
        self._resume = list(resuming.messages) if resuming is not None else []
        # Lines about the journal or the SAVE file (a full disk ...), for the screen to show once.
        self.problems: list[str] = []
        # The recognition thread previews messages against the game while the table may be typing.
        self.lock = threading.Lock()

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def resumed(self) -> bool:
        return self.resuming is not None

    def take_problems(self) -> list[str]:
        problems, self.problems = self.problems, []
        return problems

    def _journal(self, text: str, reply: Reply) -> None:
        assert self.journal is not None
        self.problems += self.journal.record(text, reply)

    @property
    def house_text(self) -> str:
        return self.game.case.public.house

    @property
    def example_question(self) -> str:
        """A question as the card shapes it, to one of this case's suspects: the input's hint."""
        return f"{self.game.case.suspects[0].call}, where were you at ten?"

    def begin(self) -> list[Exchange]:
        """The opening, or on resume the whole night so far, replayed from the journal's messages."""
        exchanges = [Exchange(None, None, self.game.start())]
        replayed: list[tuple[str, Reply]] = []
        for text in self._resume:
            # Straight to the game, not the session: these are in the journal already.
            taken_as = self._taken_as(text)
            reply = self.game.handle(text)
            exchanges.append(Exchange(text, taken_as, reply))
            replayed.append((text, reply))
        if self.journal is not None and not self.journal.started:
            self.problems += self.journal.start(replayed)
        notice = resume_notice(self.resuming, self.game) if self.resuming is not None else None
        if notice is not None:
            exchanges.append(Exchange(None, None, Reply((ReplyPart(PartKind.SYSTEM, notice),))))
        return exchanges

    def typed(self, text: str) -> Exchange:
        with self.lock:
            taken_as = self._taken_as(text)  # before handling: what it is taken as in the current state
            output = self.session.typed(text)
        assert output.reply is not None  # typed text always reaches the engine
        return Exchange(text, taken_as, output.reply)

    def heard(self, heard: Heard) -> SessionOutput:
        with self.lock:
            return self.session.heard(heard)

    def situation(self) -> Situation:
        """The game as the classifier sees it now (for `preview` later, as it was)."""
        with self.lock:
            return self.game.situation()

    def preview(self, text: str, situation: Situation | None = None) -> Message:
        """What `text` would be taken as now (or in an earlier `situation`), without applying it."""
        with self.lock:
            return self.game.preview(text, situation)

    def repeat(self) -> SessionOutput:
        with self.lock:
            return self.session.repeat()

    def read_exhibit(self, number: int) -> ExhibitView | None:
        """An exhibit the table has already heard (for a resumed game); None for one not yet read."""
        if number not in self.game.state.exhibits_read:
            return None
        exhibit = self.game.case.exhibit(number)
        return ExhibitView(exhibit.number, exhibit.title, exhibit.text)

    def _taken_as(self, text: str) -> str:
        return plain_taken_as(describe(self.game.preview(text), text, self.names), self.game.state)
