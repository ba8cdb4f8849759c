"""Trains the stop spotter (voice_host/ears/stop_spotter.py) on tune speech said over the Host's echo.

    .venv/bin/python bench/stop_spotter.py harvest --part 0/2 --cache CACHE &   # both at once: about 40 minutes
    .venv/bin/python bench/stop_spotter.py harvest --part 1/2 --cache CACHE
    .venv/bin/python bench/stop_spotter.py train --cache CACHE     # writes voice_host/ears/stop_spotter.npz
    .venv/bin/python bench/stop_spotter.py train --word wait --cache CACHE     # writes voice_host/ears/wait_spotter.npz

What it learns from is what the short path itself scores: words said over the Host's narration through
bench/barge_in.py's seeded echo paths and rooms, heard through the app's echo canceller, Silero and the
segmenter (`Ears`, without the second and third opinions, so every view is scored), each scored stretch turned
into speech embeddings (`SpeechEmbedder`).
- the words that silence the Host (the positives): "Stop.", "Stop!", "Stop, please." (`STOP_SAID`) and "Wait.",
  "Hold on." and the like (`WAIT_SAID`) in the tune voices and in `extra_voices()`, espeak-ng voices with named
  variants that no split has (test's voices are the m1-m7, f1-f5 and klatt variants);
- the rest (the negatives): the tune fixtures bench/barge_in.py's other words do not use (it measures the
  first 80), short words that sound like "stop" or "wait", and tune corpus lines up to six words, in the same voices.
Nothing of `test` is used (tests/test_stop_spotter.py checks the voices, variants and words). `train` fits one
logistic regression, for "stop" or for "wait" and "hold on" (`--word`), against the rest (the other word's scorings
left out), and reports, for each group of voices and utterances, the scores of a classifier fitted without that
group (five folds): the floors (`ShortPath.spotter_floor`, `ShortPath.wait_hold_from`) are shaped on those, never on
the fit's own scores.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from audio_fixtures.corpus import Split, lines  # noqa: E402
from audio_fixtures.voices import Voice, voices  # noqa: E402
from bench.barge_in import Ears, other_words, trial_scene, variant_voices  # noqa: E402
from voice_host.ears.stop_spotter import WAIT_WEIGHTS_FILE, WEIGHTS_FILE, SpeechEmbedder, SpotterWeights, pooled  # noqa: E402
from voice_host.loop.barge_in import silence_words  # noqa: E402

# Each voice says each once, seeded apart (over other echo paths, rooms and moments). Twice as many as the first
# spotter's four let a looser fit hold (tune, held out: 89 of 146 stop words at no other word, against 66 of 136).
STOP_SAID = ("Stop.", "Stop!", "Stop, please.", "Stop.", "Stop!", "Stop.", "Stop!", "Stop.")
# The other words that silence the Host (barge_in.SILENCE_PHRASES), half the bench's stop trials: the wait spotter's.
WAIT_SAID = ("Wait.", "Wait!", "Wait, wait.", "Hold on.", "Wait, please.", "Hold on!", "Hang on.")
SOUNDS_LIKE_STOP = (
    "Top.", "Shop.", "Stock.", "Spot.", "Not.", "So.", "Sir.", "Star.", "Yes.", "No.", "Okay.", "Got it.", "Stuff.",
    "Stab.", "Step.", "Wade.", "Thwaite.", "Keld.", "Abel.", "Save.", "Scotch.", "Nice one.", "Oh dear.", "Right.",
    "Sorry?", "Scott.", "Cop.", "Drop.", "Hello.", "Thanks.", "Stay.", "Stopwatch.", "Is that so?", "Spot on.",
    "Stoke.", "Stomp.",
)  # fmt: skip
SOUNDS_LIKE_WAIT = (
    "Weight.", "Eight.", "Great.", "Late.", "Way.", "Wake.", "Weigh it.", "Hold.", "Old one.", "Holden.", "Gate.",
    "Date.", "Fate.", "Whoa.", "Go on.", "Hot one.", "Played.", "Waiter.",
)  # fmt: skip
BENCH_OTHERS = 80  # bench/barge_in.py's tune other words: left out, so its false stops are on words never learnt
CORPUS_LINES = 220
FOLDS = 5
L2 = 100.0  # tune: held-out recall at no other word taken, 10 / 30 / 100 tried (docs/benchmarks.md "Barge-in", run 13)
_VARIANTS = (
    "Andy", "Annie", "Alex", "Alicia", "belinda", "boris", "david", "ed", "edward", "Gene", "iven", "Jacky", "john",
    "Lee", "linda", "max", "Michael", "Mike", "paul", "rob", "robert", "steph", "Storm", "zac", "grandpa", "klatt3",
    "klatt5", "klatt6", "m8", "norbert", "shelby", "travis", "victor", "adam", "benjamin", "caleb", "quincy", "anika",
)  # fmt: skip


def extra_voices() -> tuple[Voice, ...]:
    """espeak-ng's named variants, each in one of the English accents, at a seeded speed and pitch."""
    return variant_voices(_VARIANTS, "x", seed=1)


@dataclass(frozen=True)
class Job:
    """One utterance said over the Host, whose scorings are harvested."""

    key: str
    said: str
    voice: Voice | None  # None: a fixture's own audio
    fixture_id: str | None
    stop: bool  # a word that silences the Host ("stop", "wait", "hold on")
    group: int  # utterances of one group are left out together (a voice for "stop", an utterance otherwise)


def jobs() -> list[Job]:
    training = list(voices(Split.TUNE)) + list(extra_voices())
    found = [
        Job(f"spot-{voice.name}-{n}", said, voice, None, True, index)
        for index, voice in enumerate(training)
        for n, said in enumerate(STOP_SAID + WAIT_SAID)
    ]
    for n, fixture in enumerate(other_words(10_000, Split.TUNE)[BENCH_OTHERS:]):
        found.append(Job(f"spot-other-{n}", fixture.said, None, fixture.id, False, 1000 + n))
    said = sorted({line.said for line in lines(Split.TUNE) if len(line.said.split()) <= 6 and not silence_words(line.said)})
    said = [text for text in said if not text.lower().startswith(("next", "skip", "repeat", "stop"))]
    rng = np.random.default_rng(3)
    corpus = [str(text) for text in rng.choice(said, size=min(len(said), CORPUS_LINES), replace=False)]
    texts = list(SOUNDS_LIKE_STOP + SOUNDS_LIKE_WAIT) + corpus
    for n, text in enumerate(texts):
        found.append(Job(f"spot-talk-{n}", text, training[(n * 7) % len(training)], None, False, 2000 + n))
    return found


def harvest(part: int, parts: int, cache: Path) -> None:
    from audio_fixtures.fixtures import FixtureAudio, load_fixtures
    from audio_fixtures.voices import Renderer
    from voice_host.cli.hear import HearPipeline
    from voice_host.ears.short_words import ShortWordScorer
    from voice_host.loop.casefiles import load_bundled_case

    case = load_bundled_case()
    pipeline = HearPipeline(case, use_vad=False)
    scorer = ShortWordScorer()
    _, scene = trial_scene(case, history_seconds=15.0)  # the same narration as bench/barge_in.py's trials
    renderer, fixtures, embedder = Renderer(), FixtureAudio(load_fixtures(Split.TUNE)), SpeechEmbedder()
    features: list[np.ndarray] = []
    labels: list[bool] = []
    groups: list[int] = []
    names: list[str] = []
    for n, job in enumerate(jobs()):
        if n % parts != part:
            continue
        if job.voice is not None:
            clean = renderer.render(job.said, job.voice, seed=100 + n)
        else:
            assert job.fixture_id is not None
            clean = fixtures.clean(job.fixture_id)
        mixed = scene.mix(job.key, 90_000 + n, clean)
        _, shorts = Ears(pipeline, case, scorer=scorer, full=False).hear(mixed.mic, mixed.played)
        for short in shorts:
            # A stop word's scorings from its start to a second after it; everything scored of other words.
            if short.audio is None or (job.stop and not mixed.began < short.asked < mixed.word_over + 1.0):
                continue
            features.append(embedder.embed(short.audio))
            labels.append(job.stop)
            groups.append(job.group)
            names.append(f"{job.voice.name if job.voice else 'fixture'}: {job.said}")
        print(f"{n} {job.key} {job.said!r}: {len(features)} scorings", file=sys.stderr, flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(
        cache / f"spotter-{part}-of-{parts}.npz",
        features=np.array(features),
        labels=np.array(labels),
        groups=np.array(groups),
        names=np.array(names),
    )


def fit(features: np.ndarray, labels: np.ndarray, l2: float) -> SpotterWeights:
    """An L2-regularised logistic regression by Newton's method, the classes weighed equally."""
    mean, scale = features.mean(axis=0), features.std(axis=0) + 1e-6
    standard = np.hstack([(features - mean) / scale, np.ones((len(features), 1))])
    target = labels.astype(np.float64)
    weigh = np.where(target > 0, (len(target) - target.sum()) / max(target.sum(), 1.0), 1.0)
    penalty = l2 * np.diag(np.r_[np.ones(standard.shape[1] - 1), 0.0])  # not on the bias
    weights = np.zeros(standard.shape[1])
    for _ in range(100):
        chance = 1.0 / (1.0 + np.exp(-standard @ weights))
        gradient = standard.T @ (weigh * (chance - target)) + penalty @ weights
        hessian = (standard * (weigh * chance * (1 - chance))[:, None]).T @ standard + penalty
        step = np.linalg.solve(hessian, gradient)
        weights -= step
        if np.abs(step).max() < 1e-8:
            break
    return SpotterWeights(mean, scale, weights[:-1], float(weights[-1]))


class Word(Enum):
    """Which regression `train` fits: each learns its own words against the rest."""

    STOP = "stop"  # `STOP_SAID`: the spotter's own word (ShortPath.spotter_floor, the holds from hold_from)
    WAIT = "wait"  # `WAIT_SAID`: only ever holds the Host while tiny.en judges (ShortPath.wait_hold_from)

    @property
    def said(self) -> tuple[str, ...]:
        return STOP_SAID if self is Word.STOP else WAIT_SAID

    @property
    def weights_file(self) -> Path:
        return WEIGHTS_FILE if self is Word.STOP else WAIT_WEIGHTS_FILE


def word_of(names: np.ndarray, labels: np.ndarray, word: Word) -> tuple[np.ndarray, np.ndarray]:
    """Which scorings the regression for `word` learns from (its own words and the rest, not the other word's: the
    two sound nothing alike), and which of those are its word. `names` are "voice: said"."""
    said = np.array([str(name).split(": ", 1)[1] for name in names])
    own = labels & np.isin(said, word.said)
    return own | ~labels, own


def train(cache: Path, out: Path | None, word: Word) -> None:
    saved = [np.load(path) for path in sorted(cache.glob("spotter-*-of-*.npz"))]
    features = np.array([pooled(window) for part in saved for window in part["features"]])
    names = np.concatenate([part["names"] for part in saved])
    learnt, labels = word_of(names, np.concatenate([part["labels"] for part in saved]), word)
    features, labels, names = features[learnt], labels[learnt], names[learnt]
    groups = np.concatenate([part["groups"] for part in saved])[learnt]
    held_out = np.zeros(len(labels))
    for fold in range(FOLDS):
        left_out = groups % FOLDS == fold
        model = fit(features[~left_out], labels[~left_out], L2)
        held_out[left_out] = [model.log_odds(row) for row in features[left_out]]
    negatives = np.argsort(-np.where(labels, -np.inf, held_out))[:6]
    print(f"{labels.sum()} {word.value} scorings, {(~labels).sum()} others, from {len(set(groups))} groups")
    print("held-out log-odds of the other words' highest: " + "; ".join(f"{held_out[i]:.2f} {names[i]}" for i in negatives))
    print(
        f"held-out log-odds of the {word.value} words, 10/25/50%: "
        + " / ".join(f"{q:.2f}" for q in np.quantile(held_out[labels], [0.1, 0.25, 0.5]))
    )
    out = out or word.weights_file
    fit(features, labels, L2).save(out)
    print(f"wrote {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("harvest", "train"))
    parser.add_argument("--cache", type=Path, required=True, help="where the harvested embeddings are kept")
    parser.add_argument("--part", default="0/1", help="harvest this part of the utterances (K/N), to use several cores")
    parser.add_argument(
        "--word", choices=[word.value for word in Word], default=Word.STOP.value, help="which regression train fits"
    )
    parser.add_argument("--out", type=Path, help="where train writes the weights (default: the word's file beside the spotter)")
    args = parser.parse_args()
    if args.step == "harvest":
        part, parts = (int(n) for n in args.part.split("/"))
        harvest(part, parts, args.cache)
    else:
        train(args.cache, args.out, Word(args.word))


if __name__ == "__main__":
    main()
