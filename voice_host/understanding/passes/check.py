"""The check pass: an unbiased hearing of a costly message that names a suspect, so that a name only the biased pass
produced counts as uncertain.
"""

from __future__ import annotations

import difflib
import math
import re
import time
from dataclasses import dataclass

from voice_host.ears.side_decode import SideRequest
from voice_host.understanding.names import NamesMatcher
from voice_host.understanding.passes.shared import Ears, Hearing, PassName, PassRun
from voice_host.understanding.understand import repaired_text


@dataclass(frozen=True)
class CheckPass:
    """A costly message naming a suspect that would go through: was the name heard without the prompt?

    Here the heard message is the first pass's own: what a slot, focus or near-voice pass finds is a
    repair, so a costly result from them is confirmed already and never reaches the check. A name the
    unprompted decode did not write is uncertain (the message is asked about first) unless it was
    heard in its place (`name_heard_in_place`): unprompted, Whisper misspells the names it does not know.
    """

    name: PassName = PassName.CHECK

    def start_ahead(self, hearing: Hearing, ears: Ears) -> None:
        """Start the unprompted decode beside the first pass's: whether it is needed is known only after it."""
        if ears.beside is not None:
            ears.beside.start(hearing.audio, SideRequest(ears.settings.check_beam_size))

    def applies(self, hearing: Hearing, ears: Ears) -> bool:
        heard = hearing.current
        message = heard.message
        named = hearing.matcher.suspects_named(heard.text) if heard.usable else ()
        return message is not None and message.costly and not heard.needs_confirmation and bool(named)

    def run(self, hearing: Hearing, ears: Ears) -> None:
        heard = hearing.current
        hearing.unchecked, hearing.unchecked_seconds = heard, time.perf_counter() - hearing.started
        named = hearing.matcher.suspects_named(heard.text)
        request = SideRequest(ears.settings.check_beam_size)
        plain = ears.beside.take(hearing.audio, request) if ears.beside is not None else None
        if plain is None:
            plain = ears.recognizer.transcribe(hearing.audio, initial_prompt="", hotwords=None, beam_size=request.beam_size)
        hearing.runs.append(PassRun(self.name, (plain,)))
        plain_text = repaired_text(plain.text, hearing.matcher, ears.settings)[0] if plain.rejected is None else ""
        plain_names = set(hearing.matcher.suspects_named(plain_text))
        uncertain = tuple(key for key in named if key not in plain_names)
        # Unprompted, Whisper misspells a name it does not know ("Kailt", "Ables wait", "Vickr"): a name
        # the closed set hears in its place counts as heard. Not when the unprompted pass wrote someone
        # else's name: then the two passes disagree on who it was. A name only the matcher made of the
        # unprompted words ("Parsons" put right as Marsden, "Miss Martian" as Martha) is its guess, and
        # the closed set, which scores all six there, judges it better.
        said = plain.raw_text if plain.rejected is None else ""
        if uncertain and set(hearing.matcher.suspects_named(said)) <= set(named):
            uncertain = tuple(key for key in uncertain if not name_heard_in_place(hearing, ears, key, said))
        if uncertain:
            hearing.heard = hearing.understand(ears, hearing.first_transcript, uncertain)


_WORD = re.compile(r"[\w']+")


def words_in_place(first: str, start: int, end: int, plain: str) -> tuple[str, ...]:
    """The unprompted transcript's words where the first transcript has `first[start:end]` (a name).

    The two transcripts' words are aligned (difflib, the standard library's longest matching blocks,
    case folded); what the plain transcript has in place of the name's words ("Ables wait" for "Abel
    Thwaite"), or () when it has nothing there ("When did you come man?" for "Julius, when did you
    come man?").
    """
    spans = [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(first)]
    named = [i for i, (a, b, _) in enumerate(spans) if a < end and b > start]
    if not named:
        return ()
    theirs = [m.group(0) for m in _WORD.finditer(plain)]
    matcher = difflib.SequenceMatcher(a=[w for _, _, w in spans], b=[w.lower() for w in theirs], autojunk=False)
    found: list[str] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "delete" and i1 <= named[-1] and i2 > named[0]:
            found.extend(theirs[j1:j2])
    return tuple(found)


def _spoken_name_candidates(matcher: NamesMatcher, capital: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The six's one-word names and roles as continuations, each with the case of the word heard."""
    targets = [*(t for t in matcher.targets if " " not in t.word), *matcher.role_targets]
    cased = [f" {t.word[:1].upper() if capital else t.word[:1].lower()}{t.word[1:]}" for t in targets]
    return tuple(cased), tuple(t.suspect for t in targets)


def name_heard_in_place(hearing: Hearing, ears: Ears, suspect: str, plain: str) -> bool:
    """Whether the suspect's name, which only the prompted pass wrote, was said where it wrote it.

    Two things must hold. The unprompted pass heard words in the name's place (`words_in_place`):
    a name the prompt made out of nothing (a pause, another talker) has none. And the six's names and
    roles, scored unprompted after the words the first pass wrote before the name (the closed set's
    scorer on the encoder output already made), put this suspect's first by `check_name_margin` at
    `check_name_floor` or better.
    """
    first = hearing.first_transcript.raw_text
    span = hearing.matcher.first_mention(first, suspect)
    if span is None or not words_in_place(first, *span, plain):
        return False
    settings = ears.settings
    candidates, keys = _spoken_name_candidates(hearing.matcher, first[span[0]].isupper())
    scores = ears.recognizer.score_continuations(
        hearing.audio,
        first[: span[0]].rstrip(),
        candidates,
        keep_within=settings.check_name_margin,
        floor=settings.check_name_floor,
    )
    hearing.runs.append(PassRun(PassName.CHECK, (), (scores,)))
    best: dict[str, float] = {}
    for key, score in zip(keys, scores.scores, strict=True):
        best[key] = max(best.get(key, -math.inf), score)
    own = best.pop(suspect, -math.inf)
    return own >= settings.check_name_floor and own - max(best.values(), default=-math.inf) >= settings.check_name_margin
