"""Card rule 2 and the case format: a case loads only whole, sealed and well formed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.case import REFUSAL, THEY, CaseError, Pronouns, load_case, parse_public, parse_reveal
from engine.caseformat import CaseFormatError
from engine.seal import seal_part, unseal_part
from tests.engine_support import FROST_FAIR, FROST_SOURCE, frost_case, frost_files, wyke_case


def test_the_test_case_loads_and_its_seal_matches() -> None:
    case = frost_case()
    assert case.reveal_sha256 == case.notice.commitment
    assert [s.key for s in case.suspects] == ["ada", "bram", "cole"]
    assert len(case.reveal.rounds) == 4
    assert case.exhibit(7).title == "The watchman's note"


def test_the_joined_parts_are_the_plain_reveal() -> None:
    files = frost_files()
    case = frost_case()
    joined = b"".join(unseal_part(files[name]) for name in case.notice.parts)
    assert joined == FROST_SOURCE.read_bytes()


def test_one_changed_byte_in_a_part_refuses_the_case() -> None:
    files = frost_files()
    plain = bytearray(unseal_part(files["reveal-2.sealed"]))
    plain[40] = ord("X") if plain[40] != ord("X") else ord("Y")
    files["reveal-2.sealed"] = seal_part(bytes(plain)).encode()
    with pytest.raises(CaseError, match="does not match the notice's commitment"):
        load_case(files)


def test_a_damaged_sealed_part_refuses_the_case() -> None:
    files = frost_files()
    sealed = bytearray(files["reveal-1.sealed"])
    sealed[200] = ord("!")
    files["reveal-1.sealed"] = bytes(sealed)
    with pytest.raises(CaseError, match=r"part 1 of 2 \(reveal-1.sealed\) is damaged"):
        load_case(files)


def test_a_missing_part_refuses_the_case() -> None:
    files = frost_files()
    del files["reveal-2.sealed"]
    with pytest.raises(CaseError, match=r"part 2 of 2 \(reveal-2.sealed\) is missing"):
        load_case(files)


def test_a_reveal_without_end_of_file_refuses_the_case() -> None:
    files = frost_files()
    plain = unseal_part(files["reveal-2.sealed"]).replace(b"END OF FILE\n", b"")
    files["reveal-2.sealed"] = seal_part(plain).encode()
    with pytest.raises(CaseError, match="does not end with END OF FILE"):
        load_case(files)


def test_parse_errors_name_the_file_and_line() -> None:
    source = FROST_SOURCE.read_text()
    broken = source.replace("  catch: E3\n", "  catch: E3\n  colour: red\n", 1)
    line = broken.split("\n").index("  colour: red") + 1
    with pytest.raises(CaseFormatError) as error:
        parse_reveal(broken, "reveal.txt", frost_case().suspects)
    assert str(error.value).startswith(f"reveal.txt:{line}: ")
    assert "no field 'colour'" in str(error.value)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("exhibit: E16\n", "exhibit: E17\n"), "not an exhibit E1 to E16"),
        (("  gives-way-to: R2\n", "  gives-way-to: R9\n"), "refers to 'R9'"),
        (("statement: 4 | cole\n", "statement: 4 | dora\n"), "'dora' is not a suspect"),
        (('  says: "A clerk does not gossip."\n', "  says: A clerk does not gossip.\n"), "inside double quotes"),
        (("\nEND OF FILE\n", "\nEND OF FILE\nafterwards\n"), "nothing may follow END OF FILE"),
        (('  silence: "I\'ll say nothing more."\n', '  silence: "Goodbye."\n'), "last sentence of its 'admit'"),
        # the end of the admit's last sentence is not the whole sentence
        (('  silence: "I\'ll say nothing more."\n', '  silence: "say nothing more."\n'), "last sentence of its 'admit'"),
    ],
)
def test_strict_parsing_rejects_a_broken_reveal(change: tuple[str, str], message: str) -> None:
    source = FROST_SOURCE.read_text()
    assert change[0] in source
    with pytest.raises(CaseFormatError, match=message):
        parse_reveal(source.replace(change[0], change[1], 1), "reveal.txt", frost_case().suspects)


@pytest.mark.parametrize(
    ("admit", "silence"),
    [
        ("I'll say nothing more.", "I'll say nothing more."),
        ("I shut the booth at half past eight! I'll say nothing more.", "I'll say nothing more."),
        ('I said "enough." Not another word', "Not another word"),
    ],
)
def test_silence_may_be_the_whole_admit_or_its_last_sentence(admit: str, silence: str) -> None:
    source = (
        FROST_SOURCE.read_text()
        .replace('"I shut the booth at half past eight. I\'ll say nothing more."', f'"{admit}"', 1)
        .replace('  silence: "I\'ll say nothing more."', f'  silence: "{silence}"', 1)
    )
    lie = next(entry for entry in parse_reveal(source, "reveal.txt", frost_case().suspects).entries if entry.label == "R3")
    assert (lie.admit, lie.silence) == (admit, silence)


def test_pronouns_and_the_number_word_come_from_the_case() -> None:
    public = wyke_case().public
    assert public.victim_pronouns == Pronouns("he", "him", "his")
    assert public.number_word == "four"
    assert [s.pronouns.object for s in public.suspects] == ["her", "him", "her", "him"]


def test_without_pronouns_or_a_number_word_a_case_says_they_and_counts_its_suspects() -> None:
    text = (FROST_FAIR / "public.case").read_text()
    bare = "\n".join(line for line in text.split("\n") if "pronouns:" not in line)
    public = parse_public(bare)
    assert public.victim_pronouns == THEY and {s.pronouns for s in public.suspects} == {THEY}
    assert public.number_word == "three"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("  pronouns: she/her/her\n", "  pronouns: she/her\n"), "three words with '/' between them"),
        (("  victim-pronouns: he/him/his\n", "  victim-pronouns: he him his\n"), "three words"),
        (("  titles:", "  number-word: 3\n  titles:"), "'number-word' is one word"),
    ],
)
def test_bad_pronouns_or_number_word_name_the_line(change: tuple[str, str], message: str) -> None:
    text = (FROST_FAIR / "public.case").read_text()
    assert change[0] in text
    broken = text.replace(change[0], change[1], 1)
    with pytest.raises(CaseFormatError, match=message) as error:
        parse_public(broken)
    assert error.value.line == broken.split("\n").index(change[1].split("\n")[0]) + 1


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "voice_host.cli.main", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_text_mode_refuses_a_tampered_case_with_the_cards_line(tmp_path: Path) -> None:
    for name, data in frost_files().items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "reveal-1.sealed").unlink()
    result = _run("play", "--text", "--case", str(tmp_path), "--state-dir", str(tmp_path / "state"), stdin="Ann\n")
    assert result.returncode != 0
    assert result.stdout.strip() == REFUSAL
    assert "part 1 of 2 (reveal-1.sealed) is missing" in result.stderr


def test_verify_prints_the_sha_and_the_match(tmp_path: Path) -> None:
    from tests.engine_support import FROST_FAIR

    result = _run("verify", "--case", str(FROST_FAIR))
    assert result.returncode == 0
    assert f"sha256: {frost_case().reveal_sha256}" in result.stdout
    assert "match: yes" in result.stdout
