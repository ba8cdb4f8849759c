"""The card's MESSAGES rules, in order, first match wins, with the card's exact strings."""

from __future__ import annotations

import pytest

from engine.messages import Command, MessageKind
from tests.engine_support import play, seated, suspect_lines, system_lines

SEALED = "That stays sealed until the accusation. Say give up to end the night and hear it now."


def test_pre_strip_drops_a_seat_name_openers_and_markdown() -> None:
    game = seated()
    for message in ("Ann: Ada, where were you?", "ok so **Ada**, where were you?", "Right, well, Ada, where were you?"):
        message_taken = game.preview(message)
        assert message_taken.kind is MessageKind.QUESTION and message_taken.suspect == "ada"


def test_a_seat_name_with_asks_puts_the_question() -> None:
    game = seated()
    reply = game.handle("Bob asks Ada where she was")
    assert suspect_lines(reply) == [("ada", "By the fire, eating chestnuts.")]


@pytest.mark.parametrize(
    ("message", "command"),
    [
        ("statements", Command.STATEMENTS),
        ("read E2", Command.READ),
        ("lies", Command.LIES),
        ("answers Ada", Command.ANSWERS),
        ("pass", Command.PASS),
        ("next", Command.NEXT),
        ("save", Command.SAVE),
        ("give up", Command.GIVE_UP),
        ("stop", Command.GIVE_UP),
        ("end the game", Command.GIVE_UP),
        ("tell us the answer", Command.GIVE_UP),
    ],
)
def test_rule_1_commands_alone_are_free(message: str, command: Command) -> None:
    game = seated()
    taken = game.preview(message)
    assert taken.kind is MessageKind.COMMAND and taken.command is command
    game.handle(message)
    assert game.state.questions_used == 0


def test_rule_1_read_unread_and_out_of_range_exhibits() -> None:
    game = seated()
    assert system_lines(game.handle("read E9")) == ["That evidence has not come in yet."]
    assert system_lines(game.handle("read E17")) == ["There are sixteen exhibits."]
    reply = game.handle("read exhibit 3")
    assert [(p.exhibit, p.text) for p in reply.parts if p.exhibit] == [
        (3, "A ticket for the skating, stamped 8.50, found by the brazier.")
    ]


@pytest.mark.parametrize("message", ["read E3 and E1", "read exhibits 3 and 1", "Could you read exhibits three and one again?"])
def test_several_exhibits_asked_for_at_once_are_read_in_turn_free(message: str) -> None:
    game = seated()
    reply = game.handle(message)
    assert [p.exhibit for p in reply.parts if p.exhibit] == [3, 1]
    assert game.state.questions_used == 0


def test_several_exhibits_read_at_once_refuse_each_one_that_cannot_be_read() -> None:
    game = seated()
    reply = game.handle("read E2, E9 and E17")
    assert [p.exhibit for p in reply.parts if p.exhibit] == [2]
    assert system_lines(reply) == ["That evidence has not come in yet.", "There are sixteen exhibits."]


def test_give_up_asks_first() -> None:
    game = seated()
    assert system_lines(game.handle("give up")) == ["End the night and hear the answer?"]
    reply = game.handle("yes")
    assert reply.parts[-1].text.startswith("RESULT: AIGC|frost-fair-test|frost-fair|v0.1.0|end:gave-up|")


@pytest.mark.parametrize(
    "message",
    [
        "who did it?",
        "Give us a hint",
        "can we have a clue",
        "what are the lies?",
        "show us Ada's file",
        "a summary please",
        "what's the timeline",
        "check our theory: Bram and the scarf",
        "are we right about Cole?",
    ],
)
def test_rule_2_requests_to_the_host_are_sealed(message: str) -> None:
    game = seated()
    assert system_lines(game.handle(message)) == [SEALED]
    assert game.state.questions_used == 0


@pytest.mark.parametrize(
    "message", ["search the tent", "Let us examine the skate", "Ada, show us your hands", "can we look at the booth"]
)
def test_rule_2_nothing_is_searched(message: str) -> None:
    game = seated()
    assert system_lines(game.handle(message)) == ["Nothing is searched tonight; you have the exhibits."]


def test_rule_2_a_rules_question_gets_the_how_to_play_passage() -> None:
    game = seated()
    passage = next(p.text for p in game.case.public.rules_passages if p.key == "scoring")
    assert system_lines(game.handle("How does scoring work?")) == [passage]


def test_rule_3_talk_to_a_seat_is_table_talk_and_others_cannot_be_questioned() -> None:
    game = seated()
    assert system_lines(game.handle("Bob, what do you think?")) == [
        "(The table confers. Speak to one of the three by name to ask.)"
    ]
    assert system_lines(game.handle("Ask the watchman what he saw")) == ["Only the three can be questioned."]
    assert system_lines(game.handle("Mr Venn, who hurt you?")) == ["Only the three can be questioned."]
    assert game.state.questions_used == 0


@pytest.mark.parametrize(
    "message",
    [
        "Ask Ada where she was",
        "Question for Ada: where were you?",
        "To Ada: where were you?",
        "@Ada where were you",
        "Ada, where were you?",
        "Ada: where were you",
        "Ada - where were you",
        "Ada you were out that evening?",
        "Where were you that evening, Ada?",
        "Where were you at nine, Miss Quill?",
    ],
)
def test_rule_4_every_form_puts_a_message_to_one_suspect(message: str) -> None:
    game = seated()
    taken = game.preview(message)
    assert (taken.kind, taken.suspect) == (MessageKind.QUESTION, "ada")
    assert suspect_lines(game.handle(message)) == [("ada", "By the fire, eating chestnuts.")]


@pytest.mark.parametrize("message", ["Ada where were you?", "ada where were you", "Miss Quill where were you at nine"])
def test_rule_4_a_name_then_a_question_word_is_put_to_the_suspect_without_a_comma(message: str) -> None:
    game = seated()
    taken = game.preview(message)
    assert (taken.kind, taken.suspect) == (MessageKind.QUESTION, "ada")
    assert suspect_lines(game.handle(message)) == [("ada", "By the fire, eating chestnuts.")]


def test_a_name_then_any_other_word_is_still_not_an_address() -> None:
    game = seated()
    for message in ("Ada was by the fire", "Ada what a night", "Ada skated off early"):
        assert game.preview(message).kind is MessageKind.TABLE_TALK, message
    assert system_lines(game.handle("Ada and Bram where were you")) == ["One at a time."]
    assert game.state.questions_used == 0


def test_rule_4_two_or_everyone_is_one_at_a_time_and_a_name_alone_asks_what() -> None:
    game = seated()
    assert system_lines(game.handle("Ada and Bram, where were you?")) == ["One at a time."]
    assert system_lines(game.handle("Everyone, where were you?")) == ["One at a time."]
    assert system_lines(game.handle("Ada")) == ["What do you ask?"]
    assert system_lines(game.handle("Ask Bram")) == ["What do you ask?"]
    assert game.state.questions_used == 0


def test_rule_4_others_named_inside_are_fine() -> None:
    game = seated()
    taken = game.preview("Ada, did you see Bram by the tent?")
    assert taken.suspect == "ada" and taken.kind is MessageKind.QUESTION


def test_a_redirect_word_gets_call_him() -> None:
    game = seated()
    assert system_lines(game.handle("Finch, where were you?")) == ["Cole Finch? Call him Cole."]
    assert game.state.questions_used == 0


def test_rule_5_confrontation_forms() -> None:
    game = seated()
    assert system_lines(game.handle("Confront Ada with E1 and E3")) == ["One exhibit at a time: which?"]
    assert system_lines(game.handle("Confront Ada")) == ["Which exhibit? Cite it by number."]
    assert system_lines(game.handle("Ada, the torn ticket says you skated")) == ["Which exhibit? Cite it by number."]
    assert system_lines(game.handle("Confront Ada with E9")) == ["That evidence has not come in yet."]
    assert system_lines(game.handle("Confront Ada with E20")) == ["There are sixteen exhibits."]
    assert game.state.questions_used == 0
    taken = game.preview("Confront Ada with exhibit 3")
    assert (taken.kind, taken.suspect, taken.exhibits, taken.costly) == (MessageKind.CONFRONTATION, "ada", (3,), True)


@pytest.mark.parametrize("message", ["Ada, look at exhibit 3.", "Ada, have a look at E3 and think again."])
def test_rule_5_an_order_to_look_at_a_cited_exhibit_is_a_confrontation(message: str) -> None:
    # Put to one of the six, the exhibit shown by number is evidence cited (rule 5), not a search (rule 2).
    taken = seated().preview(message)
    assert (taken.kind, taken.suspect, taken.exhibits) == (MessageKind.CONFRONTATION, "ada", (3,))


def test_rule_2_an_order_to_look_at_anything_else_is_still_no_search() -> None:
    game = seated()
    assert system_lines(game.handle("Ada, look at the booth.")) == ["Nothing is searched tonight; you have the exhibits."]


def test_clock_times_never_cite_exhibits() -> None:
    game = seated()
    taken = game.preview("Ada, where were you at 8.45?")
    assert taken.kind is MessageKind.QUESTION and taken.exhibits == ()


@pytest.mark.parametrize(
    ("message", "kind", "exhibits"),
    [
        ("read exhibit three", MessageKind.COMMAND, (3,)),
        ("could you read exhibit two for us", MessageKind.COMMAND, (2,)),
        ("read E three", MessageKind.COMMAND, (3,)),
        ("Confront Ada with exhibit three", MessageKind.CONFRONTATION, (3,)),
        ("Ada, explain exhibit one.", MessageKind.CONFRONTATION, (1,)),
    ],
)
def test_a_number_typed_as_a_word_cites_as_spoken(message: str, kind: MessageKind, exhibits: tuple[int, ...]) -> None:
    # Speech writes "exhibit three" as E3 before the classifier; typed, the same words cite the same exhibit.
    taken = seated().preview(message)
    assert (taken.kind, taken.exhibits) == (kind, exhibits)


@pytest.mark.parametrize(
    "message",
    ["Ada, where were you at eight?", "Ada, did you see anyone at the booth?", "Ada, eight of us saw you by the booth: why?"],
)
def test_a_number_word_without_a_citation_word_cites_nothing(message: str) -> None:
    taken = seated().preview(message)
    assert taken.kind is MessageKind.QUESTION and taken.exhibits == ()


def test_rule_6_a_message_to_a_suspect_that_asks_nothing_is_table_talk() -> None:
    game = seated()
    assert game.preview("Ada, nice skates.").kind is MessageKind.TABLE_TALK


def test_rule_7_an_accusation_before_round_a_is_refused_free() -> None:
    game = seated()
    for message in ("We accuse Bram: E1, E3", "It was Bram", "the killer is Cole"):
        assert system_lines(game.handle(message)) == ["The accusation comes after round four."]
    assert game.state.questions_used == 0


def test_rule_8_table_talk_confers_once_a_round_then_ledger_only() -> None:
    game = seated()
    first = game.handle("I think the scarf matters")
    assert system_lines(first) == ["(The table confers. Speak to one of the three by name to ask.)"]
    second = game.handle("hmm, let me think")
    assert [p.kind.value for p in second.parts] == ["ledger"]
    play(game, "next", "yes")
    assert system_lines(game.handle("so many clues here")) == [SEALED]  # "clues" is a hint request, rule 2 first
    assert system_lines(game.handle("what a night")) == ["(The table confers. Speak to one of the three by name to ask.)"]


def test_please_does_not_hide_a_command() -> None:
    game = seated()
    for message in ("Next, please.", "please save", "read E2 please"):
        assert game.preview(message).kind is MessageKind.COMMAND, message


def test_costly_marks_only_what_spends() -> None:
    game = seated()
    assert game.preview("Ada, where were you?").costly
    assert game.preview("Confront Ada with E3").costly
    assert not game.preview("Confront Ada with E9").costly  # not read yet: refused for free
    assert not game.preview("Confront Ada with E30").costly
    assert not game.preview("next").costly  # questions left: it only asks "End round 1 with 4 unused?"
    play(game, *["Ada, where were you?"] * 4)
    assert game.preview("next").costly  # opens the next round at once


def test_a_message_is_previewed_as_it_was_in_an_earlier_situation() -> None:
    # Words that finish a spoken message are classified with it as the game was when it was said (barge-in).
    game = seated()
    before = game.situation()
    play(game, "next")  # "End round 1 with 4 unused?": now "next" again would confirm it
    assert game.preview("next").command is Command.YES
    assert game.preview("next", before).command is Command.NEXT
    assert game.preview("next round, please.", before) == game.preview("next", before)
