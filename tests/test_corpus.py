"""The benchmark corpus: its size and variety, the tune/test split, its labels, its rooms and kitchens."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from audio_fixtures import acoustics
from audio_fixtures.corpus import (
    AFTER_RUN_24_TEST,
    AFTER_RUN_26_TEST,
    ALL_TEMPLATES,
    LATER_TEST,
    MOVED,
    MOVED_TO_TUNE,
    WHO,
    Split,
    all_lines,
    lines,
)
from audio_fixtures.fixtures import CORPUS_MANIFEST, Condition, load_fixtures, load_manifest, read_sample_list
from audio_fixtures.render import corpus_fixtures
from audio_fixtures.voices import VOICE_BY_NAME, VOICES, VoiceFamily, voices
from engine.messages import Command
from voice_host.cli.hear import fresh_game, game_at_accusation
from voice_host.ears.sound import SAMPLE_RATE, Audio
from voice_host.loop.casefiles import load_bundled_case

FREE_COMMANDS = [c.value for c in Command if c is not Command.ANSWERS] + ["answers", "repeat"]


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", " ", text.lower()).strip()


def test_the_corpus_has_at_least_600_distinct_utterances() -> None:
    assert len({_key(line.said) for line in all_lines()}) >= 600


@pytest.mark.parametrize("command", FREE_COMMANDS)
def test_every_free_command_has_eight_or_more_phrasings_over_both_splits(command: str) -> None:
    phrasings = {line.template for line in all_lines() if line.intent.command == command}
    assert len(phrasings) >= 8
    assert {line.split for line in all_lines() if line.intent.command == command} == {Split.TUNE, Split.TEST}


def test_questions_use_every_address_form_of_rule_4() -> None:
    question_templates = [t.text for t in ALL_TEMPLATES if t.kind == "question"]
    for opening in ("Ask {who}", "Question for {who}", "To {who}:", "@{who}", "{Voc},", "{Voc}:", "{Voc} -", "{Voc} {you"):
        assert any(t.startswith(opening) for t in question_templates), opening
    assert any(t.endswith("{voc}?") for t in question_templates)
    assert any("{your_statement}" in t for t in question_templates)


def test_every_name_on_the_names_line_is_used_in_questions() -> None:
    said = " ".join(line.said.lower() for line in all_lines() if line.intent.kind == "question")
    for who, _ in WHO:
        assert who.removeprefix("the ").lower() in said, who


def test_test_texts_and_phrasings_are_never_in_tune() -> None:
    tune_texts = {_key(f.said) for f in load_fixtures(Split.TUNE)}
    test = load_fixtures(Split.TEST)
    assert test and not any(_key(f.said) in tune_texts for f in test)
    tune_templates = {line.template for line in all_lines() if line.split is Split.TUNE}
    test_templates = {line.template for line in all_lines() if line.split is Split.TEST}
    # A group of one phrasing (one of the card's address forms, a list of sentences) is split line by line.
    group_sizes: dict[str, int] = defaultdict(int)
    for template in ALL_TEMPLATES:
        group_sizes[template.group] += 1
    shared = {t for t in tune_templates & test_templates if group_sizes[t.split(":", 1)[0]] > 1}
    assert not shared


def test_test_voices_are_never_tune_voices_and_there_are_twelve_or_more() -> None:
    assert len(VOICES) >= 12
    assert len(voices(Split.TEST)) >= 12
    tune_names = {f.voice for f in load_fixtures(Split.TUNE)}
    test_names = {f.voice for f in load_fixtures(Split.TEST)}
    assert not tune_names & test_names
    assert all(VOICE_BY_NAME[name].split is Split.TEST for name in test_names)
    test_families = {VOICE_BY_NAME[name].family for name in test_names}
    assert test_families == set(VoiceFamily)
    for voice in VOICES:
        assert voice.engine == "piper" or 140 <= voice.speed <= 200


def test_the_committed_corpus_manifest_is_what_the_generator_makes() -> None:
    listed = load_manifest(CORPUS_MANIFEST)
    made = corpus_fixtures()
    strip = [(f.id, f.said, f.spoken, f.voice, f.kind, f.suspect, f.exhibits, f.command, f.split) for f in made]
    assert [(f.id, f.said, f.spoken, f.voice, f.kind, f.suspect, f.exhibits, f.command, f.split) for f in listed] == strip
    assert all(f.sha256 for f in listed)


def test_the_card_forms_are_labelled_as_the_engine_classifies_them() -> None:
    """A card-form line's label is what the card says; the engine is the card's referee."""
    case = load_bundled_case()
    wrong: list[str] = []
    for line in all_lines():
        if "card_form" not in line.tags:
            continue
        message = fresh_game(case).preview(line.said)
        got = (message.kind.value, message.suspect, message.exhibits, message.command.value if message.command else None)
        intent = line.intent
        if got != (intent.kind, intent.suspect, intent.exhibits, intent.command):
            wrong.append(f"{line.said!r}: {got}")
    assert not wrong


def test_an_accusation_is_judged_where_a_table_makes_it() -> None:
    """The bench hears accusations at the accusation: round A's own rule names the accused there.

    "Verdict" heard as "Vertic" (a tune room render): in round 1 nothing marks it as an accusation,
    in round A a message naming one of the six and asking nothing is one (the card's ACCUSATION).
    """
    case = load_bundled_case()
    heard = "Vertic, the companion, exhibits 3 and 12."
    at_accusation = game_at_accusation(case)
    assert at_accusation.state.in_accusation
    accused = at_accusation.preview(heard)
    assert (accused.kind.value, accused.suspect, accused.exhibits) == ("accusation", "marsden", (3, 12))
    assert fresh_game(case).preview(heard).kind.value == "table_talk"


def test_each_kind_is_in_both_splits() -> None:
    kinds: dict[Split, set[str]] = defaultdict(set)
    for split in Split:
        kinds[split] = {line.intent.family.value for line in lines(split)}
    assert kinds[Split.TUNE] == kinds[Split.TEST] == {"command", "question", "confrontation", "accusation", "table talk"}


# -- rooms and kitchens --------------------------------------------------------------------------------
def test_rooms_are_within_the_stated_ranges() -> None:
    for index in range(acoustics.ROOM_COUNT):
        spec = acoustics.room(index)
        assert 0.2 <= spec.rt60 <= 0.8
        assert all(0.5 <= d <= 2.5 for d in spec.distances)
        for source in spec.sources:
            assert all(0 < source[i] < spec.size[i] for i in range(3))


def test_the_image_source_impulse_arrives_after_the_flight_time() -> None:
    index = min(range(acoustics.ROOM_COUNT), key=lambda i: acoustics.room(i).rt60)  # the quickest to compute
    spec = acoustics.room(index)
    impulse = acoustics.compute_impulse(spec, 0)
    flight = spec.distances[0] / 343.0 * SAMPLE_RATE
    first = int(np.argmax(np.abs(impulse) > 0.5 * np.max(np.abs(impulse))))
    assert flight <= first <= flight + 120  # pyroomacoustics delays every path by its filter's half length


class _ShortImpulses(acoustics.RoomImpulses):
    """Stand-in impulses (a direct path and a short tail) so mixing is tested without the room maths."""

    def of(self, index: int, source: int) -> np.ndarray:
        rng = np.random.default_rng(index * 10 + source)
        tail = rng.standard_normal(800).astype(np.float32) * np.exp(-np.arange(800) / 200).astype(np.float32) * 0.1
        tail[0] = 1.0
        return tail


def _tone(freq: float, seconds: float = 1.0) -> Audio:
    t = np.arange(int(seconds * SAMPLE_RATE)) / SAMPLE_RATE
    return np.asarray(0.5 * np.sin(2 * np.pi * freq * t), dtype=np.float32)


def test_a_kitchen_is_seeded_by_the_utterance_and_within_its_snr_ranges() -> None:
    speech, others = _tone(440.0), [_tone(300.0, 0.7), _tone(520.0, 1.3), _tone(610.0, 0.5)]
    first, placed = acoustics.in_room(speech, "test-0001", _ShortImpulses(), others)
    again, _ = acoustics.in_room(speech, "test-0001", _ShortImpulses(), others)
    other, _ = acoustics.in_room(speech, "test-0002", _ShortImpulses(), others)
    assert np.array_equal(first, again)
    assert not np.array_equal(first[: len(other)], other[: len(first)])
    assert placed.talker_snr is not None and 5.0 <= placed.talker_snr <= 15.0
    assert placed.noise_snr is not None and 10.0 <= placed.noise_snr <= 20.0
    assert placed.noise in acoustics.HOUSEHOLD and 1 <= placed.talkers <= 3
    room_only, in_a_room = acoustics.in_room(speech, "test-0001", _ShortImpulses())
    assert in_a_room.talkers == 0 and in_a_room.noise is None
    # The kitchen is the room plus other sound: less of the signal is the talker's tone.
    assert np.max(np.abs(first)) <= 0.7 + 1e-6 and np.max(np.abs(room_only)) <= 0.7 + 1e-6


@pytest.mark.parametrize("name", sorted(acoustics.HOUSEHOLD))
def test_household_noises_are_seeded_and_not_silent(name: str) -> None:
    make = acoustics.HOUSEHOLD[name]
    one = make(np.random.default_rng(1), 16_000)
    assert np.array_equal(one, make(np.random.default_rng(1), 16_000))
    assert float(np.sqrt(np.mean(one**2))) > 1e-3


def test_the_kitchen_is_a_condition_of_its_own() -> None:
    assert {c.value for c in Condition} >= {"clean", "room", "kitchen"}


def test_a_phrasing_moved_to_tune_has_no_test_line_and_new_test_phrasings_replace_it() -> None:
    moved = [line for line in all_lines() if line.template.split(":", 1)[1] in MOVED_TO_TUNE]
    assert moved and all(line.split is Split.TUNE and MOVED in line.tags for line in moved)
    tune_voices = {f.voice for f in load_fixtures(Split.TUNE) if MOVED in f.tags}
    assert tune_voices and all(VOICE_BY_NAME[name].split is Split.TUNE for name in tune_voices)
    # The test phrasings made to replace them stay test, unless one of them moved to tune in its turn.
    made = {t.text for t in [*LATER_TEST, *AFTER_RUN_24_TEST, *AFTER_RUN_26_TEST]} - MOVED_TO_TUNE
    later = {line.template for line in all_lines() if line.template.split(":", 1)[1] in made}
    assert later and all(line.split is Split.TEST for line in all_lines() if line.template in later)


def test_every_sample_list_names_utterances_of_its_split_only() -> None:
    # bench/samples/*.txt keep a measured sample measurable as the corpus grows (bench/voice.py --same-as):
    # each names utterances that still exist, in one split, each once.
    samples = sorted((Path(__file__).resolve().parent.parent / "bench" / "samples").glob("*.txt"))
    assert samples
    ids = {split: {fixture.id for fixture in load_fixtures(split)} for split in Split}
    for path in samples:
        listed = read_sample_list(path)
        assert len(listed) == len(set(listed)), path.name
        assert any(set(listed) <= ids[split] for split in Split), path.name
