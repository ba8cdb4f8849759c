"""The request votes held out by folds of their own examples (engine.request_votes, issue 13).

    .venv/bin/python bench/request_folds.py [--folds 5] [--margins 4,6,8,10,12,15] [--leads 0] [--smoothing 0.3]

The engine's examples (engine/said: commands.tsv without yes and no, talk.tsv and put_to.tsv) are cut into
seeded folds.
Each fold is held out in turn: the votes are counted from the other folds (and the phrase grammar's sentences
that must stay as they are), and the fold's lines go through the Host's whole understanding, as
bench/phrasings.py does, with those votes in place of the engine's own. Reported for each margin over talk
and lead over the next command (`--margins`, `--leads`): the commands taken as meant, the talk the Host let
be and the questions and confrontations put to the six taken as meant, each with how many were taken as a
command they are not, beside the same lines with the votes off. This is where the margin,
the lead and the smoothing were chosen; the blind `test` sets of bench/phrasings.py say how the votes carry
over to strangers' words.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.request_votes as votes  # noqa: E402
from bench import phrasings  # noqa: E402
from engine.grammar import grammar  # noqa: E402
from engine.messages import COMMAND_WORDS  # noqa: E402
from engine.names import NameIndex  # noqa: E402
from engine.request_votes import TALK, RequestVotes, features  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402


@contextmanager
def counted(votes_now: RequestVotes | None, margin: float, lead: float) -> Iterator[None]:
    """The engine's votes replaced by `votes_now` at `margin` and `lead` (None: the votes off) while inside."""
    request_votes, kept = votes.request_votes, (votes.MARGIN, votes.LEAD)
    votes.request_votes = (lambda: votes_now) if votes_now is not None else request_votes  # type: ignore[assignment]
    votes.MARGIN = margin if votes_now is not None else math.inf
    votes.LEAD = lead
    try:
        yield
    finally:
        votes.request_votes, (votes.MARGIN, votes.LEAD) = request_votes, kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folds", type=int, default=5, help="how many folds the examples are cut into")
    parser.add_argument("--margins", default="4,6,8,10,12,15", help="comma-separated margins to report")
    parser.add_argument("--leads", default=str(votes.LEAD), help="comma-separated leads over the next command")
    parser.add_argument("--smoothing", type=float, default=votes.SMOOTHING, help="added to every word count")
    parser.add_argument(
        "--put-to-class",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="count the questions and confrontations put to the six as a class of their own",
    )
    parser.add_argument("--seed", type=int, default=1, help="how the examples are shuffled into folds")
    args = parser.parse_args()
    votes.SMOOTHING = args.smoothing
    margins = [(float(m), float(lead)) for m in args.margins.split(",") for lead in args.leads.split(",")]

    commands = [i for i in phrasings.read_items("commands", "tune") if i.label not in ("yes", "no")]
    items = [*commands, *phrasings.read_items("talk", "tune"), *phrasings.read_items("put_to", "tune")]
    order = list(range(len(items)))
    random.Random(args.seed).shuffle(order)
    folds = [order[k :: args.folds] for k in range(args.folds)]
    index = NameIndex(load_bundled_case().public)
    phrases = grammar()
    kept = [(TALK, features(s, index)) for s in (*phrases.requests.not_tests, *phrases.clauses.not_tests)]
    kept *= votes.KEPT_WEIGHT

    def kind(item: phrasings.Item) -> str:
        first: str = item.label.split()[0]
        return "talk" if first == "talk" else "put to" if first in ("question", "confrontation") else "command"

    def label(item: phrasings.Item) -> str:
        first: str = item.label.split()[0]
        if kind(item) == "put to":
            return votes.PUT_TO
        return first if first in ("read", "answers") else item.label

    def as_command(outcome: phrasings.Outcome) -> bool:
        """Taken as a command it is not (another command, or talk or a question as one)."""
        return not outcome.right and outcome.taken_as.split()[0] in COMMAND_WORDS

    Scored = list[tuple[str, bool, bool]]  # kind, taken as meant, taken as a command it is not
    off: Scored = []
    on: dict[tuple[float, float], Scored] = {margin: [] for margin in margins}
    for fold in folds:
        held = set(fold)
        trained = [i for i in order if i not in held and (args.put_to_class or kind(items[i]) != "put to")]
        counts = RequestVotes([*kept, *((label(items[i]), features(items[i].said, index)) for i in trained)])
        lines = [items[i] for i in fold]
        with counted(None, math.inf, 0.0):
            off += [(kind(o.item), o.right, as_command(o)) for o in phrasings.run(lines)]
        for margin, lead in margins:
            with counted(counts, margin, lead):
                on[margin, lead] += [(kind(o.item), o.right, as_command(o)) for o in phrasings.run(lines)]

    def line(name: str, got: Scored) -> str:
        cells = []
        for what in ("command", "talk", "put to"):
            mine = [(right, wrong) for k, right, wrong in got if k == what]
            taken = sum(right for right, _ in mine)
            wrongly = sum(wrong for _, wrong in mine)
            cells.append(f"{what} {taken}/{len(mine)} ({100 * taken / len(mine):.1f}%, {wrongly} as a command)")
        return f"{name:18} " + "   ".join(cells)

    print(f"{args.folds} folds of the engine's examples, smoothing {args.smoothing}, put to a class: {args.put_to_class}")
    print(line("votes off", off))
    for margin, lead in margins:
        print(line(f"margin {margin:g} lead {lead:g}", on[margin, lead]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
