"""The name-slot pass: a command the phrase grammar says whole, whose {name} named no one ("Remind us what the person
told us."), has the six's names and roles scored in that name's place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.classify import ACCUSE_FORM
from engine.grammar import IntentKind
from engine.grammar import grammar as phrases_grammar
from engine.messages import MessageKind
from engine.text import find_phrase, word_spans, words
from voice_host.understanding.names import SPOKEN_TITLES, NamesMatcher
from voice_host.understanding.normalise import CITATION, CorrectionKind, strip_openers
from voice_host.understanding.passes.closed_set import (
    ClosedSlot,
    capitalised,
    closed_best,
    closed_slot_for,
    suspect_candidates,
    understand_repaired,
)
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, unusable
from voice_host.understanding.passes.slots import Slot
from voice_host.understanding.understand import Heard

_COMMANDS = frozenset({IntentKind.COMMAND})
# What a card command with a {name} is, or an accusation (its accused).
_NAMING = frozenset({MessageKind.COMMAND, MessageKind.CONFRONTATION, MessageKind.ACCUSATION})


# After the card's accusation opening ("We accuse", "Final answer", "It was"): the accused's words run to the first
# mark or to the exhibits ("Final answer, the person, exhibits E2, E5 and E10.").
_ACCUSED_END = r"[,.:;!?]|\b(?:exhibits?|because|with)\b|\bE\d|$"
_ACCUSED = re.compile(rf"^[\s,:;-]*((?:(?!{_ACCUSED_END})[^,.:;!?])+?)\s*(?={_ACCUSED_END})")


def accused_words(text: str) -> str | None:
    """The words in the accused's place of a message in the card's accusation form that goes on to cite an
    exhibit, or None: an accusation lists its exhibits, and "It was a good point." is talk."""
    body = strip_openers(text)
    opening = ACCUSE_FORM.match(body)
    if opening is None:
        return None
    accused = _ACCUSED.match(body[opening.end() :])
    if accused is None or not CITATION.search(body[opening.end() + accused.end() :]):
        return None
    return accused.group(1).strip().lower()


@dataclass(frozen=True)
class LostName:
    """A command's {name} heard as words that name no one, and the words around it."""

    prefix: str  # the words before the name, as the slot is scored after them: "Remind us what the", "… from Mr."
    heard: str  # the words heard in the name's place, after a title or "the": "person"
    rest: str  # the words after it: "told us", "'s answers, please"
    role: bool  # "the" was heard before it (it stays in the prefix): a role follows ("the parson"), else a name


def lost_name_for(heard: Heard, matcher: NamesMatcher, max_words: int) -> LostName | None:
    """The {name} of a command the grammar reads in the words (a template or a request's object), or the
    accused's place of an accusation in the card's form (`accused_words`), when the Host could not act
    on them because it named no one; None otherwise.

    The phrase grammar's {name} takes any few words and leaves the engine to decide whether they name
    one of the six; "what the person told us" is the answers command's object, with "the person" in
    its name's place, and the classifier made it table talk. Not lost: words that name a suspect (the
    classifier had its reasons), a name of someone at the table or a common given name ("what did Ann
    say?" is about a player), or more than `max_words` words.
    """
    if heard.rejected is not None or not heard.text or not unusable(heard):
        return None
    grammar = phrases_grammar()
    found = [match.slots.get("name") for match in grammar.matches(heard.text, _COMMANDS) if "{name}" in match.intent.card]
    found += [request.said.slots.get("name") for request in grammar.request(heard.text) if "{name}" in request.said.intent.card]
    found.append(accused_words(heard.text))
    tokens, spans = words(heard.text), word_spans(heard.text)
    for name in found:
        if not name:
            continue
        said = name.split()
        if len(said) > max_words or matcher.suspects_named(name) or any(matcher.protects(word) for word in said):
            continue
        at = find_phrase(tokens, said)
        if at is None:
            continue
        first, last = at, at + len(said) - 1
        possessive = tokens[last].endswith("'s")
        # "Mr. Lizard", "the person": the title or the article was heard right, the word after it is the slot.
        titled = said[0] in SPOKEN_TITLES and len(said) > 1
        role = said[0] == "the" and len(said) > 1
        first += titled or role
        role = role or (first > 0 and tokens[first - 1] == "the")  # "let's hear the gloigment's answers"
        before = heard.text[: spans[first][0]].rstrip()
        prefix = strip_openers(before)
        if not prefix:
            continue  # a name opening the message ("Keld's answers") is the names matcher's to mend
        rest = heard.text[spans[last][1] :].rstrip(" .!?")
        return LostName(
            # The mark before the name as Whisper wrote it ("Mr.", "Verdict,"): it scores a name after its own mark.
            prefix=capitalised(prefix) + _closing_mark(before, prefix, titled),
            heard=" ".join(tokens[first : last + 1]).removesuffix("'s"),
            rest=("'s" if possessive else "") + rest,
            role=role,
        )
    return None


def _closing_mark(before: str, prefix: str, titled: bool) -> str:
    """The mark Whisper wrote between the words before the name and the name, which `strip_openers` took
    off: a title's "." ("Mr."), or the comma or colon after an opening ("Verdict,", "Final answer:")."""
    if prefix.endswith((".", ",", ":")):
        return ""
    if titled:
        return "." if before.endswith(".") else ""
    return before[-1] if before.endswith((",", ":")) else ""


@dataclass(frozen=True)
class NameSlotPass:
    """A command in the grammar's words whose name was heard as words that name no one: score the six there.

    An espeak voice's "Remind us what the parson told us." comes back "... what the person told us.":
    the words are the answers command's, but "the person" names no one, so the Host had nothing to
    act on. The grammar says where the name stands; the six's roles (when "the" was heard before it)
    or their one-word names (otherwise) are scored in its place after the words before it,
    with the closed set's scorer, floor and margin. The best is put in the name's place and taken as
    a repair (a costly command is confirmed) when the message then names that suspect. A command the
    closed-set pass already scored ("Answers …", "Confront …") is left to it.
    """

    name: PassName = PassName.NAME_SLOT

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        return self._lost(hearing, ears) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        lost = self._lost(hearing, ears)
        assert lost is not None
        candidates, values = suspect_candidates(hearing.matcher, lost.role)
        pick = closed_best(hearing, ears, ClosedSlot(Slot.SUSPECT, lost.prefix, candidates, values), self.name)
        if pick is None:
            return
        text = f"{lost.prefix} {pick.said.strip()}{lost.rest}."
        found = understand_repaired(hearing, ears, CorrectionKind.NAME, ears.settings.repairs.slot, text)
        message = found.message
        if message is not None and message.kind in _NAMING and message.suspect is not None:
            hearing.heard = replace(found, transcript=heard.transcript)

    @staticmethod
    def _lost(hearing: Hearing, ears: Ears) -> LostName | None:
        """The name lost in what was heard; else in the first of the beam's runners-up to have one.

        Whisper's best words may go astray after the name ("Remind us what the person told will do.")
        where a runner-up keeps the command's own ("... what the person told us."): the name's place is
        read from that runner-up, and the six are still scored against the audio there.
        """
        max_words = ears.settings.name_slot_max_words
        heard = hearing.current
        if closed_slot_for(heard, hearing.matcher) is not None:
            return None
        lost = lost_name_for(heard, hearing.matcher, max_words)
        if lost is not None or heard.rejected is not None or not unusable(heard) or hearing.first is None:
            return lost
        for runner_up in hearing.first.runners_up:
            other = hearing.understand(ears, runner_up)
            if other.rejected is None and closed_slot_for(other, hearing.matcher) is None:
                lost = lost_name_for(other, hearing.matcher, max_words)
                if lost is not None:
                    return lost
        return None
