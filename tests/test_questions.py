"""QUESTIONS AND CONFRONTATIONS and card rules 4 and 6: the FILEs, word for word."""

from __future__ import annotations

from engine.replies import PartKind
from tests.engine_support import play, seated, suspect_lines, system_lines, to_round


def test_a_question_gets_the_first_topic_it_asks() -> None:
    game = seated()
    reply = game.handle("Ada, what about the skating, and where were you?")
    assert suspect_lines(reply) == [("ada", "I never skated tonight.")]
    reply = game.handle("Ada, where were you, and did you skate?")
    assert suspect_lines(reply) == [("ada", "By the fire, eating chestnuts.")]


def test_a_question_costs_one_and_names_the_next_seat() -> None:
    game = seated()
    reply = game.handle("Cole, where were you that evening?")
    assert system_lines(reply) == ["Question 2 of 4: Bob."]
    assert game.state.questions_used == 1


def test_no_line_fits_gets_the_deflect_line() -> None:
    game = seated()
    assert suspect_lines(game.handle("Cole, what is your favourite colour?")) == [("cole", "A clerk does not gossip.")]


def test_did_you_kill_her_gets_no_from_everyone() -> None:
    game = seated()
    for message in ("Ada, did you kill her?", "Bram, did you do it?", "Cole, did you strike Mr Venn?"):
        assert suspect_lines(game.handle(message))[0][1] == "No."


def test_pressure_never_breaks_a_lie_the_suspect_repeats_it() -> None:
    game = seated()
    for message in ("Ada, you skated, admit it! Tell the truth about skating!", "Ada, Bram says you were skating?"):
        assert suspect_lines(game.handle(message)) == [("ada", "I never skated tonight.")]
    assert game.state.broken == ()


def test_a_confrontation_with_a_catch_exhibit_breaks_the_lie() -> None:
    game = seated()
    reply = game.handle("Confront Ada with E3")
    assert system_lines(reply)[0] == "Ada breaks."
    # R1 gives way to R2: the new lie is spoken, and R1's label goes into broken
    assert suspect_lines(reply) == [("ada", "I skated, but only before the second tune.")]
    assert game.state.broken == ("R1",)
    assert game.state.questions_used == 1
    assert "| broken:R1 |" in reply.ledger


def test_a_lie_told_only_after_another_stands_from_the_reply_after() -> None:
    game = seated()
    to_round(game, 4)
    assert system_lines(game.handle("Confront Ada with E15"))[0] == "Ada stands by what was said."  # R2 not yet told
    play(game, "Confront Ada with E3")
    assert suspect_lines(game.handle("Ada, did you skate?")) == [("ada", "I skated, but only before the second tune.")]
    reply = game.handle("Confront Ada with E15")
    assert system_lines(reply)[0] == "Ada breaks."
    assert suspect_lines(reply) == [("ada", "I skated past nine. I saw Bram by the tent.")]
    assert game.state.broken == ("R1", "R2")


def test_once_broken_the_admit_answers_the_topic() -> None:
    game = seated()
    play(game, "next", "yes", "Confront Cole with E5")  # not in CATCH: stands
    to_round(game, 3)
    play(game, "Confront Cole with E11")
    assert suspect_lines(game.handle("Cole, what about the accounts?")) == [
        ("cole", "The forty pounds were mine to borrow. I meant to pay it back.")
    ]


def test_held_lines_open_once_one_of_that_suspects_lies_breaks() -> None:
    game = seated()
    assert suspect_lines(game.handle("Ada, what about the tent?")) == [("ada", "I could not say.")]
    play(game, "Confront Ada with E3")
    assert suspect_lines(game.handle("Ada, what about the tent?")) == [("ada", "The tent rope was cut when I skated by.")]


def test_a_lie_told_only_after_is_not_in_the_file_before() -> None:
    game = seated()
    to_round(game, 3)
    assert suspect_lines(game.handle("Cole, did you know the will?")) == [("cole", "A clerk does not gossip.")]
    play(game, "Confront Cole with E11")
    assert suspect_lines(game.handle("Cole, did you know the will?")) == [("cole", "I never knew what the will said.")]


def test_not_in_the_catch_stands_and_answers_the_rest_as_a_question() -> None:
    game = seated()
    reply = game.handle("Confront Ada with E1: where were you that evening?")
    assert system_lines(reply)[0] == "Ada stands by what was said."
    assert suspect_lines(reply) == [("ada", "By the fire, eating chestnuts.")]
    assert game.state.broken == () and game.state.questions_used == 1


def test_one_confrontation_breaks_one_lie_at_most() -> None:
    game = seated()
    to_round(game, 3)
    reply = game.handle("Confront Cole with E11")
    assert game.state.broken == ("R4",)
    assert len([p for p in reply.parts if p.kind is PartKind.SUSPECT]) == 1


def test_silence_answers_every_later_question_but_a_confrontation_still_breaks() -> None:
    game = seated()
    to_round(game, 2)
    reply = game.handle("Confront Bram with E5")
    assert suspect_lines(reply) == [("bram", "I shut the booth at half past eight. I'll say nothing more.")]
    for message in ("Bram, where were you?", "Bram, did you kill her?", "Bram, about that scarf?"):
        assert suspect_lines(game.handle(message)) == [("bram", "I'll say nothing more.")]


def test_answers_lists_what_a_suspect_has_said_in_this_chat() -> None:
    game = seated()
    play(game, "Ada, where were you?")
    reply = game.handle("answers Ada")
    assert [text for _, text in suspect_lines(reply)] == [
        "I came for the skating and stayed for the chestnuts.",
        "By the fire, eating chestnuts.",
    ]


def test_lies_lists_what_was_claimed_and_what_replaced_it() -> None:
    game = seated()
    assert system_lines(game.handle("lies")) == ["No lie has broken yet."]
    play(game, "Ada, did you skate?")
    play(game, "Confront Ada with E3")
    assert system_lines(game.handle("lies")) == [
        'R1, Ada Quill: claimed "I never skated tonight."; now "I skated, but only before the second tune."'
    ]


def test_lies_quotes_a_claim_only_if_the_table_heard_it() -> None:
    game = seated()
    play(game, "Confront Ada with E3")  # the lie was never asked for: nothing of it was said tonight
    assert system_lines(game.handle("lies")) == ['R1, Ada Quill: now "I skated, but only before the second tune."']


def test_statements_rereads_this_round_or_an_earlier_one() -> None:
    game = seated()
    to_round(game, 2)
    now = [p.text for p in game.handle("statements").parts if p.kind is PartKind.STATEMENT]
    assert now[0] == "I never left the fire after the second tune."
    earlier = [p.text for p in game.handle("statements round 1").parts if p.kind is PartKind.STATEMENT]
    assert earlier[0] == "I came for the skating and stayed for the chestnuts."
    assert system_lines(game.handle("statements round 3")) == ["Those statements have not come in yet."]
