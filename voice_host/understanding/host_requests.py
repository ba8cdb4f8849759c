"""What the table asks of the voice host itself rather than of the game: "say that again".

The session replays its last reply for it; the recognition passes leave such words alone, since the
Host already acts on them.
"""

from __future__ import annotations

from engine.grammar import IntentKind, grammar
from engine.messages import Message, MessageKind
from engine.request_votes import voted_command
from engine.text import drop_openers


def is_repeat_request(text: str, message: Message | None = None) -> bool:
    """ "repeat", "say that again", "pardon?": the phrase grammar's request to the voice host itself.

    Said with a reason around it ("Grandma didn't hear, say it again"), the grammar's [clauses], only
    when the engine's `message` for the words names none of the six ("Keld, say that again?" asks Keld).
    """
    phrases = grammar()
    text = drop_openers(text)  # "host, say that again", "ok, what was that"
    said = phrases.match(text)
    if said is None and message is not None and message.suspect is None:
        said = phrases.in_clauses(text, frozenset({IntentKind.HOST}))
    if said is None and message is not None and message.kind is MessageKind.TABLE_TALK:
        # In words no template lists ("could you run that last bit past us once more"): the examples' votes.
        vote = voted_command(text, None)
        return vote is not None and vote.command == "repeat"
    return said is not None and said.intent.kind is IntentKind.HOST and said.intent.name == "repeat"
