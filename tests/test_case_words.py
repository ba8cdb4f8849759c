"""A case's own words in the Host's lines: the victim's pronoun, each suspect's, and the number of suspects.

Wyke Mill has a male victim and four suspects; Hollin Fold's lines stay the card's, word for word.
"""

from __future__ import annotations

import pytest

from engine.game import SEALED, Game
from tests.engine_support import hollin_case, seated, suspect_lines, system_lines, wyke_case

TABLE_TALK_WYKE = "(The table confers. Speak to one of the four by name to ask.)"
TABLE_TALK_HOLLIN = "(The table confers. Speak to one of the six by name to ask.)"
ACCUSE_LATER = "The accusation comes after round four."


def wyke() -> Game:
    return seated("Ann, Bob", case=wyke_case())


def hollin() -> Game:
    return seated("Ann, Bob", case=hollin_case())


@pytest.mark.parametrize("message", ["who killed him?", "Who killed Mr. Tolley?", "So who killed Edwin, then?"])
def test_asking_the_host_who_killed_him_is_sealed(message: str) -> None:
    game = wyke()
    assert system_lines(game.handle(message)) == [SEALED]
    assert game.state.questions_used == 0


def test_who_killed_her_is_not_about_a_male_victim_but_stays_sealed_for_hollin_fold() -> None:
    assert system_lines(wyke().handle("who killed her?")) == [TABLE_TALK_WYKE]
    for message in ("who killed her?", "Who killed Mrs Blamire?"):
        assert system_lines(hollin().handle(message)) == [SEALED]


@pytest.mark.parametrize(
    "message", ["Lorne killed him", "Captain Lorne killed him.", "Pinch murdered Mr. Tolley", "Dinah struck him"]
)
def test_saying_who_killed_him_before_round_a_is_an_early_accusation(message: str) -> None:
    game = wyke()
    assert system_lines(game.handle(message)) == [ACCUSE_LATER]
    assert game.state.questions_used == 0


def test_killed_her_is_the_early_accusation_in_hollin_fold_and_not_in_wyke_mill() -> None:
    assert system_lines(hollin().handle("Thwaite killed her")) == [ACCUSE_LATER]
    assert system_lines(wyke().handle("Lorne killed her")) == [TABLE_TALK_WYKE]


@pytest.mark.parametrize(
    "message", ["the four, where were you?", "All four, where were you at nine?", "all four of you: where were you?"]
)
def test_the_four_together_is_one_at_a_time(message: str) -> None:
    game = wyke()
    assert system_lines(game.handle(message)) == ["One at a time."]
    assert game.state.questions_used == 0


def test_hollin_fold_keeps_the_six_together_and_the_four_is_not_its_number() -> None:
    assert system_lines(hollin().handle("the six, where were you?")) == ["One at a time."]
    assert system_lines(hollin().handle("all six of you, where were you?")) == ["One at a time."]
    assert system_lines(hollin().handle("the four, where were you?")) == [TABLE_TALK_HOLLIN]


def test_the_surname_redirect_uses_the_suspects_own_pronoun() -> None:
    game = wyke()
    assert system_lines(game.handle("Tolley, where were you?")) == ["Grace Tolley? Call her Grace."]
    assert system_lines(game.handle("Mr. Tolley, who hurt you?")) == ["Only the four can be questioned."]
    assert game.preview("Grace Tolley, where were you?").suspect == "grace"
    assert system_lines(hollin().handle("Blamire, where were you?")) == ["Joel Blamire? Call him Joel."]


def test_the_fixed_lines_say_the_cases_number_of_suspects() -> None:
    game = wyke()
    assert system_lines(game.handle("Ask the maid what she saw")) == ["Only the four can be questioned."]
    assert system_lines(game.handle("what a night")) == [TABLE_TALK_WYKE]
    assert system_lines(game.handle("add Edwin")) == [
        "Edwin is already a name at this table or among the four. Add them by a nickname."
    ]
    assert system_lines(game.handle("answers from the carter")) == ["Whose answers? Name one of the four."]
    fresh = Game(wyke_case())
    fresh.start()
    assert system_lines(fresh.handle("Ann and Grace")) == [
        "Grace is already a name at this table or among the four. What nickname shall we use instead?"
    ]


def test_hollin_folds_fixed_lines_are_the_cards() -> None:
    game = hollin()
    assert system_lines(game.handle("Ask the groom what he saw")) == ["Only the six can be questioned."]
    assert system_lines(game.handle("what a night")) == [TABLE_TALK_HOLLIN]
    assert system_lines(game.handle("add Ann")) == [
        "Ann is already a name at this table or among the six. Add them by a nickname."
    ]


def test_asking_about_the_victim_keeps_his_pronoun() -> None:
    game = wyke()
    reply = game.handle("Ask Mrs. Marr when she found him")
    assert suspect_lines(reply) == [("dinah", "I took his cocoa in at a quarter past nine, and there he lay.")]
    reply = game.handle("Ask Captain Lorne where he was at nine")
    assert suspect_lines(reply) == [("lorne", "I sat by the parlour fire with my pipe until the cook screamed.")]
