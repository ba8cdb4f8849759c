"""Render the spoken fixtures: `python -m audio_fixtures.make_fixtures` (deterministic, seeded).

Needs the piper voice package (in the project's dependencies) and Debian's espeak-ng. Writes
audio_fixtures/clean/*.flac (16 kHz mono) and audio_fixtures/manifest.tsv. The room and party
conditions are derived at run time by `fixtures.degrade`, never stored.
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from audio_fixtures.fixtures import CLEAN_DIR, MANIFEST, Fixture, load_manifest, write_manifest
from audio_fixtures.voices import VOICES as VOICES_ALL
from audio_fixtures.voices import Renderer, pad, write_flac
from voice_host.loop.casefiles import load_bundled_case

SEED = 20261224
WORDS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "eleven",
    12: "twelve",
    13: "thirteen",
    14: "fourteen",
    15: "fifteen",
    16: "sixteen",
}

# Every alias on the card's NAMES line and each full name, by suspect key, from the bundled case.
_SUSPECTS = load_bundled_case().suspects
ALIASES: dict[str, tuple[str, ...]] = {suspect.key: suspect.aliases for suspect in _SUSPECTS}
FULL = {suspect.key: suspect.name for suspect in _SUSPECTS}
TITLED = {
    "thwaite": "Mr Thwaite",
    "ruddock": "Mrs Ruddock",
    "joel": "Joel",
    "marsden": "Miss Marsden",
    "keld": "Reverend Keld",
    "ormerod": "Mr Ormerod",
}


@dataclass(frozen=True)
class Line:
    said: str
    kind: str
    suspect: str | None = None
    exhibits: tuple[int, ...] = ()
    command: str | None = None
    spoken: str | None = None  # what the synthesiser is given, when it differs from `said`
    tags: tuple[str, ...] = ()


def _alias_phrase(alias: str) -> str:
    """How an alias is said to someone's face: the role words take "the"."""
    return alias if alias[:1].isupper() else f"the {alias}"


QUESTION_TAILS = (
    "where were you at ten?",
    "what did you hear after supper?",
    "did you go down the back stair?",
    "who did you see in the back passage?",
    "when did you last see Mrs Blamire?",
    "why was the yard door open?",
    "what were you doing in the library?",
    "how did you get mud on your shoes?",
)


HOST_REQUESTS = frozenset(
    {
        "Who killed her, though?",
        "I think we should look at the timeline again.",
        "Whose turn is it now?",
        "Shall we go round the table again?",
    }
)


def lines() -> list[Line]:
    out: list[Line] = []
    # Commands, said alone.
    for word in ("next", "save", "pass", "statements", "lies", "give up", "yes", "no"):
        out.append(Line(word.capitalize() + ".", "command", command=word, tags=("command",)))
    for said in ("Next, please.", "Okay, next.", "We give up.", "Yes.", "No."):
        command = {"Next, please.": "next", "Okay, next.": "next", "We give up.": "give up"}.get(said)
        command = command or said.lower().rstrip(".")
        out.append(Line(said, "command", command=command, tags=("command",)))
    for n in (1, 3, 4, 7, 12, 16):
        out.append(Line(f"Read E{n}.", "command", exhibits=(n,), command="read", spoken=f"Read E {WORDS[n]}."))
    for n in (2, 9):
        out.append(
            Line(
                f"Read exhibit {n}.",
                "command",
                exhibits=(n,),
                command="read",
                spoken=f"Read exhibit {WORDS[n]}.",
            )
        )
    for key, alias in (
        ("thwaite", "Thwaite"),
        ("ruddock", "Martha"),
        ("joel", "Joel"),
        ("marsden", "Phoebe"),
        ("keld", "Keld"),
        ("ormerod", "Ormerod"),
    ):
        out.append(Line(f"Answers {alias}.", "command", suspect=key, command="answers", tags=("command", "name")))

    # Questions to each suspect by every alias, in the card's ways of putting a question.
    tail_index = 0
    for key, aliases in ALIASES.items():
        for alias in aliases:
            tail = QUESTION_TAILS[tail_index % len(QUESTION_TAILS)]
            tail_index += 1
            phrase = _alias_phrase(alias)
            form = tail_index % 3
            if form == 0:
                said = f"{phrase[0].upper()}{phrase[1:]}, {tail}"
            elif form == 1:
                said = f"Ask {phrase} {tail}"
                said = said.replace(" did you ", " did you ")
            else:
                said = f"Question for {phrase}: {tail}"
            out.append(Line(said, "question", suspect=key, tags=("question", "name")))
    for key in ALIASES:
        out.append(
            Line(
                f"{FULL[key]}, where were you at half past nine?",
                "question",
                suspect=key,
                tags=("question", "name", "time"),
            )
        )
        out.append(
            Line(
                f"{TITLED[key]}, what did you do at ten o'clock?",
                "question",
                suspect=key,
                tags=("question", "name", "time"),
            )
        )
        out.append(
            Line(
                f"To {ALIASES[key][0]}: did you hear the waits?",
                "question",
                suspect=key,
                tags=("question", "name"),
            )
        )
    out.append(
        Line(
            "Keld, where were you at 10.35?",
            "question",
            suspect="keld",
            spoken="Keld, where were you at ten thirty five?",
            tags=("question", "name", "time"),
        )
    )
    out.append(
        Line(
            "Thwaite, what did you do at quarter to eleven?",
            "question",
            suspect="thwaite",
            tags=("question", "name", "time"),
        )
    )
    out.append(
        Line(
            "Ormerod, did you see anyone at twenty past ten?",
            "question",
            suspect="ormerod",
            tags=("question", "name", "time"),
        )
    )

    # "... , NAME?" at the end, with you or your.
    for key, tail in (
        ("thwaite", "Where were you at ten"),
        ("ruddock", "What did you hear"),
        ("joel", "Why did you go out"),
        ("marsden", "Who did you see on the stair"),
        ("keld", "When did you come in"),
        ("ormerod", "What was in your letter"),
    ):
        out.append(Line(f"{tail}, {ALIASES[key][0]}?", "question", suspect=key, tags=("question", "name")))
    for key, tail in (
        ("thwaite", "where did you find her"),
        ("ruddock", "who was in the kitchen at ten"),
        ("joel", "what did you want from your aunt"),
        ("marsden", "why were you on the back stair"),
        ("keld", "did you hear the yard door"),
        ("ormerod", "what business brought you here"),
    ):
        out.append(Line(f"Ask {FULL[key]} {tail}.", "question", suspect=key, tags=("question", "name")))
    # Confrontations: every exhibit 1-16, said both ways ("E seven" and "exhibit seven").
    keys = list(ALIASES)
    for n in range(1, 17):
        key_a = keys[n % 6]
        key_b = keys[(n + 3) % 6]
        name_a = ALIASES[key_a][0]
        name_b = ALIASES[key_b][0] if n % 2 else FULL[key_b]
        out.append(
            Line(
                f"Confront {name_a} with E{n}.",
                "confrontation",
                suspect=key_a,
                exhibits=(n,),
                spoken=f"Confront {name_a} with E {WORDS[n]}.",
                tags=("confrontation", "name"),
            )
        )
        out.append(
            Line(
                f"Confront {name_b} with exhibit {n}.",
                "confrontation",
                suspect=key_b,
                exhibits=(n,),
                spoken=f"Confront {name_b} with exhibit {WORDS[n]}.",
                tags=("confrontation", "name"),
            )
        )

    # Accusations (before round A the engine refuses them, but they are still taken as accusations).
    for key, exhibits in (
        ("thwaite", (3, 7, 12)),
        ("ruddock", (2, 9)),
        ("joel", (5, 11, 14)),
        ("marsden", (6,)),
        ("keld", (1, 8, 13, 16)),
        ("ormerod", (4, 10, 15)),
    ):
        cited = ", ".join(f"E{n}" for n in exhibits)
        spoken_cited = ", ".join(f"E {WORDS[n]}" for n in exhibits)
        out.append(
            Line(
                f"We accuse {FULL[key]}: {cited}.",
                "accusation",
                suspect=key,
                exhibits=exhibits,
                spoken=f"We accuse {FULL[key]}: {spoken_cited}.",
                tags=("accusation", "name"),
            )
        )

    # Table talk: the table conferring, with the ordinary words a careless matcher would rewrite.
    for said in (
        "Who killed her, though?",
        "Right, so what do we know about the plate room?",
        "I was able to follow that, just about.",
        "The waits came up the lane at nine.",
        "I think we should look at the timeline again.",
        "Hang on, let me write that down.",
        "That makes no sense at all.",
        "Whose turn is it now?",
        "Somebody called the house before supper.",
        "The table was laid for six.",
        "Could the yard door have been open all night?",
        "I don't trust any of them.",
        "We still have two questions left.",
        "It has to be someone who knew the house.",
        "Wait for it, the next round will tell us.",
        "She died between ten and half past ten.",
        "The carol singers left at a quarter to ten.",
        "Let's think about who had a key.",
        "Number one suspect for me is still open.",
        "Maybe the letter matters more than we think.",
        "I need a cup of tea.",
        "Shall we go round the table again?",
    ):
        # A request to the Host or a rules question is "other" to the card (rules 2 and 8), still free.
        kind = "other" if said in HOST_REQUESTS else "table_talk"
        out.append(Line(said, kind, tags=("table_talk", "never_rewrite")))

    # Names mispronounced on purpose: the speaker says a near miss of the name.
    for said, spoken, key in (
        ("Ask Ruddock where she was at ten.", "Ask Ruddick where she was at ten.", "ruddock"),
        ("Thwaite, did you lock the plate room?", "Thwait, did you lock the plate room?", "thwaite"),
        ("Ormerod, why did you come up from town?", "Ormeride, why did you come up from town?", "ormerod"),
        ("Marsden, where were you at ten?", "Marston, where were you at ten?", "marsden"),
        ("Ask Keld what he heard in the hall.", "Ask Kelt what he heard in the hall.", "keld"),
        ("Joel, did you see your aunt after supper?", "Joe, did you see your aunt after supper?", "joel"),
        ("Question for Phoebe: where did you go?", "Question for Feebee: where did you go?", "marsden"),
        ("Abel, why was the service door open?", "Able, why was the service door open?", "thwaite"),
    ):
        out.append(Line(said, "question", suspect=key, spoken=spoken, tags=("question", "name", "misheard")))
    for said, spoken, key, n in (
        ("Confront Thwaite with E7.", "Confront Thwaite with ee seven.", "thwaite", 7),
        ("Confront Ruddock with E16.", "Confront Ruddick with exhibit sixteen.", "ruddock", 16),
    ):
        out.append(
            Line(
                said,
                "confrontation",
                suspect=key,
                exhibits=(n,),
                spoken=spoken,
                tags=("confrontation", "name", "misheard"),
            )
        )
    return out


# The eight voices these fixtures were rendered with (the first eight of voices.VOICES, in this order:
# the seeded voice choice below depends on it).
VOICES = VOICES_ALL[:8]


def build(out_dir: Path = CLEAN_DIR, manifest: Path = MANIFEST, force: bool = False) -> list[Fixture]:
    """Render every line; a file already rendered from the same words and voice is kept.

    Voice choice, padding and the derived conditions are seeded, but piper samples its noise
    inside the ONNX graph, which cannot be seeded: re-rendering a piper line gives slightly
    different audio. So the committed renders are the reference, and only new or changed lines
    are rendered (`--force` renders everything again).
    """
    rng = random.Random(SEED)
    renderer = Renderer()
    out_dir.mkdir(parents=True, exist_ok=True)
    previous = {f.id: f for f in load_manifest(manifest)} if manifest.exists() and not force else {}
    fixtures: list[Fixture] = []
    for index, line in enumerate(lines()):
        voice = VOICES[rng.randrange(len(VOICES))]
        fixture = Fixture(
            id=f"u{index:03d}",
            said=line.said,
            spoken=line.spoken or line.said,
            voice=voice.name,
            kind=line.kind,
            suspect=line.suspect,
            exhibits=line.exhibits,
            command=line.command,
            tags=line.tags,
        )
        # Padding is drawn whether or not the line is rendered, so the seeded sequence never shifts.
        pads = (rng.uniform(0.25, 0.5), rng.uniform(0.3, 0.5))
        fixtures.append(fixture)
        before = previous.get(fixture.id)
        target = out_dir / f"{fixture.id}.flac"
        if before and (before.spoken, before.voice) == (fixture.spoken, fixture.voice) and target.exists():
            continue
        audio = pad(renderer.render(fixture.spoken, voice), pads)
        peak = float(np.max(np.abs(audio))) or 1.0
        write_flac(target, (audio / peak * 0.7).astype(np.float32))
    write_manifest(fixtures, manifest)
    return fixtures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--force", action="store_true", help="render every line again")
    fixtures = build(force=parser.parse_args().force)
    print(f"{len(fixtures)} fixtures written to {CLEAN_DIR}")


if __name__ == "__main__":
    main()
