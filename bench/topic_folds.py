"""Topic choice held out as it was: each blind question set at the commit where it was measured, with and without
today's back-offs added to that commit's engine: the lines' own words (the echo rule of engine.topics) and the
questions asked before (engine.asked's votes, over that commit's own tune questions).

    .venv/bin/python bench/topic_folds.py

For each fold, a detached git worktree of that commit (in a temporary folder, removed after) runs that commit's
bench/questions.py four times: as it was; with today's LineWords wrapped around its TopicIndex.choose the way
today's choose uses it (a question no cue names, or only plain ones, gets the line that echoes it); with today's
TopicVotes, built from the tune rows of that commit's question set, overruling its choice when they are sure
(engine.topics.VOTE_MARGIN); and with both. The set was its `test` split there, written blind and not yet tuned on,
so the figures say how each back-off carries over to strangers' wording. Needs the repository's history (a clone,
not an export).

    .venv/bin/python bench/topic_folds.py --cues-then

Today's rules with each fold's cues as they were: today's engine, loaded with the reveal (cue lists and lines) and
the question set of the commit where the set was measured held out, before any cue was shaped on it (its tune rows
vote as the questions asked before). Run at two
commits, it says whether a change of the rules (not of the cues) carries over to questions it was not shaped on: the
rules of today were shaped on every earlier set, so the figures compare changes, they are no held-out result.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.topics import LINES_VOTE, VOTE_MARGIN, VOTE_MARGIN_OVER_CUES  # noqa: E402


@dataclass(frozen=True)
class Fold:
    blind_set: str
    commit: str  # where the set was measured held out (docs/benchmarks.md)


# The sixth set moved to tune after 5f5d499: changes since (the votes' margins among them) were shaped on it too.
FOLDS = (Fold("third", "9049beb"), Fold("fourth", "5412fb8"), Fold("fifth", "75a959b"), Fold("sixth", "5f5d499"))
CUE_FOLDS = FOLDS  # for --cues-then

# Run inside the old worktree: its own engine, with today's engine/topics.py (LineWords) and engine/asked.py
# (TopicVotes, stdlib only) loaded beside it by path.
_PRELUDE = """
import importlib.util, runpy, sys
sys.path.insert(0, ".")
import engine.topics as old
def beside(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
beside("engine.asked", {asked!r})  # today's topics imports it; the old engine has none
"""
# today's LineWords around the old choice: a question no cue names, or only plain ones, gets the line that echoes it
_ECHO = """
today = beside("today_topics", {topics!r})
built_for_echo = old.topic_indexes
def topic_indexes(case):
    indexes = built_for_echo(case)
    echoes = today.line_words(case)
    for key, index in indexes.items():
        index.echoes = echoes[key]
    return indexes
old.topic_indexes = topic_indexes
chosen_by_cues = old.TopicIndex.choose
def choose(self, question, in_file):
    entry = chosen_by_cues(self, question, in_file)
    words = today._folded_words(question)
    hits = self.hits(words, in_file)
    if any(hit.cue.strength > old.CueStrength.PLAIN for hit in hits):
        return entry
    matched = frozenset(today.lemma_stem(words[at]) for hit in hits for at in hit.positions)
    echoed = self.echoes.echoed(today.echo_words(question) - matched, in_file)
    return echoed if echoed is not None else entry
old.TopicIndex.choose = choose
"""
# today's TopicVotes over that commit's own tune questions, overruling the old choice as today's choose does
_VOTES = """
asked = beside("today_asked", {asked!r})
today_topics = beside("today_topics_for_votes", {topics!r})
with open("spoilers/hollin-fold/questions.tsv", encoding="utf-8") as handle:
    tune = asked.tune_questions(handle.read())
built_for_votes = old.topic_indexes
def topic_indexes(case):
    indexes = built_for_votes(case)
    votes = today_topics.asked_votes(tune, case.reveal.entries, lines_vote={lines!r})
    for key, index in indexes.items():
        index.votes = votes.get(key)
        index.lines = [entry for entry in case.entries_for(key) if entry.kind.value != "deflect"]
    return indexes
old.topic_indexes = topic_indexes
chosen_before_votes = old.TopicIndex.choose
def choose(self, question, in_file):
    entry = chosen_before_votes(self, question, in_file)
    if self.votes is None:
        return entry
    def holds_specific_cue():
        hits = self.hits(today_topics._folded_words(question), in_file)
        return any(hit.cue.strength > old.CueStrength.PLAIN for hit in hits)
    return today_topics.overrule(
        entry, self.votes, self.lines, question, in_file, holds_specific_cue, margin={margin!r}, over_cues={over_cues!r}
    )
old.TopicIndex.choose = choose
"""
_RUN = """
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
    from engine.asked import tune_questions
    from engine.case import Case, parse_reveal
    from voice_host.loop.casefiles import load_bundled_case

    today = load_bundled_case()
    print("| held-out set | cues at | tune: on subject | set: reaches a line | set: on subject |")
    print("|---|---|---|---|---|")
    for fold in CUE_FOLDS:
        reveal = parse_reveal(_at(fold.commit, "spoilers/hollin-fold/reveal.txt"), "reveal.txt", today.public.suspects)
        question_set = _at(fold.commit, "spoilers/hollin-fold/questions.tsv")
        case = Case(today.public, today.notice, reveal, "", tune_questions(question_set))
        outcomes = list(run(parse_questions(question_set), case))
        tune = [o for o in outcomes if o.question.split == "tune"]
        held = [o for o in outcomes if o.question.split == "test"]
        lined = [o for o in held if o.question.topic != DEFLECT]
        on_tune, reached, on_held = (
            sum(o.on_subject for o in tune),
            sum(o.reaches_line for o in lined),
            sum(o.on_subject for o in held),
        )
        print(
            f"| {fold.blind_set} | {fold.commit} | {on_tune}/{len(tune)} ({on_tune / len(tune):.1%}) "
            f"| {reached}/{len(lined)} ({reached / len(lined):.1%}) | {on_held}/{len(held)} ({on_held / len(held):.1%}) |"
        )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--margins",
        default="",
        help="votes to compare, with echo: comma-separated MARGIN/OVER_CUES/lines|questions (default: the engine's)",
    )
    parser.add_argument("--cues-then", action="store_true", help="today's rules with each fold's cues as they were")
    args = parser.parse_args()
    if args.cues_then:
        return cues_then()
    today = {"topics": str(ROOT / "engine" / "topics.py"), "asked": str(ROOT / "engine" / "asked.py")}
    prelude, echo = _PRELUDE.format(**today), _ECHO.format(**today)
    runs = {"as it was": prelude + _RUN}
    if args.margins:
        for pair in args.margins.split(","):
            margin, over_cues, lines = pair.split("/")
            votes = _VOTES.format(margin=float(margin), over_cues=float(over_cues), lines=lines == "lines", **today)
            runs[f"with echo and votes at {pair}"] = prelude + echo + votes + _RUN
    else:
        votes = _VOTES.format(margin=VOTE_MARGIN, over_cues=VOTE_MARGIN_OVER_CUES, lines=LINES_VOTE, **today)
        runs["with echo"] = prelude + echo + _RUN
        runs["with votes"] = prelude + votes + _RUN
        runs["with echo and votes"] = prelude + echo + votes + _RUN
    print("| held-out set | commit | tune as it was | " + " | ".join(f"set {name}" for name in runs) + " |")
    print("|---|---|---|" + "---|" * len(runs))
    for fold in FOLDS:
        with tempfile.TemporaryDirectory() as folder:
            worktree = Path(folder) / fold.commit
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(worktree), fold.commit], check=True)
            try:
                found = {name: on_subject(worktree, code) for name, code in runs.items()}
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=True)
        cells = [found["as it was"]["tune"], *(found[name]["test"] for name in runs)]
        print(f"| {fold.blind_set} | {fold.commit} | " + " | ".join(f"{on}/{of} ({on / of:.1%})" for on, of in cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
