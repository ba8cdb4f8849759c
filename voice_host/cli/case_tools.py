"""`third-carol verify`, `seal` and `lint`: the case author's tools."""

from __future__ import annotations

import argparse
import csv
import re
import sys
from pathlib import Path

from engine.asked import ASKED_FILE, format_asked, tune_questions
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
    seal_asked(args.asked or args.reveal.parent / "questions.tsv", folder)
    return 0


def seal_asked(question_set: Path, folder: Path) -> None:
    """Seal the question set's tune rows as the questions asked before (engine.asked); its test rows stay out."""
    sealed = folder / ASKED_FILE
    if not question_set.is_file():
        sealed.unlink(missing_ok=True)
        print(f"no question set at {question_set}: the case has no questions asked before")
        return
    asked = tune_questions(question_set.read_text(encoding="utf-8"))
    sealed.write_text(seal_part(format_asked(asked).encode("utf-8")), encoding="ascii")
    print(f"sealed {len(asked)} tune questions of {question_set.name} as {ASKED_FILE}")


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
    if report.ok:
        _print_tune_reach(folder, args.questions)
    errors = sum(1 for finding in report.findings if finding.is_error)
    print(f"{errors} error(s), {len(report.findings) - errors} warning(s)")
    return 1 if errors else 0


def _questions_file(mystery: str, given: Path | None) -> Path | None:
    """The case's question set: --questions, else spoilers/<case>/questions.tsv here or in this checkout."""
    if given is not None:
        return given
    for root in (Path.cwd(), Path(__file__).resolve().parents[2]):
        candidate = root / "spoilers" / mystery / "questions.tsv"
        if candidate.is_file():
            return candidate
    return None


def read_tune_questions(path: Path) -> list[tuple[str, str]]:
    """The `tune` rows of a question set (split, suspect_key, topic, question; '#' lines are comments)."""
    with path.open(encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if not line.startswith("#")]
    return [(row["suspect_key"], row["question"]) for row in csv.DictReader(lines, delimiter="\t") if row["split"] == "tune"]


def _print_tune_reach(folder: Path, given: Path | None) -> None:
    from engine.lint import tune_reach

    case = read_case_dir(folder)
    path = _questions_file(case.public.mystery, given)
    if path is None:
        return
    questions = read_tune_questions(path)
    print(f"tune questions reaching each line ({len(questions)} in {path.name}):")
    for reach in tune_reach(case, questions):
        print(reach.render())
