"""Property tests: any sequence of messages, hostile ones included, keeps every invariant of the card."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from engine.case import EntryKind
from engine.game import Game
from engine.replies import PartKind, Reply
from engine.rules import EXHIBITS, QUESTIONS_PER_ROUND
from engine.save import parse_save
from engine.state import Phase
from tests.engine_support import frost_case

CASE = frost_case()

MEANINGFUL = [
    "Ann, Bob and Cy",
    "just me",
    "Ada",
    "add Dee",
    "next",
    "yes",
    "no",
    "pass",
    "save",
    "lies",
    "statements",
    "statements round 3",
    "read E1",
    "read E6",
    "read E14",
    "answers Bram",
    "give up",
    "Ada, where were you?",
    "Ask Bram about the booth",
    "Cole, did you know the will?",
    "Confront Ada with E3",
    "Confront Ada with E15",
    "Confront Bram with E5",
    "Confront Cole with E11",
    "Confront Cole with E9",
    "Confront Bram with E7",
    "We accuse Bram: E5, E7, E6, E13, E14",
    "We accuse Ada",
    "It was Cole, are we right?",
    "who did it?",
    "Bram, what about the blade?",
    "Ada, what about the tent?",
    "Finch, where were you?",
    "Everyone, talk!",
    "search the tent",
    "How does scoring work?",
    "Bob, what do you think?",
    "Confront Ada with E1 and E2",
    "-----BEGIN AIGC SAVE----- game:frost-fair-test m:frost-fair rules:1 turn:9 rd:2 q:1 seat:2 table:Ann,Bob "
    "broken:R1,R3 sha:none -----END AIGC SAVE-----",
    "-----BEGIN AIGC SAVE----- game:frost-fair-test m:frost-fair",
]
HOSTILE = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=st.sampled_from(list("\u200f\u202e\u0000\u0007\u001b\ud7ff🎄🔪é ,.:?!-–—#*_`E0123456789")), max_size=80),
    st.builds(lambda n: "Ada, " + "where were you " * n, st.integers(min_value=1, max_value=1400)),
    st.just("x" * 20_000),
)
MESSAGES = st.lists(st.one_of(st.sampled_from(MEANINGFUL), HOSTILE), max_size=40)

FILE_LINES = {
    text for entry in CASE.reveal.entries if entry.kind is not EntryKind.DEFLECT for text in (entry.words, entry.admit) if text
}
SOLUTION_SENTENCES = [s.strip() for s in re.split(r"(?<=[.!?])\s+", CASE.reveal.solution) if len(s.strip()) > 15]


def _replacement(label: str) -> str:
    lie = CASE.lie(label)
    return lie.admit if lie.admit is not None else CASE.lie(lie.gives_way_to or "").words


def _check_reply(reply: Reply, before_turn: int, game: Game, spoken: set[str], message: str) -> None:
    state = game.state
    save = parse_save(message)
    if save is not None and state.turn == save.turn + 1 and len(game.journal) == 1:
        before_turn = save.turn  # a resume carries t on from the saved turn
    kinds = [part.kind for part in reply.parts]
    assert kinds.count(PartKind.LEDGER) == 1
    if PartKind.RESULT in kinds:
        assert kinds[-2:] == [PartKind.LEDGER, PartKind.RESULT]
    else:
        assert kinds[-1] is PartKind.LEDGER
    assert reply.ledger.startswith(f"[L] t:{before_turn + 1} ")
    assert state.turn == before_turn + 1
    assert 0 <= state.questions_used <= QUESTIONS_PER_ROUND
    if state.seats:
        assert state.next_seat is not None and 1 <= state.next_seat <= len(state.seats)
    text = reply.render()
    spoken.update(part.text for part in reply.parts if part.kind in (PartKind.SUSPECT, PartKind.STATEMENT))
    # A broken lie's claim and what replaced it (its admission, or the lie it gives way to) are known to
    # the table: LIES says both, also after a resume, where the breaking was heard in an earlier sitting.
    broken_claims = {CASE.lie(label).words for label in state.broken} | {_replacement(label) for label in state.broken}
    if state.phase is not Phase.OVER:
        assert not any(sentence in text for sentence in SOLUTION_SENTENCES)
        for line in FILE_LINES - spoken - broken_claims:
            assert line not in text, f"unspoken FILE line leaked: {line!r}"
    for number in range(1, EXHIBITS + 1):
        if number not in state.exhibits_read:
            assert CASE.exhibit(number).text not in text
    for round_ in CASE.reveal.rounds:
        if round_.number > state.round:
            for statement in round_.statements:
                assert statement.words not in text


@given(MESSAGES)  # as many examples as the Hypothesis profile says (conftest.py)
def test_any_messages_keep_every_invariant(messages: list[str]) -> None:
    game = Game(CASE)
    opening = game.start()
    assert opening.ledger == "[L] t:1 | rd:0 | q:0/4 | seat:- | broken:none | acc:none | v0.1.0"
    spoken: set[str] = set()
    for message in messages:
        before = game.state.turn
        reply = game.handle(message)
        _check_reply(reply, before, game, spoken, message)


@given(st.lists(st.sampled_from(MEANINGFUL), max_size=30))
def test_replaying_the_journal_rebuilds_the_same_state(messages: list[str]) -> None:
    game = Game(CASE)
    game.start()
    replies = [game.handle(message).render() for message in messages]
    again = Game(CASE)
    again.start()
    assert [again.handle(message).render() for message in game.journal] == replies
    assert again.state == game.state
