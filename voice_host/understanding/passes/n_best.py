"""The n-best pass: the beam's other hypotheses, understood, when the best one is not a whole card message."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from voice_host.understanding.host_requests import is_repeat_request
from voice_host.understanding.normalise import NUMBER_WORD_VALUES, Correction, CorrectionKind
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun, whole_message
from voice_host.understanding.understand import Heard

if TYPE_CHECKING:
    from collections.abc import Sequence


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


def choose_hypothesis(first: Hypothesis, others: Sequence[Hypothesis], behind: float) -> Hypothesis | None:
    """The hypothesis to take instead of the first transcript, or None.

    Only a hypothesis whose understanding is a whole card message (`whole_message`) and that Whisper
    scored no more than `behind` below the best of all (the first transcript included) qualifies; of
    those, the one Whisper scored best. Words the first transcript already had, however written
    (`said_words`), are never a new choice.
    """
    usable = [h for h in others if h.heard.rejected is None and said_words(h.said) != said_words(first.said)]
    best = max([first.avg_logprob, *(h.avg_logprob for h in usable)])
    whole = [h for h in usable if whole_message(h.heard.message) and h.avg_logprob >= best - behind]
    return max(whole, key=lambda h: h.avg_logprob, default=None)


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
    """

    name: PassName = PassName.NBEST

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        first = hearing.first
        if ears.settings.nbest_hypotheses <= 0 or first is None or first.rejected is not None:
            return False
        heard = hearing.current
        # "Could you say that again?" is no card message, but the Host acts on it (the session replays).
        return not whole_message(heard.message) and not is_repeat_request(heard.text, heard.message)

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
        heard_first = said_words(first.raw_text)
        others = [
            Hypothesis(
                h.raw_text,
                h.avg_logprob,
                hearing.understand(ears, h, repairs=(Correction(CorrectionKind.NBEST, first.raw_text, h.raw_text, weight),)),
            )
            for h in transcripts
            if h.rejected is None and said_words(h.raw_text) != heard_first
        ]
        chosen = choose_hypothesis(Hypothesis(first.raw_text, first.avg_logprob, heard), others, ears.settings.nbest_behind)
        if chosen is not None:
            hearing.heard = replace(chosen.heard, transcript=heard.transcript)
