"""The request votes: a free command in words no template lists, voted for by the words tables said before."""

from __future__ import annotations

import pytest

from engine.classify import Action
from engine.game import Game
from engine.messages import Command, MessageKind
from engine.request_votes import (
    LEAD,
    MARGIN,
    NAME,
    NOT_COMMANDS,
    NUMBER,
    PUT_TO,
    TALK,
    VOTED,
    RequestVotes,
    SaidFormatError,
    features,
    parse_said,
    request_votes,
)
from tests.engine_support import hollin_case, seated, to_round
from voice_host.understanding.host_requests import is_repeat_request

SEATS = ("Ann", "Ben")


@pytest.fixture
def game() -> Game:
    """Hollin Fold in round 2 (E1-E8 read), two seats."""
    game = seated(", ".join(SEATS), hollin_case())
    to_round(game, 2)
    return game


def small_votes() -> RequestVotes:
    return RequestVotes(
        [
            ("lies", features("which lies have we broken", None)),
            ("lies", features("any lies busted", None)),
            ("save", features("save our place", None)),
            (TALK, features("pass the gravy please", None)),
            (TALK, features("he lies about his golf", None)),
        ]
    )


def test_features_are_stemmed_words_and_pairs_with_the_edges(game: Game) -> None:
    said = features("Keld's answers for exhibit 7 again", game.classifier.names)
    assert said[:5] == [NAME, "answer", "for", "exhibit", NUMBER]
    assert f"^ {NAME}" in said and "again $" in said and f"exhibit {NUMBER}" in said


def test_a_number_said_as_a_word_is_a_number() -> None:
    assert features("exhibit seven", None)[:2] == features("exhibit 7", None)[:2] == ["exhibit", NUMBER]


def test_the_vote_goes_to_the_command_whose_examples_share_the_words() -> None:
    vote = small_votes().vote(features("have we busted any lies", None))
    assert vote is not None and vote.command == "lies" and vote.margin > 0


def test_no_vote_when_talk_is_likeliest() -> None:
    assert small_votes().vote(features("pass the gravy", None)) is None


def test_votes_need_examples_of_talk() -> None:
    with pytest.raises(ValueError, match="talk"):
        RequestVotes([("lies", ["lie"])])


def test_an_examples_line_without_a_tab_is_refused() -> None:
    with pytest.raises(SaidFormatError, match="x.tsv:2"):
        parse_said("# a comment\nlies any lies yet\n", "x.tsv")


def test_read_and_answers_examples_count_as_their_command() -> None:
    said = parse_said("read E7\tcould we hear number 7\nanswers keld\twhat has the vicar said\n", "x.tsv")
    assert [(s.label, s.argument) for s in said] == [("read", "7"), ("answers", "keld")]


def test_the_engines_examples_hold_every_voted_command_talk_and_what_is_put_to_the_six() -> None:
    scores = request_votes().scores(features("lies", None))
    assert set(scores) == {*VOTED, *NOT_COMMANDS}


def test_a_question_about_one_of_the_six_in_the_third_person_is_no_request_for_answers(game: Game) -> None:
    said = "Might the nephew tell us what he saw in the yard?"
    assert request_votes().vote(features(said, game.classifier.names)) is None  # put to him, not his answers
    assert game.preview(said).kind is MessageKind.TABLE_TALK  # "Speak to one of the six by name to ask."


def test_no_vote_when_what_is_put_to_the_six_is_likeliest() -> None:
    votes = RequestVotes(
        [
            ("answers", features("what has xname said so far", None)),
            (TALK, features("pass the gravy", None)),
            (PUT_TO, features("could xname tell us what he saw", None)),
        ]
    )
    assert votes.vote(features("could xname tell us what he heard", None)) is None


@pytest.mark.parametrize(
    ("said", "command"),
    [
        ("Any chance of the busted lies list?", Command.LIES),
        ("Put a bookmark in it, we're off to bed.", Command.SAVE),
        ("I've nothing worth asking, skip along.", Command.PASS),
        ("We're stumped, put us out of our misery.", Command.GIVE_UP),
    ],
)
def test_a_request_no_template_lists_is_its_command(game: Game, said: str, command: Command) -> None:
    assert game.classifier.requested(said) is None  # no template or request has these words
    message = game.preview(said)
    assert message.kind is MessageKind.COMMAND and message.command is command


def test_a_voted_answers_takes_the_one_suspect_named(game: Game) -> None:
    message = game.preview("What has the curate come out with so far?")
    assert message.command is Command.ANSWERS and message.suspect == "keld"


def test_a_voted_answers_naming_two_suspects_is_no_command(game: Game) -> None:
    message = game.preview("Keld and the butler, what have they come out with so far?")
    assert message.command is None


def test_a_voted_read_takes_the_one_number_said(game: Game) -> None:
    assert game.classifier.requested("Item 4 one more go please") is None
    message = game.preview("Item 4 one more go please")
    assert message.command is Command.READ and message.exhibits == (4,)


def test_a_voted_read_with_two_numbers_or_none_is_no_command(game: Game) -> None:
    assert game.classifier.voted("Item 4 and item 6 one more go please") is None
    assert game.classifier.voted("That 4th bit of evidence, one more go please") is None  # "4th" is no number said


def test_a_voted_command_naming_a_suspect_is_the_table_talking_about_them(game: Game) -> None:
    assert request_votes().vote(features("any chance of the busted lies list", None)) is not None
    assert game.preview("Any chance of Keld's busted lies list?").kind is not MessageKind.COMMAND


@pytest.mark.parametrize("said", ["Pass the sprouts, would you?", "Save me a mince pie, love.", "I reckon Thwaite did it."])
def test_table_talk_with_a_commands_words_stays_talk(game: Game, said: str) -> None:
    assert game.preview(said).kind is MessageKind.TABLE_TALK


def test_a_vote_under_the_margin_is_no_command(game: Game) -> None:
    said = "Please don't skip me."
    vote = request_votes().vote(features(said, game.classifier.names))
    assert vote is not None and vote.command == "pass" and 0 < vote.margin < MARGIN
    assert game.preview(said).kind is MessageKind.TABLE_TALK


def test_two_commands_near_alike_are_neither(game: Game) -> None:
    said = "Could you read the bit heaven?"  # "read exhibit seven" heard wrong: read without its number, or statements?
    vote = request_votes().vote(features(said, game.classifier.names))
    assert vote is not None and vote.margin >= MARGIN and vote.lead < LEAD
    assert game.classifier.voted(said) is None


def test_a_word_after_a_negation_is_a_word_of_its_own() -> None:
    said = features("don't skip me, I'm ready", None)
    assert "~skip" in said and "skip" not in said and "readi" in said  # the comma ends the negation's reach


def test_repeat_in_words_no_template_lists_is_the_voice_hosts_repeat(game: Game) -> None:
    said = "Could you run that last bit past us once more?"
    message = game.preview(said)
    assert message.kind is MessageKind.TABLE_TALK  # the card has no repeat: the voice host's own
    assert is_repeat_request(said, message)
    assert not is_repeat_request("Pass the sprouts, would you?", game.preview("Pass the sprouts, would you?"))


def test_a_voted_read_of_what_is_public_is_no_seal(game: Game) -> None:
    # "any lies" is on rule 8's list; asked for as the broken lies in words no request lists, it is lies.
    assert game.classifier.requested("Any lies busted yet, mate?") is None
    assert game.decide("Any lies busted yet, mate?").action is Action.COMMAND


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Can we have clue number 11 read out again?", "read E11"),  # a clue with its number is that exhibit
        ("Can we have clue number eleven read out again?", "read E11"),  # typed as a word, as speech is heard
        ("Read the twelfth exhibit again, would you.", "read E12"),  # an exhibit by its place
        ("Please say which lies we found until now.", "lies"),  # the broken lies, not which still stand
        ("Please list for us the answers that Phoebe has given until now.", "answers Phoebe"),  # not the answer
    ],
)
def test_a_read_of_what_is_public_in_the_seals_words(game: Game, said: str, meant: str) -> None:
    decision = game.decide(said)
    assert decision.action is not Action.SEALED
    assert game.classifier.voted(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "Are there any lies left?",
        "Any hints about the lies?",
        "Can you give us a hint about who did it?",
        "Can you give us a clue?",
        "Which lies is Joel still telling?",
    ],
)
def test_what_still_stands_or_a_hint_stays_sealed(game: Game, said: str) -> None:
    assert game.decide(said).action is Action.SEALED
