"""The whole-command and phrased-command passes: a short utterance that gave nothing scored as the card's commands."""

from __future__ import annotations

import numpy as np
import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import Command
from tests.scripted_recognizer import AUDIO, SEATS, ScriptedRecognizer, passes_for
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.shared import Biasing, PassName
from voice_host.understanding.passes.whole_command import whole_command_candidates
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Heard


def _whole(case: Case, game: Game, said: str, fits: dict[str, float], audio: object = AUDIO) -> tuple[Heard, list[str | None]]:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(audio, game, SEATS).heard  # type: ignore[arg-type]
    return heard, recognizer.calls


def test_a_short_utterance_heard_as_nothing_is_scored_as_a_whole_command(case: Case, game: Game) -> None:
    heard, calls = _whole(case, game, "Nick's.", {" Next": -0.4, " Nick's.": -3.0})
    assert "closed set: " in calls  # one batched pass: every command and the transcript's own words
    assert heard.message is not None and heard.message.command is Command.NEXT
    assert [c.kind for c in heard.corrections] == [CorrectionKind.WHOLE_COMMAND]
    assert heard.transcript == "Nick's."
    assert not heard.needs_confirmation  # a free command that stands well clear of the rest


def test_the_whole_command_pass_reads_an_exhibit_from_its_trie(case: Case, game: Game) -> None:
    heard, _ = _whole(case, game, "Ready, seven.", {" Read E7": -0.5, " Read E17": -0.6, " Read E1": -2.0})
    assert heard.message is not None and heard.message.command is Command.READ
    assert heard.message.exhibits == (7,)


def test_a_narrow_lead_is_confirmed_even_for_a_free_command(case: Case, game: Game) -> None:
    heard, _ = _whole(case, game, "Nick's.", {" Next": -0.4, " Pass": -1.6})
    assert heard.message is not None and heard.message.command is Command.NEXT
    assert heard.needs_confirmation


@pytest.mark.parametrize(
    "fits",
    [
        {" Next": -0.4, " Pass": -1.0},  # the best does not stand out from the next command
        {" Next": -2.0, " Nick's.": -0.4},  # the transcript's own words fit far better: they were said
        {" Next": -3.0},  # nothing fits: below the floor
    ],
)
def test_the_whole_command_pass_takes_nothing_it_is_not_sure_of(case: Case, game: Game, fits: dict[str, float]) -> None:
    heard, calls = _whole(case, game, "Nick's.", fits)
    assert "closed set: " in calls
    assert heard.text == "Nick's." and not any(c.kind is CorrectionKind.WHOLE_COMMAND for c in heard.corrections)


def test_a_command_close_behind_the_transcript_is_confirmed(case: Case, game: Game) -> None:
    heard, _ = _whole(case, game, "Stainless.", {" Statements": -1.9, " Stainless.": -1.2})
    assert heard.message is not None and heard.message.command is Command.STATEMENTS
    assert heard.needs_confirmation  # behind what Whisper wrote: asked first, though statements is free


def test_table_talk_never_becomes_a_whole_command(case: Case, game: Game) -> None:
    # Long words, or long audio: the pass does not even run, however well a command would score.
    def whole_command_ran(said: str, audio: object) -> tuple[bool, Heard]:
        recognizer = ScriptedRecognizer(said, "", fits={" Next": -0.1})
        result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(audio, game, SEATS)  # type: ignore[arg-type]
        return PassName.WHOLE_COMMAND in [run.name for run in result.runs], result.heard

    ran, heard = whole_command_ran("Shall we go round the table again?", AUDIO)
    assert not ran and heard.message is not None and heard.message.command is None
    ran, heard = whole_command_ran("Nick's.", np.zeros(16_000 * 4, dtype=np.float32))
    assert not ran and heard.message is not None and heard.message.command is None


@pytest.mark.parametrize(("said", "word"), [("No idea.", " No"), ("Yes and no.", " Yes")])
def test_a_reply_that_opens_on_an_answer_word_is_not_taken_for_it(case: Case, game: Game, said: str, word: str) -> None:
    # The answer word alone scores as well as the transcript's first word: Whisper heard more after it.
    heard, calls = _whole(case, game, said, {word: -0.1, f" {said}": -0.6})
    assert "closed set: " in calls
    assert heard.message is None or heard.message.command not in (Command.YES, Command.NO)


def test_an_answer_word_heard_as_another_word_is_still_found(case: Case, game: Game) -> None:
    heard, _ = _whole(case, game, "Nah.", {" No": -0.2, " Nah.": -1.5})
    assert heard.message is not None and heard.message.command is Command.NO


def test_a_usable_transcript_is_never_scored_as_a_whole_command(case: Case, game: Game) -> None:
    heard, calls = _whole(case, game, "Pass.", {" Next": -0.1})
    assert "closed set: " not in calls
    assert heard.message is not None and heard.message.command is Command.PASS


def test_the_whole_command_candidates_are_the_card_s_free_commands() -> None:
    cards = {candidate.card for candidate in whole_command_candidates()}
    assert cards == {"next", "pass", "statements", "lies", "save", "give up", "yes", "no", "repeat", "answers"} | {
        f"read E{n}" for n in range(1, 17)
    }


def test_read_exhibit_said_in_full_is_a_whole_command(case: Case, game: Game) -> None:
    heard, _ = _whole(
        case, game, "Repetive, it's iron.", {" Read exhibit 9": -0.8, " Read E9": -3.0, " Repetive, it's iron.": -1.0}
    )
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (9,)


def test_whose_answers_is_a_second_small_closed_set(case: Case, game: Game) -> None:
    heard, calls = _whole(case, game, "Offset TV.", {" Answers": -0.5, " Offset TV.": -3.0, " Keld": -1.0})
    assert calls[1:] == ["closed set: ", "closed set: Answers"]
    assert heard.message is not None and heard.message.command is Command.ANSWERS and heard.message.suspect == "keld"
    heard, _ = _whole(case, game, "Offset TV.", {" Answers": -0.5, " Offset TV.": -3.0})  # no name stands out
    assert heard.message is None or heard.message.command is not Command.ANSWERS


# --- The phrased-command pass ----------------------------------------------------------------------

MISHEARD_READ = "What on in the bit 14 say?"  # "What does exhibit 14 say?" in a voice Whisper mishears


def _phrased(
    case: Case, game: Game, said: str, fits: dict[str, float], settings: UnderstandingSettings | None = None
) -> tuple[Heard, list[str | None]]:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=settings).hear(AUDIO, game, SEATS)
    assert (PassName.PHRASED_COMMAND in [run.name for run in result.runs]) == ("closed set: " in recognizer.calls)
    return result.heard, recognizer.calls


def test_a_command_in_other_words_heard_wrong_is_its_nearest_phrasing(case: Case, game: Game) -> None:
    heard, calls = _phrased(case, game, MISHEARD_READ, {" What does exhibit 14 say?": -1.5, f" {MISHEARD_READ}": -0.9})
    assert calls.count("closed set: ") == 1  # the number was heard: one scoring of the phrasings and the words
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (14,)
    assert [c.kind for c in heard.corrections] == [CorrectionKind.PHRASED_COMMAND]
    assert heard.transcript == MISHEARD_READ
    assert not heard.needs_confirmation  # a free command close behind what Whisper wrote


def test_a_number_heard_as_a_word_fills_the_phrasing(case: Case, game: Game) -> None:
    said = "What on in the bit fourteen say?"  # Whisper writes numbers as words too
    heard, _ = _phrased(case, game, said, {" What does exhibit 14 say?": -1.5, f" {said}": -0.9})
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (14,)


def test_a_phrasing_far_behind_the_words_heard_is_not_taken(case: Case, game: Game) -> None:
    heard, _ = _phrased(case, game, MISHEARD_READ, {" What does exhibit 14 say?": -2.4, f" {MISHEARD_READ}": -0.9})
    assert heard.message is not None and heard.message.command is Command.READ
    assert not heard.needs_confirmation  # a free command within `phrased_command_behind` is taken as it ships
    heard, _ = _phrased(case, game, MISHEARD_READ, {" What does exhibit 14 say?": -3.5, f" {MISHEARD_READ}": -0.9})
    assert heard.message is None or heard.message.command is None


def test_a_phrasing_further_behind_than_sure_is_confirmed(case: Case, game: Game) -> None:
    settings = UnderstandingSettings(phrased_command_sure=1.0)
    fits = {" What does exhibit 14 say?": -2.4, f" {MISHEARD_READ}": -0.9}
    heard, _ = _phrased(case, game, MISHEARD_READ, fits, settings)
    assert heard.message is not None and heard.message.command is Command.READ and heard.needs_confirmation


def test_a_phrasing_whose_number_was_not_heard_is_no_candidate(case: Case, game: Game) -> None:
    said = "Could you read the bit heaven?"
    fits = {" 7": -1.0, " Could you read exhibit 7?": -1.0, f" {said}": -1.0}
    heard, calls = _phrased(case, game, said, fits)
    assert not any(str(call).startswith("closed set: Could") for call in calls)  # no number is scored in place
    assert heard.message is None or heard.message.command is None


def test_a_phrasing_whose_name_was_not_heard_is_no_candidate(case: Case, game: Game) -> None:
    said = "What has gone since so far?"
    heard, calls = _phrased(case, game, said, {" What has Blamire said so far?": -1.0, f" {said}": -0.9})
    assert not any(str(call).startswith("closed set: What has") for call in calls)  # no name is scored in place
    assert heard.message is None or heard.message.command is None


def test_a_name_heard_in_the_words_fills_the_phrasing_s_slot_unscored(case: Case, game: Game) -> None:
    said = "Can we have nonsense from Martha?"
    # Only the whole phrasing fits; scoring the six's names in the slot (all alike to this recognizer)
    # would have put another name there.
    heard, _ = _phrased(case, game, said, {" Can we have the answer from Martha?": -1.5, f" {said}": -0.9})
    martha = next(suspect.key for suspect in case.suspects if "Martha" in suspect.name)
    assert heard.message is not None and heard.message.command is Command.ANSWERS and heard.message.suspect == martha


def test_the_beam_s_runners_up_bring_their_own_nearest_phrasings(case: Case, game: Game) -> None:
    said = "What on in the bit, for say?"  # no number heard: no phrasing of its own can be filled
    recognizer = ScriptedRecognizer(said, "", fits={" What does exhibit 14 say?": -1.5}, runners_up=((MISHEARD_READ, -0.95),))
    recognizer.avg_logprob = -0.9
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (14,)
    assert [c.kind for c in heard.corrections] == [CorrectionKind.PHRASED_COMMAND]
    assert heard.transcript == said


def test_say_that_again_is_no_phrased_command(case: Case, game: Game) -> None:
    # The session replays its last reply for it: a runner-up near "save" must not take its place.
    said = "Could you say that again, please?"
    recognizer = ScriptedRecognizer(
        said, "", fits={" Could you save the game?": -0.5}, runners_up=(("Could you save up again, please?", -0.45),)
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert PassName.PHRASED_COMMAND not in [run.name for run in result.runs]
    assert result.heard.text == said


def test_table_talk_near_no_phrasing_is_not_scored(case: Case, game: Game) -> None:
    heard, calls = _phrased(case, game, "The kettle is boiling, anyone for tea?", {" Save the game.": -0.1})
    assert "closed set: " not in calls and heard.message is not None and heard.message.command is None


def test_a_long_utterance_is_never_a_phrased_command(case: Case, game: Game) -> None:
    said = "Shall we go on to the next round after we have had a cup of tea and some cake?"
    heard, calls = _phrased(case, game, said, {" On to the next round.": -0.1})
    assert "closed set: " not in calls and (heard.message is None or heard.message.command is None)
