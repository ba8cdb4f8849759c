"""Plain-words game questions: how many the Host answers from the state or HOW TO PLAY, free (issue 16).

    .venv/bin/python bench/table_questions.py [--split test|tune|both] [--show-misses]

Each question goes to a Hollin Fold game seated "Ada, Ben", in round 1 with one question asked (so
the state has something to say: "Question 2 of 4: Ben."). A question counts as answered when the
Host answers it from the state, from a HOW TO PLAY passage or from THE SIX, and the LEDGER's q is
unchanged; it counts as right when that answer is the one its label names. Requests under rule 8
(label `sealed`) count when they get rule 8's line. `tune` is what the grammar was shaped on; `test`
was written first and is never tuned on (see its header).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.classify import Action, Decision  # noqa: E402
from engine.game import Game  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402

HERE = Path(__file__).resolve().parent / "table_questions"
SETUP = ("Ada, Ben", "Thwaite, where were you at ten?")
# Give up and save are answered from the card's "Free any time: …" line.
PASSAGE_FOR = {"give-up": "free", "save": "free"}


@dataclass(frozen=True)
class Item:
    label: str
    question: str


@dataclass(frozen=True)
class Outcome:
    item: Item
    decision: Decision
    free: bool

    @property
    def answered(self) -> bool:
        return self.free and self.decision.action in (Action.STATE, Action.RULES, Action.WHO_IS)

    @property
    def right(self) -> bool:
        kind, _, what = self.item.label.partition(":")
        d = self.decision
        if kind == "state":
            return self.answered and d.state_question is not None and d.state_question.value == what
        if kind == "rules":
            return self.answered and d.passage is not None and d.passage.key == PASSAGE_FOR.get(what, what)
        if kind == "who":
            return self.answered and d.action is Action.WHO_IS and d.suspect == what
        return d.action is Action.SEALED


def read_items(split: str) -> list[Item]:
    items = []
    for line in (HERE / f"{split}.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        label, question = line.split("\t", 1)
        items.append(Item(label.strip(), question.strip()))
    return items


def run(items: list[Item]) -> list[Outcome]:
    case = load_bundled_case()
    outcomes = []
    for item in items:
        game = Game(case)
        game.start()
        for message in SETUP:
            game.handle(message)
        decision = game.decide(item.question)
        before = game.state.questions_used
        game.handle(item.question)
        outcomes.append(Outcome(item, decision, free=game.state.questions_used == before))
    return outcomes


def report(split: str, outcomes: list[Outcome], show_misses: bool) -> None:
    questions = [o for o in outcomes if o.item.label != "sealed"]
    sealed = [o for o in outcomes if o.item.label == "sealed"]
    answered = sum(o.answered for o in questions)
    right = sum(o.right for o in questions)
    print(
        f"{split}: answered free {answered}/{len(questions)} ({100 * answered / len(questions):.1f}%), "
        f"right answer {right}/{len(questions)} ({100 * right / len(questions):.1f}%), "
        f"sealed requests sealed {sum(o.right for o in sealed)}/{len(sealed)}"
    )
    if show_misses:
        for o in outcomes:
            if not o.right:
                what = o.decision.state_question or (o.decision.passage.key if o.decision.passage else o.decision.suspect)
                print(f"  miss {o.item.label:20} {o.item.question!r:50} -> {o.decision.action.name} {what or ''}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("test", "tune", "both"), default="both")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    for split in ("tune", "test") if args.split == "both" else (args.split,):
        report(split, run(read_items(split)), args.show_misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
