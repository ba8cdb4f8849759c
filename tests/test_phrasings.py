"""The command phrasings a misheard utterance is compared with (voice_host.understanding.phrasings): text only."""

from __future__ import annotations

import pytest

from engine.grammar import grammar
from engine.request_votes import Said, examples_names
from voice_host.understanding.phrasings import (
    NAME,
    NUMBER,
    PHRASED_COMMANDS,
    as_whisper_writes,
    command_phrasings,
    heard_name,
    heard_number,
    nearest_phrasings,
    phrasings_of,
    said_phrasings,
    words_key,
)
from voice_host.understanding.settings import DEFAULT_SETTINGS

NAMES = frozenset({"thwaite", "keld", "joel", "blamire"})
FILLS = {"exhibit": "7", "round": "2", "name": "Keld"}


def test_every_grammar_phrasing_filled_in_is_its_own_command() -> None:
    phrasings = phrasings_of(grammar())
    assert {p.intent for p in phrasings} == set(PHRASED_COMMANDS)
    for phrasing in phrasings:
        filled = phrasing.said.format_map(FILLS)
        card = grammar().intent(phrasing.intent).card.lower().format_map(FILLS)
        match = grammar().match(filled)
        # The card's own form ("answers Keld") is the classifier's, not a template's.
        assert filled.lower() == card.lower() or (match is not None and match.intent.name == phrasing.intent), filled


def test_what_tables_said_is_a_phrasing_only_where_the_engine_takes_it_as_its_command() -> None:
    said = [
        Said("save", "Could you save the game for us?"),
        Said("read", "What did exhibit seven say?", "7"),
        Said("answers", "What has the vicar said so far?", "keld"),
        Said("read", "What did that one say?", "7"),  # its label's number is not in its words
        Said("save", "Save me a mince pie."),  # no command to the engine
        Said("give up", "We give up, who was it?"),  # not a phrased command
    ]
    found = said_phrasings(said, examples_names())
    assert [(p.intent, p.said) for p in found] == [
        ("save", "could you save the game for us"),
        ("read", "what did e{exhibit} say"),  # the normaliser writes "exhibit seven" as E7
        ("read", "what did exhibit {exhibit} say"),
        ("answers", "what has the {name} said so far"),
    ]


def test_the_phrasings_are_the_grammars_and_what_tables_said() -> None:
    phrasings = command_phrasings()
    assert set(phrasings_of(grammar())) <= set(phrasings)
    assert len(phrasings) > len(phrasings_of(grammar())) + 500  # engine/said/commands.tsv's, far more


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
        ("What on in the bit 14 say?", "what did exhibit {exhibit} say"),
        ("Lead, slot at the next round.", "let's start the next round"),
        ("Come, you saved the game.", "can you save the game"),
        ("What has gone since so far?", "what has {name} said so far"),
    ],
)
def test_the_nearest_phrasing_to_a_misheard_command(heard: str, nearest: str) -> None:
    found = nearest_phrasings(heard, command_phrasings(), NAMES, limit=3, at_least=50.0)
    assert found and found[0].said == nearest


def test_table_talk_is_near_no_phrasing() -> None:
    alike = DEFAULT_SETTINGS.phrased_command_alike  # as alike as the phrased-command pass asks
    assert nearest_phrasings("The kettle is boiling, anyone for tea?", command_phrasings(), NAMES, 3, alike) == []


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
