"""Speaking a reply: which parts, sentence by sentence, in order, each role in its own voice."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine.game import Game
from engine.replies import PartKind, Reply, ReplyPart
from models.locate import piper_voice_files
from voice_host.ears.asr import Recognizer
from voice_host.loop.casefiles import load_bundled_case
from voice_host.mouth.tts import (
    HOST,
    HOST_VOICE,
    SpeechLine,
    Synthesizer,
    VoiceConfigError,
    VoiceMap,
    default_voice_map,
    first_clause,
    load_voice_map,
    opening_lines,
    speech_lines,
    spoken_text,
)

KEYS = ("thwaite", "ruddock", "joel", "phoebe", "keld", "ormerod")

REPLY = Reply(
    (
        ReplyPart(PartKind.NARRATION, "Snow at Hollin Fold. Mrs. Blamire lies dead at 10.35.\nThe lane is shut."),
        ReplyPart(
            PartKind.EXHIBIT,
            "The plate room door was locked. The key hung in the hall.",
            exhibit=7,
            title="The key",
        ),
        ReplyPart(
            PartKind.STATEMENT,
            "I was in the pantry. I heard the waits.",
            speaker="thwaite",
            speaker_name="Abel Thwaite",
        ),
        ReplyPart(PartKind.FULL_STATE, "Round: 1. Seats: Ann, Bo."),
        ReplyPart(PartKind.SUSPECT, "I never left the kitchen.", speaker="ruddock", speaker_name="Martha Ruddock"),
        ReplyPart(PartKind.SYSTEM, "Question 2 of 4: Ann."),
        ReplyPart(PartKind.SAVE, "-----BEGIN AIGC SAVE----- ..."),
        ReplyPart(PartKind.RESULT, "RESULT: AIGC|christmas-murder-mystery"),
        ReplyPart(PartKind.LEDGER, "[L] t:3 | rd:1 | q:1/4 | seat:2/2 | broken:none | acc:none | v1.0.0"),
    )
)

EXPECTED_LINES = [
    SpeechLine(HOST, "Snow at Hollin Fold.", 0),
    SpeechLine(HOST, "Missus Blamire lies dead at 10:35.", 0),
    SpeechLine(HOST, "The lane is shut.", 0),
    SpeechLine(HOST, "Exhibit 7. The key", 1),
    SpeechLine(HOST, "The plate room door was locked.", 1),
    SpeechLine(HOST, "The key hung in the hall.", 1),
    SpeechLine(HOST, "Abel Thwaite.", 2),
    SpeechLine("thwaite", "I was in the pantry.", 2),
    SpeechLine("thwaite", "I heard the waits.", 2),
    SpeechLine("ruddock", "I never left the kitchen.", 4),
    SpeechLine(HOST, "Question 2 of 4: Ann.", 5),
]


def test_spoken_parts_become_sentences_in_order_with_their_roles() -> None:
    assert speech_lines(REPLY) == EXPECTED_LINES


def test_silent_parts_are_never_spoken() -> None:
    said = " ".join(line.text for line in speech_lines(REPLY))
    for silent in ("[L]", "Round: 1", "BEGIN AIGC SAVE", "RESULT"):
        assert silent not in said


def test_a_ledger_only_reply_is_silent() -> None:
    reply = Reply((ReplyPart(PartKind.LEDGER, "[L] t:4 | rd:1 | q:1/4 | seat:1/2 | broken:none | acc:none | v1.0.0"),))
    assert speech_lines(reply) == []
    assert list(Synthesizer(loader=_unused_loader).stream(reply)) == []


def _unused_loader(model: Path | None) -> Any:
    raise AssertionError("no voice should be loaded for a silent reply")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("Mrs. Blamire was found at 10.35.", "Missus Blamire was found at 10:35."),
        ("Read E7 now.", "Read exhibit 7 now."),
        ("Exhibits E1–E4 are in.", "exhibits 1 to 4 are in."),
        ("E13-E16 tonight; exhibit E2.", "exhibits 13 to 16 tonight; exhibit 2."),
        ("Mr. Ormerod came up from town.", "Mister Ormerod came up from town."),
    ],
)
def test_spoken_text_reads_the_card_right(text: str, said: str) -> None:
    assert spoken_text(text) == said


class _FakeChunk:
    def __init__(self, samples: int) -> None:
        self.audio_float_array = np.full(samples, 0.25, dtype=np.float32)


class _FakeVoice:
    """Records every synthesize call; one second of audio per call at 22,050 Hz."""

    def __init__(self, model: Path | None, calls: list[tuple[Path | None, str, Any]]) -> None:
        self.config = type("Config", (), {"sample_rate": 22_050})()
        self._model = model
        self._calls = calls

    def synthesize(self, text: str, syn_config: Any = None) -> Iterable[_FakeChunk]:
        self._calls.append((self._model, text, syn_config))
        return [_FakeChunk(22_050)]


def _recording_synthesizer(voices: VoiceMap) -> tuple[Synthesizer, list[tuple[Path | None, str, Any]]]:
    calls: list[tuple[Path | None, str, Any]] = []
    return Synthesizer(voices, loader=lambda model: _FakeVoice(model, calls)), calls


def test_stream_synthesizes_one_sentence_at_a_time_in_order() -> None:
    synthesizer, calls = _recording_synthesizer(default_voice_map(KEYS))
    stream = synthesizer.stream(REPLY)
    first = next(stream)
    # Lazily: only the first sentence has been made when the first is handed over.
    assert [text for _, text, _ in calls] == ["Snow at Hollin Fold."]
    assert first.line == EXPECTED_LINES[0]
    rest = list(stream)
    assert [s.line for s in [first, *rest]] == EXPECTED_LINES
    assert [text for _, text, _ in calls] == [line.text for line in EXPECTED_LINES]


def test_only_the_first_piece_is_made_on_both_cores() -> None:
    """The table waits for a reply's first piece; the rest is made while the Host speaks, on one core (lean), leaving
    the other to what the table says over it."""
    full: list[tuple[Path | None, str, Any]] = []
    lean: list[tuple[Path | None, str, Any]] = []
    synthesizer = Synthesizer(
        default_voice_map(KEYS), loader=lambda model: _FakeVoice(model, full), lean_loader=lambda model: _FakeVoice(model, lean)
    )
    list(synthesizer.stream(REPLY))
    assert [text for _, text, _ in full] == [EXPECTED_LINES[0].text]
    assert [text for _, text, _ in lean] == [line.text for line in EXPECTED_LINES[1:]]
    # Lines made ahead are waited for by no one: lean too.
    ahead = SpeechLine(EXPECTED_LINES[0].role, "Nobody waits for this line.", 0)
    synthesizer.prepare([ahead])
    assert lean[-1][1] == ahead.text and len(full) == 1


def test_preloading_leaves_the_lean_voices_to_their_first_use() -> None:
    """Start-up loads what the first sound needs; the lean sessions load behind it."""
    loaded: list[str] = []

    def loader(kind: str) -> Callable[[Path | None], _FakeVoice]:
        def load(model: Path | None) -> _FakeVoice:
            loaded.append(kind)
            return _FakeVoice(model, [])

        return load

    synthesizer = Synthesizer(default_voice_map(KEYS), loader=loader("full"), lean_loader=loader("lean"))
    synthesizer.preload()
    assert loaded and set(loaded) == {"full"}
    list(synthesizer.stream(REPLY))
    assert loaded.count("lean") == 1


def test_each_suspect_sounds_different_from_the_host_and_each_other() -> None:
    voices = default_voice_map(KEYS)
    settings = [voices.for_role(key) for key in KEYS]
    assert all(s != HOST_VOICE for s in settings)
    assert len(set(settings)) == len(KEYS)
    assert all((s.pitch, s.length_scale) != (HOST_VOICE.pitch, HOST_VOICE.length_scale) for s in settings)


def test_voice_settings_reach_piper_and_pitch_resamples() -> None:
    synthesizer, calls = _recording_synthesizer(default_voice_map(KEYS))
    host = synthesizer.synthesize(SpeechLine(HOST, "Hello.", 0))
    suspect = synthesizer.synthesize(SpeechLine("ruddock", "Hello.", 0))
    ruddock = synthesizer.voices.for_role("ruddock")
    host_config, suspect_config = calls[0][2], calls[1][2]
    assert host_config.length_scale == pytest.approx(1.0)
    # Piper is slowed by the pitch factor so the pace after resampling is the role's length_scale.
    assert suspect_config.length_scale == pytest.approx(ruddock.length_scale * ruddock.pitch)
    assert suspect_config.noise_scale == ruddock.noise_scale
    pause = int(ruddock.sentence_pause * 22_050)
    assert len(host.audio) - pause == 22_050
    assert len(suspect.audio) - pause == pytest.approx(22_050 / ruddock.pitch, abs=64)


def test_real_piper_makes_each_sentence(synthesizer: Synthesizer) -> None:
    spoken = list(synthesizer.stream(REPLY))
    assert [s.line for s in spoken] == [SpeechLine(line.role, line.text, line.part_index) for line in EXPECTED_LINES]
    for sentence in spoken:
        assert sentence.sample_rate == 22_050
        assert sentence.audio.dtype == np.float32
        assert 0.3 < sentence.seconds < 6
        assert np.abs(sentence.audio).max() > 0.1


def _voice_copy(folder: Path) -> Path:
    bundled = piper_voice_files()
    model = folder / "alto.onnx"
    model.symlink_to(bundled.model)
    (folder / "alto.onnx.json").symlink_to(bundled.config)
    return model


def test_a_config_file_gives_a_role_another_voice(tmp_path: Path) -> None:
    model = _voice_copy(tmp_path)
    config = tmp_path / "voices.toml"
    config.write_text('[host]\nlength_scale = 1.1\n\n[suspects.Thwaite]\nmodel = "alto.onnx"\npitch = 0.9\n')
    voices = load_voice_map(KEYS, config)
    assert voices.for_role("thwaite").model == model
    assert voices.for_role("thwaite").pitch == 0.9
    assert voices.host.length_scale == 1.1
    # Roles the file does not mention keep their defaults.
    assert voices.for_role("ruddock") == default_voice_map(KEYS).for_role("ruddock")
    synthesizer, calls = _recording_synthesizer(voices)
    list(synthesizer.stream(REPLY))
    used = {(text, model_used) for model_used, text, _ in calls}
    assert ("I heard the waits.", model) in used
    assert ("Snow at Hollin Fold.", None) in used


def test_no_config_file_gives_the_defaults(tmp_path: Path) -> None:
    assert load_voice_map(KEYS, tmp_path / "voices.toml") == default_voice_map(KEYS)


@pytest.mark.parametrize(
    ("content", "complaint"),
    [
        ("[suspects.nobody]\npitch = 1.2\n", "no such suspect"),
        ("[host]\nloudness = 2\n", "unknown setting 'loudness'"),
        ('[host]\nmodel = "missing.onnx"\n', "does not exist"),
        ('[host]\npitch = "high"\n', "wrong type"),
        ("[host]\npitch = 0\n", "must be above 0"),
        ("[villains]\n", "unknown section"),
        ("[host\n", "cannot be read"),
    ],
)
def test_a_bad_config_file_says_what_is_wrong(tmp_path: Path, content: str, complaint: str) -> None:
    config = tmp_path / "voices.toml"
    config.write_text(content)
    with pytest.raises(VoiceConfigError, match=complaint) as caught:
        load_voice_map(KEYS, config)
    assert str(config) in str(caught.value)


@pytest.mark.parametrize(
    ("sentence", "split"),
    [
        (
            "I was in the pantry with the silver, as I am every night.",
            ("I was in the pantry with the silver,", "as I am every night."),
        ),
        ("Question 2 of 4: Ann.", None),  # short: said whole
        ("Yes, I was in the pantry with the silver all night.", None),  # no first clause of 3+ words
        ("The lane is shut and the plough comes only at first light tomorrow.", None),  # no clause boundary
    ],
)
def test_first_clause(sentence: str, split: tuple[str, str] | None) -> None:
    assert first_clause(sentence) == split


def test_a_long_first_sentence_is_said_clause_first() -> None:
    reply = Reply(
        (
            ReplyPart(PartKind.SUSPECT, "I was in the pantry with the silver, as I am every night.", speaker="thwaite"),
            ReplyPart(PartKind.SYSTEM, "Question 2 of 4: Ann, who sat by the fire, then Bo."),
        )
    )
    synthesizer, calls = _recording_synthesizer(default_voice_map(KEYS))
    spoken = list(synthesizer.stream(reply))
    assert [text for _, text, _ in calls] == [
        "I was in the pantry with the silver,",
        "as I am every night.",
        "Question 2 of 4: Ann, who sat by the fire, then Bo.",  # only the first line is split
    ]
    assert [s.piece for s in spoken] == [0, 1, 0]
    assert spoken[0].line == spoken[1].line and spoken[0].line.role == "thwaite"


def test_every_role_voice_stays_intelligible(tiny_recognizer: Recognizer) -> None:
    """Pitch and pace changes must not garble the words: whisper still hears each role's line."""
    synthesizer = Synthesizer(default_voice_map(KEYS))
    said = "I was in the pantry with the silver, as I am every night."
    expected = set(_plain_words(said))
    for role in (HOST, *KEYS):
        heard = _plain_words(tiny_recognizer.transcribe(synthesizer.render(said, role=role, rate=16_000)).text)
        assert len(expected & set(heard)) >= len(expected) - 2, (role, heard)


def _plain_words(text: str) -> list[str]:
    return "".join(c if c.isalnum() else " " for c in text.lower()).split()


def test_a_line_made_ahead_opens_its_reply_without_synthesis() -> None:
    long_line = "I was in the pantry with the silver, as I am every night."
    synthesizer, calls = _recording_synthesizer(default_voice_map(KEYS))
    made = synthesizer.prepare([SpeechLine("thwaite", long_line, 0), SpeechLine(HOST, "Exhibit 4. A note", 0)])
    assert made == 2
    assert [text for _, text, _ in calls] == ["I was in the pantry with the silver,", "Exhibit 4. A note"]
    assert synthesizer.prepare([SpeechLine(HOST, "Exhibit 4. A note", 3)]) == 0  # made once
    assert synthesizer.made_ahead(SpeechLine("thwaite", long_line, 0))
    assert not synthesizer.made_ahead(SpeechLine("keld", long_line, 0))
    calls.clear()
    reply = Reply((ReplyPart(PartKind.SUSPECT, long_line, speaker="thwaite"),))
    spoken = list(synthesizer.stream(reply))
    # Only the rest of the line is made when the reply comes; the first piece is the one made ahead.
    assert [text for _, text, _ in calls] == ["as I am every night."]
    assert [s.piece for s in spoken] == [0, 1] and spoken[0].line == SpeechLine("thwaite", long_line, 0)
    # Another role saying the same words is not the line made ahead.
    calls.clear()
    list(synthesizer.stream(Reply((ReplyPart(PartKind.SUSPECT, long_line, speaker="keld"),))))
    assert [text for _, text, _ in calls] == ["I was in the pantry with the silver,", "as I am every night."]


def test_opening_lines_are_the_first_lines_of_verbatim_replies() -> None:
    case = load_bundled_case()
    lines = opening_lines(case)
    assert len(lines) == len(set(lines))
    exhibit = case.exhibit(4)
    assert SpeechLine(HOST, f"Exhibit 4. {exhibit.title}", 0) in lines
    entry = case.reveal.entries[0]
    said = speech_lines(Reply((ReplyPart(PartKind.SUSPECT, entry.words, speaker=entry.suspect),)))[0]
    assert said in lines
    assert SpeechLine(HOST, f"{case.suspect(entry.suspect).name}.", 0) in lines  # a round's statements


@pytest.mark.parametrize(
    "said",
    [
        "read E9",  # "That evidence has not come in yet."
        "Keld?",  # "What do you ask?"
        "Ask everyone where they were at ten",  # "One at a time."
        "Confront Keld",  # "Which exhibit? Cite it by number."
        "Confront Keld with E1",  # "Mister Keld stands by what was said." (or breaks)
        "We accuse Keld: E1",  # "The accusation comes after round four."
        "lies",  # "No lie has broken yet."
        "next",  # "End round 1 with 4 unused?"
        "answers Joel",  # his round 1 statement again, in his own voice
    ],
)
def test_a_reply_that_opens_with_a_line_known_before_the_night_is_made_ahead(said: str) -> None:
    # The Host's fixed lines (engine.game.fixed_lines) and the statements said again by their suspect open
    # these replies: made ahead, they are heard without waiting for piper.
    case = load_bundled_case()
    game = Game(case)
    game.start()
    game.handle("Ann, Ben")
    assert speech_lines(game.handle(said))[0] in opening_lines(case)


def test_making_lines_ahead_ends_when_told_to_stop() -> None:
    # The voice side closing sets the event; piper must not be inside a line as the process exits.
    synthesizer, calls = _recording_synthesizer(default_voice_map(KEYS))
    stop = threading.Event()
    stop.set()
    assert synthesizer.prepare([SpeechLine(HOST, "Exhibit 4. A note", 0)], stop) == 0
    assert calls == []
