"""The whole-command pass: a short utterance that gave the Host nothing has the card's free commands and its own words
scored against the audio in one batched decoder pass over their prefix trie.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from engine.messages import Command
from engine.rules import EXHIBITS
from engine.text import words
from voice_host.ears.sound import SAMPLE_RATE
from voice_host.understanding.normalise import Correction, CorrectionKind
from voice_host.understanding.passes.closed_set import ClosedSlot, capitalised, closed_best, name_candidates
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, unusable
from voice_host.understanding.passes.slots import Slot
from voice_host.understanding.understand import recognition_confidence


@dataclass(frozen=True)
class CommandCandidate:
    """One of the card's free commands as Whisper would write it, and the card message it is."""

    said: str  # " Next", " Read E7", " Answers Keld": a continuation of nothing, as Whisper spells it
    card: str  # what it means, the same for every way of saying it: "next", "read E7", "answers keld"


def whole_command_candidates() -> tuple[CommandCandidate, ...]:
    """The card's free commands as the engine's grammar phrases them, each said alone.

    "Read E{n}" shares "Read E": the scorer's prefix trie forces it once, and the sixteen numbers
    after it are one sequence; "Read exhibit {n}" (how Whisper writes "read exhibit nine") is one
    more. "Answers NAME" is "Answers" here; its name is a second small closed set, scored only when
    "Answers" wins (a sequence per name would triple the pass's cost).
    """
    alone = [command for command in Command if command is not Command.READ]
    said = [*(command.value for command in alone), "repeat"]
    candidates = [CommandCandidate(f" {capitalised(word)}", word) for word in said]
    candidates += [CommandCandidate(f" Read E{n}", f"read E{n}") for n in range(1, EXHIBITS + 1)]
    # Said "read exhibit nine", Whisper writes "Read exhibit 9.": " E9" fits that audio badly.
    candidates += [CommandCandidate(f" Read exhibit {n}", f"read E{n}") for n in range(1, EXHIBITS + 1)]
    return tuple(candidates)


#: The answer words: they open ordinary replies ("No idea.", "Yes, I think so.") as often as they answer.
_ANSWER_WORDS = frozenset({Command.YES.value, Command.NO.value})


def _opens(transcript: str, command: str) -> bool:
    """Whether the transcript's words begin with the command's and go on after them."""
    said, meant = words(transcript), words(command)
    return len(said) > len(meant) and said[: len(meant)] == meant


def word_count(text: str) -> int:
    return len(re.findall(r"\w+", text))


@dataclass(frozen=True)
class WholeCommandPass:
    """A short utterance that gave the Host nothing: was it one of the card's commands, said alone?

    The card's free commands (`whole_command_candidates`) and the transcript's own words are scored
    against the audio in one batched decoder pass over their prefix trie, on the encoder output the
    first pass made (`Recognizer.score_continuations`, with no prefix: each candidate is the whole
    utterance, all under the first pass's prompt). The best command is taken only when it fits
    (`whole_command_floor`), clearly beats the next command (`whole_command_margin`) and comes close
    to the transcript or beats it (`whole_command_over_transcript`: Whisper's own output nearly always
    scores best); it is a repair, so a costly one is confirmed, and a narrow lead (or a command behind
    the transcript) is confirmed even for a free command. Only short utterances qualify
    (`whole_command_max_seconds`, `whole_command_max_words`): longer table talk never becomes a command.
    """

    name: PassName = PassName.WHOLE_COMMAND

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        if not unusable(heard) or hearing.first is None:
            return False
        settings = ears.settings
        if len(hearing.audio) / SAMPLE_RATE > settings.whole_command_max_seconds:
            return False
        # A rejected transcript ("Yes, yes, yes, yes…", a phantom "Thank you.") is no words at all.
        said = "" if heard.rejected is not None else hearing.first.raw_text
        return word_count(said) <= settings.whole_command_max_words

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        first = hearing.first_transcript
        candidates = whole_command_candidates()
        own = "" if heard.rejected is not None else first.raw_text.strip()
        said = [candidate.said for candidate in candidates]
        # Conditioned on the first pass's prompt, so that the transcript it made and the commands
        # are scored alike (unprompted, a command opening a transcript is unlikely to Whisper).
        scores = ears.recognizer.score_continuations(
            hearing.audio,
            "",
            [*said, f" {own}"] if own else said,
            initial_prompt=ears.vocabulary.prompt,
            keep_within=ears.settings.whole_command_keep_within,
            floor=ears.settings.whole_command_floor,
        )
        hearing.runs.append(PassRun(self.name, (), (scores,)))
        best: dict[str, float] = {}
        for candidate, score in zip(candidates, scores.scores, strict=False):
            best[candidate.card] = max(best.get(candidate.card, -math.inf), score)
        transcript = scores.scores[-1] if own else -math.inf
        ranked = sorted(best.items(), key=lambda pair: pair[1], reverse=True)
        (card, top), (_, runner_up) = ranked[0], ranked[1]
        settings = ears.settings
        over_next, over_transcript = top - runner_up, top - transcript
        if top < settings.whole_command_floor or over_next < settings.whole_command_margin:
            return
        if over_transcript < settings.whole_command_over_transcript:
            return
        text = next(c.said for c in candidates if c.card == card).strip()
        if card in _ANSWER_WORDS and _opens(own, text):
            # "No idea.": a lone " No" scores as well as the transcript's own first word, but Whisper heard
            # more after it, and whether a reply that opens on a yes or a no is one is the grammar's to say.
            return
        if card == Command.ANSWERS.value:
            # Whose answers: the six's names after "Answers", the closed set's own small pass.
            name = closed_best(hearing, ears, ClosedSlot(Slot.SUSPECT, "Answers", *name_candidates(hearing.matcher)), self.name)
            if name is None:
                return
            text += name.said
        text += "."
        repair = Correction(CorrectionKind.WHOLE_COMMAND, heard.transcript, text, settings.repairs.whole_command)
        recognition = recognition_confidence(first.avg_logprob, first.no_speech_prob) if heard.rejected is None else 1.0
        found = ears.understander.understand(text, hearing.classifier, recognition, hearing.seats, repairs=(repair,))
        if found.message is None:
            return
        close = min(over_next, over_transcript) < settings.whole_command_sure
        hearing.heard = replace(found, transcript=heard.transcript, needs_confirmation=found.needs_confirmation or close)
