"""OPENING, the LEDGER and SEATS AND ROUNDS."""

from __future__ import annotations

from engine.game import Game
from engine.replies import PartKind
from tests.engine_support import frost_case, play, seated, system_lines


def test_the_opening_ends_with_the_first_ledger_and_asks_who_is_at_the_table() -> None:
    reply = Game(frost_case()).start()
    assert reply.parts[-1].text == "[L] t:1 | rd:0 | q:0/4 | seat:- | broken:none | acc:none | v0.1.0"
    assert system_lines(reply)[-1] == "Who is at the table? First names or nicknames, one to eight."
    commitment = frost_case().notice.commitment
    text = reply.render()
    assert commitment[:16] + "…" in text and commitment not in text  # the opening only, never whole


def test_nothing_opens_until_names_are_given() -> None:
    game = Game(frost_case())
    game.start()
    reply = game.handle("read E1")
    assert system_lines(reply) == ["Who is at the table? First names or nicknames, one to eight."]
    assert game.state.round == 0 and not game.state.exhibits_read


def test_seats_go_in_the_order_names_are_given_and_round_one_opens() -> None:
    game = Game(frost_case())
    game.start()
    reply = game.handle("Ann, Bob and Cy")
    assert game.state.seats == ("Ann", "Bob", "Cy")
    kinds = [part.kind for part in reply.parts]
    house = frost_case().public.house
    assert reply.parts[1].text == house  # THE HOUSE before E1
    assert kinds.index(PartKind.EXHIBIT) < kinds.index(PartKind.STATEMENT) < kinds.index(PartKind.FULL_STATE)
    assert [p.exhibit for p in reply.parts if p.kind is PartKind.EXHIBIT] == [1, 2, 3, 4]
    assert reply.parts[-2].text == "Question 1 of 4: Ann."
    assert reply.parts[-1].text == "[L] t:2 | rd:1 | q:0/4 | seat:1/3 | broken:none | acc:none | v0.1.0"


def test_full_state_lists_the_facts_at_a_round_opening() -> None:
    reply = seated().handle("next")  # asks first
    assert system_lines(reply) == ["End round 1 with 4 unused?"]
    game = seated()
    reply = play(game, "next", "yes")
    state = next(p.text for p in reply.parts if p.kind is PartKind.FULL_STATE)
    assert state.splitlines() == [
        "FULL STATE",
        "Round: 2 of 4",
        "Seats: 1 Ann · 2 Bob · 3 Cy",
        "Next to ask: Ann (seat 1)",
        "Exhibits read: E1, E2, E3, E4, E5, E6, E7, E8",
        "Lies broken: none",
        "Questions left: 4 of 4",
    ]


def test_a_name_among_the_names_gets_asked_for_a_nickname() -> None:
    game = Game(frost_case())
    game.start()
    reply = game.handle("Ann, Ada and Cy")
    assert "What nickname" in system_lines(reply)[0]
    assert game.state.round == 0
    game.handle("Addie")
    assert game.state.seats == ("Ann", "Addie", "Cy")
    assert game.state.round == 1


def test_just_me_is_one_seat_read_as_you_and_pass_is_dropped() -> None:
    game = Game(frost_case())
    game.start()
    reply = game.handle("just me")
    assert game.state.seats == ("you",) and game.state.solo
    assert reply.parts[-2].text == "Question 1 of 4: you."
    reply = game.handle("pass")
    assert system_lines(reply) == ["(The table confers. Speak to one of the three by name to ask.)"]


def test_over_eight_asks_which_eight() -> None:
    game = Game(frost_case())
    game.start()
    reply = game.handle("Al, Bo, Cy, Di, Ed, Flo, Gus, Hal, Ivy")
    assert "Which eight are playing?" in system_lines(reply)[0]
    assert game.state.round == 0
    game.handle("Bo, Cy, Di, Ed, Flo, Gus, Hal, Ivy")
    assert len(game.state.seats) == 8


def test_a_latecomer_becomes_the_last_seat_next_round() -> None:
    game = seated("Ann and Bob")
    reply = game.handle("add Dee")
    assert system_lines(reply) == ["Dee joins as the last seat from the next round."]
    assert game.state.seats == ("Ann", "Bob")
    play(game, "next", "yes")
    seats_next_round: tuple[str, ...] = game.state.seats  # (a new name: mypy narrowed the last one)
    assert seats_next_round == ("Ann", "Bob", "Dee")


def test_the_seat_pointer_carries_across_rounds() -> None:
    game = seated()
    play(game, "Ada, where were you?")
    assert game.state.next_seat == 2
    reply = play(game, "next", "yes")
    assert game.state.next_seat == 2
    assert reply.parts[-2].text == "Question 1 of 4: Bob."


def test_pass_moves_to_the_next_seat_for_free() -> None:
    game = seated()
    reply = game.handle("pass")
    assert system_lines(reply) == ["Question 1 of 4: Bob."]
    assert game.state.questions_used == 0


def test_four_questions_spend_the_round_and_offer_save() -> None:
    game = seated()
    reply = play(game, *["Ada, where were you?"] * 4)
    assert system_lines(reply) == ["The round's questions are spent. Say next."]
    assert any(p.kind is PartKind.SAVE for p in reply.parts)
    assert game.state.questions_used == 4
    reply = game.handle("Bram, where were you?")
    assert system_lines(reply) == ["The round's questions are spent. Say next."]
    assert game.state.questions_used == 4
    reply = game.handle("next")
    assert game.state.round == 2


def test_ending_a_round_early_asks_first_and_no_keeps_the_round() -> None:
    game = seated()
    play(game, "Ada, where were you?")
    assert system_lines(game.handle("next")) == ["End round 1 with 3 unused?"]
    reply = game.handle("no")
    assert system_lines(reply) == ["Question 2 of 4: Bob."]
    assert game.state.round == 1


def test_after_round_four_the_night_is_nearly_done_and_rd_is_a() -> None:
    game = seated()
    for _ in range(3):
        play(game, "next", "yes")
    reply = play(game, "next", "yes")
    assert system_lines(reply) == [
        "The night is nearly done. Accuse one person, with up to six exhibits: "
        "you score for the right person and for exhibits showing could, how and why."
    ]
    assert "| rd:A |" in reply.ledger


def test_every_reply_counts_in_t() -> None:
    game = seated()
    turns = [game.handle(m).ledger for m in ("hello", "lies", "pass", "Ada, where were you?")]
    assert [line.split(" | ")[0] for line in turns] == ["[L] t:3", "[L] t:4", "[L] t:5", "[L] t:6"]


def test_rule_5_the_host_narrates_only_the_rounds_scene_line() -> None:
    case = frost_case()
    game = Game(case)
    game.start()
    first = game.handle("Ann")
    narration = [p.text for p in first.parts if p.kind is PartKind.NARRATION]
    assert narration == [case.public.house, case.round(1).scene]  # THE HOUSE is read before E1
    for number in (2, 3, 4):
        reply = play(game, "next", "yes")
        assert [p.text for p in reply.parts if p.kind is PartKind.NARRATION] == [case.round(number).scene]
