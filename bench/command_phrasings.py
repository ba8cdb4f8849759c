"""The card's free commands in other words: how many the shared classifier takes as the command (issue 13).

    .venv/bin/python bench/command_phrasings.py [--split test|tune|both] [--show-misses]

Each phrasing ("could you go over the statements again", "what's in exhibit 7", "I'll sit this one
out") goes to a Hollin Fold game seated "Ann, Ben" in round 1, as a perfect transcript: the words
alone, what the phrase grammar (engine/phrases.toml) and the card-exact classifier make of them, the
same for typed and spoken play. It counts as right when the message is its label's command (`read E7`
with exhibit 7, `answers keld` naming Keld); `repeat` is the voice host's own intent, and `lies` is
right too when it is the state question about the lies broken (answered from the state, free).
`tune` is what the grammar was shaped on; `test` was written blind (from the card alone) before it
was measured, and is never tuned on (see its header).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.game import Game  # noqa: E402
from engine.grammar import IntentKind, grammar  # noqa: E402
from engine.messages import Command, Message  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402

HERE = Path(__file__).resolve().parent / "command_phrasings"
SEATS = "Ann, Ben"


@dataclass(frozen=True)
class Item:
    label: str  # "next", "read E7", "answers keld", "repeat"
    said: str


@dataclass(frozen=True)
class Outcome:
    item: Item
    message: Message
    intent: str | None  # the phrase grammar's intent, when a template says the words whole

    @property
    def taken_as(self) -> str:
        """What the Host took the words as, in the label's terms."""
        message = self.message
        if self.intent == "repeat":
            return "repeat"
        if self.intent == "lies broken":
            return "lies"
        if message.command is Command.READ:
            return f"read E{message.exhibits[0]}" if message.exhibits else "read"
        if message.command is Command.ANSWERS:
            return f"answers {message.suspect}"
        if message.command is not None:
            return message.command.value
        return message.kind.value

    @property
    def right(self) -> bool:
        return self.taken_as == self.item.label


def read_items(split: str) -> list[Item]:
    items = []
    for line in (HERE / f"{split}.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("label\t"):
            continue
        label, said = line.split("\t", 1)
        items.append(Item(label.strip(), said.strip()))
    return items


def run(items: list[Item]) -> list[Outcome]:
    game = Game(load_bundled_case())
    game.start()
    game.handle(SEATS)
    phrases = grammar()
    outcomes = []
    for item in items:
        message = game.preview(item.said)
        said = phrases.match(item.said)
        if said is None and message.suspect is None:
            # As the voice host hears a request to itself (voice_host.loop.session.is_repeat_request).
            said = phrases.in_clauses(item.said, frozenset({IntentKind.HOST}))
        host = said is not None and said.intent.kind is IntentKind.HOST
        intent = said.intent.name if said is not None and (host or said.intent.kind is IntentKind.STATE) else None
        outcomes.append(Outcome(item, message, intent))
    return outcomes


def report(split: str, outcomes: list[Outcome], show_misses: bool) -> None:
    right = sum(o.right for o in outcomes)
    print(f"{split}: taken as the command {right}/{len(outcomes)} ({100 * right / len(outcomes):.1f}%)")
    labels = sorted({o.item.label.split()[0] for o in outcomes})
    for label in labels:
        mine = [o for o in outcomes if o.item.label.split()[0] == label]
        print(f"  {label:10} {sum(o.right for o in mine)}/{len(mine)}")
    if show_misses:
        for o in outcomes:
            if not o.right:
                print(f"  miss {o.item.label:14} {o.item.said!r:55} -> {o.taken_as}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("test", "tune", "both"), default="both")
    parser.add_argument("--show-misses", action="store_true", help="list what was not taken as its command")
    args = parser.parse_args()
    for split in ("tune", "test") if args.split == "both" else (args.split,):
        report(split, run(read_items(split)), args.show_misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
