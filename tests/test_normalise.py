"""The normaliser: numbers, exhibit citations, times, and the lenient exhibit and command repairs."""

from __future__ import annotations

import pytest

from voice_host.understanding.normalise import CorrectionKind, normalise, read_exhibits_leniently, repair_command


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Confront Thwaite with E seven.", "Confront Thwaite with E7."),
        ("Confront Thwaite with E-7.", "Confront Thwaite with E7."),
        ("Confront Thwaite with ee 7", "Confront Thwaite with E7"),
        ("Confront Thwaite with e7", "Confront Thwaite with E7"),
        ("Confront Thwaite with E. 7", "Confront Thwaite with E7"),
        ("Confront Thwaite with E-seven", "Confront Thwaite with E7"),
        ("Confront Keld with exhibit seven.", "Confront Keld with E7."),
        ("Confront Keld with exhibit number 12", "Confront Keld with E12"),
        ("Confront Keld with exhibit one.", "Confront Keld with E1."),
        ("Confront Keld with number seven.", "Confront Keld with E7."),
        ("Read E one", "Read E1"),
        ("read E sixteen", "read E16"),
        ("Confront Abel with #7", "Confront Abel with E7"),
        ("We accuse Abel: E three, E seven and E twelve", "We accuse Abel: E3, E7 and E12"),
        ("We accuse Abel: exhibits three, seven and twelve.", "We accuse Abel: exhibits 3, 7 and 12."),
        # The plural's s run into the next word: still a list.
        ("Verdict, Ruddock, exhibit, 10, 12 and 15.", "Verdict, Ruddock, exhibits 10, 12 and 15."),
        ("It's Ruddock, exhibit three, six and eight.", "It's Ruddock, exhibits 3, 6 and 8."),
        ("Keld, what about exhibit 4 and 10.35?", "Keld, what about E4 and 10.35?"),  # a time is no exhibit
    ],
)
def test_citations_become_e_numbers(raw: str, expected: str) -> None:
    assert normalise(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Where were you at ten o'clock?", "Where were you at 10 o'clock?"),
        ("Where were you at half past nine?", "Where were you at half past 9?"),
        ("What did you do at quarter to eleven?", "What did you do at quarter to 11?"),
        ("Where were you at ten thirty five?", "Where were you at 10.35?"),
        ("Where were you at 10:35?", "Where were you at 10.35?"),
        ("Where were you at 10.35?", "Where were you at 10.35?"),
    ],
)
def test_times_stay_times(raw: str, expected: str) -> None:
    text = normalise(raw)
    assert text == expected
    assert "E" not in text.replace("Where", "").replace("What", "")


@pytest.mark.parametrize(
    "raw",
    [
        "Number one suspect for me is still open.",
        "one at a time",
        "Who killed her?",
        "No one saw her after that.",
        "I need a cup of tea.",
    ],
)
def test_ordinary_words_are_left_alone(raw: str) -> None:
    assert normalise(raw) == raw


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("We give up, we give up, we give up.", "We give up."),
        ("Next. Next.", "Next."),
        ("Confront Keld, Confront Keld with E3.", "Confront Keld with E3."),
        ("Very, very late.", "Very late."),
        ("I had had enough.", "I had had enough."),  # no comma between: said twice on purpose
        ("No one, no.", "No one, no."),
    ],
)
def test_whisper_s_repeats_are_said_once(raw: str, expected: str) -> None:
    assert normalise(raw) == expected


def test_within_after_confront_is_with() -> None:
    assert normalise("Confront Phoebe within iron.") == "Confront Phoebe with iron."
    assert normalise("Within the hour he left.") == "Within the hour he left."


def test_whisper_s_ms_is_the_title_miss() -> None:
    assert normalise("Ms. Marsden, where were you?") == "Miss Marsden, where were you?"
    assert normalise("Ms Marsden, where were you?") == "Miss Marsden, where were you?"
    assert normalise("Mrs. Blamire was in the library.") == "Mrs. Blamire was in the library."


def test_whisper_punctuation_and_quotes_are_tidied() -> None:
    assert normalise('  "Thwaite\u2019s  statement..." ') == "Thwaite's statement"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Confront Thwaite with 3D7.", "Confront Thwaite with E7."),
        ("Confront Thwaite with A7", "Confront Thwaite with E7"),
        ("Confront Thwaite with P6", "Confront Thwaite with E6"),
        ("Confront Thwaite with he 6", "Confront Thwaite with E6"),
        ("Confront weight with the 16", "Confront weight with E16"),
        ("read C3", "read E3"),
        ("We accuse Abel: 3D7, P6 and C3", "We accuse Abel: E7, E6 and E3"),
        ("exhibits A7 and he 6", "exhibits E7 and E6"),
        ("Confront Keld with E30.", "Confront Keld with E13."),
        ("Marsden, explain E30.", "Marsden, explain E13."),  # no exhibit 30, in a slot or not
        ("We accuse Keld: exhibits E2, E6 and 40", "We accuse Keld: exhibits E2, E6 and E14"),
        ("read the 60", "read E16"),
        ("We accuse him of C5, C11, C14.", "We accuse him of E5, E11, E14."),
        # The engine's other accusation openings (a tune kitchen render: "E7" written "C7").
        ("It was the agent, E3, C7, E8, or E12.", "It was the agent, E3, E7, E8, or E12."),
        ("Verdict: the butler, P6 and C3", "Verdict: the butler, E6 and E3"),
        ("Confront Keld with 7.", "Confront Keld with E7."),
        ("Confront Keld with 3 and 9", "Confront Keld with E3 and E9"),
        ("Read 12.", "Read E12."),
        # "explain E15" with the E lost or run into the verb: a number ending the citation is an exhibit.
        ("Julius, explainy 15.", "Julius, explain E15."),
        ("Julius, explain me 7.", "Julius, explain E7."),
        ("Keld, explain 40.", "Keld, explain E14."),
        ("Joel Blamire, explain for.", "Joel Blamire, explain E4."),  # a word that sounds like the number
        ("Heir, explain it, too.", "Heir, explain E2."),  # Whisper's comma between the E and the number
    ],
)
def test_lenient_exhibits_in_exhibit_slots(text: str, expected: str) -> None:
    result = read_exhibits_leniently(text)
    assert result.text == expected
    assert result.corrections and all(c.kind is CorrectionKind.EXHIBIT for c in result.corrections)


@pytest.mark.parametrize(
    "text",
    [
        "She read a 7 page letter",
        "I came with a 7 year old",
        "He said A7 was the house number",
        "the 16 stairs",
        "Confront Keld with 10 o'clock",  # a time, not an exhibit
        "Confront Keld with 10:35",
        "Confront Keld with 20",  # no such exhibit
        "Keld, explain 25.",
        "Ruddock, explain the 2 letters.",  # the number does not end the citation
        "Joel, explain it to us.",
        "Joel, explain that too.",
        "Keld, explain 10 o'clock.",
        "Keld, explain E15.",  # said as the card writes it: nothing to repair
    ],
)
def test_lenient_exhibits_never_outside_slots(text: str) -> None:
    result = read_exhibits_leniently(text)
    assert result.text == text
    assert result.corrections == ()


def test_lenient_exhibits_ignore_numbers_past_sixteen() -> None:
    assert read_exhibits_leniently("Confront Keld with A20").text == "Confront Keld with A20"


@pytest.mark.parametrize(
    ("heard", "command"),
    [
        ("nest", "next"),
        ("Text.", "next"),
        ("safe", "save"),
        ("Past.", "pass"),
        ("Lines.", "lies"),
        ("statement", "statements"),
        ("give it up", "give up"),
        ("Reed E7", "read E7"),
        ("3D1", "read E1"),
        ("E12.", "read E12"),
        ("Same.", "save"),
    ],
)
def test_commands_said_alone_are_repaired(heard: str, command: str) -> None:
    result = repair_command(heard)
    assert result.text == command
    assert [c.kind for c in result.corrections] == [CorrectionKind.COMMAND]


@pytest.mark.parametrize(("heard", "command"), [("Next.", "next"), ("OK, next.", "next"), ("Yeah.", "yes"), ("Nope", "no")])
def test_plain_commands_and_synonyms_need_no_repair(heard: str, command: str) -> None:
    result = repair_command(heard)
    assert result.text == command
    assert result.corrections == ()


@pytest.mark.parametrize(
    "text",
    ["next to the kitchen", "The text of the letter", "Was the safe open?", "Thwaite, where were you?"],
)
def test_longer_messages_are_not_taken_for_commands(text: str) -> None:
    assert repair_command(text).text == text


def test_answers_is_repaired() -> None:
    assert repair_command("answer's Thwaite").text == "answers Thwaite"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Keld. Where were you at ten?", "Keld, where were you at 10?"),
        ("Excuse me, Miss Marsden. Did you go out to the yard?", "Excuse me, Miss Marsden, did you go out to the yard?"),
        ("Mrs. Ruddock. Where were you?", "Mrs. Ruddock, where were you?"),
        ("The housekeeper. We were in the library.", "The housekeeper. We were in the library."),  # no question
    ],
)
def test_a_stop_after_the_name_that_opens_a_question_is_a_comma(raw: str, expected: str) -> None:
    assert normalise(raw) == expected


def test_a_list_read_leniently_goes_on_past_a_comma_before_and() -> None:
    read = read_exhibits_leniently("Accuse Keld with exhibits E2, E6, E13, and 14.")
    assert read.text == "Accuse Keld with exhibits E2, E6, E13, and E14."


def test_a_list_read_leniently_goes_on_past_the_dashes_whisper_writes_between_numbers() -> None:
    """ "eight, nine, eleven" said in a row is written "8-9-11" (a tune room render): all three, not the card's E8-9."""
    read = read_exhibits_leniently("Final answer, Marsden, exhibits 2, 8-9-11.")
    assert read.text == "Final answer, Marsden, exhibits E2, E8-E9-E11."
    assert read_exhibits_leniently("Confront Keld with E7 - where were you at 10?").corrections == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The killer is the curate, exhibits 2, 3, 716.", "The killer is the curate, exhibits E2, E3, E7, E16."),
        ("We accuse Joel: exhibits 413", "We accuse Joel: exhibits E4, E13"),
        ("Accuse Keld with exhibits 1114.", "Accuse Keld with exhibits E11, E14."),
    ],
)
def test_a_lists_numbers_run_together_are_read_as_the_fewest_exhibits(text: str, expected: str) -> None:
    read = read_exhibits_leniently(text)
    assert read.text == expected
    assert read.corrections and all(c.kind is CorrectionKind.EXHIBIT for c in read.corrections)


@pytest.mark.parametrize(
    "text",
    [
        "We accuse Joel, exhibits 112.",  # 1 and 12, or 11 and 2: not guessed
        "Confront Keld with 716",  # not a list: one number in a confrontation's slot
        "We accuse Joel, exhibits 1720.",  # no reading is all exhibits
    ],
)
def test_a_run_of_digits_is_left_when_it_is_no_list_or_reads_two_ways(text: str) -> None:
    assert read_exhibits_leniently(text).text == text
