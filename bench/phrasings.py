"""Messages in a table's own words, as perfect transcripts: how many the Host takes as what they mean (issue 13).

    .venv/bin/python bench/phrasings.py [--set commands|put_to|talk|all] [--split test|tune|both] [--show-misses]

Each line goes to a Hollin Fold game seated "Ann, Ben" in round 2 (E1-E8 read), as the voice host
understands a transcript: the phrase grammar (engine/phrases.toml), the spoken-side name repairs and the
card-exact classifier (`Understander.understand`). Three sets, each with a `tune` and a `test` file:

- `commands` (bench/phrasings/commands; its tune is engine/said/commands.tsv): the card's free commands
  in other words ("could you go over the statements again", "I'll sit this one out"); right when the
  message is its label's command (`read E7` with exhibit 7, `answers keld` naming Keld), `repeat` when
  the voice host's own repeat rule takes it (`voice_host.loop.session.is_repeat_request`), and `lies`
  too when it is the state question about the lies broken (answered from the state, free);
- `put_to` (bench/phrasings/put_to; its tune is engine/said/put_to.tsv): questions and confrontations put
  to one of the six in a table's own words; right when the message is a question to that suspect
  (`question keld`) or a confrontation of that suspect with that exhibit (`confrontation keld E7`);
- `talk` (bench/phrasings/talk; its tune is engine/said/talk.tsv): what a table says to itself ("pass the
  sprouts", "I reckon the butler did it"); right when the engine's decision is table talk (rule 8: the Host
  says nothing; "no thanks, I'm full" with nothing asked is that too) and the voice host does not repeat.

`tune` is what the rules were shaped on (and what the engine's request votes learn from, engine.request_votes);
`test` was written blind (from the card alone, by a writer who
never saw the grammar) and measured before anything was shaped on its set, and is never tuned on (see
each file's header).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.classify import Action  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.grammar import IntentKind, grammar  # noqa: E402
from engine.messages import Command, Message, MessageKind  # noqa: E402
from voice_host.loop.casefiles import load_bundled_case  # noqa: E402
from voice_host.understanding.host_requests import is_repeat_request  # noqa: E402
from voice_host.understanding.understand import Understander  # noqa: E402

HERE = Path(__file__).resolve().parent / "phrasings"
# The tune parts of `commands`, `talk` and `put_to` are the engine's own examples, which its request votes learn from.
ENGINE_SAID = Path(__file__).resolve().parent.parent / "engine" / "said"


def set_file(name: str, split: str) -> Path:
    """A set's `split` file: bench/phrasings/NAME/SPLIT.tsv, or engine/said/NAME.tsv for an engine example's tune."""
    said = ENGINE_SAID / f"{name}.tsv"
    return said if split == "tune" and said.is_file() else HERE / name / f"{split}.tsv"


SETS = ("commands", "put_to", "talk")
SEATS = ("Ann", "Ben")


@dataclass(frozen=True)
class Item:
    label: str  # "next", "read E7", "answers keld", "repeat", "question keld", "confrontation keld E7"
    said: str


@dataclass(frozen=True)
class Outcome:
    item: Item
    message: Message | None
    repeat: bool  # the voice host's own repeat rule takes the words
    state: str | None  # the phrase grammar's state question, when a template says the words whole
    let_be: bool = False  # the engine's decision is rule 8's table talk: the Host says nothing

    @property
    def taken_as(self) -> str:
        """What the Host took the words as, in the label's terms."""
        message = self.message
        if self.repeat:
            return "repeat"
        if self.state == "lies broken":
            return "lies"
        if message is None:
            return "nothing"
        if message.command is Command.READ:
            return f"read E{message.exhibits[0]}" if message.exhibits else "read"
        if message.command is Command.ANSWERS:
            return f"answers {message.suspect}"
        if message.command is not None:
            return str(message.command.value)
        if message.kind is MessageKind.QUESTION:
            return f"question {message.suspect}"
        if message.kind is MessageKind.CONFRONTATION:
            exhibits = " ".join(f"E{n}" for n in message.exhibits)
            return f"confrontation {message.suspect} {exhibits}"
        return str(message.kind.value)

    @property
    def right(self) -> bool:
        if self.item.label == "talk":
            return self.let_be and not self.repeat  # the Host lets the table talk ("no thanks, I'm full" too)
        return self.taken_as == self.item.label


def read_items(name: str, split: str) -> list[Item]:
    items = []
    for line in set_file(name, split).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("label\t"):
            continue
        label, said = line.split("\t", 1)
        items.append(Item(label.strip(), said.strip()))
    return items


def round_two() -> tuple[Game, Understander]:
    case = load_bundled_case()
    game = Game(case)
    game.start()
    game.handle(", ".join(SEATS))
    game.handle("next")
    game.handle("yes")
    return game, Understander(case.suspects)


def run(items: list[Item]) -> list[Outcome]:
    game, understander = round_two()
    phrases = grammar()
    outcomes = []
    for item in items:
        heard = understander.understand(item.said, game, 1.0, SEATS)
        said = phrases.match(heard.text)
        state = said.intent.name if said is not None and said.intent.kind is IntentKind.STATE else None
        let_be = heard.message is not None and game.decide(heard.text).action is Action.TABLE_TALK
        outcomes.append(Outcome(item, heard.message, is_repeat_request(heard.text, heard.message), state, let_be))
    return outcomes


def report(name: str, split: str, outcomes: list[Outcome], show_misses: bool) -> None:
    right = sum(o.right for o in outcomes)
    print(f"{name} {split}: taken as meant {right}/{len(outcomes)} ({100 * right / len(outcomes):.1f}%)")
    for label in sorted({o.item.label.split()[0] for o in outcomes}):
        mine = [o for o in outcomes if o.item.label.split()[0] == label]
        print(f"  {label:14} {sum(o.right for o in mine)}/{len(mine)}")
    if show_misses:
        for o in outcomes:
            if not o.right:
                print(f"  miss {o.item.label:24} {o.item.said!r:60} -> {o.taken_as}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=(*SETS, "all"), default="all", help="which set of phrasings")
    parser.add_argument("--split", choices=("test", "tune", "both"), default="both")
    parser.add_argument("--show-misses", action="store_true", help="list what was not taken as meant")
    args = parser.parse_args()
    for name in SETS if args.set == "all" else (args.set,):
        if not (HERE / name).is_dir():
            continue
        for split in ("tune", "test") if args.split == "both" else (args.split,):
            report(name, split, run(read_items(name, split)), args.show_misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
