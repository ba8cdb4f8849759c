"""The phrased-confrontation pass: an utterance that gave nothing but names one of the six and one exhibit number has
the card's ways of confronting them with it scored against the audio.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from engine.case import NUMBER_WORDS
from engine.messages import MessageKind
from engine.rules import EXHIBITS
from voice_host.understanding.names import SPOKEN_TITLES, NamesMatcher
from voice_host.understanding.normalise import TEEN_FOR_TY, CorrectionKind
from voice_host.understanding.passes.closed_set import capitalised, understand_repaired
from voice_host.understanding.passes.phrased_command import short_and_unusable
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun

#: The card's ways to confront someone (MESSAGES rules 4 and 5: a message put to one of the six that cites an
#: exhibit), as Whisper writes them; {name} is the name as heard, {n} the exhibit's number.
CARD_CONFRONTATIONS = (
    "Confront {name} with E{n}.",
    "Confront {name} about E{n}.",
    "{name}, explain E{n}.",
    "{name}, what about E{n}?",
)

_TITLE_BEFORE = re.compile(rf"\b(?:the|{'|'.join(SPOKEN_TITLES)})\.?\s+$", re.IGNORECASE)
# A number heard where an exhibit's goes ("come out, V6", "about D3", "with episode 40"): digits not part of a
# clock time ("at 10", "10.35", "10 o'clock"), or a number word ending the message ("it's likely one.").
# Not normalise's time leads: "about" and "to" join a confrontation to its exhibit ("about D3").
_TIME_LEADS = frozenset("at around by till until before after past passed since half quarter".split())
_DIGITS = re.compile(r"(?<![\d.:])(\d{1,2})\b(?![.:]\d|\s*(?:o'?clock|am\b|pm\b|past\b|to\b))")
_LAST_WORD = re.compile(r"(\w+)\W*$")
_NEXT_WORD = re.compile(r"[\s,]+(\w+)")
_NUMBER_WORD_AT_END = re.compile(rf"\b({'|'.join(NUMBER_WORDS[:EXHIBITS])})\W*$", re.IGNORECASE)


@dataclass(frozen=True)
class NamedNumber:
    """The one suspect and the one exhibit number an utterance's words have."""

    name: str  # the name as heard, with a title or "the" said before it: "Mrs. Ruddock", "the butler"
    number: int


def named_number(text: str, matcher: NamesMatcher) -> NamedNumber | None:
    """The one suspect the words name and the one exhibit number heard after the name, or None."""
    named = matcher.suspects_named(text)
    if len(named) != 1:
        return None
    start, end = matcher.first_mention(text, named[0]) or (0, 0)
    end = matcher.name_end(text, named[0]) or end
    # "Abel, Thwaite": the rest of the name after a comma Whisper put in it is still the name as said.
    while (more := _NEXT_WORD.match(text, end)) and matcher.suspects_named(more.group(1)) == named:
        end = more.end()
    title = _TITLE_BEFORE.search(text[:start])
    name = text[title.start() if title else start : end]
    after = text[end:]
    numbers = [TEEN_FOR_TY.get(int(found.group(1)), int(found.group(1))) for found in _DIGITS.finditer(after)
               if not _after_time_lead(after[: found.start()])]  # fmt: skip
    if not numbers and (word := _NUMBER_WORD_AT_END.search(after)) and not _after_time_lead(after[: word.start()]):
        numbers = [NUMBER_WORDS.index(word.group(1).lower()) + 1]
    if len(numbers) != 1 or not 1 <= numbers[0] <= EXHIBITS:
        return None
    return NamedNumber(re.sub(r",\s*", " ", name), numbers[0])  # the name whole, as Whisper writes it


def _after_time_lead(before: str) -> bool:
    last = _LAST_WORD.search(before)
    return last is not None and last.group(1).lower() in _TIME_LEADS


@dataclass(frozen=True)
class PhrasedConfrontationPass:
    """An utterance that gave the Host nothing, but names one of the six and one exhibit number after them.

    "Joel Blamire, it's clearly 14." for "Joel Blamire, explain E14.", "Confront, Mrs. Ruddock, come
    out, V6." for "Confront Mrs Ruddock about E6.": the verb or the citation was heard as other words,
    while the name and the number came through. The card's ways of confronting that one with that
    exhibit (`CARD_CONFRONTATIONS`, the name as heard) and the transcript's own words are scored
    against the audio in one batched decoder call under the first pass's prompt, on the kept encoder
    output. The best is taken when it fits (`phrased_confrontation_floor`) and is no more than
    `phrased_confrontation_behind` behind the transcript (Whisper's own output nearly always scores
    best); a confrontation is spent on it, so it is always asked about first.
    """

    name: PassName = PassName.PHRASED_CONFRONTATION

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        settings = ears.settings
        text = hearing.current.text
        limits = settings.phrased_confrontation_max_seconds, settings.phrased_confrontation_max_words
        return short_and_unusable(hearing, text, *limits) and named_number(text, hearing.matcher) is not None

    def run(self, hearing: Hearing, ears: Ears) -> None:
        settings = ears.settings
        heard = hearing.current
        found = named_number(heard.text, hearing.matcher)
        assert found is not None
        own = hearing.first_transcript.raw_text.strip()
        filled = (form.format(name=found.name, n=found.number) for form in CARD_CONFRONTATIONS)
        texts = [capitalised(text) for text in filled]  # "The butler, explain E6."
        scores = ears.recognizer.score_continuations(
            hearing.audio, "", [*(f" {text}" for text in texts), f" {own}"], initial_prompt=ears.vocabulary.prompt
        )
        hearing.runs.append(PassRun(self.name, (), (scores,)))
        top, text = max(zip(scores.scores, texts, strict=False))
        if top < settings.phrased_confrontation_floor or top - scores.scores[-1] < -settings.phrased_confrontation_behind:
            return
        weight = settings.repairs.phrased_confrontation
        repaired = understand_repaired(hearing, ears, CorrectionKind.PHRASED_CONFRONTATION, weight, text)
        message = repaired.message
        if message is None or message.kind is not MessageKind.CONFRONTATION or message.exhibits != (found.number,):
            return
        hearing.heard = replace(repaired, transcript=heard.transcript, needs_confirmation=True)
