"""Topic choice held out as it was: each blind question set at the commit where it was measured, with and without
the lines' own words (the echo rule of engine.topics), added to that commit's engine.

    .venv/bin/python bench/topic_folds.py

For each fold, a detached git worktree of that commit (in a temporary folder, removed after) runs that commit's
bench/questions.py twice: as it was, and with today's LineWords wrapped around its TopicIndex.choose the way
today's choose uses it (a question no cue names, or only plain ones, gets the line that echoes it). The set was
its `test` split there, written blind and not yet tuned on, so the figures say how the echo rule carries over to
strangers' wording. Needs the repository's history (a clone, not an export).

    .venv/bin/python bench/topic_folds.py --cues-then

Today's rules with each fold's cues as they were: today's engine, loaded with the reveal (cue lists and lines) and
the question set of the commit where the set was measured held out, before any cue was shaped on it. Run at two
commits, it says whether a change of the rules (not of the cues) carries over to questions it was not shaped on: the
rules of today were shaped on every earlier set, so the figures compare changes, they are no held-out result.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Fold:
    blind_set: str
    commit: str  # where the set was measured held out (docs/benchmarks.md)


FOLDS = (Fold("third", "9049beb"), Fold("fourth", "5412fb8"), Fold("fifth", "75a959b"))
# For --cues-then: the sixth set too, measured at 5f5d499 (it moved to tune after: changes since were shaped on it).
CUE_FOLDS = (*FOLDS, Fold("sixth", "5f5d499"))

# Run inside the old worktree: its own engine, with today's engine/topics.py loaded beside it for LineWords.
_WITH_ECHO = """
import importlib.util, runpy, sys
sys.path.insert(0, ".")
import engine.topics as old
spec = importlib.util.spec_from_file_location("today_topics", {today!r})
today = importlib.util.module_from_spec(spec)
sys.modules["today_topics"] = today
spec.loader.exec_module(today)
built = old.topic_indexes
def topic_indexes(case):
    indexes = built(case)
    echoes = today.line_words(case)
    for key, index in indexes.items():
        index.echoes = echoes[key]
    return indexes
old.topic_indexes = topic_indexes
chosen = old.TopicIndex.choose
def choose(self, question, in_file):
    entry = chosen(self, question, in_file)
    words = today._folded_words(question)
    hits = self.hits(words, in_file)
    if any(hit.cue.strength > old.CueStrength.PLAIN for hit in hits):
        return entry
    matched = frozenset(today.lemma_stem(words[at]) for hit in hits for at in hit.positions)
    echoed = self.echoes.echoed(today.echo_words(question) - matched, in_file)
    return echoed if echoed is not None else entry
old.TopicIndex.choose = choose
sys.argv = ["bench/questions.py"]
runpy.run_path("bench/questions.py", run_name="__main__")
"""
_AS_IT_WAS = """
import runpy, sys
sys.path.insert(0, ".")
sys.argv = ["bench/questions.py"]
runpy.run_path("bench/questions.py", run_name="__main__")
"""
_ROW = re.compile(r"^\| (tune|test) \| (\d+) \| [^|]+ \| [\d.]+% \((\d+)/(\d+)\) \|$", re.MULTILINE)


def on_subject(worktree: Path, code: str) -> dict[str, tuple[int, int]]:
    done = subprocess.run([sys.executable, "-c", code], cwd=worktree, capture_output=True, text=True, check=True)
    return {split: (int(on), int(of)) for split, _, on, of in _ROW.findall(done.stdout)}


def _at(commit: str, path: str) -> str:
    done = subprocess.run(["git", "-C", str(ROOT), "show", f"{commit}:{path}"], capture_output=True, text=True, check=True)
    return done.stdout


def cues_then() -> int:
    """Today's rules, each fold's cues and questions as they were at its commit."""
    sys.path.insert(0, str(ROOT))
    from bench.questions import DEFLECT, parse_questions, run
    from engine.case import Case, parse_reveal
    from voice_host.loop.casefiles import load_bundled_case

    today = load_bundled_case()
    print("| held-out set | cues at | tune: on subject | set: reaches a line | set: on subject |")
    print("|---|---|---|---|---|")
    for fold in CUE_FOLDS:
        reveal = parse_reveal(_at(fold.commit, "spoilers/hollin-fold/reveal.txt"), "reveal.txt", today.public.suspects)
        case = Case(today.public, today.notice, reveal, "")
        outcomes = list(run(parse_questions(_at(fold.commit, "spoilers/hollin-fold/questions.tsv")), case))
        tune = [o for o in outcomes if o.question.split == "tune"]
        held = [o for o in outcomes if o.question.split == "test"]
        lined = [o for o in held if o.question.topic != DEFLECT]
        on_tune, reached, on_held = (sum(o.on_subject for o in tune), sum(o.reaches_line for o in lined),
                                     sum(o.on_subject for o in held))
        print(f"| {fold.blind_set} | {fold.commit} | {on_tune}/{len(tune)} ({on_tune / len(tune):.1%}) "
              f"| {reached}/{len(lined)} ({reached / len(lined):.1%}) | {on_held}/{len(held)} ({on_held / len(held):.1%}) |")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--cues-then"]:
        return cues_then()
    print("| held-out set | commit | tune as it was | tune with echo | set as it was | set with echo |")
    print("|---|---|---|---|---|---|")
    for fold in FOLDS:
        with tempfile.TemporaryDirectory() as folder:
            worktree = Path(folder) / fold.commit
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(worktree), fold.commit], check=True)
            try:
                before = on_subject(worktree, _AS_IT_WAS)
                after = on_subject(worktree, _WITH_ECHO.format(today=str(ROOT / "engine" / "topics.py")))
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=True)
        cells = [f"{on}/{of} ({on / of:.1%})" for on, of in (before["tune"], after["tune"], before["test"], after["test"])]
        print(f"| {fold.blind_set} | {fold.commit} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
