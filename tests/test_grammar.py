"""The phrase grammar (engine/phrases.toml): its template language, its own test sentences, its API."""

from __future__ import annotations

from functools import cache

import pytest

from engine.classify import Action
from engine.game import Game
from engine.grammar import GrammarError, Intent, IntentKind, grammar, parse_grammar, parse_template, phrases
from engine.messages import MessageKind
from voice_host.loop.casefiles import load_bundled_case

GRAMMAR = grammar()
CASES = [(intent.name, sentence) for intent in GRAMMAR.intents for sentence in intent.tests]


@pytest.mark.parametrize(("name", "sentence"), CASES)
def test_every_intent_matches_its_own_test_sentences_first(name: str, sentence: str) -> None:
    said = GRAMMAR.match(sentence)
    assert said is not None and said.intent.name == name


def test_every_intent_carries_test_sentences() -> None:
    assert all(len(intent.tests) >= 4 for intent in GRAMMAR.intents)


@pytest.mark.parametrize(
    ("sentence", "card"),
    [
        ("let's hear the statements again", "statements"),
        ("could you read exhibit 7", "read E7"),
        ("Could you read E12, please?", "read E12"),
        ("that's right", "yes"),
        ("go on then", "yes"),
        ("skip me", "pass"),
        ("move on to the next round", "next"),
        ("statements for round two", "statements round 2"),
        ("what did the butler say", "answers the butler"),
    ],
)
def test_a_free_command_in_other_words_becomes_the_cards_message(sentence: str, card: str) -> None:
    said = GRAMMAR.match(sentence)
    assert said is not None and said.intent.kind is IntentKind.COMMAND and said.card_message == card


def test_a_template_matches_the_whole_message_only() -> None:
    assert GRAMMAR.match("next to the kitchen") is None
    assert GRAMMAR.match("Thwaite, could you read exhibit 7") is None


def test_a_name_slot_is_never_a_pronoun() -> None:
    said = GRAMMAR.match("what did you say")
    assert said is not None and said.intent.name == "repeat"


def test_template_language_alternatives_optionals_slots_and_parts() -> None:
    text = """
[lists.colour]
values = { red = "R", "dark blue" = "B" }
[parts]
pl = "(please|pls)"
[[intent]]
name = "paint"
kind = "command"
card = "paint {colour}"
sentences = ["[<pl>] paint it {colour} [<pl>]"]
tests = ["paint it red"]
"""
    small = parse_grammar(text)
    said = small.match("Please paint it dark blue!")
    assert said is not None and said.card_message == "paint B"
    assert small.match("paint it green") is None
    assert sorted(small.phrasings("paint", {"colour": "red"}))[:2] == ["paint it red", "paint it red please"]
    assert len(list(small.phrasings("paint"))) == 2 * 3 * 3


@pytest.mark.parametrize("template", ["(a|b", "a]", "[a)", "{Bad}"])
def test_a_malformed_template_is_an_error(template: str) -> None:
    with pytest.raises(GrammarError):
        parse_template(template)


def test_an_unknown_list_or_part_is_an_error() -> None:
    intent = '[[intent]]\nname = "x"\nkind = "host"\nsentences = ["say {nothing}"]\n'
    with pytest.raises(GrammarError):
        parse_grammar(intent)
    with pytest.raises(GrammarError):
        parse_grammar(intent.replace("{nothing}", "<nowhere>"))


def test_phrasings_of_a_command_are_all_that_command() -> None:
    sample = list(GRAMMAR.phrasings("read", {"exhibit": "E7"}, limit=300))
    assert len(sample) == 300 and len(set(sample)) == 300
    for sentence in sample[::10]:
        said = GRAMMAR.match(sentence)
        assert said is not None and said.card_message == "read E7", sentence


def test_word_lists_are_defined_once_in_the_grammar() -> None:
    assert "ok" in phrases("opener") and "that's right" in phrases("yes") and "nope" in phrases("no")
    assert "stop" not in phrases("no")  # asking to stop is give up (MESSAGES rule 1)
    give_up = GRAMMAR.match("stop")
    assert give_up is not None and give_up.card_message == "give up"


def test_intent_kinds_need_their_meaning() -> None:
    with pytest.raises(GrammarError):
        parse_grammar('[[intent]]\nname = "x"\nkind = "command"\nsentences = ["x"]\n')
    assert isinstance(GRAMMAR.intent("help"), Intent)


# --- a request in words no template lists ([requests]) ------------------------------------------------


@cache
def _hollin_fold_game() -> Game:
    game = Game(load_bundled_case())
    game.start()
    game.handle("Ann, Ben")
    return game


@pytest.mark.parametrize(("sentence", "card"), GRAMMAR.requests.tests)
def test_a_request_naming_one_commands_object_is_that_command(sentence: str, card: str) -> None:
    assert GRAMMAR.match(sentence) is None  # no template lists it: the request tier is what takes it
    game = _hollin_fold_game()
    assert game.classifier.requested(sentence) == card
    message = game.preview(sentence)
    assert message.kind is MessageKind.COMMAND


@pytest.mark.parametrize(("sentence", "meant"), GRAMMAR.clauses.tests)
def test_a_command_said_with_courtesy_around_it_is_that_command(sentence: str, meant: str) -> None:
    assert GRAMMAR.match(sentence) is None  # no template says it whole: its clauses are what take it
    said = _hollin_fold_game().classifier.phrasing(sentence) or GRAMMAR.in_clauses(sentence)
    assert said is not None and (said.card_message or said.intent.name) == meant


@pytest.mark.parametrize("names", ["N, Zed", "Sorry, Zed", "Y, Zed"])
def test_seating_names_are_never_a_command_said_with_them(names: str) -> None:
    game = Game(load_bundled_case())
    game.start()
    game.handle(names)
    assert game.state.seats == tuple(name.strip() for name in names.split(","))


@pytest.mark.parametrize("sentence", GRAMMAR.clauses.not_tests)
def test_a_clause_that_names_refuses_or_asks_more_keeps_the_message_as_it_was(sentence: str) -> None:
    assert _hollin_fold_game().classifier.phrasing(sentence) is None
    assert GRAMMAR.in_clauses(sentence, frozenset({IntentKind.HOST})) is None


@pytest.mark.parametrize("sentence", GRAMMAR.requests.not_tests)
def test_talk_that_does_not_ask_or_names_another_stays_table_talk(sentence: str) -> None:
    game = _hollin_fold_game()
    assert game.classifier.requested(sentence) is None
    assert game.preview(sentence).kind is not MessageKind.COMMAND


@pytest.mark.parametrize(
    "sentence",
    [
        "can you give us a hint about who did it",
        "could you tell us whether we're close to the answer",
        "can you check our theory about who did it",
        "which lies are still standing, can you tell us",
    ],
)
def test_a_hint_or_a_check_about_the_answer_stays_sealed(sentence: str) -> None:
    # The answer itself is asked for only to end the night (give up); rule 8 seals the rest.
    assert _hollin_fold_game().classifier.classify(sentence, _hollin_fold_game()._situation()).action is Action.SEALED


def test_the_longest_object_decides_and_two_commands_objects_are_no_request() -> None:
    said = GRAMMAR.requested("can you read the statements from round 2 again")
    assert said is not None and said.card_message == "statements round 2"
    assert GRAMMAR.requested("can you read exhibit 7 and save the game") is None


def test_a_bare_number_in_a_request_cites_no_exhibit() -> None:
    assert GRAMMAR.requested("can you believe it was 10 o'clock") is None
    said = GRAMMAR.requested("can you believe it was 10 o'clock, read exhibit 10 again")
    assert said is not None and said.card_message == "read E10"


@pytest.mark.parametrize(("sentence", "taken_as"), GRAMMAR.asking.tests)
def test_other_words_for_ask_that_open_a_message_become_the_cards_ask(sentence: str, taken_as: str) -> None:
    game = _hollin_fold_game()
    assert game.classifier.asked(sentence, ("Ann", "Ben")) == taken_as


def test_a_question_asked_for_in_other_words_costs_a_question_to_that_suspect() -> None:
    message = _hollin_fold_game().preview("Could you ask Thwaite where he was at ten?")
    assert message.kind is MessageKind.QUESTION and message.suspect == "thwaite"
    assert _hollin_fold_game().preview("Hey Abel, did you see anyone go below stairs?").suspect == "thwaite"


def test_a_part_says_the_first_words_it_matches() -> None:
    assert grammar().part_words("let_us", "We'd like to confront Keld with E3") == 3
    assert grammar().part_words("let_us", "Let's confront Keld") == 1
    assert grammar().part_words("let_us", "Confront Keld with E3") == 0
    assert grammar().part_words("let_us", "We'd like to") == 0  # nothing follows
