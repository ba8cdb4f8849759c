"""`third-carol play --text`: one message per line on stdin, every reply printed and flushed.

The lines of a pasted SAVE block, BEGIN to END, are read as one message. A block ends early at the
first line that is not a SAVE field, so a BEGIN with no END never swallows the lines after it.

Problems with the state folder, the journal or the SAVE file are one line each on stderr, never a
traceback; the night's own lines (the replies, and the notice of a resume that was cut back) go to
stdout.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

from engine.game import Game
from engine.replies import Reply
from engine.save import BEGIN, END
from voice_host.loop.journal import Journal, replay, resume_notice
from voice_host.loop.opening import choose_night_or_say, open_case_and_folder

MAX_SAVE_LINES = 24  # the card's block is 12 lines; a pasted one may be wrapped a little more
_SAVE_FIELD = re.compile(r"^\s*(?:(?:game|m|rules|turn|rd|q|seat|table|broken|sha):|$)", re.IGNORECASE)


def messages_from(lines: Iterable[str]) -> Iterator[str]:
    block: list[str] | None = None
    for raw in lines:
        line = raw.rstrip("\r\n")
        if block is not None:
            if END in line:
                block.append(line)
                yield "\n".join(block)
                block = None
                continue
            if _SAVE_FIELD.match(line) and len(block) < MAX_SAVE_LINES:
                block.append(line)
                continue
            # Not a SAVE field: the block ended unfinished, and this line is a message of its own.
            yield "\n".join(block)
            block = None
        if line.lstrip().startswith(BEGIN) and END not in line:
            block = [line]
        elif line.strip():
            yield line
    if block is not None:
        yield "\n".join(block)


def _print(reply: Reply, out: TextIO) -> None:
    out.write(reply.render() + "\n\n")
    out.flush()


def _say_problems(lines: list[str]) -> None:
    for line in lines:
        print(line, file=sys.stderr, flush=True)


def _lenient(stream: TextIO) -> TextIO:
    """Standard input that reads bytes which are not UTF-8 as U+FFFD instead of stopping the night."""
    if isinstance(stream, io.TextIOWrapper):
        stream.reconfigure(errors="replace")
    return stream


def run_text(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    source = stdin or _lenient(sys.stdin)
    out = stdout or sys.stdout
    opened = open_case_and_folder(args.case, args.state_dir, out)
    if opened is None:
        return 1
    case, folder = opened
    with folder:
        chosen = choose_night_or_say(folder, case.public.mystery, args.night, args.resume)
        if chosen is None:
            return 1
        night, kept = chosen.night, chosen.unfinished
        journal = folder.journal(case.public.mystery, night)
        if night is not None:
            game, replayed, _last = replay(case, night.messages)
            _say_problems(journal.start(replayed))
            notice = resume_notice(night, game)
            if notice is not None:
                out.write(notice + "\n\n")
            _print(game.resumed(), out)  # the card: on resume, FULL STATE above the LEDGER
        else:
            if kept is not None:
                print(
                    f"An unfinished night (turn {kept.turn}) is kept in {kept.path}. "
                    f"To go on with it: third-carol play --text --night {kept.name}",
                    file=sys.stderr,
                )
            game = Game(case)
            opening = game.start()
            _say_problems(journal.start())
            _print(opening, out)
        return _play(game, journal, source, out)


def _play(game: Game, journal: Journal, source: TextIO, out: TextIO) -> int:
    try:
        for message in messages_from(source):
            reply = game.handle(message)
            problems = journal.record(message, reply)
            _print(reply, out)
            _say_problems(problems)
    finally:
        journal.close()
    return 0
