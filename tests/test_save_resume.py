"""SAVE / RESUME, and nothing lost: the journal rebuilds a night after a crash."""

from __future__ import annotations

import subprocess
from pathlib import Path

from engine.game import Game
from engine.replies import PartKind
from engine.save import parse_save
from tests.engine_support import frost_case, play, run_text_mode, seated, system_lines, to_round


def save_text(game: Game) -> str:
    reply = game.handle("save")
    return next(p.text for p in reply.parts if p.kind is PartKind.SAVE)


def test_the_save_block_is_printed_exactly() -> None:
    game = seated()
    play(game, "Confront Ada with E3")
    block = save_text(game)
    assert block.splitlines() == [
        "-----BEGIN AIGC SAVE-----",
        "game:frost-fair-test",
        "m:frost-fair",
        "rules:1",
        f"turn:{game.state.turn}",
        "rd:1",
        "q:1",
        "seat:2",
        "table:Ann,Bob,Cy",
        "broken:R1",
        "sha:none",
        "-----END AIGC SAVE-----",
    ]


def test_no_save_in_round_a() -> None:
    game = seated()
    to_round(game, 4)
    play(game, "next", "yes")
    reply = game.handle("save")
    assert system_lines(reply) == ["No save in the accusation."]
    assert not any(p.kind is PartKind.SAVE for p in reply.parts)


def test_a_round_change_offers_the_save_once() -> None:
    game = seated("Ann")
    last = play(game, *["Bram, where were you?"] * 4)  # the round's questions run out: SAVE offered here
    assert [p.kind for p in last.parts].count(PartKind.SAVE) == 1
    opening = game.handle("next")
    assert game.state.round == 2
    assert not any(p.kind is PartKind.SAVE for p in opening.parts)  # not again above the new exhibits
    early = seated("Ann")
    opening = play(early, "next", "yes")  # ended early: the opening is where the SAVE comes
    assert early.state.round == 2
    assert [p.kind for p in opening.parts].count(PartKind.SAVE) == 1


def test_a_save_resumes_in_a_new_game_with_the_same_ledger() -> None:
    game = seated()
    play(game, "Confront Ada with E3", "next", "yes", "Bram, where were you?")
    block = save_text(game)
    ledger_at_save = game.handle("lies").ledger  # any free reply shows the state
    fresh = Game(frost_case())
    fresh.start()
    reply = fresh.handle(block)
    assert fresh.state.round == 2 and fresh.state.questions_used == 1 and fresh.state.next_seat == 3
    assert fresh.state.broken == ("R1",)
    assert [p.exhibit for p in reply.parts if p.kind is PartKind.EXHIBIT] == [5, 6, 7, 8]  # the round re-read
    assert any(p.kind is PartKind.FULL_STATE for p in reply.parts)
    saved_turn = parse_save(block).turn  # type: ignore[union-attr]
    assert reply.ledger == ledger_at_save.replace(f"t:{saved_turn + 1} ", f"t:{saved_turn + 1} ")
    assert reply.ledger.split(" | ")[1:] == ledger_at_save.split(" | ")[1:]
    assert reply.ledger.startswith(f"[L] t:{saved_turn + 1} ")
    # the resumed game plays on: R2 now stands and E15 will break it later
    assert fresh.handle("Ada, did you skate?").parts[0].text == "I skated, but only before the second tune."


def test_a_save_pasted_mid_game_is_ignored() -> None:
    game = seated()
    block = save_text(seated())
    before = game.state
    reply = game.handle(block)
    assert system_lines(reply) == ["A save is read only as the first message of a new game."]
    assert game.state.round == before.round and game.state.seats == before.seats


def test_a_save_of_another_game_or_rules_is_refused() -> None:
    block = save_text(seated()).replace("game:frost-fair-test", "game:another-game")
    game = Game(frost_case())
    game.start()
    assert system_lines(game.handle(block)) == ["That save is from another game or rules edition; it can't be resumed here."]
    assert game.state.round == 0


def test_resume_repairs_and_drops_labels_that_could_not_stand_yet() -> None:
    block = "\n".join(
        [
            "-----BEGIN AIGC SAVE-----",
            "game:frost-fair-test m:frost-fair rules:1 turn:30 rd:A q:9 seat:7",
            "table:Ann,Bob broken:R2,R9,R1,R1 sha:none",
            "-----END AIGC SAVE-----",
        ]
    )
    game = Game(frost_case())
    game.start()
    reply = game.handle(block)
    # R2 before R1 could not stand yet; R9 does not exist; the second R1 is a repeat
    assert system_lines(reply)[0] == "Save repaired: 3 label(s) dropped."
    state = game.state
    assert (state.round, state.questions_used, state.next_seat, state.broken) == (4, 4, 2, ("R1",))
    assert reply.ledger == "[L] t:31 | rd:4 | q:4/4 | seat:2/2 | broken:R1 | acc:none | v0.1.0"


def test_half_a_save_block_is_not_a_resume() -> None:
    game = Game(frost_case())
    game.start()
    game.handle("-----BEGIN AIGC SAVE----- game:frost-fair-test m:frost-fair rules:1 turn:5")
    assert game.state.round == 0


def _text_mode(state_dir: Path, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    result = run_text_mode(state_dir, stdin, *extra)
    assert result.returncode == 0, result.stderr
    return result


def test_text_mode_reads_a_pasted_save_block_as_one_message(tmp_path: Path) -> None:
    block = save_text(seated())
    result = _text_mode(tmp_path, block + "\n")
    assert "Round 1 of 4." in result.stdout and "rd:1 | q:0/4 | seat:1/3" in result.stdout


def test_a_crashed_night_resumes_from_the_journal_in_the_same_state(tmp_path: Path) -> None:
    messages = ["Ann, Bob and Cy", "Confront Ada with E3", "Bram, where were you?", "add Dee"]
    first = _text_mode(tmp_path, "\n".join(messages) + "\n")
    last_ledger = [line for line in first.stdout.splitlines() if line.startswith("[L]")][-1]
    # The window closed here. A new process resumes from the journal alone.
    resumed = _text_mode(tmp_path, "Cole, where were you that evening?\n", "--resume")
    ledgers = [line for line in resumed.stdout.splitlines() if line.startswith("[L]")]
    assert ledgers[0] == last_ledger
    assert ledgers[1].startswith("[L] t:6 | rd:1 | q:3/4 | seat:1/3 | broken:R1 |")
    game = Game(frost_case())
    game.start()
    for message in [*messages, "Cole, where were you that evening?"]:
        game.handle(message)
    assert game.joining == ("Dee",)


def test_a_resumed_night_says_so_and_prints_full_state_above_the_ledger(tmp_path: Path) -> None:
    _text_mode(tmp_path, "Ann, Bob and Cy\nConfront Ada with E3\n")
    resumed = _text_mode(tmp_path, "", "--resume")
    said, state, ledger = resumed.stdout.strip().split("\n\n")
    assert said == "The night is resumed where it stopped."
    assert state.splitlines()[:2] == ["FULL STATE", "Round: 1 of 4"]
    assert "Lies broken: R1" in state and "Questions left: 3 of 4" in state and "Next to ask: Bob (seat 2)" in state
    assert ledger.startswith("[L] t:3 | rd:1 | q:1/4 | seat:2/3 | broken:R1 |")


def test_every_round_end_writes_the_save_block_to_the_state_folder(tmp_path: Path) -> None:
    _text_mode(tmp_path, "Ann\nnext\nyes\n")
    saved = (tmp_path / "last-save.txt").read_text()
    block = parse_save(saved)
    assert block is not None and block.round == "2" and block.table == ("Ann",)


def test_save_in_one_process_resumes_in_another_with_the_same_ledger(tmp_path: Path) -> None:
    first = _text_mode(tmp_path / "a", "Ann, Bob and Cy\nConfront Ada with E3\nnext\nyes\nBram, where were you?\nsave\n")
    out = first.stdout
    block = out[out.rindex("-----BEGIN AIGC SAVE-----") : out.rindex("-----END AIGC SAVE-----") + len("-----END AIGC SAVE-----")]
    saved_ledger = [line for line in out.splitlines() if line.startswith("[L]")][-1]
    second = _text_mode(tmp_path / "b", block + "\n")
    resumed_ledger = [line for line in second.stdout.splitlines() if line.startswith("[L]")][-1]
    saved_turn = parse_save(block).turn  # type: ignore[union-attr]
    assert saved_ledger.startswith(f"[L] t:{saved_turn} ")
    assert resumed_ledger == saved_ledger.replace(f"t:{saved_turn} ", f"t:{saved_turn + 1} ", 1)
