"""Understanding: transcript -> normalised, corrected text -> the engine's classifier -> confirm or not."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pytest

from engine.case import Case
from engine.game import Game
from engine.messages import FORM_WORDS, Command, MessageKind
from voice_host.ears.asr import HeardWord, Hypotheses, Rejection, SlotScores, Transcript
from voice_host.loop.casefiles import load_bundled_case
from voice_host.understanding.cascade import RecognitionPasses, cascade_for
from voice_host.understanding.names import SPOKEN_TITLES
from voice_host.understanding.normalise import CorrectionKind
from voice_host.understanding.passes.addressee import lost_addressee_for
from voice_host.understanding.passes.check import CheckPass, words_in_place
from voice_host.understanding.passes.first import FirstPass
from voice_host.understanding.passes.focus import FocusPass, loudest_speaker_text
from voice_host.understanding.passes.n_best import Hypothesis, NBestPass, choose_hypothesis
from voice_host.understanding.passes.near_voice import NearVoicePass
from voice_host.understanding.passes.shared import (
    PROMPTED_COMMANDS,
    PROMPTED_FORM_WORDS,
    Biasing,
    PassName,
    RecognitionPass,
    Vocabulary,
    command_prompt,
    whole_message,
)
from voice_host.understanding.passes.slots import Slot, SlotPass, SlotPrefixes, slot_prefixes_for
from voice_host.understanding.passes.slower import SlowerPass
from voice_host.understanding.passes.whole_command import whole_command_candidates
from voice_host.understanding.settings import RepairWeights, UnderstandingSettings
from voice_host.understanding.understand import Heard, Understander, recognition_confidence

SEATS = ("Ann", "Ben")


@pytest.fixture(scope="module")
def case() -> Case:
    return load_bundled_case()


@pytest.fixture
def game(case: Case) -> Game:
    game = Game(case)
    game.start()
    game.handle(", ".join(SEATS))
    assert game.state.round == 1
    return game


@pytest.fixture
def round_two(game: Game) -> Game:
    """In round 2, so that E7 has been read and a confrontation with it would spend a question."""
    game.handle("next")
    game.handle("yes")
    assert game.state.round == 2
    return game


@pytest.fixture(scope="module")
def understander(case: Case) -> Understander:
    return Understander(case.suspects)


@dataclass(frozen=True)
class FakeTranscript:
    text: str
    avg_logprob: float
    no_speech_prob: float = 0.01


def test_a_clear_question_goes_through_without_confirmation(understander: Understander, game: Game) -> None:
    heard = understander.understand("Thwaite, where were you at ten?", game, recognition=0.9, seats=SEATS)
    assert heard.message is not None
    assert heard.message.kind is MessageKind.QUESTION
    assert heard.message.suspect == "thwaite"
    assert heard.message.exhibits == ()
    assert heard.text == "Thwaite, where were you at 10?"
    assert not heard.needs_confirmation


def test_a_misheard_name_is_corrected_and_the_costly_action_confirmed(understander: Understander, round_two: Game) -> None:
    heard = understander.understand("Confront weight with E seven.", round_two, recognition=0.95, seats=SEATS)
    assert heard.text == "Confront Thwaite with E7."
    assert heard.message is not None
    assert heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "thwaite"
    assert heard.message.exhibits == (7,)
    assert [c.kind for c in heard.corrections] == [CorrectionKind.NAME]
    assert heard.confidence < 0.95
    assert heard.needs_confirmation


def test_a_lenient_exhibit_is_confirmed(understander: Understander, round_two: Game) -> None:
    heard = understander.understand("Confront Keld with 3D7.", round_two, recognition=0.95, seats=SEATS)
    assert heard.message is not None
    assert heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.exhibits == (7,)
    assert heard.needs_confirmation


def test_low_recognition_confidence_confirms_a_costly_action(understander: Understander, game: Game) -> None:
    sure = understander.understand("Keld, where were you?", game, recognition=0.9, seats=SEATS)
    unsure = understander.understand("Keld, where were you?", game, recognition=0.3, seats=SEATS)
    assert not sure.needs_confirmation
    assert unsure.needs_confirmation


def test_free_messages_are_never_confirmed(understander: Understander, game: Game) -> None:
    for text in ("Lines.", "The waits came up the lane at nine.", "Reed E two", "statements"):
        heard = understander.understand(text, game, recognition=0.2, seats=SEATS)
        assert heard.message is not None
        assert not heard.message.costly
        assert not heard.needs_confirmation, text


def test_repaired_commands_reach_the_classifier(understander: Understander, game: Game) -> None:
    heard = understander.understand("Nest.", game, seats=SEATS)
    assert heard.message is not None
    assert (heard.message.kind, heard.message.command) == (MessageKind.COMMAND, Command.NEXT)
    heard = understander.understand("Reed E three", game, seats=SEATS)
    assert heard.message is not None
    assert (heard.message.command, heard.message.exhibits) == (Command.READ, (3,))


def test_ordinary_words_stay_and_invent_no_suspect(understander: Understander, game: Game) -> None:
    heard = understander.understand("The waits came up the lane at nine.", game, seats=SEATS)
    assert heard.text == "The waits came up the lane at 9."
    assert heard.message is not None
    assert heard.message.suspect is None
    assert heard.corrections == ()


def test_a_name_only_the_biased_pass_heard_is_uncertain(understander: Understander, game: Game) -> None:
    heard = understander.understand("Ormerod, where were you?", game, recognition=0.95, seats=SEATS, uncertain_names=("ormerod",))
    assert heard.uncertain_names == ("ormerod",)
    assert heard.needs_confirmation
    # An uncertain name not in the final text changes nothing.
    other = understander.understand("Keld, where were you?", game, recognition=0.95, seats=SEATS, uncertain_names=("ormerod",))
    assert other.uncertain_names == ()
    assert not other.needs_confirmation


def test_rejected_or_empty_transcripts_are_not_usable(understander: Understander, game: Game) -> None:
    assert not understander.understand("", game).usable
    rejected = understander.understand("Thank you.", game, rejected="phantom")
    assert not rejected.usable
    assert rejected.rejected == "phantom"


def test_transcript_confidence_comes_from_whisper(understander: Understander, game: Game) -> None:
    heard = understander.understand_transcript(FakeTranscript("Keld, where were you?", math.log(0.9)), game, SEATS)
    assert heard.confidence == pytest.approx(0.9 * (1 - 0.5 * 0.01), abs=0.01)
    assert recognition_confidence(-math.inf, 0.0) == 0.0
    assert recognition_confidence(0.0, 1.0) == pytest.approx(0.5)


def test_vocabulary_has_the_case_names_and_no_numbers(case: Case) -> None:
    vocabulary = Vocabulary.for_suspects(case.suspects)
    for suspect in case.suspects:
        assert suspect.name in vocabulary.prompt
    assert not any(ch.isdigit() for ch in vocabulary.prompt + vocabulary.hotwords)


# --- Recognition passes, with a scripted recognizer (what whisper says with and without the prompt) ---


@dataclass
class ScriptedRecognizer:
    """Says `biased` when given the case prompt and `plain` without it; counts the passes."""

    biased: str
    plain: str
    avg_logprob: float = math.log(0.95)
    calls: list[str | None] = field(default_factory=list)
    slots: dict[str, str] = field(default_factory=dict)  # what the slot pass hears, by prefix
    loud: tuple[tuple[str, float], ...] = ()  # the biased words, timed: each with its level (dB)
    beams: list[int | None] = field(default_factory=list)  # the beam asked for, each call
    near: str = ""  # what the near-voice pass hears (the audio it is given is not the utterance's)
    utterance: object = None  # the first audio given: the utterance itself
    fits: dict[str, float] = field(default_factory=dict)  # closed-set scores by continuation (else -10)
    # The beam's runners-up after the biased transcript (words, mean token log-probability).
    runners_up: tuple[tuple[str, float], ...] = ()
    rejected: Rejection | None = None  # what a guard made of the biased transcript
    # What the slower pass hears (the utterance played slower), and how sure; "": the biased words again.
    slower: str = ""
    slower_logprob: float = math.log(0.95)

    def transcribe(
        self,
        audio: object,
        initial_prompt: str | None = None,
        hotwords: str | None = None,
        prefix: str | None = None,
        beam_size: int | None = None,
        playback_rate: float | None = None,
    ) -> Transcript:
        self.beams.append(beam_size)
        if self.utterance is None:
            self.utterance = audio
        avg_logprob = self.avg_logprob
        if playback_rate is not None:
            self.calls.append(f"slower: {playback_rate}")
            text, avg_logprob = self.slower or self.biased, self.slower_logprob
        elif audio is not self.utterance:
            self.calls.append("near voice")
            text, avg_logprob = self.near, math.log(0.95)  # the near voice alone is heard clearly
        elif prefix:
            self.calls.append(f"prefix: {prefix}")
            text = self.slots[prefix]
        else:
            self.calls.append(initial_prompt or None)
            text = self.biased if initial_prompt else self.plain
        rejected = self.rejected if initial_prompt and audio is self.utterance and not prefix else None
        return Transcript(
            text="" if rejected else text,
            raw_text=text,
            avg_logprob=avg_logprob,
            no_speech_prob=0.01,
            seconds=0.0,
            audio_seconds=1.0,
            rejected=rejected,
            initial_prompt=initial_prompt or None,
        )

    def hypotheses(self, audio: object, initial_prompt: str | None, count: int) -> Hypotheses:
        self.calls.append("n-best")
        said = ((self.biased, self.avg_logprob), *self.runners_up)[:count]
        return Hypotheses(
            tuple(Transcript(text, text, logprob, 0.01, 0.0, 1.0, initial_prompt=initial_prompt) for text, logprob in said), 0.01
        )

    def score_continuations(
        self,
        audio: object,
        prefix: str,
        continuations: Sequence[str],
        initial_prompt: str | None = None,
        keep_within: float | None = None,
    ) -> SlotScores:
        self.calls.append(f"closed set: {prefix}")
        scores = tuple(self.fits.get(continuation, -10.0) for continuation in continuations)
        return SlotScores(prefix, tuple(continuations), scores, 0.01)

    def time_words(self, audio: object, transcript: Transcript) -> Transcript:
        self.calls.append("word levels")
        loud = self.loud or tuple((word, -20.0) for word in transcript.text.split())  # one voice unless told
        assert [word for word, _ in loud] == transcript.text.split()  # the same words, timed
        words = tuple(HeardWord(text, 0.3 * i, 0.3 * i + 0.3, level) for i, (text, level) in enumerate(loud))
        return replace(transcript, words=words)


# The phrased-command pass off: for tests of the passes before it on short table talk, which it would score too.
PHRASED_OFF = UnderstandingSettings(phrased_command_candidates=0)
NBEST_ON = UnderstandingSettings(nbest_hypotheses=10)  # the n-best pass is off as it ships (settings say why)


def passes_for(
    case: Case,
    recognizer: ScriptedRecognizer,
    biasing: Biasing,
    passes: tuple[RecognitionPass, ...] = (),
    settings: UnderstandingSettings | None = None,
) -> RecognitionPasses:
    return RecognitionPasses(
        recognizer,  # type: ignore[arg-type]  # only transcribe(), time_words() and score_continuations() are used
        Vocabulary.for_suspects(case.suspects),
        Understander(case.suspects, settings or UnderstandingSettings()),
        biasing,
        passes=passes,
    )


# The slot pass in place of the closed-set pass: what ran before the closed set, still a pass to list.
WITH_SLOT_PASS = (FirstPass(), SlotPass(), FocusPass(), NearVoicePass(), CheckPass())


def _talk(seconds: float, level_db: float, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).standard_normal(int(seconds * 16_000))
    return (noise * 10 ** (level_db / 20)).astype(np.float32)


# A second of a player at -20 dB with the room's talk 15 dB under it: the near-voice gate has a voice
# to take out (the scripted passes hear only which audio they are given, not what is in it).
AUDIO = np.concatenate([_talk(0.5, -20.0, 1), _talk(0.5, -35.0, 2)])
# The player alone: the gaps are silence, nothing for the gate to take out.
ALONE = np.concatenate([_talk(0.5, -20.0, 1), _talk(0.5, -100.0, 2)])
UNSURE = math.log(0.6)  # below the near-voice pass's bar: Whisper was not sure of what it heard


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
    assert result.near is None and [run.name for run in result.runs] == [PassName.FIRST]
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


def test_a_repeated_yes_is_confirmed_before_spending(understander: Understander, game: Game) -> None:
    game.handle("next")
    looped = understander.understand("Yes, yes, yes, yes.", game, recognition=0.95, seats=SEATS)
    assert looped.message is not None and looped.message.command is Command.YES and looped.message.costly
    assert looped.needs_confirmation
    once = understander.understand("Yes.", game, recognition=0.95, seats=SEATS)
    assert once.message is not None and once.message.costly and not once.needs_confirmation


def test_every_repair_weight_comes_from_the_settings(case: Case, round_two: Game) -> None:
    """A lenient exhibit costs the settings' exhibit weight, the one number for it (normalise has none)."""
    for weight in (0.5, 0.4):
        settings = UnderstandingSettings(repairs=RepairWeights(exhibit=weight))
        understander = Understander(case.suspects, settings)
        heard = understander.understand("Confront Keld with 3D7.", round_two, recognition=1.0, seats=SEATS)
        assert [c.kind for c in heard.corrections] == [CorrectionKind.EXHIBIT]
        assert heard.confidence == pytest.approx(weight)


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
        PassName.LOST_CITATION,
        PassName.FOCUS,
        PassName.NBEST,
        PassName.SLOWER,
        PassName.NEAR_VOICE,
        PassName.ACCUSED_EXHIBITS,
        PassName.ADDRESSEE,
        PassName.WHOLE_COMMAND,
        PassName.PHRASED_COMMAND,
        PassName.CHECK,
    ]


# --- The closed-set pass ---------------------------------------------------------------------------


def test_the_closed_set_fills_a_lost_exhibit(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read the salmon.", "", fits={" E7": -2.0, " exhibit 7": -2.5, " E3": -4.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert recognizer.calls[1:] == ["closed set: Read"] and result.passes == 2
    assert result.heard.message is not None and result.heard.message.command is Command.READ
    assert result.heard.message.exhibits == (7,)
    assert [c.kind for c in result.heard.corrections] == [CorrectionKind.EXHIBIT]
    assert result.heard.transcript == "Read the salmon."


def test_a_confrontation_the_closed_set_filled_is_confirmed(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront Phoebe with the iron.", "", fits={" E7": -1.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1] == "closed set: Confront Phoebe with"
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (7,)
    assert heard.needs_confirmation  # the number came from the closed set, not the transcript


def test_a_confrontation_asked_for_in_other_words_has_its_exhibit_scored_after_them(case: Case, round_two: Game) -> None:
    said = "We'd like to confront Phoebe with the iron."  # table talk to the classifier: no exhibit in it
    recognizer = ScriptedRecognizer(said, "", fits={" Phoebe": -0.5, " E7": -1.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1:3] == ["closed set: We'd like to confront", "closed set: We'd like to confront Phoebe with"]
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "marsden" and heard.message.exhibits == (7,)
    assert heard.needs_confirmation


@pytest.mark.parametrize(
    "fits",
    [
        {" E7": UnderstandingSettings().closed_set_exhibit_floor - 0.5},  # the best does not fit: below the floor
        {" E7": -2.0, " exhibit 1": -2.5},  # the best does not stand out from the next
    ],
)
def test_the_closed_set_fills_nothing_it_is_not_sure_of(case: Case, game: Game, fits: dict[str, float]) -> None:
    recognizer = ScriptedRecognizer("Read the room.", "", fits=fits, avg_logprob=math.log(0.95))
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert "closed set: Read" in recognizer.calls
    assert heard.text == "Read the room." and heard.message is not None
    assert heard.message.kind is MessageKind.TABLE_TALK


def test_an_exhibit_slot_has_its_own_floor_below_the_names(case: Case, game: Game) -> None:
    # espeak's "exhibit" heard as "and live it": the number stands out, though Whisper never expected the word.
    settings = UnderstandingSettings()
    between = (settings.closed_set_floor + settings.closed_set_exhibit_floor) / 2
    recognizer = ScriptedRecognizer("Read and live it, six.", "", fits={" exhibit 6": between})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (6,)
    names = ScriptedRecognizer("Answers, Cobb.", "", fits={" Keld": between})
    heard = passes_for(case, names, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is None or heard.message.suspect != "keld"


def test_the_closed_set_fills_a_lost_name(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Answers, Cobb.", "", fits={" Keld": -3.0, " Francis": -3.5})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert recognizer.calls[1] == "closed set: Answers"
    assert heard.message is not None and heard.message.command is Command.ANSWERS
    assert heard.message.suspect == "keld"
    assert any(c.kind is CorrectionKind.NAME for c in heard.corrections)


@pytest.mark.parametrize(
    "said",
    [
        "Read E7.",  # the transcript filled the slot: left as heard
        "Read.",  # nothing heard after the verb: no slot to fill
        "We should read the letter again.",  # the verb does not open the message: not a command
    ],
)
def test_the_closed_set_never_decides_what_the_message_is(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, "", fits={" E3": -1.0}, avg_logprob=math.log(0.95))
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, game, SEATS)
    # No slot scored ("closed set: " with no prefix is the whole-command pass, for "Read." alone).
    assert not any(str(call).startswith("closed set") and call != "closed set: " for call in recognizer.calls)


def test_the_prompt_s_command_words_are_the_engine_s() -> None:
    # The vocabulary is defined once, in the engine: every command but yes and no, and the form words
    # Whisper does not expect, in the engine's order (the measured prompt, unchanged).
    assert command_prompt() == "Confront, exhibit, next, save, pass, statements, lies, answers, read, give up."
    assert set(PROMPTED_FORM_WORDS) <= set(FORM_WORDS)
    said = {command.value for command in PROMPTED_COMMANDS}
    assert said == {command.value for command in Command} - {"yes", "no"}
    for word in said | set(PROMPTED_FORM_WORDS):
        assert word in command_prompt().lower()


def test_the_closed_set_hears_a_confrontation_slot_by_slot_when_both_were_lost(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront, together with E.R.", "", fits={" Keld": -1.5, " E4": -1.0, " E14": -2.5})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    # The suspect first, then the exhibit after it: two small passes, each only its slot's candidates.
    assert recognizer.calls[1:3] == ["closed set: Confront", "closed set: Confront Keld with"]
    assert [len(scores.continuations) for scores in result.scores] == [len(_names(case)), 32]
    heard = result.heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert heard.message.suspect == "keld" and heard.message.exhibits == (4,)
    assert heard.needs_confirmation  # the closed set's own choice: asked first


def _names(case: Case) -> set[str]:
    return {t.word for t in Understander(case.suspects).matcher.targets if " " not in t.word}


def test_the_closed_set_keeps_a_heard_suspect_and_finds_the_exhibit(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront Thwaite, between the two next, lady, eight.", "", fits={" E7": -1.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    assert recognizer.calls[1] == "closed set: Confront Thwaite with"  # the heard suspect is kept
    assert result.heard.message is not None and result.heard.message.kind is MessageKind.CONFRONTATION
    assert (result.heard.message.suspect, result.heard.message.exhibits) == ("thwaite", (7,))
    assert result.heard.needs_confirmation


@pytest.mark.parametrize(
    "fits",
    [
        {" Keld": -1.5, " Thwaite": -1.9, " E4": -1.0},  # the suspect does not stand out: no exhibit is tried
        {" Keld": -1.5, " E4": -1.5, " E14": -1.9},  # the exhibit does not stand out
    ],
)
def test_the_closed_set_fills_no_confrontation_it_is_not_sure_of(case: Case, round_two: Game, fits: dict[str, float]) -> None:
    recognizer = ScriptedRecognizer("Confront, together with E.R.", "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is None or heard.message.kind is not MessageKind.CONFRONTATION


def test_the_closed_set_finds_who_a_question_was_put_to(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Ask Flit, where were you at ten?", "", fits={" Thwaite": -2.0, " Keld": -4.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert recognizer.calls[1] == "closed set: Ask"
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION
    assert heard.message.suspect == "thwaite" and heard.text.startswith("Ask Thwaite, where were you")
    assert heard.needs_confirmation  # a question spent on the closed set's choice is asked about first


@pytest.mark.parametrize("said", ["Ask him where he was.", "Ask everyone where they were.", "Ask Keld where he was at ten."])
def test_the_closed_set_leaves_an_ask_that_names_someone_or_no_one(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, "", fits={" Thwaite": -1.0})
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: Ask" not in recognizer.calls


def test_a_question_that_lost_its_exhibit_number_is_a_confrontation_found_by_the_closed_set(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("To Julius, what do you say to exhibit, sir?", "", fits={" 7": -1.0, " 1": -3.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1] == "closed set: To Julius, what do you say to exhibit"
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("ormerod", (7,))
    assert heard.needs_confirmation  # the number is the closed set's


def test_explain_without_a_citation_is_scored_for_one(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Miss Marsden, explain the eleven.", "", fits={" E11": -1.0, " E7": -3.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert recognizer.calls[1] == "closed set: Miss Marsden, explain"
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("marsden", (11,))


def test_a_question_that_lost_its_exhibit_number_is_asked_about_first_when_none_stands_out(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("To Keld, what do you say to exhibit fine?", "", fits={" 5": -2.0, " 9": -2.2})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION
    assert heard.needs_confirmation  # it may have been a confrontation: never spent unasked


@pytest.mark.parametrize(
    ("said", "scored_after", "fits", "meant"),
    [
        ("Companion, what about and leave it to?", "Companion, what about", {" E2": -1.0}, "Companion, what about E2?"),
        (
            "To Keld, what do you say don't leave it fine?",
            "To Keld, what do you say",
            {" to E5": -1.0},
            "To Keld, what do you say to E5?",
        ),
    ],
)
def test_a_confrontation_asked_about_whose_exhibit_was_lost_is_scored_for_one(
    case: Case, round_two: Game, said: str, scored_after: str, fits: dict[str, float], meant: str
) -> None:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert f"closed set: {scored_after}" in recognizer.calls
    assert heard.text == meant and heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION


def test_what_about_an_ordinary_thing_stays_the_question_asked(case: Case, round_two: Game) -> None:
    # Nothing stands out ("your debts" is no exhibit): the question is asked as heard, and not asked about first.
    said = "Joel, what about your debts?"
    recognizer = ScriptedRecognizer(said, said, fits={}, avg_logprob=math.log(0.95))
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.suspect == "joel"
    assert heard.text == said and not heard.needs_confirmation


@pytest.mark.parametrize("said", ["Keld, where were you at ten?", "Keld, explain E7.", "Keld, what about exhibit 4?"])
def test_a_question_with_no_lost_citation_is_not_scored(case: Case, round_two: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, said, fits={" 7": -1.0, " E7": -1.0})
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS)
    assert not any(str(call).startswith("closed set") for call in recognizer.calls)


@pytest.mark.parametrize(
    ("said", "scored_after", "fits", "meant"),  # meant: read E{meant}
    [
        ("Could you read exhibit, fine?", "Could you read exhibit", {" 9": -1.0, " 5": -3.0}, 9),
        # Which heard words were the number is not known: the first reading that is whole is taken.
        ("What does exhibit the love and say?", "What does exhibit", {" 11": -1.2, " 7": -3.0}, 11),
    ],
)
def test_a_message_that_lost_its_exhibit_number_is_made_whole_by_the_closed_set(
    case: Case, round_two: Game, said: str, scored_after: str, fits: dict[str, float], meant: int
) -> None:
    recognizer = ScriptedRecognizer(said, "", fits=fits)
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert f"closed set: {scored_after}" in recognizer.calls
    assert heard.message is not None and heard.message.command is Command.READ
    assert heard.message.exhibits == (meant,)
    assert heard.transcript == said  # what was heard stays on the screen's heard line


def test_a_costly_message_made_whole_by_a_lost_number_is_asked_about_first(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Confront Keld about exhibit, heaven.", "", fits={" 7": -1.0, " 11": -3.0})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.CONFRONTATION
    assert (heard.message.suspect, heard.message.exhibits) == ("keld", (7,))
    assert heard.needs_confirmation  # the number is the closed set's: never spent unasked


def test_a_lost_exhibit_number_is_left_when_none_stands_out(case: Case, round_two: Game) -> None:
    recognizer = ScriptedRecognizer("Could you read exhibit, fine?", "", fits={" 9": -1.0, " 5": -1.1})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, round_two, SEATS).heard
    assert "closed set: Could you read exhibit" in recognizer.calls
    assert heard.message is None or heard.message.command is not Command.READ


@pytest.mark.parametrize("said", ["Read exhibit 4, please.", "That exhibit 7 is odd.", "Let's look at the exhibit."])
def test_no_number_is_scored_where_none_was_lost(case: Case, round_two: Game, said: str) -> None:
    # A whole message, a number heard after "exhibit", nothing heard after it.
    recognizer = ScriptedRecognizer(said, said, fits={" 7": -1.0})
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=PHRASED_OFF).hear(AUDIO, round_two, SEATS)
    assert not any(str(call).startswith("closed set: ") and "exhibit" in str(call) for call in recognizer.calls)


def test_a_question_whose_addressee_was_lost_is_put_to_the_one_the_closed_set_hears(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Sir Goyer, how did you get mud on your shoes?", "", fits={" the lawyer": -1.5, " Ormerod": -3.0, " Keld": -4.0}
    )
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: " in recognizer.calls  # the name opened the message: nothing before the slot
    scored = result.scores[-1].continuations
    assert " the vicar" in scored and " Thwaite" in scored  # names and, with no title heard, roles
    heard = result.heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION
    assert heard.message.suspect == "ormerod" and heard.text.startswith("the lawyer, how did you")
    assert heard.needs_confirmation  # a question spent on the closed set's choice is asked about first


def test_the_addressee_keeps_the_card_s_opening_and_a_title_heard_before_it(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("To Mr. Blamire, where were you at ten?", "", fits={" Thwaite": -1.0, " Ormerod": -3.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert "closed set: To Mr" in recognizer.calls
    assert " the butler" not in result.scores[-1].continuations  # after a title only a surname fits
    assert result.heard.message is not None and result.heard.message.suspect == "thwaite"


@pytest.mark.parametrize("title", [title.capitalize() for title in SPOKEN_TITLES])
def test_every_title_the_names_matcher_knows_is_kept_before_a_lost_addressee(case: Case, game: Game, title: str) -> None:
    heard = Understander(case.suspects).understand(
        f"{title} Logick, how did you get mud on your shoes?", game, recognition=0.95, seats=SEATS
    )
    lost = lost_addressee_for(heard)
    assert lost is not None and lost.prefix.lower() in SPOKEN_TITLES  # "Ms" is heard as "Miss"
    assert lost.question == "how did you get mud on your shoes?"


@pytest.mark.parametrize(
    "said",
    [
        "Who killed her, though?",  # the head is a question itself
        "Okay, what do you think?",  # only an opener before the question
        "Well, the kitchen was empty.",  # not a question
        "Keld, where were you at ten?",  # the head named someone
    ],
)
def test_no_addressee_is_scored_for_what_is_not_a_question_put_to_someone_lost(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, said, fits={" Thwaite": -1.0})
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)
    assert PassName.ADDRESSEE not in [run.name for run in result.runs]


def test_no_addressee_is_put_when_none_stands_out(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Yeah, where were you at ten?", "", fits={" Thwaite": -2.0, " Keld": -2.4})
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert heard.message is None or heard.message.suspect is None


# --- The whole-command pass ------------------------------------------------------------------------


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


def test_a_usable_transcript_is_never_scored_as_a_whole_command(case: Case, game: Game) -> None:
    heard, calls = _whole(case, game, "Pass.", {" Next": -0.1})
    assert "closed set: " not in calls
    assert heard.message is not None and heard.message.command is Command.PASS


def test_the_whole_command_candidates_are_the_card_s_free_commands() -> None:
    cards = {candidate.card for candidate in whole_command_candidates()}
    assert cards == {"next", "pass", "statements", "lies", "save", "give up", "yes", "no", "repeat", "answers"} | {
        f"read E{n}" for n in range(1, 17)
    }


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


def test_table_talk_near_no_phrasing_is_not_scored(case: Case, game: Game) -> None:
    heard, calls = _phrased(case, game, "The kettle is boiling, anyone for tea?", {" Save the game.": -0.1})
    assert "closed set: " not in calls and heard.message is not None and heard.message.command is None


def test_a_long_utterance_is_never_a_phrased_command(case: Case, game: Game) -> None:
    said = "Shall we go on to the next round after we have had a cup of tea and some cake?"
    heard, calls = _phrased(case, game, said, {" On to the next round.": -0.1})
    assert "closed set: " not in calls and (heard.message is None or heard.message.command is None)


# --- The n-best pass -------------------------------------------------------------------------------


def _hypothesis(understander: Understander, game: Game, said: str, logprob: float) -> Hypothesis:
    return Hypothesis(said, logprob, understander.understand(said, game, recognition=0.9, seats=SEATS))


@pytest.mark.parametrize(
    ("said", "whole"),
    [
        ("Keld, where were you at ten?", True),
        ("Confront Keld with E7.", True),
        ("Read E7.", True),
        ("Next.", True),
        ("Answers Keld.", True),
        ("We accuse Keld with E3 and E4.", True),
        ("Where were you at ten?", False),  # a question to no one
        ("Confront Phoebe with the iron.", False),  # the exhibit lost
        ("Read the salmon.", False),
        ("Answers Cobb.", False),  # answers, whose?
        ("We accuse Keld.", False),  # no exhibits
        ("Shall we go round the table again?", False),
    ],
)
def test_a_whole_card_message_has_everything_it_needs(understander: Understander, game: Game, said: str, whole: bool) -> None:
    assert whole_message(understander.understand(said, game, seats=SEATS).message) is whole


def test_the_n_best_choice_is_the_best_whole_message_close_behind(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Ass, Marsden, is it true you owed her money?", -0.25)
    others = [
        _hypothesis(understander, game, "Ass Marsden, is it true you owed her money?", -0.27),  # still table talk
        _hypothesis(understander, game, "Ask Marsden, is it true you owed her money?", -0.34),
        _hypothesis(understander, game, "As Marsden, is it true you owed her money?", -0.30),
    ]
    chosen = choose_hypothesis(first, others, behind=0.25)
    assert chosen is not None and chosen.said.startswith("As Marsden")  # the best scored of the whole ones
    assert choose_hypothesis(first, others, behind=0.04) is None  # none close enough behind


def test_the_n_best_measures_behind_the_best_of_all_not_the_first(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Top agent, did you see anybody?", -0.73)
    others = [
        _hypothesis(understander, game, "Top agent, did you see anyone?", -0.40),  # a wider beam found better words
        _hypothesis(understander, game, "To the agent, did you see anybody?", -0.71),
    ]
    assert choose_hypothesis(first, others, behind=0.25) is None
    assert choose_hypothesis(first, others, behind=0.35) is not None


def test_the_n_best_never_chooses_the_first_transcript_s_words_or_a_rejected_one(understander: Understander, game: Game) -> None:
    first = _hypothesis(understander, game, "Read it well.", -0.36)
    rejected = Hypothesis("Read E12.", -0.37, understander.understand("Read E12.", game, rejected="low_confidence"))
    assert choose_hypothesis(first, [first, rejected], behind=0.25) is None


def test_the_n_best_pass_takes_a_whole_message_the_beam_had_close_behind(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read it well.", "", runners_up=(("Read it, well.", -0.40), ("Read the twelve.", -0.45)))
    recognizer.avg_logprob = -0.36
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=NBEST_ON).hear(AUDIO, game, SEATS)
    assert "n-best" in recognizer.calls
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (12,)
    assert CorrectionKind.NBEST in [c.kind for c in heard.corrections]
    assert heard.transcript == "Read it well."  # what Whisper ranked first stays the transcript
    assert [run.decodes for run in result.runs if run.name is PassName.NBEST] == [1]  # one beam search


def test_table_talk_the_beam_makes_a_question_is_asked_about_first(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Phoebe, one notice how nervous Julius was.", "", runners_up=(("Phoebe, anyone notice how nervous Julius was?", -0.1),)
    )
    recognizer.avg_logprob = -0.05
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=NBEST_ON).hear(AUDIO, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.costly
    assert heard.needs_confirmation  # never a question spent on a runner-up


def test_a_whole_message_costs_no_n_best_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Keld, where were you at ten?", "Keld, where were you at ten?")
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=NBEST_ON).hear(AUDIO, game, SEATS)
    assert "n-best" not in recognizer.calls


def test_the_n_best_pass_is_off_as_it_ships(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Read it well.", "", runners_up=(("Read the twelve.", -0.40),))
    recognizer.avg_logprob = -0.36
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS).heard
    assert "n-best" not in recognizer.calls and CorrectionKind.NBEST not in [c.kind for c in heard.corrections]


def test_a_rejected_transcript_costs_no_n_best_pass(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Yes, yes, yes, yes.", "", runners_up=(("Yes.", -0.1),), rejected=Rejection.REPETITION)
    recognizer.avg_logprob = -0.1
    passes = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, passes=(FirstPass(), NBestPass()), settings=NBEST_ON)
    heard = passes.hear(AUDIO, game, SEATS).heard
    assert "n-best" not in recognizer.calls and heard.message is None


# --- The slower pass --------------------------------------------------------------------------------


def test_a_misheard_command_is_heard_again_slower(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Re-man-lib it, six.", "", slower="Read, exhibit, six.", avg_logprob=UNSURE)
    result = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS)
    assert "slower: 0.9" in recognizer.calls
    heard = result.heard
    assert heard.message is not None and heard.message.command is Command.READ and heard.message.exhibits == (6,)
    assert CorrectionKind.SLOWER in [c.kind for c in heard.corrections]
    assert heard.transcript == "Re-man-lib it, six."  # the first pass's words stay the transcript
    assert [run.name for run in result.runs] == [PassName.FIRST, PassName.SLOWER]  # nothing else was needed


def test_a_question_heard_slower_is_asked_about_first(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer(
        "Excuse me, remember and Keld, did you leave the garden door open?",
        "",
        slower="Excuse me, Reverend Keld, did you leave the garden door open?",
    )
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS).heard
    assert heard.message is not None and heard.message.kind is MessageKind.QUESTION and heard.message.suspect == "keld"
    assert heard.needs_confirmation  # never a question spent on the slower view's words


@pytest.mark.parametrize("said", ["Keld, where were you at ten?", "Read E7.", "Next.", "Say that again."])
def test_a_whole_message_or_a_request_to_the_host_costs_no_slower_pass(case: Case, game: Game, said: str) -> None:
    recognizer = ScriptedRecognizer(said, said, slower="Give up.")
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(ALONE, game, SEATS).heard
    assert "slower: 0.9" not in recognizer.calls and CorrectionKind.SLOWER not in [c.kind for c in heard.corrections]


def test_the_slower_view_changes_nothing_unless_it_hears_a_whole_message(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Well, we don't know the fire.", "", slower="Read the salmon.")
    passes = (FirstPass(), SlowerPass())
    heard = passes_for(case, recognizer, Biasing.PROMPT_CHECKED, passes=passes).hear(ALONE, game, SEATS).heard
    assert "slower: 0.9" in recognizer.calls and heard.text == "Well, we don't know the fire."
    assert CorrectionKind.SLOWER not in [c.kind for c in heard.corrections]


def test_the_slower_pass_is_off_at_rate_one(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Re-man-lib it, six.", "", slower="Read, exhibit, six.")
    off = UnderstandingSettings(slower_playback_rate=1.0)
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED, settings=off).hear(ALONE, game, SEATS)
    assert not any(str(call).startswith("slower") for call in recognizer.calls)


def test_a_player_over_the_room_s_talk_is_not_heard_slower(case: Case, game: Game) -> None:
    recognizer = ScriptedRecognizer("Re-man-lib it, six.", "", slower="Read, exhibit, six.", avg_logprob=UNSURE)
    passes_for(case, recognizer, Biasing.PROMPT_CHECKED).hear(AUDIO, game, SEATS)  # talk 15 dB under the player
    assert "slower: 0.9" not in recognizer.calls and "near voice" in recognizer.calls  # the near voice's case
