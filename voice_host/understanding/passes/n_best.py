"""The n-best pass: the beam's other hypotheses, understood, when the best one is not a whole card message."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from engine.messages import Message, MessageKind
from voice_host.understanding.host_requests import is_repeat_request
from voice_host.understanding.normalise import NUMBER_WORD_VALUES, Correction, CorrectionKind
from voice_host.understanding.passes.lost_citation import lost_citation_for
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, whole_message
from voice_host.understanding.understand import Heard

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence


@dataclass(frozen=True)
class Hypothesis:
    """One of the beam's transcripts, and what it would be taken as."""

    said: str  # Whisper's words
    avg_logprob: float
    heard: Heard


def said_words(said: str) -> tuple[str, ...]:
    """The words alone, as a beam's hypotheses differ when they differ only in how they are written.

    Punctuation, capitals and "one" against "1" are Whisper's writing, not another hearing: a runner-up
    that only writes the first transcript otherwise ("Keld, the yard door has been open all night?")
    is no new evidence of what was said.
    """
    words = re.findall(r"[a-z0-9']+", said.lower())
    return tuple(str(NUMBER_WORD_VALUES[word]) if word in NUMBER_WORD_VALUES else word for word in words)


def _no_new_hearing(first: str, other: str) -> bool:
    """Whether a runner-up only writes the first transcript's words otherwise (`said_words`), or only adds a
    sentence after them: the beam going on past a sentence Whisper had finished ("Wait for it, the next
    round will tell us. Yes, please.") hears a tail, often another talker's or none, not the words."""
    heard, said = said_words(first), said_words(other)
    return said == heard or (first.rstrip().endswith((".", "?", "!")) and said[: len(heard)] == heard)


def choose_hypothesis(
    first: Hypothesis,
    others: Sequence[Hypothesis],
    behind: float,
    wanted: Callable[[Message | None], bool] = whole_message,
) -> Hypothesis | None:
    """The hypothesis to take instead of the first transcript, or None.

    Only a hypothesis whose understanding is `wanted` (a whole card message, unless said otherwise) and
    that Whisper scored no more than `behind` below the best of all (the first transcript included)
    qualifies; of those, the one Whisper scored best. Words the first transcript already had, however
    written (`said_words`), are never a new choice.
    """
    usable = [h for h in others if h.heard.rejected is None and not _no_new_hearing(first.said, h.said)]
    best = max([first.avg_logprob, *(h.avg_logprob for h in usable)])
    whole = [h for h in usable if wanted(h.heard.message) and h.avg_logprob >= best - behind]
    return max(whole, key=lambda h: h.avg_logprob, default=None)


def citation_still_lost(heard: Heard) -> bool:
    """A question to a suspect in a confrontation's words whose exhibit number is still lost ("Mrs.
    Marsden, explain the relevant."): the lost-citation pass found no number standing out."""
    message = heard.message
    return message is not None and message.kind is MessageKind.QUESTION and lost_citation_for(heard) is not None


def _confronting(question: Message | None) -> Callable[[Message | None], bool]:
    """Whether a hypothesis confronts the suspect the question was put to: all a lost citation asks of one."""
    suspect = question.suspect if question is not None else None

    def confronts(message: Message | None) -> bool:
        return (
            whole_message(message)
            and message is not None
            and message.kind is MessageKind.CONFRONTATION
            and message.suspect == suspect
        )

    return confronts


@dataclass(frozen=True)
class NBestPass:
    """The transcript is not a whole card message: did the beam have one close behind it?

    Whisper's beam search finds several transcripts and faster-whisper keeps the best. For a voice
    Whisper mishears, the words the table said are often a close runner-up ("Ass, Marsden, is it
    true …" first, "As Marsden, is it true …" 0.05 behind; "Read it well." first, "Read the
    twelve." behind it). When what the transcript was taken as is not a whole message (table talk, a
    request to the Host, a command or question that lost its argument), the beam's hypotheses
    (`nbest_hypotheses`: those the first pass's own beam search kept, `Transcript.runners_up`, or one
    more search on the encoder output already made when more are asked for) are each understood,
    and the best that is a whole message within `nbest_behind` of the best score is taken
    (`choose_hypothesis`), as a repair: a costly one (a question, a confrontation) is always asked
    about first, so table talk the beam turned into a question costs a confirmation, never a question.
    A transcript a guard rejected (a loop, a phantom, no speech) is left: its runners-up are the same.
    A question to a suspect in a confrontation's words whose number is still lost ("Mrs. Marsden,
    explain the relevant.", `citation_still_lost`) is whole, but what it lost may be close behind
    ("... explain the eleven."): only a confrontation of the same suspect is taken in its place.
    """

    name: PassName = PassName.NBEST

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        first = hearing.first
        if ears.settings.nbest_hypotheses <= 0 or first is None or first.rejected is not None:
            return False
        heard = hearing.current
        # "Could you say that again?" is no card message, but the Host acts on it (the session replays).
        if is_repeat_request(heard.text, heard.message):
            return False
        return not whole_message(heard.message) or citation_still_lost(heard)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        first = hearing.first_transcript
        count = ears.settings.nbest_hypotheses
        if len(first.runners_up) + 1 >= count:
            # The first pass's own beam kept them: no search of its own.
            transcripts = (first, *first.runners_up)[:count]
            hearing.runs.append(PassRun(self.name, transcripts, searched=False))
        else:
            transcripts = ears.recognizer.hypotheses(hearing.audio, ears.vocabulary.prompt, count).transcripts
            hearing.runs.append(PassRun(self.name, transcripts))
        weight = ears.settings.repairs.nbest
        # Only what `choose_hypothesis` could take is understood (each costs about what the first did).
        others = [
            Hypothesis(
                h.raw_text,
                h.avg_logprob,
                hearing.understand(ears, h, repairs=(Correction(CorrectionKind.NBEST, first.raw_text, h.raw_text, weight),)),
            )
            for h in transcripts
            if h.rejected is None and not _no_new_hearing(first.raw_text, h.raw_text)
        ]
        wanted = _confronting(heard.message) if citation_still_lost(heard) else whole_message
        chosen = choose_hypothesis(
            Hypothesis(first.raw_text, first.avg_logprob, heard), others, ears.settings.nbest_behind, wanted
        )
        if chosen is not None:
            hearing.heard = replace(chosen.heard, transcript=heard.transcript)
