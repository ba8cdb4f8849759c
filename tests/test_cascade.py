"""The recognition cascade as a list of passes, and its first, check, slot, focus and near-voice passes, heard through
a scripted recognizer."""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import Command, MessageKind
from tests.scripted_recognizer import (
    ALONE,
    AUDIO,
    PHRASED_OFF,
    SEATS,
    UNSURE,
    WITH_SLOT_PASS,
    ScriptedRecognizer,
    passes_for,
)
from voice_host.ears.asr import HeardWord, Transcript
from voice_host.ears.side_decode import SideDecoder, SideRequest
from voice_host.understanding.cascade import RecognitionPasses, cascade_for
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.check import words_in_place
from voice_host.understanding.passes.first import FirstPass
from voice_host.understanding.passes.focus import loudest_speaker_text
from voice_host.understanding.passes.shared import Biasing, PassName, Vocabulary
from voice_host.understanding.passes.slots import Slot, SlotPrefixes, slot_prefixes_for
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Heard, Understander


def test_a_name_only_the_biased_pass_produced_is_confirmed(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Ormerod, where were you at ten?", "Or more, where were you at ten?")
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    # The unprompted decode, then the six's names scored where "Ormerod" was (none fits here).
    assert recognizer.calls[1:] == [None, "closed set: "]
    assert recognizer.beams == [None, 1]  # the check pass decodes greedily
    assert result.heard.uncertain_names == ("ormerod",)
    assert result.heard.needs_confirmation
    assert result.first is not None and not result.first.needs_confirmation


def test_a_name_both_passes_heard_goes_through(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Keld, where were you at ten?", "Killed, where were you at ten?")
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert result.passes == 2
    assert result.heard.uncertain_names == ()
    assert not result.heard.needs_confirmation


def test_the_check_pass_takes_the_decode_made_beside_the_first_pass(case: Case, game: Game) -> None:
    first = ScriptedRecognizer("Ormerod, where were you at ten?", "Ormerod, where were you at ten?")
    side = ScriptedRecognizer("", "Or more, where were you at ten?")  # the second instance: heard unprompted
    beside = SideDecoder(side)  # type: ignore[arg-type]  # only transcribe() is used
    result = passes_for(case, first, Biasing.PROMPT_CHECKED, beside=beside).hear(AUDIO, game, SEATS)
    assert side.calls == [None] and side.beams == [1] and side.utterance is AUDIO  # started before it was needed
    assert first.calls[1:] == ["closed set: "]  # the first instance never decoded the utterance unprompted
    assert result.unbiased is not None and result.unbiased.raw_text == "Or more, where were you at ten?"
    assert result.heard.uncertain_names == ("ormerod",)  # judged on the side decode's words
    assert result.passes == 3


def test_each_pass_that_applied_is_timed_in_order(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Ormerod, where were you at ten?", "Or more, where were you at ten?")
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert [timing.name for timing in result.timings] == [PassName.FIRST, PassName.CHECK]  # only those that applied
    assert all(timing.seconds >= 0.0 for timing in result.timings)
    assert result.timings_text().startswith("first ") and ", check " in result.timings_text()


def test_an_abandoned_hearing_stops_before_its_next_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Ormerod, where were you at ten?", "Or more, where were you at ten?")
    asked: list[int] = []

    def abandoned() -> bool:  # the listener no longer wants the result once the first pass has run
        asked.append(len(recognizer.calls))
        return True

    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS, abandoned)
    assert result.abandoned and asked == [1]  # asked once, after the first pass, never before it
    assert [timing.name for timing in result.timings] == [PassName.FIRST]
    assert recognizer.calls[1:] == []  # no check decode
    assert result.heard.transcript == "Ormerod, where were you at ten?"  # what the first pass heard


def test_a_hearing_still_wanted_runs_every_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Ormerod, where were you at ten?", "Or more, where were you at ten?")
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS, lambda: False)
    assert not result.abandoned
    assert [timing.name for timing in result.timings] == [PassName.FIRST, PassName.CHECK]


def test_a_decode_made_beside_for_other_audio_is_not_taken(case: Case, game: Game) -> None:
    def started(request: SideRequest) -> SideDecoder:
        beside = SideDecoder(ScriptedRecognizer("", "Or more, where were you at ten?"))  # type: ignore[arg-type]
        beside.start(AUDIO, request)
        return beside

    assert started(SideRequest(beam_size=1)).take(ALONE, SideRequest(beam_size=1)) is None  # another utterance's
    assert started(SideRequest(beam_size=1)).take(AUDIO, SideRequest(beam_size=5)) is None  # another beam
    beside = started(SideRequest(beam_size=1))
    taken = beside.take(AUDIO, SideRequest(beam_size=1))
    assert taken is not None and taken.raw_text == "Or more, where were you at ten?"
    assert beside.take(AUDIO, SideRequest(beam_size=1)) is None  # taken once


@dataclass
class HeldRecognizer(ScriptedRecognizer):
    """A second instance whose first decode goes on until it is released."""

    release: threading.Event = field(default_factory=threading.Event)

    def transcribe(self, audio: object, *args: Any, **kwargs: Any) -> Transcript:
        if not self.calls:
            self.release.wait(timeout=60.0)  # a bound, so a failing test cannot leave the pool's thread waiting
        return super().transcribe(audio, *args, **kwargs)


def test_no_decode_is_started_beside_while_an_earlier_one_is_still_going(case: Case, game: Game) -> None:
    side = HeldRecognizer("", "Or more, where were you at ten?")
    beside = SideDecoder(side)  # type: ignore[arg-type]  # only transcribe() is used
    try:
        beside.start(ALONE, SideRequest(beam_size=1))  # an earlier utterance's, never taken, still decoding
        beside.start(AUDIO, SideRequest(beam_size=1))
        assert beside.take(AUDIO, SideRequest(beam_size=1)) is None  # not queued behind it: the check decodes now
    finally:
        side.release.set()


# The check pass's closed set: the name only the prompted pass wrote, heard in its place unprompted.
HEARD_IN_PLACE = {" Thwaite": -1.2, " Abel": -2.0, " Keld": -6.0}  # Thwaite's best leads Keld's by 4.8


def test_a_name_the_closed_set_hears_in_its_place_goes_through(case: Case, game: Game) -> None:
    """Unprompted, Whisper misspells the name ("Tooth wait"); scored in its place, the name stands out."""
    recognizer = ScriptedRecognizer(
        "Thwaite, did you hear the weights?", "Tooth wait, did you hear the weights?", fits=HEARD_IN_PLACE
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1:] == [None, "closed set: "]  # scored after the words before the name: none
    assert result.heard.message is not None and result.heard.message.suspect == "thwaite"
    assert result.heard.uncertain_names == ()
    assert not result.heard.needs_confirmation
    assert result.passes == 3  # the first pass, the check's decode and its closed set


def test_the_closed_set_scores_the_name_after_the_words_before_it(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Where were you at 1035, Thwaite?", "Where were you at 1035, to wait?", fits=HEARD_IN_PLACE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert recognizer.calls[-1] == "closed set: Where were you at 1035,"
    assert not result.heard.needs_confirmation


@pytest.mark.parametrize(
    "fits",
    [
        {" Thwaite": -1.2, " Keld": -2.5},  # another suspect close behind (1.3 < the 2.0 margin)
        {" Thwaite": -1.2, " Vicar": -2.0},  # ... by a role: a suspect's best word counts
        {" Thwaite": -5.5},  # first, but below the floor: nothing of the six fits there
    ],
)
def test_a_name_the_closed_set_does_not_clearly_hear_is_confirmed(case: Case, game: Game, fits: dict[str, float]) -> None:
    recognizer = ScriptedRecognizer("Thwaite, did you hear the weights?", "Tooth wait, did you hear the weights?", fits=fits)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert result.heard.uncertain_names == ("thwaite",)
    assert result.heard.needs_confirmation


def test_a_name_put_where_the_unprompted_pass_heard_nothing_is_confirmed(case: Case, game: Game) -> None:
    """The prompt made "Julius" out of the room's noise before "When did you ...": no word was there."""
    recognizer = ScriptedRecognizer(
        "Julius, when did you come in?", "When did you come in?", fits={" Julius": -1.0, " Thwaite": -9.0}
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: " not in recognizer.calls  # nothing to score: no cost
    assert result.heard.uncertain_names == ("ormerod",)
    assert result.heard.needs_confirmation


def test_a_name_the_unprompted_pass_heard_as_someone_else_is_confirmed(case: Case, game: Game) -> None:
    """The two passes disagree on who: the prompt's name is not taken on the closed set's word."""
    recognizer = ScriptedRecognizer(
        "Ask Julius, where were you at ten?", "Ask Martha, where were you at ten?", fits={" Julius": -1.0}
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert not any(call and call.startswith("closed set") for call in recognizer.calls)
    assert result.heard.uncertain_names == ("ormerod",)
    assert result.heard.needs_confirmation


def test_the_check_names_closed_set_takes_its_margin_and_floor_from_the_settings(case: Case, game: Game) -> None:
    said, plain = "Thwaite, did you hear the weights?", "Tooth wait, did you hear the weights?"
    close = {" Thwaite": -1.2, " Keld": -2.5}
    lenient = UnderstandingSettings(check_name_margin=1.0)
    heard = passes_for(case, ScriptedRecognizer(said, plain, fits=close), Biasing.PROMPT_CHECKED, settings=lenient)
    assert not heard.hear(AUDIO, game, SEATS).heard.needs_confirmation
    strict = UnderstandingSettings(check_name_floor=-1.0)
    checked = passes_for(case, ScriptedRecognizer(said, plain, fits=HEARD_IN_PLACE), Biasing.PROMPT_CHECKED, settings=strict)
    assert checked.hear(AUDIO, game, SEATS).heard.needs_confirmation


def test_a_name_the_matcher_made_of_the_unprompted_words_is_left_to_the_closed_set(case: Case, game: Game) -> None:
    """Unprompted "Marston", which the matcher puts right as Marsden: a guess, not Whisper naming her."""
    recognizer = ScriptedRecognizer(
        "Parson, what did you do with the snow shovel?",
        "Marston, what did you do with the snow shovel?",
        fits={" Parson": -1.3, " Marsden": -6.0},
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert recognizer.calls[-1] == "closed set: "
    assert result.heard.message is not None and result.heard.message.suspect == "keld"
    assert not result.heard.needs_confirmation


@pytest.mark.parametrize(
    ("first", "name", "plain", "there"),
    [
        ("Where were you at 1035, Abel Thwaite?", "Abel", "Where were you at 1035, Ables wait?", ("Ables", "wait")),
        ("Butler, you told us the yard door was locked.", "Butler", "But you told us the yard door was locked.", ("But",)),
        ("Julius, when did you come in?", "Julius", "When did you come in?", ()),
        ("Julius, when did you come in?", "Julius", "", ()),
    ],
)
def test_words_in_place_are_what_the_plain_transcript_has_where_the_name_was(
    first: str, name: str, plain: str, there: tuple[str, ...]
) -> None:
    start = first.index(name)
    assert words_in_place(first, start, start + len(name), plain) == there


def test_the_check_pass_runs_only_when_a_confident_costly_message_names_someone(case: Case, game: Game) -> None:
    free = ScriptedRecognizer("statements", "statements")
    assert passes_for(case, free, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).passes == 1
    unsure = ScriptedRecognizer("Keld, where were you?", "", avg_logprob=math.log(0.3))
    result = passes_for(case, unsure, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert result.passes == 1 and result.heard.needs_confirmation  # confirmed anyway: no need to check
    assert len(unsure.calls) == 1


def test_prompt_only_and_no_biasing(case: Case, game: Game) -> None:
    prompt = ScriptedRecognizer("Ormerod, where were you?", "Or more, where were you?")
    result = passes_for(case, prompt, Biasing.PROMPT).hear(AUDIO, game, SEATS)
    assert prompt.calls == [Vocabulary.for_suspects(case.suspects).prompt]
    assert result.heard.message is not None and result.heard.message.suspect == "ormerod"
    plain = ScriptedRecognizer("Ormerod, where were you?", "Or more, where were you?")
    result = passes_for(case, plain, Biasing.NONE).hear(AUDIO, game, SEATS)
    assert plain.calls == [None]
    assert result.heard.transcript == "Or more, where were you?"


@pytest.mark.parametrize(
    ("heard", "slot_pass"),
    [
        ("Read the salmon.", SlotPrefixes(("Read E", "Read exhibit", ""), Slot.EXHIBIT)),
        ("Okay, read exhibit hide.", SlotPrefixes(("Read exhibit", "Read E", ""), Slot.EXHIBIT)),
        (
            "Confront Phoebe with the iron.",
            SlotPrefixes(("Confront Phoebe with E", "Confront Phoebe with exhibit"), Slot.EXHIBIT),
        ),
        ("Confront plight with E3.", SlotPrefixes(("Confront",), Slot.SUSPECT)),
        ("Answers Cobb.", SlotPrefixes(("Answers",), Slot.SUSPECT)),
        ("Read E7.", None),  # complete
        ("Confront Phoebe with E7.", None),
        ("Answers Keld.", None),
        ("Phoebe, where were you at ten?", None),  # not a command
        ("We should read the letter again.", None),  # the verb does not open the message
    ],
)
def test_a_slot_pass_runs_only_for_a_command_missing_its_argument(
    understander: Understander, round_two: Game, heard: str, slot_pass: SlotPrefixes | None
) -> None:
    understood: Heard = understander.understand(heard, round_two, recognition=0.9, seats=SEATS)
    assert slot_prefixes_for(understood) == slot_pass


def test_a_lost_exhibit_is_heard_again_from_the_verb(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the salmon.", "", slots={"Read E": "Read E7."})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, WITH_SLOT_PASS).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1] == "prefix: Read E" and result.passes == 2
    assert result.heard.message is not None and result.heard.message.command is Command.READ
    assert result.heard.message.exhibits == (7,)
    assert [slot.text for slot in result.slots] == ["Read E7."]


def test_a_confrontation_filled_by_the_slot_pass_is_confirmed(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Confront Phoebe with the iron.", "", slots={"Confront Phoebe with E": "Confront Phoebe with E7."}
    )
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, WITH_SLOT_PASS).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (7,)
    assert heard.needs_confirmation  # the number was heard only by the slot pass


def test_the_other_way_to_cite_is_tried_when_the_first_hears_nothing(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Read that limit, too.", "", slots={"Read E": "Read Edith.", "Read exhibit": "Read exhibit 2."}
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, WITH_SLOT_PASS).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1:] == ["prefix: Read E", "prefix: Read exhibit"] and result.passes == 3
    assert result.heard.message is not None and result.heard.message.exhibits == (2,)


def test_whisper_unprompted_is_the_last_try_for_a_read(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the fall.", "3D4.", slots={"Read E": "Read E-fall.", "Read exhibit": "Read default."})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, WITH_SLOT_PASS).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1:] == ["prefix: Read E", "prefix: Read exhibit", None] and result.passes == 4
    assert result.heard.message is not None and result.heard.message.command is Command.READ
    assert result.heard.message.exhibits == (4,)


def test_a_slot_pass_that_hears_no_argument_changes_nothing(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the room.", "", slots={"Read E": "Read Eau.", "Read exhibit": "Read exhibit room."})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, WITH_SLOT_PASS).hear(AUDIO, game, SEATS).heard
    assert heard.text == "Read the room." and heard.message is not None
    assert heard.message.kind is MessageKind.TABLE_TALK


def test_loudest_speaker_text_keeps_words_within_six_db_of_the_loudest() -> None:
    words = [HeardWord("Okay,", 0.0, 0.8, -24.5), HeardWord("next,", 1.2, 1.3, -19.5), HeardWord("read,", 1.5, 1.6, -30.9)]
    assert loudest_speaker_text(words) == "Okay, next,"
    assert loudest_speaker_text(words, within_db=4.0) == "next,"
    assert loudest_speaker_text(words, within_db=12.0) == "Okay, next, read,"
    assert loudest_speaker_text([]) == ""


def test_the_focus_pass_keeps_the_nearest_voice(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Okay, next, read the experiment.",
        "",
        loud=(("Okay,", -24.5), ("next,", -19.5), ("read", -30.9), ("the", -31.0), ("experiment.", -30.8)),
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1:] == ["word levels"] and result.passes == 2  # what the focus found was whole
    assert result.heard.message is not None and result.heard.message.command is Command.NEXT
    assert any(c.kind is CorrectionKind.FOCUS for c in result.heard.corrections)
    assert result.focus is not None


def test_what_the_focus_pass_finds_is_confirmed_before_spending(case: Case, game: Game) -> None:
    game.handle("next")  # the Host asks whether to end the round: yes is costly now
    recognizer = ScriptedRecognizer("Blamire, yes.", "", loud=(("Blamire,", -29.6), ("yes.", -16.8)))
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.command is Command.YES and heard.message.costly
    assert heard.needs_confirmation


def test_the_focus_pass_finding_nothing_changes_nothing(case: Case, game: Game) -> None:
    loud = (("Shall", -20.0), ("we", -21.0), ("read", -21.5), ("it", -21.0), ("again?", -22.0))
    recognizer = ScriptedRecognizer("Shall we read it again?", "", loud=loud, avg_logprob=UNSURE)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, game, SEATS).heard
    assert recognizer.calls[1:] == ["word levels", "near voice"]
    assert heard.text == "Shall we read it again?" and heard.message is not None
    assert heard.message.kind is MessageKind.TABLE_TALK


def test_plain_table_talk_costs_no_focus_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Shall we have more tea?", "", loud=(("Shall", -20.0), ("tea?", -40.0)), avg_logprob=UNSURE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, game, SEATS)
    assert result.focus is None and "word levels" not in recognizer.calls
    assert recognizer.calls[1:] == ["near voice"] and result.passes == 2  # nothing to act on: one more listen


def test_table_talk_whisper_was_sure_of_costs_no_near_voice_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Shall we have more tea?", "", near="Next.", avg_logprob=math.log(0.95))
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, game, SEATS)
    # Only the n-best pass, which reads what the first pass's beam kept, looks again.
    assert result.near is None and [run.name for run in result.runs] == [PassName.FIRST, PassName.NBEST]
    assert [run.decodes for run in result.runs] == [1, 0]
    assert result.heard.message is not None and result.heard.message.kind is MessageKind.TABLE_TALK


def test_the_near_voice_pass_hears_the_player_over_the_room(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Well, we don't know the fire.", "", near="Next, please.", avg_logprob=UNSURE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert result.near is not None and [run.name for run in result.runs] == [PassName.FIRST, PassName.NEAR_VOICE]
    assert result.heard.message is not None and result.heard.message.command is Command.NEXT
    assert result.heard.transcript == "Next, please."
    assert any(c.kind is CorrectionKind.FOCUS for c in result.heard.corrections)


def test_what_the_near_voice_pass_finds_is_confirmed_before_spending(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("What a lovely fire.", "", near="Keld, where were you at ten?", avg_logprob=UNSURE)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.costly
    assert heard.needs_confirmation


def test_an_unsure_transcript_of_a_voice_alone_costs_no_near_voice_pass(case: Case, game: Game) -> None:
    # The same unusable, unsure transcript as above; the gaps are silence, so the gate would only hear
    # the same voice again.
    recognizer = ScriptedRecognizer("Well, we don't know the fire.", "", near="Next, please.", avg_logprob=UNSURE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS)
    assert result.near is None and "near voice" not in recognizer.calls


def test_a_usable_message_costs_no_near_voice_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Next.", "", near="Give up.", avg_logprob=UNSURE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert result.near is None and "near voice" not in recognizer.calls
    assert result.heard.message is not None and result.heard.message.command is Command.NEXT


def test_the_cascade_is_the_list_of_passes_it_is_given(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the salmon.", "", slots={"Read E": "Read E7."})
    only_first = RecognitionPasses(
        recognizer,  # type: ignore[arg-type]  # only transcribe() is used
        Vocabulary.for_suspects(case.suspects),
        Understander(case.suspects),
        passes=(FirstPass(),),
    )
    result = only_first.hear(AUDIO, game, SEATS)
    assert result.passes == 1 and [run.name for run in result.runs] == [PassName.FIRST]
    assert result.heard.text == "Read the salmon."
    assert [step.name for step in cascade_for(Biasing.PROMPT_CHECKED)] == [
        PassName.FIRST,
        PassName.CLOSED_SET,
        PassName.NAME_SLOT,
        PassName.LOST_CITATION,
        PassName.FOCUS,
        PassName.SLOWER,
        PassName.NEAR_VOICE,
        PassName.ACCUSED_EXHIBITS,
        PassName.ADDRESSEE,
        PassName.WHOLE_COMMAND,
        PassName.PHRASED_COMMAND,
        PassName.PHRASED_CONFRONTATION,
        PassName.NBEST,
        PassName.NARROW_PICK,
        PassName.CHECK,
    ]


def test_a_benchmark_can_take_one_pass_out_of_the_cascade() -> None:
    every = [step.name for step in cascade_for(Biasing.PROMPT_CHECKED)]
    without = [step.name for step in cascade_for(Biasing.PROMPT_CHECKED, frozenset({PassName.NAME_SLOT}))]
    assert without == [name for name in every if name is not PassName.NAME_SLOT]  # the rest in order
    with pytest.raises(ValueError):
        cascade_for(Biasing.PROMPT_CHECKED, frozenset({PassName.FIRST}))
