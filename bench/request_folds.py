"""The request votes held out by folds of their own examples (engine.request_votes, issue 13).

    .venv/bin/python bench/request_folds.py [--folds 5] [--margins 4,6,8,10,12,15] [--leads 0] [--smoothing 0.3]

The engine's examples (engine/said: commands.tsv without yes and no, and talk.tsv) are cut into seeded folds.
Each fold is held out in turn: the votes are counted from the other folds (and the phrase grammar's sentences
that must stay as they are), and the fold's lines go through the Host's whole understanding, as
bench/phrasings.py does, with those votes in place of the engine's own. Reported for each margin over talk
and lead over the next command (`--margins`, `--leads`): the commands taken as meant, those taken as another
command, and the talk the Host let be, beside the same lines with the votes off. This is where the margin,
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
    parser.add_argument("--seed", type=int, default=1, help="how the examples are shuffled into folds")
    args = parser.parse_args()
    votes.SMOOTHING = args.smoothing
    margins = [(float(m), float(lead)) for m in args.margins.split(",") for lead in args.leads.split(",")]

    items = [i for i in phrasings.read_items("commands", "tune") if i.label not in ("yes", "no")]
    items += phrasings.read_items("talk", "tune")
    order = list(range(len(items)))
    random.Random(args.seed).shuffle(order)
    folds = [order[k :: args.folds] for k in range(args.folds)]
    names = load_bundled_case().public
    from engine.names import NameIndex

    index = NameIndex(names)
    phrases = grammar()
    kept = [(TALK, features(s, index)) for s in (*phrases.requests.not_tests, *phrases.clauses.not_tests)]
    kept *= votes.KEPT_WEIGHT

    def label(item: phrasings.Item) -> str:
        first: str = item.label.split()[0]
        return first if first in ("read", "answers") else item.label

    def wrong(outcome: phrasings.Outcome) -> bool:
        """Taken as another command than meant (or talk as a command): what the lead guards against."""
        got = outcome.taken_as.split()[0]
        return not outcome.right and got in COMMAND_WORDS

    right_off: list[tuple[bool, bool]] = []
    right: dict[tuple[float, float], list[tuple[bool, bool]]] = {margin: [] for margin in margins}
    talk = [items[i].label == "talk" for fold in folds for i in fold]
    for fold in folds:
        held = set(fold)
        counts = RequestVotes([*kept, *((label(items[i]), features(items[i].said, index)) for i in order if i not in held)])
        lines = [items[i] for i in fold]
        with counted(None, math.inf, 0.0):
            right_off += [(o.right, wrong(o)) for o in phrasings.run(lines)]
        for margin, lead in margins:
            with counted(counts, margin, lead):
                right[margin, lead] += [(o.right, wrong(o)) for o in phrasings.run(lines)]

    def line(name: str, got: list[tuple[bool, bool]]) -> str:
        commands = [r for (r, _), t in zip(got, talk, strict=True) if not t]
        let_be = [r for (r, _), t in zip(got, talk, strict=True) if t]
        wrongly = sum(w for (_, w), t in zip(got, talk, strict=True) if not t)
        return (
            f"{name:18} commands taken {sum(commands)}/{len(commands)} ({100 * sum(commands) / len(commands):.1f}%),"
            f" {wrongly} as another command   talk let be {sum(let_be)}/{len(let_be)} ({100 * sum(let_be) / len(let_be):.1f}%)"
        )

    print(f"{args.folds} folds of the engine's examples, smoothing {args.smoothing}")
    print(line("votes off", right_off))  # the margin pair: over talk, over the next command
    for margin, lead in margins:
        print(line(f"margin {margin:g} lead {lead:g}", right[margin, lead]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
