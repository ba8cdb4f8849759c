"""Whole nights of every case (the bundled Hollin Fold and the test cases), scripted from each case's own data."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from engine.case import Case
from engine.game import Game
from engine.replies import PartKind, Reply
from tests.engine_support import CASES, hollin_case, par_exhibits, to_accusation

WHOLE_NIGHT = pytest.mark.parametrize("load", list(CASES.values()), ids=list(CASES))


def system(reply: Reply) -> list[str]:
    return [p.text for p in reply.parts if p.kind is PartKind.SYSTEM]


def said(reply: Reply) -> list[tuple[str | None, str]]:
    return [(p.speaker, p.text) for p in reply.parts if p.kind is PartKind.SUSPECT]


@WHOLE_NIGHT
def test_a_full_night_breaks_every_lie_and_proves_the_culprit_at_par(load: Callable[[], Case]) -> None:
    case = load()
    public = case.public
    game = Game(case)
    game.start()
    game.handle("Ann, Bob and Cy")
    game.handle(f"{case.suspects[0].call}, where were you at ten?")
    broken: list[str] = []
    for round_number in range(1, 5):
        progress = True
        while progress and game.state.questions_used < 4:
            progress = False
            for lie in case.lies:
                assert lie.label is not None
                if lie.label in broken or (lie.after is not None and lie.after not in broken):
                    continue
                exhibit = next((n for n in lie.catch if n in game.state.exhibits_read), None)
                if exhibit is None:
                    continue
                suspect = case.suspect(lie.suspect)
                reply = game.handle(f"Confront {suspect.call} with E{exhibit}")
                expected = lie.admit if lie.admit is not None else case.lie(lie.gives_way_to or "").words
                assert system(reply)[0] == f"{suspect.call} breaks.", lie.label
                assert said(reply) == [(lie.suspect, expected)], lie.label
                broken.append(lie.label)
                assert game.state.broken == tuple(broken)
                progress = True
                break
        if round_number < 4:
            reply = game.handle("next")
            if system(reply)[-1].startswith("End round"):
                game.handle("yes")
    assert sorted(broken) == sorted(lie.label for lie in case.lies if lie.label), "every lie can be broken in one night"
    to_accusation(game)
    culprit = case.suspect(case.reveal.grading.culprit)
    exhibits = ", ".join(f"E{n}" for n in par_exhibits(case))
    reply = game.handle(f"We accuse {culprit.call}: {exhibits}")
    assert system(reply) == [
        f"You accuse {culprit.name}. Exhibits counted: {exhibits}. "
        "Say yes when the whole table agrees, or give the accusation again."
    ]
    reply = game.handle("yes")
    lines = system(reply)
    score = 40 + len(broken)
    assert lines[0] == "Correct."
    assert f"Score: {score} (par 40). Verdict: Proved." in lines
    assert reply.parts[-1].text.endswith(
        f"|end:solved|ch:1|turns:{game.state.turn}|players:3|links:3|lies:{len(broken)}|score:{score}|tape:0|sha:none"
    )
    assert reply.parts[-1].text.startswith(f"RESULT: AIGC|{public.game}|{public.mystery}|{public.version}|")


def _innocents() -> list[tuple[Callable[[], Case], str]]:
    return [(load, s.key) for load in CASES.values() for s in load().suspects if s.key != load().reveal.grading.culprit]


@pytest.mark.parametrize(("load", "key"), _innocents(), ids=[f"{load().public.mystery}-{key}" for load, key in _innocents()])
def test_accusing_an_innocent_is_not_them(load: Callable[[], Case], key: str) -> None:
    case = load()
    game = Game(case)
    game.start()
    game.handle("just me")
    to_accusation(game)
    suspect = case.suspect(key)
    game.handle(f"We accuse {suspect.call}: " + ", ".join(f"E{n}" for n in par_exhibits(case)))
    reply = game.handle("yes")
    assert system(reply)[0] == f"Not {suspect.name}."
    assert "|end:wrong|" in reply.parts[-1].text and "|score:0|" in reply.parts[-1].text


@WHOLE_NIGHT
def test_naming_the_culprit_with_no_exhibits_is_named(load: Callable[[], Case]) -> None:
    case = load()
    game = Game(case)
    game.start()
    game.handle("just me")
    to_accusation(game)
    culprit = case.suspect(case.reveal.grading.culprit)
    game.handle(f"We accuse {culprit.call}")
    lines = system(game.handle("yes"))
    assert lines[0] == "Correct." and "Score: 10 (par 40). Verdict: Named." in lines


def test_blamire_alone_is_redirected_to_joel() -> None:
    game = Game(hollin_case())
    game.start()
    game.handle("Ann")
    assert system(game.handle("Blamire, where were you?")) == ["Joel Blamire? Call him Joel."]
    assert system(game.handle("Mrs Blamire, who did this to you?")) == ["Only the six can be questioned."]
    assert game.preview("Joel Blamire, where were you?").suspect == "joel"


@pytest.mark.parametrize("title", ["Mr", "Mister", "Ms", "Ms.", "Miss", "Missus", "Mrs", "Mrs.", "Reverend", "Revd"])
def test_a_suspect_is_named_with_or_without_any_title_a_table_writes(title: str) -> None:
    # NAMES: "with or without a title". "Ms Marsden, where were you?" typed was table talk.
    game = Game(hollin_case())
    game.start()
    game.handle("Ann")
    surname = {"Mr": "Thwaite", "Mister": "Ormerod", "Reverend": "Keld", "Revd": "Keld"}.get(title, "Marsden")
    message = game.preview(f"{title} {surname}, where were you at ten?")
    assert message.kind.value == "question" and message.suspect is not None
