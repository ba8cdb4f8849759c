"""The slot a command lost ("Read the salmon.": its exhibit), and the slot pass: Whisper decodes again continuing from
the verb ("Read E"). The closed-set pass (closed_set.py) does its work now; it is kept as a pass one can list instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

from engine.grammar import phrases
from engine.messages import Command, Message, MessageKind
from voice_host.understanding.normalise import Correction, CorrectionKind, strip_openers
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun
from voice_host.understanding.understand import Heard

if TYPE_CHECKING:
    from voice_host.ears.asr import Transcript


class Slot(Enum):
    EXHIBIT = "exhibit"  # "Read the salmon." / "Confront Phoebe with the iron.": the number was lost
    SUSPECT = "suspect"  # "Answers, Cobb.": the name was lost
    # "Confront, together with E.R.": the suspect or the exhibit (or both) of a confrontation lost; the
    # whole confrontations are the candidates (closed set only: the slot pass never fills this).
    CONFRONTATION = "confrontation"  # filled slot by slot: the suspect (when lost), then the exhibit
    ADDRESSEE = "addressee"  # "Ask Flit, where were you?": the suspect a question is put to was lost


@dataclass(frozen=True)
class SlotPrefixes:
    """Decode the audio again continuing from each prefix in turn, until one hears the missing word.

    An empty prefix is a plain decode with no prompt and no prefix at all.
    """

    prefixes: tuple[str, ...]
    slot: Slot


READ_OPENING = re.compile(r"read\b", re.IGNORECASE)
CONFRONT_OPENING = re.compile(r"confront\b", re.IGNORECASE)
CONFRONT_WITH_OPENING = re.compile(r"(confront\b.*?\bwith)\b", re.IGNORECASE)
ANSWERS_OPENING = re.compile(r"answers?\b", re.IGNORECASE)
# "Ask Flit, where were you?": the card's ask form, and the words it puts the suspect in (up to a
# comma within three words, else one word).
ASK_OPENING = re.compile(r"(ask)\s+((?:[\w'.-]+\s+){0,2}?[\w'.-]+(?=,)|[\w'.-]+)", re.IGNORECASE)
# Words after "Ask" that are no one's name ("Ask him", "Ask everyone"): the grammar's own list.
NOT_ADDRESSEES = frozenset(phrases("name")) | {"the", "a", "an"}


def fills(message: Message | None, slot: Slot) -> bool:
    """Whether the message has the slot's argument: an exhibit cited, or the suspect named."""
    if message is None:
        return False
    if slot is Slot.CONFRONTATION:
        return message.kind is MessageKind.CONFRONTATION and message.suspect is not None and bool(message.exhibits)
    if slot is Slot.ADDRESSEE:
        return message.kind in (MessageKind.QUESTION, MessageKind.CONFRONTATION) and message.suspect is not None
    if slot is Slot.EXHIBIT:
        citing = message.command is Command.READ or message.kind is MessageKind.CONFRONTATION
        return citing and bool(message.exhibits)
    naming = message.command is Command.ANSWERS or message.kind is MessageKind.CONFRONTATION
    return naming and message.suspect is not None


def slot_prefixes_for(heard: Heard) -> SlotPrefixes | None:
    """The prefixes to hear a command's missing argument from, or None when nothing is missing.

    Only these qualify, each opening the message: "read …" without an exhibit, "confront SUSPECT
    with …" without one, "confront …" without a suspect, "answers …" without a suspect. Anything
    else is left as heard.
    """
    if not heard.usable:
        return None
    body = strip_openers(heard.text)
    # "E7" or "exhibit 7": the way the transcript suggests first, then the other.
    citations = ("exhibit", "E") if re.search(r"\bexhibit\b", body, re.IGNORECASE) else ("E", "exhibit")
    if READ_OPENING.match(body) and not fills(heard.message, Slot.EXHIBIT):
        # Last, unprompted and unprefixed: Whisper alone writes "Read E4" as "3D4" (which the command
        # repair reads) where the prompted and prefixed decodes made it "the fall" and "E-fall".
        return SlotPrefixes((*(f"Read {citation}" for citation in citations), ""), Slot.EXHIBIT)
    confront = CONFRONT_WITH_OPENING.match(body)
    if confront and heard.message is not None and heard.message.suspect and not fills(heard.message, Slot.EXHIBIT):
        said = confront.group(1)
        return SlotPrefixes(tuple(f"{said[0].upper()}{said[1:]} {citation}" for citation in citations), Slot.EXHIBIT)
    if CONFRONT_OPENING.match(body) and not fills(heard.message, Slot.SUSPECT):
        return SlotPrefixes(("Confront",), Slot.SUSPECT)
    if ANSWERS_OPENING.match(body) and not fills(heard.message, Slot.SUSPECT):
        return SlotPrefixes(("Answers",), Slot.SUSPECT)
    return None


@dataclass(frozen=True)
class SlotPass:
    """A command's verb heard but not its argument: hear the argument again, continuing from the verb."""

    name: PassName = PassName.SLOT

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return slot_prefixes_for(hearing.current) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        """Try each prefix until one fills the slot; what was heard is kept when none does."""
        heard = hearing.current
        wanted = slot_prefixes_for(heard)
        assert wanted is not None
        weights = ears.settings.repairs
        kind, weight = (
            (CorrectionKind.EXHIBIT, weights.exhibit) if wanted.slot is Slot.EXHIBIT else (CorrectionKind.NAME, weights.slot)
        )
        tried: list[Transcript] = []
        for prefix in wanted.prefixes:
            slot = ears.recognizer.transcribe(hearing.audio, initial_prompt="", hotwords=None, prefix=prefix)
            tried.append(slot)
            if slot.rejected is not None:
                continue
            repair = Correction(kind, heard.text, slot.text, weight)
            filled = hearing.understand(ears, slot, repairs=(repair,))
            if fills(filled.message, wanted.slot):
                hearing.heard = filled
                break
        hearing.runs.append(PassRun(self.name, tuple(tried)))
