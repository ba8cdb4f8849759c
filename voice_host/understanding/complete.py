"""Is what was heard so far a whole message? The text signal of the end-of-turn decision.

A message the Host acts on (a command with its argument, a question put to a suspect, a confrontation
citing an exhibit, an accusation, a request to the Host) is complete. Not complete: a suspect named
with nothing asked yet ("Abel," / "Ask Abel"), a verb without its argument ("Confront Keld with",
"Read E"), and words that trail off on a comma or a linking word ("Abel, where were you at"). Table
talk that does not trail off is complete: the Host answers it too ("The table confers ..."), and on
the tune fixtures a quarter of all lines were table talk that waited for the ceiling. The
classifier's outcome comes from the engine; this module only judges whether more words could still
change it.
"""

from __future__ import annotations

import re

from engine.messages import Command, Message, MessageKind
from voice_host.ears.turn import TurnText
from voice_host.understanding.understand import Heard

# Whisper writes a pause that is not the end as a comma, a dash or an ellipsis.
_TRAILING_PAUSE = re.compile(r"(,|;|:|-|–|—|\.\.\.|…)\s*$")
_LAST_WORD = re.compile(r"([A-Za-z']+)\W*$")

#: A message never ends on these: an article, a preposition that needs its object, a conjunction, a
#: question word or a possessive is always followed by something ("where were you at", "Ask Abel
#: where"). Words that also end sentences ("came in", "find her", "he did") are not here.
TRAILING_WORDS = frozenset(
    """a an the and or but nor with without about at to of into onto for from by near between than
    because whether e exhibit where when what why who whom whose which how my your its our their""".split()
)

#: Kinds whose words are a whole turn once they stop on a full word (OTHER is judged apart).
_WHOLE_WHEN_ENDED = frozenset(
    {MessageKind.COMMAND, MessageKind.QUESTION, MessageKind.CONFRONTATION, MessageKind.ACCUSATION, MessageKind.TABLE_TALK}
)


def trails_off(transcript: str) -> bool:
    """The words stop on a pause mark or a word that is always followed by more."""
    text = transcript.strip()
    if not text or _TRAILING_PAUSE.search(text):
        return True
    last = _LAST_WORD.search(text)
    return last is not None and last.group(1).lower() in TRAILING_WORDS


#: Kinds whose argument the classifier already found: a pause mark after them adds nothing (Whisper
#: often writes a lone "Next." as "Next,"), only a linking word does ("Confront Keld with E7 and").
_ARGUMENT_FOUND = frozenset({MessageKind.COMMAND, MessageKind.CONFRONTATION})


#: A yes or no that trails on a pause mark is not yet a turn: a lone answer word is written with a full
#: stop, while "Wait," / "No," is a name heard wrong before its question ("Thwaite, where were you?") or
#: the start of "No, keep going". Waiting costs at most the ceiling.
_ANSWER_WORDS = frozenset({Command.YES, Command.NO})


def message_complete(transcript: str, message: Message | None) -> bool:
    """Whether `transcript`, taken by the classifier as `message`, is a whole turn."""
    if message is None:
        return False
    if message.command in _ANSWER_WORDS and _TRAILING_PAUSE.search(transcript.strip()):
        return False
    if message.kind in _ARGUMENT_FOUND:
        return not trails_off(_TRAILING_PAUSE.sub("", transcript.strip()).strip() or transcript)
    if trails_off(transcript):
        return False
    if message.kind in _WHOLE_WHEN_ENDED:
        return True
    # OTHER: seating, a request to the Host, a rules question, ... but a suspect named with nothing
    # asked of them ("Abel," "Confront Keld with") is waiting for its question.
    return message.kind is MessageKind.OTHER and message.suspect is None


def heard_complete(heard: Heard) -> bool:
    """The text signal for `Heard`: the raw transcript keeps Whisper's punctuation, the text the words."""
    if not heard.usable:
        return False
    return message_complete(heard.transcript, heard.message) and not trails_off(heard.text)


#: Few enough words that a whole message of them is often the start of a longer turn: a lone yes or no, a
#: name heard as something else before its question's pause ("Thwaite," -> "Wait.", "Reverend Keld," ->
#: "Reverend Culp.", "Mrs Ruddock," -> "Mrs. Blamire.").
SHORT_WORDS = 2
#: Anything else this short that the Host cannot act on may be a name heard wrong ("Mr Ormerod," ->
#: "Mr. Blamire, Mr. Blamire.").
SHORT_OTHER_WORDS = 4
#: Lone commands that words after a pause can only finish ("Next … round, please.", "Lies … please.", "Pass …
#: for now."): said over the Host's answer, those words are taken as the same message (voice_host/loop/barge_in.py
#: `finishes`), so these are answered after the short pause rather than held, when Whisper wrote the command
#: itself. Not yes or no ("Wait." is "Thwaite," heard wrong before its question), nor give up, which ends the night.
FINISHED_BY_MORE_WORDS = frozenset({Command.NEXT, Command.PASS, Command.STATEMENTS, Command.LIES, Command.SAVE})


def may_go_on(text: str, message: Message, repaired: bool = False) -> bool:
    """A whole message that is often only the start of a longer turn (shaped on the tune paused lines).

    `repaired`: the message was made by repairing what Whisper wrote (`Heard.words_repaired`).
    """
    words = len(text.split())
    if message.kind is MessageKind.ACCUSATION and not message.exhibits:
        return True  # "We accuse Joel Blamire: … exhibits four, six and ten."
    if message.kind in _ARGUMENT_FOUND and (message.exhibits or message.suspect is not None):
        return False  # "Read E4.", "Answers Keld.", "Confront Keld with E7."
    if message.kind is MessageKind.COMMAND and message.command in FINISHED_BY_MORE_WORDS and not repaired:
        # "Next.": what may follow only finishes it. A repaired one may be other words heard wrong (tune, the
        # room: "Next … round, please." heard "Slips.", which a pass took for lies), so it is held.
        return False
    if message.kind is MessageKind.TABLE_TALK:
        # Table talk is held whatever its length: it is often a misheard start ("Confront Reverend Keld
        # with" -> "Conflict, where the vent can't win.", "We accuse Joel Blamire:" -> "We let you use Joel
        # Blamire."), and the Host has only a word for the table to answer it with.
        return True
    if message.kind is MessageKind.OTHER:
        return words <= SHORT_OTHER_WORDS
    return words <= SHORT_WORDS


#: Prepositions that set where or when ("in the library", "at ten o'clock", "after supper"), not a
#: way or a manner. What a player adds after a question's pause is mostly such a phrase (tune paused
#: lines: "Martha, where were you … at ten o'clock?", "who did you see … in the back passage?"; also
#: "… from her?", "… when you came in?"), and no first part there ends on one: a question that already
#: ends on where or when it asks about has been said.
SETTING_PREPOSITIONS = frozenset("at in on after before during since until till inside outside near behind beside".split())
#: At most this many words after the preposition: "at a quarter past ten" is four.
SETTING_WORDS = 4
_SETTING_END = re.compile(
    r"\b(" + "|".join(sorted(SETTING_PREPOSITIONS)) + r")((?:\s+[\w'’.,-]+){1," + str(SETTING_WORDS) + r"})\W*$",
    re.IGNORECASE,
)


def ends_on_setting(text: str) -> bool:
    """The words end on a phrase that sets where or when ("... in the library?", "... at 10?").

    Only full words may follow the preposition: "where were you at" trails off. A preposition inside
    the phrase ("in the hall at ten") or the one asked named after it ("on the stair, Phoebe?") still
    ends it on a setting.
    """
    found = _SETTING_END.search(text.strip())
    return found is not None and not trails_off(text)


def heard_turn(heard: Heard) -> TurnText:
    """The text signal for `EndOfTurn`: unfinished, whole but may go on, a question, or whole."""
    if not heard_complete(heard):
        return TurnText.UNFINISHED
    assert heard.message is not None  # a complete message was heard
    if heard.message.kind is MessageKind.QUESTION:
        # "Martha, where were you?" is whole before "... at ten o'clock?": only the voice could tell it
        # goes on, so a question is held a little (EndOfTurn.question_seconds), unless it already ends
        # on where or when it asks about ("..., what were you doing in the library?"): the voice
        # signals tried (smart-turn, the pitch at the end) did not tell the two apart on tune.
        return TurnText.WHOLE if ends_on_setting(heard.text) else TurnText.QUESTION
    return TurnText.MAY_GO_ON if may_go_on(heard.text, heard.message, heard.words_repaired) else TurnText.WHOLE
