"""The command phrasings a misheard utterance is compared with (voice_host.understanding.phrasings): text only."""

from __future__ import annotations

import pytest

from engine.grammar import grammar
from voice_host.understanding.phrasings import (
    NAME,
    NUMBER,
    PHRASED_COMMANDS,
    as_whisper_writes,
    command_phrasings,
    heard_name,
    heard_number,
    nearest_phrasings,
    words_key,
)

NAMES = frozenset({"thwaite", "keld", "joel", "blamire"})
FILLS = {"exhibit": "7", "round": "2", "name": "Keld"}


def test_every_phrasing_filled_in_is_its_own_command() -> None:
    phrasings = command_phrasings()
    assert {p.intent for p in phrasings} == set(PHRASED_COMMANDS)
    for phrasing in phrasings:
        filled = phrasing.said.format_map(FILLS)
        card = grammar().intent(phrasing.intent).card.lower().format_map(FILLS)
        match = grammar().match(filled)
        # The card's own form ("answers Keld") is the classifier's, not a template's.
        assert filled.lower() == card.lower() or (match is not None and match.intent.name == phrasing.intent), filled


def test_an_exhibit_is_cited_both_ways_in_every_phrasing_that_cites_one() -> None:
    said = {p.said for p in command_phrasings()}
    assert {"what does e{exhibit} say", "what does exhibit {exhibit} say"} <= said
    assert all(s.replace("e{exhibit}", "exhibit {exhibit}") in said for s in said if "e{exhibit}" in s)


def test_no_costly_or_too_short_command_is_a_phrasing() -> None:
    # yes, no and give up are the whole-command pass's (said alone); a confrontation is costly.
    assert not {"yes", "no", "give up", "confront"} & {p.intent for p in command_phrasings()}


def test_numbers_and_names_are_slots_in_the_words_compared() -> None:
    assert words_key("What on in the bit 14 say?") == f"what on in the bit {NUMBER} say"
    assert words_key("Read E7, please.") == f"read {NUMBER} please"
    assert words_key("Keld's answers.", NAMES) == f"{NAME}'s answers"
    assert words_key("Waits answers.", NAMES) == "waits answers"  # a name heard wrong is just a word


@pytest.mark.parametrize(
    ("heard", "nearest"),
    [
        ("What on in the bit 14 say?", "what does exhibit {exhibit} say"),
        ("Lead, slot at the next round.", "start the next round"),
        ("Come, you saved the game.", "save the game"),
        ("What has gone since so far?", "what has {name} said so far"),
    ],
)
def test_the_nearest_phrasing_to_a_misheard_command(heard: str, nearest: str) -> None:
    found = nearest_phrasings(heard, command_phrasings(), NAMES, limit=3, at_least=50.0)
    assert found and found[0].said == nearest


def test_table_talk_is_near_no_phrasing() -> None:
    assert nearest_phrasings("The kettle is boiling, anyone for tea?", command_phrasings(), NAMES, 3, 50.0) == []


def test_one_number_heard_is_the_slot_s_and_two_are_nobody_s() -> None:
    assert heard_number("What on in the bit 14 say?") == "14"
    assert heard_number("Read E7.") == "7"
    assert heard_number("Read 3 and 4.") is None
    assert heard_number("Next round.") is None


@pytest.mark.parametrize(
    ("words", "written"),
    [
        ("what does e7 say", "What does E7 say?"),
        ("could you read exhibit 7", "Could you read exhibit 7?"),
        ("skip me", "Skip me."),
        ("Keld's answers", "Keld's answers."),
    ],
)
def test_a_phrasing_is_written_as_whisper_writes(words: str, written: str) -> None:
    assert as_whisper_writes(words) == written


def test_one_name_heard_is_the_slot_s() -> None:
    assert heard_name("Martha Penisert, please.", frozenset({"martha", "keld"})) == "Martha"
    assert heard_name("Keld's answers.", frozenset({"martha", "keld"})) == "Keld"
    assert heard_name("Martha and Keld.", frozenset({"martha", "keld"})) is None
    assert heard_name("Waits answers.", frozenset({"martha", "keld"})) is None
