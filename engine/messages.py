"""What a message was taken as: the classifier's outcome, one dataclass.

Typed and spoken input go through the same classifier (`Game.preview` / `Game.handle`); the voice
host uses the outcome to decide whether to confirm before the engine spends anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class MessageKind(Enum):
    COMMAND = "command"  # a free command alone: next, save, read E3, answers NAME, yes/no ...
    QUESTION = "question"  # a question put to one of the suspects
    CONFRONTATION = "confrontation"  # put to one suspect, citing one exhibit
    ACCUSATION = "accusation"  # an accusation (in round A, or one refused before it)
    TABLE_TALK = "table_talk"  # anything else: the table conferring
    OTHER = "other"  # seating, a request to the Host, a rules question, a refusal line ...


class Command(Enum):
    NEXT = "next"
    SAVE = "save"
    PASS = "pass"
    STATEMENTS = "statements"
    LIES = "lies"
    ANSWERS = "answers"
    READ = "read"
    GIVE_UP = "give up"
    YES = "yes"
    NO = "no"


@dataclass(frozen=True)
class Message:
    """One message as the engine understood it, before (or without) applying it."""

    kind: MessageKind
    text: str  # the message after the card's pre-strip (seat name, openers, markdown)
    suspect: str | None = None  # suspect key, when put to (or accusing) one suspect
    exhibits: tuple[int, ...] = ()  # exhibit numbers cited, in order
    command: Command | None = None
    costly: bool = False  # applying it spends a question, locks an accusation, or ends a round/the night


#: The words of the card's own message forms, for every module that must know one when it sees it:
#: the free commands and yes/no (Command), and the words that open a confrontation, a question, an
#: accusation or a citation ("Confront NAME", "Ask NAME", "We accuse", "Verdict: NAME", "exhibit 7").
FORM_WORDS = ("confront", "ask", "accuse", "accusation", "verdict", "answer", "exhibit", "exhibits")
COMMAND_WORDS = frozenset(word for phrase in (*(c.value for c in Command), *FORM_WORDS) for word in phrase.split())
