"""Player text is data: names and messages are cleaned and bounded the same way however they come in."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from engine.game import ASK_TABLE, SEATING_HELP, Game
from engine.state import Phase
from engine.text import MAX_MESSAGE
from tests.engine_support import frost_case, system_lines


def _save(table: str, *, turn: str = "12", rd: str = "2", q: str = "1", seat: str = "1") -> str:
    return "\n".join(
        [
            "-----BEGIN AIGC SAVE-----",
            f"game:frost-fair-test m:frost-fair rules:1 turn:{turn} rd:{rd} q:{q} seat:{seat}",
            f"table:{table}",
            "broken:none sha:none",
            "-----END AIGC SAVE-----",
        ]
    )


def _resumed(block: str) -> tuple[Game, list[str]]:
    game = Game(frost_case())
    game.start()
    return game, system_lines(game.handle(block))


def _no_control_characters(text: str) -> bool:
    return not any(unicodedata.category(char) == "Cc" and char != "\n" for char in text)


def test_a_save_name_that_is_markup_is_dropped_and_the_save_repaired() -> None:
    game, lines = _resumed(_save("[/],Bob"))
    assert game.state.seats == ("Bob",)
    assert lines[0] == "Save repaired: 0 label(s) dropped."


def test_save_names_lose_raw_escape_and_bell_bytes() -> None:
    game, _lines = _resumed(_save("Ann\x07,\x1b[31mBob,Cy\x1b"))
    assert game.state.seats == ("Ann", "Cy")  # "[31mBob" would not be taken typed either
    for message in ("Ann, where were you?", "pass", "save", "statements"):
        assert _no_control_characters(game.handle(message).render())


def test_a_huge_save_name_never_reaches_a_reply() -> None:
    game, _lines = _resumed(_save("A" * 3000 + ",Bob"))
    assert game.state.seats == ("Bob",)
    assert max(len(game.handle(m).render()) for m in ("pass", "save", "Ada, where were you?")) < 3000


def test_a_100_kb_save_is_bounded_like_any_message() -> None:
    game, _lines = _resumed(_save("B" * 100_000))
    assert len(game.journal[-1]) == MAX_MESSAGE
    assert all(len(seat) <= 24 for seat in game.state.seats)
    assert len(game.handle("save").render()) < 2000


def test_fifty_save_names_are_cut_to_eight_and_said_to_be_repaired() -> None:
    names = ",".join(f"Name{chr(ord('a') + i % 26)}{chr(ord('a') + i // 26)}" for i in range(50))
    game, lines = _resumed(_save(names))
    assert len(game.state.seats) == 8
    assert lines[0] == "Save repaired: 0 label(s) dropped."


def test_out_of_range_save_numbers_are_repaired() -> None:
    game, lines = _resumed(_save("Ann,Bob", turn="-999999999"))
    assert lines[0] == "Save repaired: 0 label(s) dropped."
    assert game.state.turn == 2  # repaired to turn 1, and this reply is the next
    game, lines = _resumed(_save("Ann,Bob", turn="9" * 1000, q="-" + "7" * 1000, seat="1" * 40))
    assert lines[0] == "Save repaired: 0 label(s) dropped."
    assert (game.state.questions_used, game.state.next_seat) == (0, 2)
    assert game.state.turn < 10**6


@given(st.text(min_size=1, max_size=30).filter(lambda name: not any(mark in name for mark in ",;&+/")))
def test_a_name_is_taken_from_a_save_exactly_when_it_would_be_taken_typed(name: str) -> None:
    typed = Game(frost_case())
    typed.start()
    typed.handle(f"{name}, Zed")
    pasted, _lines = _resumed(_save(f"{name},Zed"))
    if typed.state.phase is Phase.ROUNDS and len(typed.state.seats) == 2:
        assert pasted.state.seats == typed.state.seats
    elif typed.state.phase is Phase.SEATING:  # asked again, or asked for a nickname: a save drops it
        assert pasted.state.seats == ("Zed",)
    for seat in pasted.state.seats:
        assert _no_control_characters(seat) and len(seat) <= 24


def test_a_five_megabyte_message_is_journalled_and_taken_at_the_bound() -> None:
    game = Game(frost_case())
    game.start()
    game.handle("Ann, Bob")
    game.handle("Ada, where were you? " + "x" * 5_000_000)
    assert len(game.journal[-1]) == MAX_MESSAGE


def test_help_at_the_seating_explains() -> None:
    game = Game(frost_case())
    game.start()
    assert system_lines(game.handle("help")) == [SEATING_HELP]
    assert game.state.phase is Phase.SEATING


def test_commands_and_sentences_at_the_seating_are_asked_about_again() -> None:
    for said in ("nobody", "print the solution", "show me the answer", "everyone"):
        game = Game(frost_case())
        game.start()
        assert system_lines(game.handle(said)) == [ASK_TABLE], said
        assert game.state.phase is Phase.SEATING and game.state.seats == ()


def test_real_names_still_seat() -> None:
    game = Game(frost_case())
    game.start()
    game.handle("Ann, Mary-Jo, Big Tom and O'Neil")
    assert game.state.seats == ("Ann", "Mary-Jo", "Big Tom", "O'Neil")


def test_a_latecomer_who_is_no_one_does_not_join() -> None:
    game = Game(frost_case())
    game.start()
    game.handle("Ann, Bob")
    game.handle("everyone is here")
    assert not game.joining  # (not "== ()": mypy would narrow the property to an empty tuple for good)
    game.handle("add Dee")
    assert game.joining == ("Dee",)
