"""The HostSession: what the screen and the voice loop both drive.

Typed text goes straight to the engine. Heard speech goes through a `Heard` first: a costly action
heard with doubt gets a free confirmation ("I heard: Confront Abel Thwaite with exhibit 7. Say yes
or no.") and is only sent to the engine on yes. "repeat" / "say that again" replays the last spoken
reply; it is a host command, never a game message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

from engine.grammar import IntentKind, grammar
from engine.messages import Command, Message, MessageKind
from engine.replies import Reply
from engine.state import GameState
from voice_host.loop.events import HeardUtterance
from voice_host.understanding.host_requests import is_repeat_request
from voice_host.understanding.understand import Heard


class GameLike(Protocol):
    """What the session needs of engine.game.Game."""

    def handle(self, text: str) -> Reply: ...

    def preview(self, text: str) -> Message: ...

    def accusing(self) -> bool: ...

    @property
    def state(self) -> GameState: ...


@dataclass(frozen=True)
class SessionOutput:
    """What to show and say after one input: an engine reply, or a host line of the session's own."""

    reply: Reply | None = None  # the engine's reply, when the engine was called
    host_line: str | None = None  # a line from the Host itself (confirmation, "Say yes or no." ...)
    heard: HeardUtterance | None = None  # what was heard, for the screen (None for typed input)
    replay: bool = False  # the reply is the last one again ("repeat"), not a new turn

    @property
    def spoken_text(self) -> str:
        """The words to speak: the host line, or the reply's spoken parts."""
        if self.host_line is not None:
            return self.host_line
        if self.reply is None:
            return ""
        return " ".join(part.text for part in self.reply.spoken_parts)


NOT_SENT = "Not sent. Say it again."
NOTHING_TO_REPEAT = "Nothing has been said yet."
SAY_YES_OR_NO = "Say yes or no."


def _card_answer(text: str) -> str | None:
    """ "yes" or "no" when the words are one of them (the grammar's lists: "that's right", "nope"...)."""
    said = grammar().match(text)
    return said.card_message if said is not None and said.intent.kind is IntentKind.COMMAND else None


def describe(message: Message, text: str, names: Mapping[str, str]) -> str:
    """What a message was taken as, in plain words (never a topic or a FILE line)."""
    name = names.get(message.suspect, message.suspect) if message.suspect else None
    cited = ", ".join(f"E{n}" for n in message.exhibits)
    if message.kind is MessageKind.CONFRONTATION and name:
        return f"confrontation of {name} with {cited}" if cited else f"confrontation of {name}"
    if message.kind is MessageKind.QUESTION and name:
        return f"question to {name}"
    if message.kind is MessageKind.ACCUSATION:
        who = name or "someone"
        return f"accusation of {who}" + (f" with {cited}" if cited else "")
    if message.kind is MessageKind.COMMAND and message.command is not None:
        extra = f" {cited}" if cited and message.command is Command.READ else ""
        extra += f" {name}" if name and message.command is Command.ANSWERS else ""
        return f"command: {message.command.value}{extra}"
    if message.kind is MessageKind.TABLE_TALK:
        return "table talk"
    return "other"


def confirmation_line(heard: Heard, names: Mapping[str, str]) -> str:
    """ "I heard: Confront Abel Thwaite with exhibit 7. Say yes or no." """
    message = heard.message
    assert message is not None
    name = names.get(message.suspect, message.suspect) if message.suspect else None
    if message.kind is MessageKind.CONFRONTATION and name and message.exhibits:
        said = f"Confront {name} with exhibit {message.exhibits[0]}."
    elif message.kind is MessageKind.QUESTION and name:
        said = f'a question for {name}: "{message.text or heard.text}"'
    elif message.kind is MessageKind.COMMAND and message.command is Command.YES:
        said = "yes."
    elif message.kind is MessageKind.ACCUSATION and name:
        said = f"We accuse {name}."
    else:
        said = heard.text
    said = said if said.endswith((".", "?", "!", '"')) else said + "."
    return f"I heard: {said} {SAY_YES_OR_NO}"


class HostSession:
    """Drives one game from typed and heard input; holds the pending confirmation and the last reply."""

    def __init__(
        self,
        game: GameLike,
        suspect_names: Mapping[str, str],
        on_sent: Callable[[str, Reply], None] | None = None,
    ) -> None:
        self.game = game
        self.suspect_names = dict(suspect_names)
        self._on_sent = on_sent  # e.g. the journal: every text the engine applied, in order
        self._pending: Heard | None = None
        self._last_spoken: SessionOutput | None = None

    @property
    def pending(self) -> Heard | None:
        """The costly action waiting for yes or no, if any."""
        return self._pending

    @property
    def state(self) -> GameState:
        return self.game.state

    def _send(self, text: str) -> Reply:
        reply = self.game.handle(text)
        if self._on_sent is not None:
            self._on_sent(text, reply)
        return reply

    def _remember(self, output: SessionOutput) -> SessionOutput:
        if output.spoken_text:
            self._last_spoken = output
        return output

    def typed(self, text: str) -> SessionOutput:
        """Typed text: straight to the engine (a typed message is exactly what the table meant)."""
        self._pending = None
        return self._remember(SessionOutput(reply=self._send(text)))

    def repeat(self, heard: HeardUtterance | None = None) -> SessionOutput:
        """Replay the last spoken reply or host line (free; nothing reaches the engine)."""
        last = self._last_spoken
        if last is None:
            return SessionOutput(host_line=NOTHING_TO_REPEAT, heard=heard)
        return SessionOutput(reply=last.reply, host_line=last.host_line, heard=heard, replay=True)

    def heard(self, heard: Heard) -> SessionOutput:
        """Speech: a host command, the answer to a pending confirmation, a confirmation, or the engine."""
        if not heard.usable:
            return SessionOutput()
        if is_repeat_request(heard.text, heard.message):
            return self.repeat(self._utterance(heard, "repeat", False))
        if self._pending is not None:
            return self._settle(heard)
        message = heard.message
        assert message is not None
        if heard.needs_confirmation:
            self._pending = heard
            line = confirmation_line(heard, self.suspect_names)
            return self._remember(SessionOutput(host_line=line, heard=self._utterance(heard, None, True)))
        reply = self._send(heard.text)
        return self._remember(SessionOutput(reply=reply, heard=self._utterance(heard, None, False)))

    def _settle(self, heard: Heard) -> SessionOutput:
        pending = self._pending
        assert pending is not None
        answer = _card_answer(heard.text)
        message = heard.message
        # "stop" is give up (MESSAGES rule 1), neither yes nor no: the table moved on, and give up asks first.
        is_yes = answer == "yes" or (message is not None and message.command is Command.YES)
        is_no = answer == "no" or (message is not None and message.command is Command.NO)
        if is_yes and not is_no:
            self._pending = None
            reply = self._send(pending.text)
            return self._remember(SessionOutput(reply=reply, heard=self._utterance(pending, None, False)))
        if is_no:
            self._pending = None
            return self._remember(SessionOutput(host_line=NOT_SENT, heard=self._utterance(heard, "no", False)))
        # Something else entirely: the table moved on; drop the guess and take the new utterance.
        self._pending = None
        return self.heard(heard)

    def _utterance(self, heard: Heard, taken_as: str | None, needs_confirmation: bool) -> HeardUtterance:
        if taken_as is None:
            assert heard.message is not None
            taken_as = describe(heard.message, heard.text, self.suspect_names)
        return HeardUtterance(
            transcript=heard.transcript,
            text=heard.text,
            taken_as=taken_as,
            needs_confirmation=needs_confirmation,
        )
