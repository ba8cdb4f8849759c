"""docs/case-format.md: every example parses as written, and `seal` does what the page says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.case import (
    PUBLIC_SCHEMAS,
    REVEAL_SCHEMAS,
    PublicPart,
    Suspect,
    parse_notice,
    parse_public,
    parse_reveal,
)
from engine.caseformat import END_OF_FILE, CaseFormatError, parse_records
from engine.rules import EXHIBITS_PER_ROUND, ROUNDS
from tests.engine_support import FROST_SOURCE
from voice_host.cli.main import main

DOC = Path(__file__).resolve().parents[1] / "docs" / "case-format.md"
FILE = "docs/case-format.md"
# A fence's info string says what it holds; `text` and `sh` blocks are not case files.
_FENCE = re.compile(r"^```(?P<info>\w*)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)


def examples() -> list[str]:
    return [m.group("body") for m in _FENCE.finditer(DOC.read_text(encoding="utf-8")) if m.group("info") not in ("text", "sh")]


def first_kind(example: str) -> str:
    line = next(line for line in example.split("\n") if line.strip() and not line.startswith("#"))
    return line.partition(":")[0]


def example(kind: str) -> str:
    found = [text for text in examples() if first_kind(text) == kind]
    assert len(found) == 1, f"expected one {kind}: example"
    return found[0]


def completed_reveal(fragment: str, suspects: tuple[Suspect, ...]) -> str:
    """The doc's reveal, parsed as written, with plain filler for the rounds, exhibits, statements and
    deflects a page has no room for; whatever the doc shows is kept exactly."""
    records = parse_records(fragment, FILE, REVEAL_SCHEMAS, require_end=True)
    rounds = {r.args[0] for r in records if r.kind == "round"}
    exhibits = {r.args[0] for r in records if r.kind == "exhibit"}
    statements = {(r.args[0], r.args[1]) for r in records if r.kind == "statement"}
    deflects = {r.args[0] for r in records if r.kind == "deflect"}
    filler: list[str] = []
    for number in range(1, ROUNDS + 1):
        if str(number) not in rounds:
            filler.append(f'round: {number}\n  scene: "Scene {number}."')
        for exhibit in range((number - 1) * EXHIBITS_PER_ROUND + 1, number * EXHIBITS_PER_ROUND + 1):
            if f"E{exhibit}" not in exhibits:
                filler.append(f"exhibit: E{exhibit}\n  title: Exhibit {exhibit}\n  text: Filler.")
        for suspect in suspects:
            if (str(number), suspect.key) not in statements:
                filler.append(f'statement: {number} | {suspect.key}\n  says: "Filler."')
    for suspect in suspects:
        if suspect.key not in deflects:
            filler.append(f'deflect: {suspect.key}\n  says: "Filler."')
    body = fragment[: fragment.rindex(END_OF_FILE)]
    return body + "\n\n".join(filler) + f"\n\n{END_OF_FILE}\n"


def test_the_doc_has_an_example_of_each_file() -> None:
    assert sorted(first_kind(text) for text in examples()) == ["case", "exhibit", "notice", "reveal"]


def test_the_record_syntax_example_parses_as_written() -> None:
    (record,) = parse_records(example("exhibit"), FILE, REVEAL_SCHEMAS)
    assert record.value("text").count("\n") == 2  # each continuation line is kept as its own line


def test_the_public_case_example_parses_as_written() -> None:
    public = parse_public(example("case"), FILE)
    assert [s.key for s in public.suspects] == ["thwaite", "joel"]
    joel = public.suspects[1]
    assert (joel.name, joel.call, joel.redirect, joel.pronouns.object) == ("Joel Blamire", "Joel", ("Blamire",), "him")
    assert (public.victim_pronouns.object, public.number_word) == ("her", "six")
    assert public.rules_passages[0].cues == ("score", "points", "scoring")


def test_the_notice_example_parses_as_written() -> None:
    notice = parse_notice(example("notice"), FILE)
    assert notice.parts == ("reveal-1.sealed", "reveal-2.sealed")


def test_the_reveal_example_parses_as_written() -> None:
    public: PublicPart = parse_public(example("case"), FILE)
    reveal = parse_reveal(completed_reveal(example("reveal"), public.suspects), FILE, public.suspects)
    lies = {lie.label: lie for lie in reveal.entries if lie.label}
    assert lies["R2"].gives_way_to == "R3" and lies["R3"].after == "R2"
    assert lies["R3"].silence == "I'll say nothing more."
    assert reveal.grading.culprit == "joel"


def test_an_inline_comment_is_text_and_an_indented_one_is_an_error() -> None:
    public = parse_public(example("case").replace("  call: Joel\n", "  call: Joel  # what the Host calls him\n"), FILE)
    assert public.suspects[1].call == "Joel  # what the Host calls him"
    with pytest.raises(CaseFormatError, match=r"comments start at column 0"):
        parse_records("house:\n  # the house\n  text: A house.\n", FILE, PUBLIC_SCHEMAS)


def test_seal_names_the_reveal_as_the_doc_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "case"
    assert main(["seal", str(FROST_SOURCE), str(folder)]) == 0
    notice = parse_notice((folder / "SYSTEM.md").read_text(encoding="utf-8"))
    assert notice.reveal_name == "frost-fair-reveal.md"  # no notice yet: <case>-reveal.md
    assert notice.parts == ("reveal-1.sealed", "reveal-2.sealed")  # --parts defaults to 2
    assert main(["seal", str(FROST_SOURCE), str(folder), "--name", "other.md", "--parts", "1"]) == 0
    assert main(["seal", str(FROST_SOURCE), str(folder)]) == 0  # without --name the notice's name is kept
    assert parse_notice((folder / "SYSTEM.md").read_text(encoding="utf-8")).reveal_name == "other.md"
    capsys.readouterr()
