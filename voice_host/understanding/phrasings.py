"""The ways a table words the card's free commands, as the phrase grammar's own test sentences say them.

A command said in other words and heard wrong throughout ("What on in the bit 14 say?" for "What does
exhibit 14 say?", "Lead, slot at the next round." for "Let's go to the next round.") is no template's match,
but it still looks like one of the ways people say a command. `nearest_phrasings` finds the phrasings
whose words are closest to what was heard (rapidfuzz over the words, numbers and names as slots); the
cascade's phrased-command pass then scores them against the audio. Text only: no audio here.

The phrasings are the `tests` of the grammar's command intents (engine/phrases.toml), with their
exhibit, round and name slots written as `{exhibit}`, `{round}` and `{name}`: one change to the
phrase file is one change here; and what tables said for those commands (engine/said/commands.tsv,
the request votes' examples), slots opened the same way, where the engine takes them as their command.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from rapidfuzz import fuzz, process

from engine.classify import QUESTION_WORDS
from engine.grammar import Grammar, IntentKind, grammar
from engine.names import NameIndex
from engine.request_votes import Said, examples_names, said_commands, voted_command
from voice_host.understanding.normalise import normalise

# Commands a misheard phrasing may become. Not yes, no or give up (costly, or short enough that any
# word sounds like them: the whole-command pass scores those said alone), nor a confrontation (costly,
# two slots).
PHRASED_COMMANDS = ("statements", "statements of a round", "read", "lies", "answers", "pass", "next", "save")

_NUMBER = re.compile(r"(?<![\w#])(?:e|#)?(\d{1,2})\b", re.IGNORECASE)
_SLOT = re.compile(r"\{(exhibit|round|name)\}")


@dataclass(frozen=True)
class CommandPhrasing:
    """One way of saying a command, with its slots left open: "what does exhibit {exhibit} say"."""

    intent: str  # the grammar's intent ("read")
    said: str  # the words, slots as {exhibit}, {round}, {name}
    key: str  # what the heard words are compared with: slots as NUMBER and NAME (`words_key`)

    @property
    def slots(self) -> tuple[str, ...]:
        return tuple(_SLOT.findall(self.said))


NUMBER = "xnumber"  # a number's place in a key
NAME = "xname"  # a name's place in a key


def words_key(text: str, names: frozenset[str] = frozenset()) -> str:
    """Lowercase words, punctuation gone, a number (E7, #7, 7) as NUMBER, a word of `names` as NAME."""
    text = text.lower().replace("\u2019", "'")
    text = re.sub(r"(?:\be|#)?\{(?:exhibit|round)\}", f" {NUMBER} ", text).replace("{name}", NAME)
    text = _NUMBER.sub(f" {NUMBER} ", text)
    words = re.findall(r"[\w']+", text)
    return " ".join(_as_name(word) if word.removesuffix("'s") in names else word for word in words)


def _as_name(word: str) -> str:
    return f"{NAME}'s" if word.endswith("'s") else NAME


def _open_slots(sentence: str, slots: dict[str, str]) -> str | None:
    """The test sentence with its slot values written as slots, or None when a value is not found in it."""
    said = sentence.lower()
    for slot, value in slots.items():
        if slot == "name":
            if value not in said:
                return None
            said = said.replace(value, "{name}", 1)
        elif slot in ("exhibit", "round"):
            found = _NUMBER.search(said)
            if found is None:
                return None  # a round said as a word ("the first round"): not a slot we fill
            # Only the digits are the slot: "E7" stays "E{exhibit}", "#3" is written "E{exhibit}".
            head = said[: found.start(1)].removesuffix("#")
            said = f"{head}{'e' if head != said[: found.start(1)] else ''}{{{slot}}}{said[found.end(1) :]}"
            said = said.replace("exhibit number {exhibit}", "exhibit {exhibit}")
    return said


def phrasings_of(source: Grammar) -> tuple[CommandPhrasing, ...]:
    """Every test sentence of the phrased commands that its own intent matches with its slots open."""
    found: list[CommandPhrasing] = []
    seen: set[str] = set()
    for intent in source.intents:
        if intent.kind is not IntentKind.COMMAND or intent.name not in PHRASED_COMMANDS:
            continue
        for sentence in (intent.card.lower(), *intent.tests):
            if "{" in sentence:
                said: str | None = sentence
            else:
                match = source.match(sentence)
                if match is None or match.intent.name != intent.name:
                    continue
                said = _open_slots(sentence, dict(match.slots))
            if said is None:
                continue
            # A name slot the grammar read wide ("let's hear {name}'s answers again") keeps only the name.
            if "{name}" in said and not re.search(r"(^|\s)\{name\}", said):
                continue
            # An exhibit is said both ways ("E7", "exhibit 7"): each phrasing citing one is kept in both.
            for way in _both_citations(said):
                if way not in seen:
                    seen.add(way)
                    found.append(CommandPhrasing(intent.name, way, words_key(way)))
    return tuple(found)


def _both_citations(said: str) -> tuple[str, ...]:
    if "e{exhibit}" in said:
        return said, said.replace("e{exhibit}", "exhibit {exhibit}")
    if "exhibit {exhibit}" in said:
        return said, said.replace("exhibit {exhibit}", "e{exhibit}")
    return (said,)


def said_phrasings(said: Iterable[Said], names: NameIndex) -> tuple[CommandPhrasing, ...]:
    """What tables said for the phrased commands (engine/said/commands.tsv), numbers as digits and the exhibit
    or name of the label as its slot; a line whose label's number or name its words do not say is left out."""
    found: list[CommandPhrasing] = []
    for line in said:
        if line.label not in PHRASED_COMMANDS:
            continue
        text = normalise(line.text)
        slots: dict[str, str] = {}
        if line.label == "read" and line.argument is not None:
            slots["exhibit"] = line.argument
        elif line.label == "answers":
            mentions = [m for m in names.mentions(text) if m.suspect == line.argument]
            if len(mentions) != 1:
                continue
            slots["name"] = text[mentions[0].start : mentions[0].end].lower()
        opened = _open_slots(text, slots) if slots else text.lower()
        if opened is None or (slots.get("exhibit") is not None and "{exhibit}" not in opened):
            continue
        opened = " ".join(re.sub(r"[^\w'{} ]+", " ", opened).split())  # punctuation gone, as in a key
        if not _taken_as(opened, line.label, names):
            continue
        for way in _both_citations(opened):
            found.append(CommandPhrasing(line.label, way, words_key(way)))
    return tuple(found)


_SAMPLE_FILLS = {"exhibit": "7", "round": "2", "name": "Keld"}  # Hollin Fold's: the examples' own case


def _taken_as(opened: str, command: str, names: NameIndex) -> bool:
    """Whether the phrasing, its slot filled, is that command to the engine's grammar or its request votes: a
    candidate the engine would not take as its command is no use to score."""
    filled = opened.format_map(_SAMPLE_FILLS)
    match = grammar().match(filled)
    if match is not None:
        return match.intent.name == command or (command == "statements" and match.intent.name == "statements of a round")
    vote = voted_command(filled, names)
    return vote is not None and vote.command == command


@cache
def command_phrasings() -> tuple[CommandPhrasing, ...]:
    """The phrase file's command phrasings (`phrasings_of` the shared grammar) and what tables said for them
    (`said_phrasings`), made once."""
    own = phrasings_of(grammar())
    seen = {p.key for p in own}
    said = [p for p in said_phrasings(said_commands(), examples_names()) if p.key not in seen]
    return (*own, *dict.fromkeys(said))


def nearest_phrasings(
    heard: str, phrasings: tuple[CommandPhrasing, ...], names: frozenset[str], limit: int, at_least: float
) -> list[CommandPhrasing]:
    """The phrasings whose words are nearest the heard words (rapidfuzz's ratio over `words_key`), best first:
    at most `limit`, each at least `at_least` (0-100) alike."""
    key = words_key(heard, names)
    ranked = process.extract(key, [p.key for p in phrasings], scorer=fuzz.ratio, limit=limit, score_cutoff=at_least)
    return [phrasings[index] for _, _, index in ranked]


def heard_number(heard: str) -> str | None:
    """The one number the heard words have (E7, exhibit 7, 7), or None when they have none or several."""
    numbers = _NUMBER.findall(heard)
    return numbers[0] if len(numbers) == 1 else None


def heard_name(heard: str, names: frozenset[str]) -> str | None:
    """The one word of `names` the heard words have, as heard ("Martha" in "Martha Penisert, please."), or None."""
    found = {word.removesuffix("'s") for word in re.findall(r"[\w']+", heard) if word.lower().removesuffix("'s") in names}
    return found.pop() if len(found) == 1 else None


def as_whisper_writes(words: str) -> str:
    """A phrasing as Whisper would write it: a capital first letter, exhibits as E7, a closing mark.

    Whisper scores its own way of writing far above the same words in lowercase without punctuation,
    so candidates are scored the way it writes.
    """
    words = re.sub(r"\be(\d+)", r"E\1", words.strip())
    first = re.findall(r"[\w']+", words.lower())[:1]
    mark = "?" if first and (first[0] in QUESTION_WORDS or first[0] == "shall") else "."
    return f"{words[:1].upper()}{words[1:]}{mark}"
