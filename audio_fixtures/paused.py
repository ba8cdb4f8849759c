"""Utterances with a real pause inside, 0.3-0.7 s, for the end-of-turn benchmark (issue 15).

`python -m audio_fixtures.paused [--split tune|test]` renders the missing ones into rendered/paused/
(not committed; bench/turn.py renders what it uses) and writes paused.tsv, the list with labels.

Each line is said in two parts with a pause between, as a player who stops to think says it. Two kinds:
- `open`: the first part is not a whole message ("Abel, … where were you at ten?", "Confront Keld
  with … exhibit seven."): the Host must wait;
- `whole`: the first part already is one ("Thwaite, where were you … at ten o'clock?", "Next … round,
  please.", "We accuse Julius Ormerod … with exhibits three, nine and fourteen."): the text alone
  cannot tell, only how it was said.

The voice makes the pause. espeak-ng voices read SSML with a `<break>` of the pause's length inside the
sentence: one synthesis, the sentence's own prosody either side. piper has no break: it says the two
parts as the phrases they are and the pause goes between them; the first part ends on a comma (the
voice carries on, `continuing`) or, for about a third of the `whole` lines, is said as a finished
sentence before an afterthought (`afterthought`). Nothing is spliced into a word or a syllable.

Splits as in the corpus: the phrasings of each group are split between `tune` and `test`, and each
line is said by a voice of its own split (voices.py). The labels are what the whole line means, and
tests/test_paused.py checks them against the engine's classifier.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from audio_fixtures.corpus import FULL_NAME, NUMBER_WORDS, Split
from audio_fixtures.fixtures import FIXTURE_DIR, RENDER_DIR, Fixture, read_audio
from audio_fixtures.voices import VOICE_BY_NAME, Renderer, Voice, pad, voices, write_flac
from voice_host.ears.sound import SAMPLE_RATE, Audio

PAUSED_MANIFEST = FIXTURE_DIR / "paused.tsv"
PAUSED_DIR = RENDER_DIR / "paused"
SEED = 20261227
PAUSE_RANGE = (0.3, 0.7)  # seconds: a player stopping to think mid-sentence

# Who is addressed, as said: (said, key). A subset of the corpus's WHO, first names and surnames.
_NAMES = (
    ("Abel", "thwaite"),
    ("Thwaite", "thwaite"),
    ("Martha", "ruddock"),
    ("Mrs Ruddock", "ruddock"),
    ("Joel", "joel"),
    ("Phoebe", "marsden"),
    ("Miss Marsden", "marsden"),
    ("Reverend Keld", "keld"),
    ("Francis", "keld"),
    ("Mr Ormerod", "ormerod"),
    ("Julius", "ormerod"),
)
# Questions whose first part is already a question: (first part, the rest).
_WHOLE_QUESTIONS = (
    ("where were you", "at ten o'clock?"),
    ("what did you hear", "after supper?"),
    ("did you go down the back stair", "after the dance?"),
    ("who did you see", "in the back passage?"),
    ("what were you doing", "in the library?"),
    ("did you lock the service door", "before you went up?"),
    ("why was the yard door open", "when you came in?"),
    ("did you hear the waits", "singing in the porch?"),
    ("what did you want", "from her?"),
    ("did you touch the silver", "in the plate room?"),
    ("where did you go", "after the dance?"),
    ("what did you see", "from the main stair?"),
    ("did you quarrel with Mrs Blamire", "at supper?"),
    ("who was with you", "at a quarter past ten?"),
)
# Questions after a name and a pause: the whole question is the second part.
_QUESTIONS = (
    "where were you at ten?",
    "what did you hear after supper?",
    "did you go down the back stair?",
    "who did you see in the back passage?",
    "what were you doing in the library?",
    "how did you get mud on your shoes?",
    "did you have a key to the plate room?",
    "what time did you go up to bed?",
    "did you leave the garden door open?",
    "why were your hands wet?",
    "did you hear a door slam?",
    "what was your business with her?",
)
# Free commands said in two parts, the first already the command: (first, rest, command, exhibit or 0).
_WHOLE_COMMANDS = (
    ("Next", "round, please.", "next", 0),
    ("Next", "round.", "next", 0),
    ("Read exhibit {n}", "again, please.", "read", 1),
    ("Statements", "again, please.", "statements", 0),
    ("Pass", "for now.", "pass", 0),
    ("Lies", "please.", "lies", 0),
)


@dataclass(frozen=True)
class PausedLine:
    """One utterance with a pause inside: the fixture (labels, voice, split) and its two parts."""

    fixture: Fixture
    said_first: str  # the words before the pause, as meant (digits): the fixture's `said` is this, a space, the rest
    first: str  # spoken before the pause
    rest: str  # spoken after it
    pause: float  # seconds of the pause the voice is given
    whole_first: bool  # the first part is already a whole message
    style: str  # "continuing" (the voice carries on) or "afterthought" (piper: the first part said as finished)

    @property
    def path(self) -> Path:
        return PAUSED_DIR / f"{self.fixture.id}.flac"


@dataclass(frozen=True)
class _Draft:
    group: str
    phrasing: int  # index of the phrasing inside its group: phrasings are split between tune and test
    first: str
    rest: str
    kind: str
    suspect: str | None
    exhibits: tuple[int, ...]
    command: str | None
    whole_first: bool


def _drafts(rng: random.Random) -> list[_Draft]:
    out: list[_Draft] = []
    names = list(_NAMES)
    for index, question in enumerate(_QUESTIONS):
        for said, key in rng.sample(names, 5):
            out.append(_Draft("name-then-question", index, f"{said},", question, "question", key, (), None, False))
    for index, (first, rest) in enumerate(_WHOLE_QUESTIONS):
        for said, key in rng.sample(names, 5):
            out.append(_Draft("question-then-more", index, f"{said}, {first}", rest, "question", key, (), None, True))
    for index in range(6):
        for said, key in rng.sample(names, 2):
            n = rng.randint(1, 16)
            out.append(
                _Draft(
                    "confront-then-exhibit",
                    index,
                    f"Confront {said} with",
                    f"exhibit {n}.",
                    "confrontation",
                    key,
                    (n,),
                    None,
                    False,
                )
            )
    for index, key in enumerate(FULL_NAME):
        exhibits = tuple(sorted(rng.sample(range(1, 17), 3)))
        listing = f"exhibits {exhibits[0]}, {exhibits[1]} and {exhibits[2]}."
        out.append(
            _Draft(
                "accuse-then-exhibits",
                index,
                f"We accuse {FULL_NAME[key]}:",
                _capital(listing),
                "accusation",
                key,
                exhibits,
                None,
                False,
            )
        )
        out.append(
            _Draft(
                "accuse-then-more",
                index,
                f"We accuse {FULL_NAME[key]}",
                f"with {listing}",
                "accusation",
                key,
                exhibits,
                None,
                True,
            )
        )
    for index, (first, rest, command, with_exhibit) in enumerate(_WHOLE_COMMANDS):
        for _ in range(3):
            n = rng.randint(1, 16)
            exhibits = (n,) if with_exhibit else ()
            out.append(_Draft("command-then-more", index, first.format(n=n), rest, "command", None, exhibits, command, True))
    return out


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _spoken(text: str) -> str:
    """Numbers as words, for the synthesisers (the said text keeps digits)."""
    import re

    return re.sub(r"\b(\d{1,2})\b", lambda m: NUMBER_WORDS[int(m.group(1))], text)


def _split_of(draft: _Draft) -> Split:
    # Within each group, a seeded half of the phrasings is held out for test.
    digest = hashlib.sha256(f"{SEED}|{draft.group}|{draft.phrasing}".encode()).digest()
    return Split.TEST if digest[0] % 2 == 0 else Split.TUNE


def paused_lines() -> list[PausedLine]:
    """Every paused line, tune then test, with its voice and pause (seeded: the same on every machine)."""
    rng = random.Random(SEED)
    drafts = _drafts(rng)
    tune_texts = {f"{d.first} {d.rest}" for d in drafts if _split_of(d) is Split.TUNE}
    out: list[PausedLine] = []
    for split in (Split.TUNE, Split.TEST):
        deck: list[Voice] = []
        split_voices = list(voices(split))
        for draft in (d for d in drafts if _split_of(d) is split):
            if split is Split.TEST and f"{draft.first} {draft.rest}" in tune_texts:
                continue  # test holds only texts tune does not have (the pause elsewhere is not enough)
            if not deck:
                deck = list(split_voices)
                rng.shuffle(deck)
            voice = deck.pop()
            said = f"{draft.first} {draft.rest}"
            key = hashlib.sha256(f"{split.value}|{said}|{voice.name}".encode()).hexdigest()[:8]
            pause = round(rng.uniform(*PAUSE_RANGE), 2)
            style = "afterthought" if voice.engine == "piper" and draft.whole_first and rng.random() < 0.35 else "continuing"
            fixture = Fixture(
                id=f"paused-{split.value}-{key}",
                said=said,
                spoken=_spoken(said),
                voice=voice.name,
                kind=draft.kind,
                suspect=draft.suspect,
                exhibits=draft.exhibits,
                command=draft.command,
                tags=(draft.group, "whole_first" if draft.whole_first else "open_first", style),
                split=split,
            )
            out.append(
                PausedLine(fixture, draft.first, _spoken(draft.first), _spoken(draft.rest), pause, draft.whole_first, style)
            )
    return out


def _trim(audio: Audio, below_peak_db: float = 40.0) -> Audio:
    """The audio from its first to its last 10 ms frame within `below_peak_db` of the loudest."""
    frame = 160
    frames = len(audio) // frame
    power = np.mean(np.square(audio[: frames * frame].reshape(frames, frame), dtype=np.float64), axis=1)
    db = 10 * np.log10(power + 1e-12)
    active = np.flatnonzero(db > db.max() - below_peak_db)
    return audio[active[0] * frame : (active[-1] + 1) * frame]


def render_line(line: PausedLine, renderer: Renderer) -> tuple[Audio, float]:
    """The clean render (seeded padding, peak 0.7) and where the words after the pause start, in seconds."""
    seed = int.from_bytes(hashlib.sha256(line.fixture.id.encode()).digest()[:4], "little")
    rng = random.Random(seed)
    voice = VOICE_BY_NAME[line.fixture.voice]
    lead = rng.uniform(0.25, 0.5)
    if voice.engine == "espeak":
        ssml = f'<speak>{line.first}<break time="{int(line.pause * 1000)}ms"/>{line.rest}</speak>'
        speech = _trim(renderer.render(ssml, voice, seed=seed, ssml=True))
        resume = _resume_after_break(speech, line.pause)
    else:
        first_text = line.first if line.style == "continuing" else line.first.rstrip(",:") + "."
        first = _trim(renderer.render(first_text, voice, seed=seed))
        rest = _trim(renderer.render(_capital(line.rest) if line.style == "afterthought" else line.rest, voice, seed=seed + 1))
        gap = np.zeros(int(line.pause * SAMPLE_RATE), dtype=np.float32)
        speech = np.concatenate([first, gap, rest]).astype(np.float32)
        resume = (len(first) + len(gap)) / SAMPLE_RATE
    audio = pad(speech, (lead, rng.uniform(0.3, 0.5)))
    peak = float(np.max(np.abs(audio))) or 1.0
    quantised = (np.clip(audio / peak * 0.7, -1, 1) * 32767).astype(np.int16)
    return np.asarray(quantised.astype(np.float32) / 32767, dtype=np.float32), lead + resume


def _resume_after_break(speech: Audio, pause: float) -> float:
    """Where speech starts again after the longest quiet run (the break) inside the trimmed render."""
    frame = 160
    frames = len(speech) // frame
    power = np.mean(np.square(speech[: frames * frame].reshape(frames, frame), dtype=np.float64), axis=1)
    quiet = 10 * np.log10(power + 1e-12) < 10 * np.log10(power.max() + 1e-12) - 35.0
    best, run = (0, 0), 0
    for index, is_quiet in enumerate(quiet):
        run = run + 1 if is_quiet else 0
        if run > best[1] - best[0]:
            best = (index - run + 1, index + 1)
    if (best[1] - best[0]) * frame / SAMPLE_RATE < 0.5 * pause:  # (espeak-ng fades the last word into the break)
        raise ValueError(f"no break of {pause:.2f} s found in the render")
    return best[1] * frame / SAMPLE_RATE


class PausedAudio:
    """Clean paused renders (from rendered/paused/, rendered when missing) and where each resumes."""

    def __init__(self) -> None:
        self._renderer: Renderer | None = None
        self._resume: dict[str, float] = _read_resume_points()

    def clean(self, line: PausedLine) -> tuple[Audio, float]:
        if not line.path.exists() or line.fixture.id not in self._resume:
            self._renderer = self._renderer or Renderer()
            audio, resume = render_line(line, self._renderer)
            PAUSED_DIR.mkdir(parents=True, exist_ok=True)
            write_flac(line.path, audio)
            self._resume[line.fixture.id] = resume
            _write_resume_points(self._resume)
        return read_audio(line.path), self._resume[line.fixture.id]


_RESUME_FILE = PAUSED_DIR / "resume.tsv"


def _read_resume_points() -> dict[str, float]:
    if not _RESUME_FILE.exists():
        return {}
    rows = _RESUME_FILE.read_text(encoding="utf-8").splitlines()
    return {row.split("\t")[0]: float(row.split("\t")[1]) for row in rows if row}


def _write_resume_points(points: dict[str, float]) -> None:
    _RESUME_FILE.write_text("".join(f"{key}\t{value:.4f}\n" for key, value in sorted(points.items())), encoding="utf-8")


_COLUMNS = ("id", "split", "voice", "pause", "first", "rest", "kind", "suspect", "exhibits", "command", "tags")


def write_manifest(lines: list[PausedLine], path: Path = PAUSED_MANIFEST) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, delimiter="\t", lineterminator="\n")
        writer.writerow(_COLUMNS)
        for line in lines:
            f = line.fixture
            writer.writerow(
                [
                    f.id,
                    f.split.value,
                    f.voice,
                    f"{line.pause:.2f}",
                    line.first,
                    line.rest,
                    f.kind,
                    f.suspect or "",
                    " ".join(map(str, f.exhibits)),
                    f.command or "",
                    " ".join(f.tags),
                ]
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=[s.value for s in Split], default=None)
    args = parser.parse_args()
    every = paused_lines()
    write_manifest(every)
    sounds = PausedAudio()
    chosen = [line for line in every if args.split is None or line.fixture.split.value == args.split]
    for line in chosen:
        sounds.clean(line)
    print(f"{len(chosen)} paused lines ready in {PAUSED_DIR.name}/; {PAUSED_MANIFEST.name} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
