"""The recognition cascade: the passes that hear one utterance, as data, run by one loop.

Each pass is a small object that says when it applies (`applies`) and what it does (`run`), in a
module of its own under `passes/` (what they share: `passes/shared.py`); the
cascade (`RecognitionPasses.passes`) is the list of them in order, and `RecognitionPasses.hear` runs
every pass that applies, in turn, on one `Hearing` (the utterance, the transcripts so far and what
the table is taken to mean). Text rules stay in `understand.py` (normalise, names); every threshold
is in `UnderstandingSettings`.

The passes, in order (with the prompt biasing, the default):
- first: the biased pass (the case's names, titles and commands in the initial prompt; never numbers);
- closed set, when the transcript looks like a command with an argument (read E{n}, confront NAME
  with E{n}, answers NAME): the 16 exhibits (or the six suspects, when the name was lost) are scored
  against the audio on the encoder output already made, in batched decoder calls (those that cannot
  come within the margin of the best are not followed to their end); the best fills
  an empty slot, as a repair, so a costly result is confirmed (one that leads by less than the margin
  is kept aside for the narrow pick, last); a confrontation that lost its
  suspect, its exhibit or both is filled slot by slot (suspect, then exhibit: one small pass each);
  a question "Ask …" whose words named no one has its addressee scored the same way;
- name slot, when a command the phrase grammar reads in the words had its {name} heard as words that
  name no one ("Remind us what the person told us."): the six's roles (after "the") or names scored in
  the name's place, and the best put there, as a repair;
- lost citation, when a question to a suspect has the card's words for citing an exhibit ("exhibit",
  "explain") but no number: the 16 exhibits scored after its words; the best makes it a
  confrontation (a repair), else the question is asked about first; and when any other message that
  is not whole says "exhibit" with no number after it: the best number, put in place of the words
  heard for it, is taken only if that makes the message whole (a repair);
- focus, when a transcript with the game's words in it gave the Host nothing to act on: the first
  pass's words timed (Whisper's word alignment, no second decode) and only the loudest speaker's
  words kept (the one talking to the laptop, not the room); a repair too;
- slower, when what the transcript was taken as is still not a whole card message (and not a
  request to the Host) and no other voice is in the gaps: Whisper again on the utterance played a
  tenth slower and lower, and a whole message heard there is taken as a repair (a costly one is
  confirmed);
- near voice, when the transcript still gives the Host nothing to act on and Whisper was not sure of
  it: Whisper again on the audio with every moment quieter than the nearest voice turned down
  (`NearVoiceGate`); a repair too;
- accused's exhibits, when an accusation names its accused but what was heard after the name is no
  exhibit list ("We accuse Phoebe Marsden, he says."): the sixteen exhibits scored slot by slot after
  the name, each slot one batched call, until the list's end wins (the card reads it back);
- addressee, when the transcript still gives nothing (or a question to no one) but reads as a
  question or confrontation put to someone whose name was lost ("Sir Goyer, how did you …", "Er,
  explain E9."): the six's names and roles scored in the head's place; the best gets the message,
  always asked about first;
- whole command, when a short utterance (an empty or rejected transcript, or a few words) still gives
  the Host nothing: the card's free commands ("Next", "Read E{n}", "Answers" …) and the transcript's
  own words scored against the audio in one batched decoder pass over their prefix trie; the best
  command is taken, as a repair, only when it fits, stands out from the next and comes close to the
  transcript, and confirmed when its lead is narrow ("Answers" then finds its name as a closed set);
- phrased command, when an utterance of a few words still gives nothing: the phrase grammar's command
  phrasings nearest its words, their slot filled from them, scored against the audio;
- phrased confrontation, when it still gives nothing but names one of the six and one exhibit number
  after them ("Joel Blamire, it's clearly 14."): the card's confrontations of that one with that
  exhibit scored against the audio; the best is always asked about first;
- n-best, when what the transcript was taken as is still not a whole card message (table talk, a
  command or question that lost its argument) and not "say that again": the other hypotheses the
  first pass's beam search kept are understood, and the best that is a whole message, close enough
  behind the best score and in other words than the transcript's, is taken as a repair (a costly one
  is confirmed). Last but one, since it takes what the passes made for one shape of message miss;
- narrow pick, when no pass made a whole message but the closed set's best led the next by less than
  its margin (`closed_set_ask_margin` or more): that fill is taken, asked about first even if free;
- check, when the transcript names a suspect in a costly message that would otherwise go through: an
  unbiased pass, and a name only the biased pass produced counts as uncertain, unless the unbiased
  pass had words in its place and the six's names scored there (a closed set) put it clearly first.
  Given a `SideDecoder`, its unbiased decode starts before the first pass, on a second model instance
  (`StartsAhead`), and is taken when the check runs.
The slot pass (`SlotPass`: Whisper decodes again continuing from the verb, "Read E") did the
closed set's work before it, with up to three decodes; it is kept as a pass one can list instead.
See docs/benchmarks.md ("Voice understanding") for the measurements behind these choices.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from voice_host.ears.near_voice import NearVoiceGate
from voice_host.understanding.passes.accused_exhibits import AccusedExhibitsPass
from voice_host.understanding.passes.addressee import AddresseePass
from voice_host.understanding.passes.check import CheckPass
from voice_host.understanding.passes.closed_set import ClosedSetPass
from voice_host.understanding.passes.first import FirstPass
from voice_host.understanding.passes.focus import FocusPass
from voice_host.understanding.passes.lost_citation import LostCitationPass
from voice_host.understanding.passes.n_best import NBestPass
from voice_host.understanding.passes.name_slot import NameSlotPass
from voice_host.understanding.passes.narrow_pick import NarrowPickPass
from voice_host.understanding.passes.near_voice import NearVoicePass
from voice_host.understanding.passes.phrased_command import PhrasedCommandPass
from voice_host.understanding.passes.phrased_confrontation import PhrasedConfrontationPass
from voice_host.understanding.passes.shared import (
    Biasing,
    Ears,
    Hearing,
    PassName,
    PassRun,
    RecognitionPass,
    StartsAhead,
    Vocabulary,
)
from voice_host.understanding.passes.slower import SlowerPass
from voice_host.understanding.passes.whole_command import WholeCommandPass
from voice_host.understanding.understand import Classifier, Heard, Understander

if TYPE_CHECKING:
    from voice_host.ears.asr import Recognizer, SlotScores, Transcript
    from voice_host.ears.side_decode import SideDecoder
    from voice_host.ears.sound import Audio


def cascade_for(biasing: Biasing, without: frozenset[PassName] = frozenset()) -> tuple[RecognitionPass, ...]:
    """The passes for a biasing choice, in the order they run; `without` takes passes out (a benchmark's "before"
    for one pass: the Host runs them all). The first pass is never taken out."""
    if PassName.FIRST in without:
        raise ValueError("the first pass is what every other pass starts from")
    every = _cascade(biasing)
    return tuple(step for step in every if step.name not in without)


def _cascade(biasing: Biasing) -> tuple[RecognitionPass, ...]:
    if biasing is Biasing.NONE:
        return (FirstPass(prompted=False),)
    passes: tuple[RecognitionPass, ...] = (
        FirstPass(),
        ClosedSetPass(),
        NameSlotPass(),
        LostCitationPass(),
        FocusPass(),
        SlowerPass(),
        NearVoicePass(),
        AccusedExhibitsPass(),
        AddresseePass(),
        WholeCommandPass(),
        PhrasedCommandPass(),
        PhrasedConfrontationPass(),
        NBestPass(),
        NarrowPickPass(),
    )
    return (*passes, CheckPass()) if biasing is Biasing.PROMPT_CHECKED else passes


@dataclass(frozen=True)
class PassTime:
    """How long one pass that applied took, wall time (its decodes, scoring and understanding)."""

    name: PassName
    seconds: float


@dataclass(frozen=True)
class Recognised:
    """What the table meant, and every pass that ran to find it."""

    heard: Heard
    runs: tuple[PassRun, ...]
    seconds: float = 0.0  # recognition and understanding, all passes
    first: Heard | None = None  # what was meant before the check pass (set when a check ran)
    first_seconds: float = 0.0
    # Processor time of the whole process while the passes ran (every thread: CTranslate2's own too).
    # On a loaded machine this, not `seconds`, says what the passes cost.
    processor_seconds: float = 0.0
    timings: tuple[PassTime, ...] = ()  # each pass that applied, and its wall time
    abandoned: bool = False  # stopped between passes, its result no longer wanted (`RecognitionPasses.hear`)

    def timings_text(self) -> str:
        """The passes that applied and how long each took, for a log line: "first 0.36, addressee 1.42"."""
        return ", ".join(f"{timing.name.value} {timing.seconds:.2f}" for timing in self.timings)

    def _of(self, name: PassName) -> tuple[Transcript, ...]:
        return tuple(transcript for run in self.runs if run.name is name for transcript in run.transcripts)

    def _one(self, name: PassName) -> Transcript | None:
        found = self._of(name)
        return found[0] if found else None

    @property
    def transcript(self) -> Transcript:
        """The first pass's transcript."""
        first = self._one(PassName.FIRST)
        assert first is not None
        return first

    @property
    def slots(self) -> tuple[Transcript, ...]:
        """The slot pass's transcripts, one per prefix tried."""
        return self._of(PassName.SLOT)

    @property
    def focus(self) -> Transcript | None:
        """The first transcript with its words timed, when a focus pass ran."""
        return self._one(PassName.FOCUS)

    @property
    def near(self) -> Transcript | None:
        return self._one(PassName.NEAR_VOICE)

    @property
    def unbiased(self) -> Transcript | None:
        """The check pass's transcript, when one ran."""
        return self._one(PassName.CHECK)

    @property
    def transcripts(self) -> tuple[Transcript, ...]:
        """Every recognition pass that ran, in order."""
        return tuple(transcript for run in self.runs for transcript in run.transcripts)

    @property
    def scores(self) -> tuple[SlotScores, ...]:
        """What the closed-set pass scored, when it ran."""
        return tuple(scores for run in self.runs for scores in run.scores)

    @property
    def passes(self) -> int:
        """Whisper's passes over the audio: decodes (one per n-best list), word timings and closed-set scorings."""
        return sum(run.decodes for run in self.runs) + len(self.scores)

    @property
    def recognition_seconds(self) -> float:
        """Time spent in Whisper, all passes (`seconds` adds understanding)."""
        return sum(t.seconds for t in self.transcripts) + sum(s.seconds for s in self.scores)


@dataclass
class RecognitionPasses:
    """Runs the cascade for one utterance with the chosen biasing: every pass that applies, in order."""

    recognizer: Recognizer
    vocabulary: Vocabulary
    understander: Understander
    biasing: Biasing = Biasing.PROMPT_CHECKED
    near_voice: NearVoiceGate = NearVoiceGate()
    passes: tuple[RecognitionPass, ...] = ()  # () means `cascade_for(biasing)`
    # A second model instance for a pass that decodes beside the first (the check pass); None: every
    # decode after the first pass's.
    beside: SideDecoder | None = None
    ears: Ears = field(init=False)
    ahead: tuple[StartsAhead, ...] = field(init=False)  # the passes that start a decode beside the first pass

    def __post_init__(self) -> None:
        if not self.passes:
            self.passes = cascade_for(self.biasing)
        self.ears = Ears(self.recognizer, self.vocabulary, self.understander, self.near_voice, self.beside)
        self.ahead = tuple(step for step in self.passes if isinstance(step, StartsAhead)) if self.beside else ()

    def hear(
        self, audio: Audio, classifier: Classifier, seats: Iterable[str] = (), abandoned: Callable[[], bool] | None = None
    ) -> Recognised:
        """Every pass that applies, in turn. `abandoned` is asked before each pass after the first: once it says
        the result is no longer wanted (the listener's early run, when speech went on), the rest are skipped, so
        the worker is free for the whole utterance sooner (a long cascade held it up to 2 s live)."""
        seated = tuple(seats)
        matcher = self.understander.matcher.with_protected(seated)
        hearing = Hearing(audio, classifier, seated, matcher, time.perf_counter())
        processor_started = time.process_time()
        for early in self.ahead:
            early.start_ahead(hearing, self.ears)
        timings: list[PassTime] = []
        stopped = False
        for step in self.passes:
            if timings and abandoned is not None and abandoned():
                stopped = True
                break
            if step.applies(hearing, self.ears):
                step_started = time.perf_counter()
                step.run(hearing, self.ears)
                timings.append(PassTime(step.name, time.perf_counter() - step_started))
        return Recognised(
            hearing.current,
            tuple(hearing.runs),
            time.perf_counter() - hearing.started,
            hearing.unchecked,
            hearing.unchecked_seconds,
            time.process_time() - processor_started,
            tuple(timings),
            stopped,
        )
