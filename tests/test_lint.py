"""The fair-play checker: the bundled case lints clean, and each kind of broken case is caught.

Broken cases are made here from the plain Hollin Fold sources, one fault at a time, so each test names
the one rule it breaks.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.case import Case, join_reveal, parse_notice, parse_public, parse_reveal
from engine.lint import (
    MAX_OPENING_WORDS,
    LintReport,
    Severity,
    lint_case,
    lint_case_files,
    lint_sources,
    spoken_words,
)
from tests.engine_support import CASES_DIR, TEST_CASES
from voice_host.cli.main import main
from voice_host.loop.casefiles import bundled_case_dir, read_case_files

ROOT = Path(__file__).resolve().parents[1]
REVEAL_TEXT = (ROOT / "spoilers" / "hollin-fold" / "reveal.txt").read_text(encoding="utf-8")
PUBLIC_TEXT = (bundled_case_dir() / "public.case").read_text(encoding="utf-8")


def lint(reveal: str = REVEAL_TEXT, public: str = PUBLIC_TEXT) -> LintReport:
    return lint_sources(public, reveal)


def edit(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"expected exactly one {old!r}"
    return text.replace(old, new)


def drop_record(text: str, header: str) -> str:
    """Remove the record whose first line is `header`, with its fields and continuation lines."""
    lines = text.split("\n")
    start = lines.index(header)
    end = start + 1
    while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
        end += 1
    return "\n".join(lines[:start] + lines[end:])


def line_of(text: str, fragment: str) -> int:
    matches = [number for number, line in enumerate(text.split("\n"), start=1) if fragment in line]
    assert len(matches) == 1, f"expected one line with {fragment!r}"
    return matches[0]


def messages(report: LintReport, severity: Severity = Severity.ERROR) -> list[str]:
    return [finding.message for finding in report.findings if finding.severity is severity]


def only_error(report: LintReport, pattern: str) -> None:
    errors = messages(report)
    assert len(errors) == 1, errors
    assert re.search(pattern, errors[0]), errors[0]


# --- the bundled case ----------------------------------------------------------------------------


def test_the_bundled_case_lints_clean() -> None:
    report = lint_case_files(read_case_files(bundled_case_dir()))
    assert report.findings == ()
    assert [length.round for length in report.lengths] == [1, 2, 3, 4]
    assert all(0 < length.words <= MAX_OPENING_WORDS for length in report.lengths)


@pytest.mark.parametrize("load", list(TEST_CASES.values()), ids=list(TEST_CASES))
def test_the_test_cases_lint_clean_and_their_sources_are_what_is_sealed(load: Callable[[], Case]) -> None:
    folder = CASES_DIR / load().public.mystery
    report = lint_case_files(read_case_files(folder))
    assert report.findings == ()
    files = read_case_files(folder)
    joined = join_reveal(files, parse_notice(files["SYSTEM.md"].decode()))
    assert joined == (CASES_DIR / f"{folder.name}.reveal.txt").read_bytes()


def test_the_plain_source_is_what_the_package_seals() -> None:
    files = read_case_files(bundled_case_dir())
    notice = parse_notice(files["SYSTEM.md"].decode())
    assert join_reveal(files, notice).decode() == REVEAL_TEXT


def test_round_one_counts_the_house_and_every_part_of_the_opening() -> None:
    before = lint().lengths
    longer = edit(PUBLIC_TEXT, "the plate is the house silver.", "the plate is the house silver, all of it.")
    after = lint(public=longer).lengths
    assert after[0].words == before[0].words + 3
    assert after[1:] == before[1:]
    assert after[0].minutes == pytest.approx(after[0].words / 150)


def test_spoken_words_count_times_and_hyphenated_words_once() -> None:
    assert spoken_words("At 10.35, twenty-five to eleven, Amos's note.") == 7


# --- the six and their NAMES ---------------------------------------------------------------------


def test_an_alias_missing_from_the_cards_names_is_an_error() -> None:
    public = edit(PUBLIC_TEXT, "aliases: Thwaite; Abel; butler", "aliases: Thwaite; Abel")
    only_error(lint(public=public), r"thwaite's aliases must be the card's NAMES")


def test_joel_without_the_blamire_redirect_is_an_error() -> None:
    public = edit(PUBLIC_TEXT, "  redirect: Blamire\n", "")
    only_error(lint(public=public), r"joel needs 'redirect: Blamire'")


def test_hollin_fold_without_the_cards_pronouns_is_an_error() -> None:
    only_error(lint(public=edit(PUBLIC_TEXT, "  victim-pronouns: she/her/her\n", "")), r"victim-pronouns: she/her/her")
    joel = edit(PUBLIC_TEXT, "  call: Joel\n  pronouns: he/him/his\n", "  call: Joel\n")
    only_error(lint(public=joel), r"joel needs 'pronouns: he/him/his'")


def test_hollin_fold_with_five_suspects_is_an_error() -> None:
    public = parse_public(PUBLIC_TEXT)
    reveal = parse_reveal(REVEAL_TEXT, "reveal.txt", public.suspects)
    five = dataclasses.replace(public, suspects=public.suspects[:5])
    only_error(lint_case(five, reveal), r"Hollin Fold has six suspects")


def test_a_call_that_is_none_of_their_names_is_a_warning() -> None:
    public = edit(PUBLIC_TEXT, "call: Mr. Ormerod", "call: The Agent Man")
    report = lint(public=public)
    assert messages(report) == []
    assert any("call 'The Agent Man'" in message for message in messages(report, Severity.WARNING))


def test_a_number_word_that_is_not_the_count_of_suspects_is_a_warning() -> None:
    public = edit(PUBLIC_TEXT, "  number-word: six\n", "  number-word: seven\n")
    report = lint(public=public)
    assert messages(report) == []
    assert messages(report, Severity.WARNING) == ["number-word is 'seven', but the case has 6 suspects (six)"]


# --- rounds, exhibits, statements ----------------------------------------------------------------


def test_exhibits_out_of_order_are_an_error() -> None:
    reveal = edit(REVEAL_TEXT, "exhibit: E3\n", "exhibit: E99\n")
    reveal = edit(reveal, "exhibit: E4\n", "exhibit: E3\n").replace("exhibit: E99\n", "exhibit: E4\n")
    report = lint(reveal)
    assert any("E3 comes after E4" in message for message in messages(report))


def test_an_exhibit_under_the_wrong_round_is_an_error() -> None:
    block_start = REVEAL_TEXT.index("exhibit: E5\n")
    block_end = REVEAL_TEXT.index("exhibit: E6\n")
    block = REVEAL_TEXT[block_start:block_end]
    moved = REVEAL_TEXT.replace(block, "")
    moved = edit(moved, "exhibit: E1\n", block + "exhibit: E1\n")
    assert any("E5 belongs under 'round: 2'" in message for message in messages(lint(moved)))


def test_a_missing_statement_is_an_error_naming_the_round() -> None:
    reveal = drop_record(REVEAL_TEXT, "statement: 3 | keld")
    only_error(lint(reveal), r"round 3 has no statement from keld")


def test_a_missing_deflect_is_an_error() -> None:
    reveal = drop_record(REVEAL_TEXT, "deflect: ormerod")
    only_error(lint(reveal), r"ormerod needs exactly one deflect line")


# --- references, chains, cycles ------------------------------------------------------------------


def test_a_catch_outside_the_sixteen_is_an_error_on_its_line() -> None:
    reveal = edit(REVEAL_TEXT, "  catch: E10\n", "  catch: E17\n")
    report = lint(reveal)
    only_error(report, r"'E17' is not an exhibit E1 to E16")
    assert report.findings[0].line == line_of(reveal, "catch: E17")


def test_gives_way_to_a_lie_not_told_after_it_is_an_error() -> None:
    reveal = edit(REVEAL_TEXT, "  after: T1\n", "")
    only_error(lint(reveal), r"lie T1 gives way to T2, which must be thwaite's and 'after: T1'")


def test_an_after_naming_no_lie_is_an_error() -> None:
    reveal = edit(REVEAL_TEXT, "  after: K1\n", "  after: K9\n")
    assert any("'K9', which is not a lie label" in message for message in messages(lint(reveal)))


def test_a_cycle_of_after_is_an_error() -> None:
    reveal = edit(REVEAL_TEXT, "  catch: E3\n  gives-way-to: T2\n", "  catch: E3\n  gives-way-to: T2\n  after: T2\n")
    errors = messages(lint(reveal))
    assert sum("cycle" in message for message in errors) == 2  # T1 and T2 are both never told


def test_a_suspect_with_no_lie_is_an_error() -> None:
    reveal = drop_record(drop_record(REVEAL_TEXT, "lie: O1 | ormerod | her affairs"), "lie: O2 | ormerod | why he came")
    only_error(lint(reveal), r"ormerod tells no lie")


def test_a_chain_longer_than_the_last_rounds_questions_cannot_break() -> None:
    chain = "".join(
        f'lie: X{n} | keld | tale {n}\n  cues: tale {n}\n  says: "Tale {n}."\n  catch: E16\n'
        + (f"  after: X{n - 1}\n" if n > 1 else "")
        + f'  admit: "Not tale {n}."\n'
        for n in range(1, 6)
    )
    reveal = edit(REVEAL_TEXT, "deflect: keld\n", chain + "deflect: keld\n")
    only_error(lint(reveal), r"lie X5 cannot be broken in play")


def test_a_told_after_lie_caught_only_by_earlier_exhibits_is_a_warning() -> None:
    reveal = edit(REVEAL_TEXT, "  catch: E15\n  after: K1\n", "  catch: E5\n  after: K1\n")
    report = lint(reveal)
    assert messages(report) == []
    assert any("lie K2 can first be told in round 3" in m for m in messages(report, Severity.WARNING))


def test_one_exhibit_catching_two_standing_lies_of_one_suspect_is_a_warning() -> None:
    reveal = edit(REVEAL_TEXT, "  catch: E7\n", "  catch: E7; E8\n")
    report = lint(reveal)
    assert messages(report) == []
    assert "E8 catches both M1 and M2 of marsden; one confrontation breaks only M1" in messages(report, Severity.WARNING)


def test_silence_that_is_not_the_admits_last_sentence_is_an_error() -> None:
    reveal = edit(REVEAL_TEXT, '  silence: "I shall say nothing more."', '  silence: "Leave me be."')
    only_error(lint(reveal), r"'silence' must be the last sentence of its 'admit'")


# --- topics and cues -----------------------------------------------------------------------------


def add_cue(text: str, header: str, cue: str) -> str:
    """The reveal with one more cue on the record that starts with `header`."""
    start = text.index(header + "\n")
    at = text.index("\n  cues: ", start) + 1
    end = text.index("\n", at)
    return text[:end] + f"; {cue}" + text[end:]


def test_a_cue_on_two_topics_of_one_suspect_is_an_error() -> None:
    reveal = add_cue(REVEAL_TEXT, "line: thwaite | the back stair", "silver")
    only_error(lint(reveal), r"thwaite: cue 'silver' is on both 'the plate' .* and 'the back stair'")


def test_cues_that_differ_only_by_inflection_are_one_cue() -> None:
    reveal = add_cue(REVEAL_TEXT, "line: thwaite | the back stair", "silvers")
    only_error(lint(reveal), r"thwaite: cue 'silvers' is on both 'the plate' .* and 'the back stair'")


def test_a_topic_without_cues_is_an_error() -> None:
    reveal = edit(
        REVEAL_TEXT,
        "line: joel | Thwaite\n  cues: thwaite; abel; butler\n",
        "line: joel | Thwaite\n  cues:\n",
    )
    only_error(lint(reveal), r"field 'cues' is empty")


def test_another_suspects_name_as_a_cue_is_a_warning() -> None:
    reveal = add_cue(drop_record(REVEAL_TEXT, "line: thwaite | Mr. Joel"), "line: thwaite | what he heard and saw", "heir")
    report = lint(reveal)
    assert messages(report) == []
    assert any("cue 'heir' names joel" in m for m in messages(report, Severity.WARNING))


def test_a_cue_beginning_with_another_topics_cue_is_a_warning() -> None:
    reveal = add_cue(REVEAL_TEXT, "line: keld | where he was", "carol book")
    report = lint(reveal)
    assert messages(report) == []
    assert any("cue 'carol book'" in m and "begins with cue 'carol'" in m for m in messages(report, Severity.WARNING))


# --- grading -------------------------------------------------------------------------------------


def test_a_culprit_who_is_not_a_suspect_is_an_error() -> None:
    reveal = edit(REVEAL_TEXT, "  culprit: keld\n", "  culprit: cook\n")
    only_error(lint(reveal), r"'cook' is not a suspect of this case")


def test_one_rounds_exhibits_proving_all_three_parts_is_an_error() -> None:
    reveal = edit(REVEAL_TEXT, "  could: E5 E14; E11 E14\n  how: E4 E16\n", "  could: E14\n  how: E16\n")
    only_error(lint(reveal), r"round 4's exhibits alone prove could, how and why")


def test_a_proof_needing_more_than_six_exhibits_is_an_error() -> None:
    reveal = edit(
        REVEAL_TEXT,
        "  could: E5 E14; E11 E14\n  how: E4 E16\n  why: E12; E15\n",
        "  could: E1 E2 E5\n  how: E4 E16 E6\n  why: E12 E7 E8\n",
    )
    only_error(lint(reveal), r"takes 9 exhibits, but an accusation counts only 6")


def test_no_alternative_sets_is_a_warning() -> None:
    reveal = edit(REVEAL_TEXT, "  could: E5 E14; E11 E14\n", "  could: E5 E14\n")
    reveal = edit(reveal, "  why: E12; E15\n", "  why: E12\n")
    report = lint(reveal)
    assert messages(report) == []
    assert "no part of GRADING has two alternative exhibit sets" in messages(report, Severity.WARNING)


# --- length --------------------------------------------------------------------------------------


def test_a_long_exhibit_and_a_long_opening_are_warnings() -> None:
    padding = " and the snow fell" * 80
    reveal = edit(
        REVEAL_TEXT, "Keep the maids to the main stair tonight.", "Keep the maids to the main stair tonight" + padding + "."
    )
    warnings = messages(lint(reveal), Severity.WARNING)
    assert any(message.startswith("E4 is ") for message in warnings)
    assert any(message.startswith("round 1's opening is ") for message in warnings)


# --- the seal and the command --------------------------------------------------------------------


def test_a_notice_that_does_not_match_the_reveal_is_an_error() -> None:
    files = read_case_files(bundled_case_dir())
    notice = files["SYSTEM.md"].decode()
    files["SYSTEM.md"] = re.sub(r"commitment: [0-9a-f]{64}", "commitment: " + "0" * 64, notice).encode()
    only_error(lint_case_files(files), r"does not match the commitment .*: reseal it")


def test_a_notice_for_another_case_is_an_error() -> None:
    files = read_case_files(bundled_case_dir())
    files["SYSTEM.md"] = files["SYSTEM.md"].decode().replace("notice: hollin-fold", "notice: frost-fair").encode()
    only_error(lint_case_files(files), r"the notice is for 'frost-fair', not this case")


def test_a_missing_part_is_an_error() -> None:
    files = read_case_files(bundled_case_dir())
    del files["reveal-2.sealed"]
    only_error(lint_case_files(files), r"part 2 of 2 \(reveal-2.sealed\) is missing")


def test_the_lint_command_prints_lengths_and_exits_by_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["lint"]) == 0
    out = capsys.readouterr().out
    assert "round 1 opening:" in out and "0 error(s), 0 warning(s)" in out

    broken = tmp_path / "broken"
    source = tmp_path / "reveal.txt"
    source.write_text(
        edit(
            REVEAL_TEXT,
            "  culprit: keld\n  could: E5 E14; E11 E14\n  how: E4 E16\n",
            "  culprit: keld\n  could: E14\n  how: E16\n",
        ),
        encoding="utf-8",
    )
    broken.mkdir()
    (broken / "public.case").write_text(PUBLIC_TEXT, encoding="utf-8")
    assert main(["seal", str(source), str(broken), "--parts", "2"]) == 0
    capsys.readouterr()
    assert main(["lint", str(broken)]) == 1
    out = capsys.readouterr().out
    assert re.search(r"^hollin-fold-reveal\.md:\d+: error: round 4's exhibits alone prove", out, re.MULTILINE)
    assert "1 error(s)" in out


def test_tune_reach_counts_the_questions_that_reach_each_line() -> None:
    from engine.lint import tune_reach
    from voice_host.loop.casefiles import load_bundled_case

    case = load_bundled_case()
    reach = {
        (r.suspect, r.topic): r
        for r in tune_reach(
            case,
            [
                ("keld", "Reverend, why did you ask Nance for turpentine?"),
                ("keld", "Mr Keld, did you go down the back stair?"),
                ("keld", "Keld, what about the organ money?"),
                ("thwaite", "Keld, what about the organ money?"),  # put to Keld, not Thwaite: not counted
            ],
        )
    }
    assert reach[("keld", "the back stair")].questions == 2
    assert reach[("keld", "the back stair")].labels == ("K3",)
    assert reach[("keld", "the organ fund")].questions == 1
    assert reach[("keld", "the organ fund")].labels == ("K1", "K2")
    assert reach[("thwaite", "the plate")].questions == 0
    assert "no tune question reaches it" in reach[("thwaite", "the plate")].render()
