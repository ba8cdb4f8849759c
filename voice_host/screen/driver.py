"""What the screen drives: one small adapter around the game, so that swapping in the voice host's
session later is a one-line change in `app.run_screen`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from engine.replies import Reply
from engine.state import GameState
from voice_host.screen.views import ExhibitView, describe_message

if TYPE_CHECKING:
    from engine.game import Game


@dataclass(frozen=True)
class Exchange:
    """One message from the table and the Host's reply to it."""

    said: str  # what the table said, as the engine saw it
    taken_as: str  # what it was taken as: "question to Abel Thwaite", "table talk" ...
    reply: Reply


class TableDriver(Protocol):
    """The game as the screen sees it: start, send a typed line, read the state."""

    @property
    def state(self) -> GameState: ...

    @property
    def house_text(self) -> str: ...

    def start(self) -> Reply: ...

    def read_exhibit(self, number: int) -> ExhibitView | None: ...

    def typed(self, text: str) -> Exchange: ...


class GameDriver:
    """Drives an engine `Game` directly (typed play)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.names = {suspect.key: suspect.name for suspect in game.case.suspects}

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def house_text(self) -> str:
        return self.game.case.public.house

    def start(self) -> Reply:
        return self.game.start()

    def read_exhibit(self, number: int) -> ExhibitView | None:
        """An exhibit the table has already heard (for a resumed game); None for one not yet read."""
        if number not in self.game.state.exhibits_read:
            return None
        exhibit = self.game.case.exhibit(number)
        return ExhibitView(exhibit.number, exhibit.title, exhibit.text)

    def typed(self, text: str) -> Exchange:
        message = self.game.preview(text)  # before handling: what it is taken as in the current state
        reply = self.game.handle(text)
        return Exchange(message.text or text, describe_message(message, self.names), reply)
