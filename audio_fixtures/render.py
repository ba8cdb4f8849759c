"""Render the corpus: `python -m audio_fixtures.render [--split tune|test] [--manifest]`.

Each corpus line (audio_fixtures/corpus.py) gets one voice of its own split, drawn by a seeded deck so
every voice speaks about as often, and is rendered with a seed of its own: the same samples on every
machine with the same espeak-ng, piper and onnxruntime. corpus.tsv keeps the SHA-256 of each render;
a render that differs is reported (the figures were measured on the listed audio).

`--manifest` writes corpus.tsv again (rendering every line to take its hash). Without it, lines
whose file in rendered/ is missing are rendered. The bench does that on its own when it needs a file.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import re
import sys
from dataclasses import dataclass, field, replace

import numpy as np

from audio_fixtures.corpus import MOVED, MOVED_LATER, SHORT_TALK_GROUP, Split, all_lines, line_id
from audio_fixtures.fixtures import (
    CORPUS_MANIFEST,
    RENDER_DIR,
    Fixture,
    load_manifest,
    write_corpus_manifest,
)
from audio_fixtures.voices import VOICE_BY_NAME, Renderer, pad, voices, write_flac
from voice_host.ears.sound import Audio

SEED = 20261226


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


@dataclass
class _Deck:
    """One split's voices dealt in turn, reshuffled (seeded) each time the deck runs out."""

    rng: random.Random
    names: list[str]
    left: list[str] = field(default_factory=list)

    def deal(self) -> str:
        if not self.left:
            self.left = list(self.names)
            self.rng.shuffle(self.left)
        return self.left.pop()


def corpus_fixtures() -> list[Fixture]:
    """The corpus's lines as fixtures, tune then test, each with its voice (no hashes yet).

    A phrasing moved from test to tune (corpus.MOVED_TO_TUNE) keeps its place in test's deal, its
    voice unused, so no test line changes voice; its lines get tune voices after tune's own lines, and
    the short table talk added later (corpus.SHORT_TALK) after those, and the phrasings moved after that
    (corpus.MOVED_LATER, batch by batch) last.
    """
    tune_texts = {_key(f.said) for f in load_manifest()}
    spoken = [line for line in all_lines() if "typed_only" not in line.tags]
    out: list[Fixture] = []
    for split in (Split.TUNE, Split.TEST):
        deck = _Deck(random.Random(f"{SEED}|{split.value}"), [voice.name for voice in voices(split)])
        if split is Split.TUNE:
            # Tune's own lines, then the moved ones, then the short table talk added after both (SHORT_TALK):
            # each addition is dealt after what came before it, so no earlier line changes voice.
            later = [line for line in spoken if line.split is split and line.template.startswith(f"{SHORT_TALK_GROUP}:")]
            dealt = [line for line in spoken if line.split is split and MOVED not in line.tags and line not in later]
            moved = [line for line in spoken if MOVED in line.tags]
            moved_later = frozenset().union(*MOVED_LATER)
            dealt += [line for line in moved if line.template.split(":", 1)[1] not in moved_later]
            dealt += later
            for batch in MOVED_LATER:
                dealt += [line for line in moved if line.template.split(":", 1)[1] in batch]
        else:
            dealt = [line for line in spoken if line.split is split or MOVED in line.tags]
        for line in dealt:
            if split is Split.TEST and _key(line.said) in tune_texts:
                continue  # test holds only texts tune does not have
            voice = deck.deal()
            if line.split is not split:
                continue  # moved to tune: its test voice stays unused
            wording = () if "card_form" in line.tags else ("paraphrase",)
            tags = (*line.tags, *wording, line.intent.family.value.replace(" ", "_"))
            out.append(
                Fixture(
                    id=line_id(line),
                    said=line.said,
                    spoken=line.spoken,
                    voice=voice,
                    kind=line.intent.kind,
                    suspect=line.intent.suspect,
                    exhibits=line.intent.exhibits,
                    command=line.intent.command,
                    tags=tuple(dict.fromkeys(tags)),
                    split=split,
                )
            )
    return out


def samples_hash(audio: Audio) -> str:
    pcm = (np.clip(audio, -1, 1) * 32767).astype("<i2")
    return hashlib.sha256(pcm.tobytes()).hexdigest()


def render_audio(fixture: Fixture, renderer: Renderer) -> Audio:
    """The clean render: the voice, seeded padding of 0.25-0.5 s either side, the peak at 0.7."""
    seed = int.from_bytes(hashlib.sha256(fixture.id.encode()).digest()[:4], "little")
    rng = random.Random(seed)
    speech = renderer.render(fixture.spoken, VOICE_BY_NAME[fixture.voice], seed=seed)
    audio = pad(speech, (rng.uniform(0.25, 0.5), rng.uniform(0.3, 0.5)))
    peak = float(np.max(np.abs(audio))) or 1.0
    quantised = (np.clip(audio / peak * 0.7, -1, 1) * 32767).astype(np.int16)
    return np.asarray(quantised.astype(np.float32) / 32767, dtype=np.float32)


def render_fixture(fixture: Fixture, renderer: object | None = None) -> Renderer:
    """Render one corpus line into rendered/ (say so when its samples differ from the listed hash)."""
    renderer = renderer if isinstance(renderer, Renderer) else Renderer()
    audio = render_audio(fixture, renderer)
    RENDER_DIR.mkdir(parents=True, exist_ok=True)
    write_flac(fixture.path, audio)
    digest = samples_hash(audio)
    if fixture.sha256 and digest != fixture.sha256:
        print(f"warning: {fixture.id} renders differently here than in corpus.tsv", file=sys.stderr)
    return renderer


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=[s.value for s in Split], default=None, help="only this split")
    parser.add_argument("--manifest", action="store_true", help="render every line and write corpus.tsv")
    args = parser.parse_args()
    renderer = Renderer()
    if args.manifest:
        fixtures = []
        for fixture in corpus_fixtures():
            audio = render_audio(fixture, renderer)
            RENDER_DIR.mkdir(parents=True, exist_ok=True)
            write_flac(fixture.path, audio)
            fixtures.append(replace(fixture, sha256=samples_hash(audio)))
        write_corpus_manifest(fixtures)
        print(f"{len(fixtures)} corpus lines rendered; {CORPUS_MANIFEST.name} written")
        return 0
    listed = [f for f in load_manifest(CORPUS_MANIFEST) if args.split is None or f.split.value == args.split]
    missing = [f for f in listed if not f.path.exists()]
    for fixture in missing:
        render_fixture(fixture, renderer)
    print(f"{len(missing)} of {len(listed)} corpus lines rendered into {RENDER_DIR.name}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
