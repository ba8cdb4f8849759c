"""The phrased-command pass: a short utterance that gave nothing has its words compared with the phrase grammar's
command sentences; the nearest, filled and written as Whisper writes, are scored against the audio.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.messages import MessageKind
from engine.rules import EXHIBITS, ROUNDS
from voice_host.ears.sound import SAMPLE_RATE
from voice_host.understanding.host_requests import is_repeat_request
from voice_host.understanding.normalise import CorrectionKind, normalise
from voice_host.understanding.passes.closed_set import understand_repaired
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, unusable, whole_message
from voice_host.understanding.passes.whole_command import word_count
from voice_host.understanding.phrasings import (
    CommandPhrasing,
    as_whisper_writes,
    command_phrasings,
    heard_name,
    heard_number,
    nearest_phrasings,
)


def short_and_unusable(hearing: Hearing, said: str, max_seconds: float, max_words: int) -> bool:
    """Whether the utterance is at most `max_seconds` long, `said` has 1 to `max_words` words, and what was
    heard gave the Host nothing (a phrased pass's scope: longer table talk never reaches one).

    "Could you say that again?" is no card message, but the Host acts on it (the session replays): a
    phrasing near a runner-up ("Could you save up again?") must not take its place."""
    heard = hearing.current
    if hearing.first is None or heard.rejected is not None or not unusable(heard):
        return False
    if is_repeat_request(heard.text, heard.message):
        return False
    return len(hearing.audio) / SAMPLE_RATE <= max_seconds and 0 < word_count(said) <= max_words


@dataclass(frozen=True)
class PhrasedCommandPass:
    """A short utterance that gave the Host nothing: was it a command in other words, heard wrong?

    "What on in the bit 14 say?" is no template's match, but its words are near "what does E{exhibit}
    say", one of the ways the phrase grammar's tests say "read". The phrasings nearest the words heard
    (`phrasings.nearest_phrasings`) have their slot filled by the number or name heard (a phrasing
    whose slot the words do not fill is dropped), and are scored against the audio with the
    transcript's own words, all under the first pass's prompt, on the kept encoder output (one
    batched decoder call). The best is taken when it fits (`phrased_command_floor`), is no more
    than `phrased_command_behind` behind the transcript (Whisper's own output nearly always scores
    best) and is a whole card command; it is a repair, so a costly one is confirmed, and one
    further behind than `phrased_command_sure` too.
    """

    name: PassName = PassName.PHRASED_COMMAND

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        settings = ears.settings
        if settings.phrased_command_candidates <= 0 or hearing.first is None:
            return False
        limits = settings.phrased_command_max_seconds, settings.phrased_command_max_words
        return short_and_unusable(hearing, hearing.first.raw_text, *limits)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        settings = ears.settings
        first = hearing.first_transcript
        own = first.raw_text.strip()
        names = frozenset(target.word.lower() for target in hearing.matcher.targets)
        texts: list[str] = []
        # The beam's runners-up are other hearings of the same words ("Reading, too." first, "Reading
        # two." behind it): each brings its nearest phrasings, filled from its own words.
        for said in dict.fromkeys(h.raw_text.strip() for h in (first, *first.runners_up) if h.rejected is None):
            # Numbers as the normaliser reads them ("exhibit seven" is exhibit 7), the words as heard.
            numbered = normalise(said)
            nearest = nearest_phrasings(
                numbered, command_phrasings(), names, settings.phrased_command_candidates, settings.phrased_command_alike
            )
            texts += [text for phrasing in nearest if (text := self._filled(phrasing, numbered, names))]
        texts = list(dict.fromkeys(texts))
        if not texts:
            return
        scores = ears.recognizer.score_continuations(
            hearing.audio, "", [*(f" {text}" for text in texts), f" {own}"], initial_prompt=ears.vocabulary.prompt
        )
        hearing.runs.append(PassRun(self.name, (), (scores,)))
        top, text = max(zip(scores.scores, texts, strict=False))
        behind = top - scores.scores[-1]
        if top < settings.phrased_command_floor or behind < -settings.phrased_command_behind:
            return
        heard = hearing.current
        found = understand_repaired(hearing, ears, CorrectionKind.PHRASED_COMMAND, settings.repairs.phrased_command, text)
        if found.message is None or found.message.kind is not MessageKind.COMMAND or not whole_message(found.message):
            return
        unsure = behind < -settings.phrased_command_sure
        hearing.heard = replace(found, transcript=heard.transcript, needs_confirmation=found.needs_confirmation or unsure)

    def _filled(self, phrasing: CommandPhrasing, own: str, names: frozenset[str]) -> str | None:
        """The phrasing as Whisper would write it, its slot filled by the one number or name the words
        heard have; None when they have none.

        Scoring the slot's values in place costs a decoder call (and a name's, one sequence per name,
        with the rest of the phrasing after it: alone, " Blamire" outscored " Thwaite" for "Waits
        answers"); on tune it found no command the words did not already give.
        """
        said = phrasing.said
        if not phrasing.slots:
            return as_whisper_writes(said)
        slot = phrasing.slots[0]
        if slot == "name":
            fill = heard_name(own, names)
        else:
            fill = heard_number(own)
            if fill is not None and not 1 <= int(fill) <= (EXHIBITS if slot == "exhibit" else ROUNDS):
                fill = None
        return None if fill is None else as_whisper_writes(said.format_map({slot: fill}))
