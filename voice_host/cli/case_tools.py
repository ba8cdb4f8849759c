"""`third-carol verify`, `seal` and `lint`: the case author's tools."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from engine.case import NOTICE_FILE, REFUSAL, CaseError, parse_notice
from engine.caseformat import CaseFormatError
from engine.seal import seal_part, sha256_hex, split_reveal
from voice_host.loop.casefiles import case_dir_or_bundled, read_case_dir, read_case_files


def run_verify(args: argparse.Namespace) -> int:
    folder = case_dir_or_bundled(args.case)
    try:
        case = read_case_dir(folder)
    except CaseError as error:
        print(REFUSAL)
        print(f"reason: {error.reason}", file=sys.stderr)
        return 1
    print(f"reveal: {case.notice.reveal_name} ({len(case.notice.parts)} part(s))")
    print(f"sha256: {case.reveal_sha256}")
    print(f"notice: {case.notice.commitment}")
    print("match: yes")
    return 0


def run_seal(args: argparse.Namespace) -> int:
    plain = args.reveal.read_bytes()
    match = re.search(rb"^reveal:\s*(\S+)", plain, re.MULTILINE)
    if match is None:
        print(f"{args.reveal}: no 'reveal:' record naming the case", file=sys.stderr)
        return 1
    mystery = match.group(1).decode()
    folder: Path = args.case_dir
    folder.mkdir(parents=True, exist_ok=True)
    name = args.name
    notice_path = folder / NOTICE_FILE
    if name is None and notice_path.exists():
        try:
            name = parse_notice(notice_path.read_text(encoding="utf-8")).reveal_name
        except CaseFormatError:
            name = None
    name = name or f"{mystery}-reveal.md"
    for old in folder.glob("reveal-*.sealed"):
        old.unlink()
    part_names = []
    for index, part in enumerate(split_reveal(plain, args.parts), start=1):
        part_name = f"reveal-{index}.sealed"
        (folder / part_name).write_text(seal_part(part), encoding="ascii")
        part_names.append(part_name)
    notice_path.write_text(
        "# The sealed notice (the card's SYSTEM.md): the commitment is the SHA-256 of the joined reveal.\n"
        f"notice: {mystery}\n"
        f"  commitment: {sha256_hex(plain)}\n"
        f"  reveal: {name}\n"
        f"  parts: {'; '.join(part_names)}\n",
        encoding="utf-8",
    )
    print(f"sealed {args.reveal.name} into {len(part_names)} part(s); sha256 {sha256_hex(plain)}")
    return 0


def run_lint(args: argparse.Namespace) -> int:
    from engine.lint import lint_case_files

    folder = case_dir_or_bundled(args.case_dir)
    try:
        files = read_case_files(folder)
    except CaseError as error:
        print(f"{folder}: {error.reason}", file=sys.stderr)
        return 1
    report = lint_case_files(files)
    for finding in report.findings:
        print(finding.render())
    for length in report.lengths:
        print(length.render())
    errors = sum(1 for finding in report.findings if finding.is_error)
    print(f"{errors} error(s), {len(report.findings) - errors} warning(s)")
    return 1 if errors else 0
