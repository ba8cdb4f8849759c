"""`third-carol play --text`: one message per line on stdin, every reply printed and flushed.

The lines of a pasted SAVE block, BEGIN to END, are read as one message.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

from engine.case import REFUSAL, CaseError
from engine.game import Game
from engine.replies import Reply
from engine.save import BEGIN, END
from voice_host.loop.casefiles import case_dir_or_bundled, read_case_dir
from voice_host.loop.journal import Journal, default_state_dir, replay


def messages_from(lines: Iterable[str]) -> Iterator[str]:
    block: list[str] | None = None
    for raw in lines:
        line = raw.rstrip("\n")
        if block is not None:
            block.append(line)
            if END in line:
                yield "\n".join(block)
                block = None
        elif BEGIN in line and END not in line:
            block = [line]
        elif line.strip():
            yield line
    if block is not None:
        yield "\n".join(block)


def _print(reply: Reply, out: TextIO) -> None:
    out.write(reply.render() + "\n\n")
    out.flush()


def run_text(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    source = stdin or sys.stdin
    out = stdout or sys.stdout
    try:
        case = read_case_dir(case_dir_or_bundled(args.case))
    except CaseError as error:
        out.write(REFUSAL + "\n")
        out.flush()
        print(f"reason: {error.reason}", file=sys.stderr)
        return 1
    journal = Journal(args.state_dir or default_state_dir())
    if args.resume and journal.messages():
        if journal.case_name() != case.public.mystery:
            print(f"the journal in {journal.folder} is for another case", file=sys.stderr)
            return 1
        game, last = replay(case, journal.messages())
        if last is not None:
            _print(last, out)
    else:
        game = Game(case)
        opening = game.start()
        journal.start_new(case.public.mystery, opening)
        _print(opening, out)
    for message in messages_from(source):
        reply = game.handle(message)
        journal.record(message, reply)
        _print(reply, out)
    return 0
