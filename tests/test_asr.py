"""faster-whisper recognition on piper-rendered speech, and the guards against invented words."""

from __future__ import annotations

import math
import threading
import wave
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from models.locate import WhisperModelName
from tests.conftest_speech import Render
from voice_host.ears.asr import (
    KeptEncodings,
    RecognitionOptions,
    Recognizer,
    Rejection,
    _covering_paths,
    _known_logprobs,
    expansion_plan,
    is_loop,
    is_phantom,
    is_prompt_echo,
    load_whisper,
    played_at,
    window_frames,
)
from voice_host.ears.side_decode import SideDecoder, SideRequest
from voice_host.mouth.tts import Synthesizer


def _words(text: str) -> list[str]:
    return "".join(c if c.isalnum() or c == " " else " " for c in text.lower()).split()


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "Martha, where were you when the carol singers came?",
            "martha where were you when the carol singers came",
        ),
        ("Read exhibit seven.", "read exhibit 7"),
    ],
)
def test_rendered_speech_is_transcribed(tiny_recognizer: Recognizer, render_speech: Render, said: str, expected: str) -> None:
    audio = render_speech(said)
    transcript = tiny_recognizer.transcribe(audio)
    assert transcript.rejected is None
    assert _words(transcript.text) == expected.split()
    assert transcript.text == transcript.raw_text
    assert 0.5 < transcript.confidence <= 1.0
    assert transcript.no_speech_prob < 0.5
    assert transcript.model == "tiny.en" and not transcript.biased
    assert transcript.audio_seconds == pytest.approx(len(audio) / 16_000)


def test_a_piper_wav_file_is_transcribed(tiny_recognizer: Recognizer, steady_synthesizer: Synthesizer, tmp_path: Path) -> None:
    from faster_whisper.audio import decode_audio

    # A WAV at piper's own 22,050 Hz, decoded and resampled to 16 kHz the way faster-whisper reads files.
    synthesizer = steady_synthesizer
    audio = synthesizer.render("Confront the butler with exhibit nine.")
    wav = tmp_path / "said.wav"
    with wave.open(str(wav), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(synthesizer.output_rate)
        out.writeframes((np.clip(audio, -1, 1) * 32767).astype("<i2").tobytes())
    transcript = tiny_recognizer.transcribe(decode_audio(str(wav), sampling_rate=16_000))
    assert _words(transcript.text) == ["confront", "the", "butler", "with", "exhibit", "9"]


def test_window_frames_are_the_utterance_plus_padding_capped_at_whisper_s_window() -> None:
    assert window_frames(1.5, 8.0) == 950
    assert window_frames(25.0, 8.0) == 3000
    assert window_frames(1.5, None) is None


def test_no_window_is_encoded_as_long_as_the_mel_bins() -> None:
    # 80 encoder frames (159 or 160 mel frames) would be taken by CTranslate2 for mel features.
    assert [window_frames(seconds, 1.0) for seconds in (0.575, 0.585, 0.595, 0.605)] == [158, 161, 161, 161]
    windows = [window_frames(n / 1000, 1.0) for n in range(400, 800)]
    assert all(frames is not None and math.ceil(frames / 2) != 80 for frames in windows)  # the encoder halves them


def test_audio_played_slower_is_longer_and_lower_by_the_same_factor() -> None:
    second = np.arange(16_000) / 16_000
    tone = (0.5 * np.sin(2 * np.pi * 200 * second)).astype(np.float32)
    slower = played_at(tone, 0.9)
    assert len(slower) == pytest.approx(16_000 / 0.9, abs=2)
    spectrum = np.abs(np.fft.rfft(slower))
    assert np.argmax(spectrum) * 16_000 / len(slower) == pytest.approx(180, abs=1)  # 200 Hz played a tenth slower
    assert played_at(tone, 1.0) is tone or np.array_equal(played_at(tone, 1.0), tone)


@pytest.fixture
def encoded_frames(tiny_recognizer: Recognizer, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The frame count of every encoder run from here on (none kept from an earlier test)."""
    from faster_whisper import WhisperModel

    frames: list[int] = []
    real_encode = WhisperModel.encode

    def spy(model: WhisperModel, features: np.ndarray):  # type: ignore[no-untyped-def]
        frames.append(features.shape[-1])
        return real_encode(model, features)

    monkeypatch.setattr(WhisperModel, "encode", spy)
    tiny_recognizer.forget_encoding()
    return frames


def test_the_encoder_sees_the_short_window(tiny_recognizer: Recognizer, render_speech: Render, encoded_frames: list[int]) -> None:
    audio = render_speech("Read exhibit seven.")
    windowed = tiny_recognizer.transcribe(audio)
    full = Recognizer(RecognitionOptions(model=WhisperModelName.TINY_EN, window_padding_seconds=None)).transcribe(audio)
    assert encoded_frames == [window_frames(len(audio) / 16_000, 8.0), 3000]
    assert _words(windowed.text) == _words(full.text) == ["read", "exhibit", "7"]
    assert tiny_recognizer.model.window_frames is None  # only set for the call


def test_passes_over_one_utterance_encode_it_once(
    tiny_recognizer: Recognizer, render_speech: Render, encoded_frames: list[int]
) -> None:
    audio, other = render_speech("Answers, Cobb."), render_speech("Next.")
    biased = tiny_recognizer.transcribe(audio, initial_prompt="Lucy Cobb, the kitchen maid.")
    plain = tiny_recognizer.transcribe(audio, initial_prompt="", beam_size=1)
    prefixed = tiny_recognizer.transcribe(audio, prefix="Answers")
    tiny_recognizer.time_words(audio, biased)
    assert len(encoded_frames) == 1  # the biased pass's encoding served the other three
    assert "cobb" in _words(biased.text) and _words(plain.text)[:1] == _words(prefixed.text)[:1] == ["answers"]
    tiny_recognizer.transcribe(other)
    assert len(encoded_frames) == 2  # new audio, new encoding
    tiny_recognizer.forget_encoding()
    tiny_recognizer.transcribe(other)
    assert len(encoded_frames) == 3  # forgotten: encoded again


def test_a_pass_over_the_utterance_played_slower_leaves_its_own_encoding_kept(
    tiny_recognizer: Recognizer, render_speech: Render, encoded_frames: list[int]
) -> None:
    audio = render_speech("Read exhibit seven.")
    said = tiny_recognizer.transcribe(audio)
    slower = tiny_recognizer.transcribe(audio, playback_rate=0.9)
    assert len(encoded_frames) == 2  # the slower audio is other audio: encoded
    assert encoded_frames[1] == window_frames(len(audio) / 16_000 / 0.9, 8.0)
    assert _words(slower.text) == _words(said.text) == ["read", "exhibit", "7"]
    assert slower.audio_seconds == said.audio_seconds  # the utterance's own length, not the played one
    tiny_recognizer.score_continuations(audio, "Read exhibit", [" 7", " 8"])
    assert len(encoded_frames) == 2  # the utterance's own encoding was still kept


def test_words_heard_slower_are_timed_as_said(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    slower = Recognizer(RecognitionOptions(model=WhisperModelName.TINY_EN, playback_rate=0.9))
    audio = render_speech("Martha, where were you when the carol singers came?")
    as_said = tiny_recognizer.time_words(audio, tiny_recognizer.transcribe(audio)).words
    played = slower.time_words(audio, slower.transcribe(audio)).words
    # The same words, one for one (tiny.en may spell one differently at the other rate: "came?" or "can?").
    assert len(played) == len(as_said) and played[0].text.lower() == as_said[0].text.lower()
    # On the played audio's own clock every word would start a ninth later (0.1-0.3 s here); put back
    # on the said time they start where they did (a last word's end is Whisper's least steady edge).
    gaps = sorted(abs(p.start - s.start) for p, s in zip(played, as_said, strict=True))
    assert gaps[len(gaps) // 2] < 0.05, gaps


def test_word_levels_tell_the_near_voice_from_the_room(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    from voice_host.understanding.passes.focus import loudest_speaker_text

    near = render_speech("Next.", pad=0.1)
    room = 0.1 * render_speech("Read the letter again.", pad=0.1)  # 20 dB quieter
    audio = np.concatenate([near, room])
    heard = tiny_recognizer.transcribe(audio)
    assert heard.words == ()  # only when asked for
    transcript = tiny_recognizer.time_words(audio, heard)
    assert transcript.text == heard.text  # the same words, timed: no second decode
    assert [w.text.strip(".,").lower() for w in transcript.words][:1] == ["next"]
    assert " ".join(w.text for w in transcript.words) == heard.text.strip()
    assert all(w.start < w.end for w in transcript.words)
    assert transcript.words[0].level_db > max(w.level_db for w in transcript.words[1:]) + 10
    assert loudest_speaker_text(transcript.words).strip(".,") == "Next"


def test_empty_audio_gives_an_empty_transcript(tiny_recognizer: Recognizer) -> None:
    transcript = tiny_recognizer.transcribe(np.zeros(0, dtype=np.float32))
    assert transcript.text == "" and transcript.rejected is Rejection.EMPTY and transcript.confidence == 0.0


def test_silence_gives_an_empty_transcript(tiny_recognizer: Recognizer) -> None:
    transcript = tiny_recognizer.transcribe(np.zeros(32_000, dtype=np.float32))
    assert transcript.text == "" and transcript.rejected is not None


@pytest.mark.parametrize("amplitude", [0.003, 0.03, 0.3])
def test_noise_gives_no_phantom_phrase(tiny_recognizer: Recognizer, amplitude: float) -> None:
    noise = (np.random.default_rng(5).standard_normal(16_000 * 3) * amplitude).astype(np.float32)
    transcript = tiny_recognizer.transcribe(noise)
    assert not is_phantom(transcript.text) or transcript.text == ""
    assert transcript.text == "" or transcript.rejected is None
    for phrase in ("thank you", "thanks for watching", "subtitles"):
        assert phrase not in transcript.text.lower()


def test_a_prompt_is_passed_per_call_and_kept(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    prompt = "Abel Thwaite, Martha Ruddock, Joel Blamire."
    transcript = tiny_recognizer.transcribe(render_speech("Next."), initial_prompt=prompt)
    assert transcript.initial_prompt == prompt and transcript.biased
    assert _words(transcript.text) == ["next"]


def test_an_empty_prompt_overrides_the_options_prompt(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    biased = Recognizer(RecognitionOptions(model=WhisperModelName.TINY_EN, initial_prompt="Abel Thwaite."))
    transcript = biased.transcribe(render_speech("Next."), initial_prompt="", hotwords="")
    assert transcript.initial_prompt is None and transcript.hotwords is None and not transcript.biased
    assert biased.transcribe(render_speech("Next.")).initial_prompt == "Abel Thwaite."


def test_models_load_once_and_are_shared(tiny_recognizer: Recognizer) -> None:
    other = Recognizer(RecognitionOptions(model=WhisperModelName.TINY_EN, beam_size=1, initial_prompt="x"))
    assert other.model is tiny_recognizer.model
    assert load_whisper(RecognitionOptions(model=WhisperModelName.TINY_EN)) is tiny_recognizer.model


@pytest.mark.parametrize(
    "text",
    [
        "Thank you.",
        " you",
        "Thanks for watching!",
        "Thank you for watching.",
        "Subtitles by the Amara.org community",
        "[Music]",
        "(upbeat music)",
        "♪ ♪",
        "...",
        "",
        "Bye.",
    ],
)
def test_phantoms_are_recognised(text: str) -> None:
    assert is_phantom(text)


@pytest.mark.parametrize(
    "text",
    [
        "Yes.",
        "Next.",
        "Thank you, Abel, where were you at ten?",
        "You, Martha, where were you?",
        "Ok.",
        "Read E7.",
        "Thwaite, did you see the waits?",
    ],
)
def test_real_messages_are_not_phantoms(text: str) -> None:
    assert not is_phantom(text)


@pytest.mark.parametrize(
    "text",
    [
        "Yes, yes, yes, yes…",
        "Okay, okay, okay.",
        "you you you you",
    ],
)
def test_a_word_said_over_and_over_is_a_loop(text: str) -> None:
    assert is_loop(text)


@pytest.mark.parametrize(
    "text",
    [
        "Yes.",
        "Yes, yes.",
        "Yes, yes, yes, I think so.",
        "Read E1, E1 and E1 again.",
        "We give up. We give up. We give up.",  # a phrase heard in noise: kept once, doubted
    ],
)
def test_a_word_said_once_or_twice_is_not_a_loop(text: str) -> None:
    assert not is_loop(text)


def test_a_loop_is_rejected_never_a_yes() -> None:
    options = RecognitionOptions()

    class Judge:
        def __init__(self) -> None:
            self.options = options

    def judge(text: str) -> Rejection | None:
        return Recognizer._judge(Judge(), text, -0.1, 0.01, 1.2, None)  # type: ignore[arg-type]

    assert judge("Yes, yes, yes, yes.") is Rejection.REPETITION
    assert judge("Yes.") is None


PROMPT = "Abel Thwaite, the butler. Martha Ruddock, the housekeeper. Joel Blamire, the nephew."


@pytest.mark.parametrize(
    "text",
    ["Martha Ruddock the housekeeper,", "Abel Thwaite, the butler.", "Martha Ruddick, the housekeeper"],
)
def test_prompt_echoes_are_detected(text: str) -> None:
    assert is_prompt_echo(text, PROMPT)


@pytest.mark.parametrize(
    "text",
    [
        "Ask Martha Ruddock where she was at ten.",
        "Martha Ruddock?",  # a name alone is a message ("What do you ask?"), too short to call an echo
        "Confront Abel Thwaite with exhibit 7.",
        "Pass.",
    ],
)
def test_real_messages_are_not_prompt_echoes(text: str) -> None:
    assert not is_prompt_echo(text, PROMPT)


def test_no_prompt_means_no_echo() -> None:
    assert not is_prompt_echo("Martha Ruddock the housekeeper", None)


def test_an_echoed_prompt_is_rejected_by_the_recognizer(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    said = "Martha Ruddock, the housekeeper."
    transcript = tiny_recognizer.transcribe(render_speech(said), initial_prompt=PROMPT)
    assert transcript.rejected is Rejection.PROMPT_ECHO
    assert transcript.text == "" and "housekeeper" in transcript.raw_text.lower()


def test_options_are_frozen() -> None:
    options = RecognitionOptions()
    with pytest.raises(AttributeError):
        options.beam_size = 1  # type: ignore[misc]
    assert options.max_new_tokens == 40 and options.language == "en" and options.compute_type == "int8"


def test_the_closed_set_scores_the_said_exhibit_best(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    audio = render_speech("Read E seven.")
    tiny_recognizer.transcribe(audio)  # the pass whose encoder output the scoring reuses
    candidates = [f" E{n}" for n in (1, 3, 7, 11)]
    scores = tiny_recognizer.score_continuations(audio, "Read", candidates)
    assert scores.continuations == tuple(candidates)
    assert scores.ranked()[0][0] == " E7"
    assert all(score <= 0.0 for score in scores.scores)  # mean log-probabilities


def test_a_closed_set_no_candidate_of_which_can_reach_the_floor_decodes_only_the_shared_prefix(
    tiny_recognizer: Recognizer, render_speech: Render
) -> None:
    # A floor over any mean (no token's log-probability is above 0): after the shared prefix's one
    # sequence, which gives every candidate's first token, no candidate is followed further.
    audio = render_speech("Answers Ormerod.")
    tiny_recognizer.transcribe(audio)
    candidates = [" Abel", " Thwaite", " Martha", " Ruddock", " Joel", " Blamire", " Julius", " Ormerod"]
    whole = tiny_recognizer.score_continuations(audio, "Answers", candidates)
    floored = tiny_recognizer.score_continuations(audio, "Answers", candidates, keep_within=1.0, floor=1.5)
    assert floored.sequences == 1 < whole.sequences
    # Each name's own tokens, after the shared " Answers".
    encode = tiny_recognizer.tokenizer.encode
    own = [len(encode(f" Answers{c}")) - len(encode(" Answers")) for c in candidates]
    assert 1 in own and max(own) > 1
    for exact, kept, count in zip(whole.scores, floored.scores, own, strict=True):
        # A one-token name is known from the first sequence; a longer one is never followed.
        assert kept == pytest.approx(exact, abs=1e-3) if count == 1 else kept == float("-inf")


def test_a_whole_command_is_scored_best_among_the_card_s_commands(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    # The whole-command pass's scoring: no prefix, whole commands as candidates (a trie over their
    # tokens), conditioned on the prompt.
    audio = render_speech("Statements.")
    tiny_recognizer.transcribe(audio, initial_prompt=PROMPT)
    candidates = [" Next", " Pass", " Statements", " Give up", " Read E3", " Read E7"]
    scores = tiny_recognizer.score_continuations(audio, "", candidates, initial_prompt=PROMPT)
    assert scores.continuations == tuple(candidates)
    ranked = scores.ranked()
    assert ranked[0][0] == " Statements" and ranked[0][1] - ranked[1][1] > 1.0


def test_a_closed_set_scored_in_stages_keeps_the_scores_that_decide(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    # The staged scoring follows only the candidates that can come within keep_within of the best:
    # the best and those near it score exactly as in one call over the whole trie, the rest -inf.
    audio = render_speech("Answers Ormerod.")
    tiny_recognizer.transcribe(audio)
    names = ("Abel", "Thwaite", "Martha", "Ruddock", "Joel", "Blamire", "Phoebe", "Marsden", "Julius", "Ormerod")
    candidates = [f" {name}" for name in names]
    whole = tiny_recognizer.score_continuations(audio, "Answers", candidates)
    staged = tiny_recognizer.score_continuations(audio, "Answers", candidates, keep_within=1.0)
    best = max(whole.scores)
    assert staged.ranked()[0] == pytest.approx(whole.ranked()[0], abs=1e-3)
    for exact, kept in zip(whole.scores, staged.scores, strict=True):
        assert kept == pytest.approx(exact, abs=1e-3) if kept != float("-inf") else exact < best - 1.0
    assert staged.sequences < whole.sequences


def test_the_staged_scoring_follows_first_the_candidate_that_promises_most() -> None:
    # Nothing scored to its end yet: the one whose first tokens promise the highest mean goes first.
    known = [[-0.4], [-6.0], [-3.0]]
    assert expansion_plan(known, [2, 2, 3], keep_within=1.0, final=False) == [0]
    # In the last stage, every candidate still open goes.
    assert expansion_plan(known, [2, 2, 3], keep_within=1.0, final=True) == [0, 1, 2]


def test_the_staged_scoring_leaves_a_candidate_that_cannot_come_close() -> None:
    # Candidate 0 scored -0.5 in full. Candidate 1 can reach at most -6 / 2 = -3.0: more than 1.0 behind,
    # left. Candidate 2 can reach -1.2 / 2 = -0.6: still open. Candidate 3 has nothing of its own.
    known = [[-0.5], [-6.0], [-1.2], []]
    assert expansion_plan(known, [1, 2, 2, 0], keep_within=1.0, final=True) == [2]
    # With a wider window (the whole-command pass's), candidate 1 stays open too.
    assert expansion_plan(known, [1, 2, 2, 0], keep_within=3.2, final=True) == [1, 2]
    # Every candidate scored: nothing to follow.
    assert expansion_plan([[-0.5], [-1.0, -2.0]], [1, 2], keep_within=1.0, final=True) == []


def test_the_staged_scoring_leaves_a_candidate_that_cannot_come_near_the_floor() -> None:
    # Nothing scored to its end. Candidate 0 can reach at most -14 / 2 = -7.0, candidate 1 -10 / 2 = -5.0.
    known = [[-14.0], [-10.0], []]
    assert expansion_plan(known, [2, 2, 0], keep_within=1.0, final=True) == [0, 1]
    # The caller takes no best under -5.5 (the closed set's floor): candidate 0, more than 1.0 under it,
    # can be neither that best nor within the margin of one: it is left.
    assert expansion_plan(known, [2, 2, 0], keep_within=1.0, final=True, floor=-5.5) == [1]
    # A best known over the floor decides as before.
    assert expansion_plan([[-0.5], [-6.0], [-1.2]], [1, 2, 2], keep_within=1.0, final=True, floor=-5.5) == [2]


def test_a_path_inside_another_is_forced_once() -> None:
    assert _covering_paths([(1,), (1, 2), (3,), (1, 2)]) == [(1, 2), (3,)]
    assert _covering_paths([(1,), (3, 4)], forced=((1, 2),)) == [(3, 4)]


def test_a_candidate_s_tokens_are_read_from_any_path_through_them() -> None:
    # A 3-step path (5, 6) over a vocabulary of 8: row i is the distribution over token i.
    rows: npt.NDArray[np.float32] = np.log(np.full((3, 8), 1 / 8, dtype=np.float32))
    rows[1, 7] = np.log(0.5)
    paths: dict[tuple[int, ...], npt.NDArray[np.float32]] = {(5, 6): rows}
    # Candidate (5, 7): its own token 7 comes after the shared 5, read from row 1 of the path through (5,).
    assert _known_logprobs((5, 7), 1, paths) == pytest.approx([np.log(0.5)])
    # Candidate (4, 2): no forced path runs through (4,): nothing known of its second token.
    assert _known_logprobs((4, 2), 0, paths) == pytest.approx([np.log(1 / 8)])


def test_the_beam_s_hypotheses_are_the_transcript_and_its_runners_up(
    tiny_recognizer: Recognizer, render_speech: Render, encoded_frames: list[int]
) -> None:
    # The one beam search `transcribe` makes keeps every finished hypothesis (the n-best pass reads
    # them from the transcript); `hypotheses` searches again, on the encoding already made, and
    # finds the same.
    audio = render_speech("Read exhibit seven.")
    first = tiny_recognizer.transcribe(audio, initial_prompt=PROMPT)
    found = tiny_recognizer.hypotheses(audio, PROMPT, tiny_recognizer.options.beam_size)
    assert len(encoded_frames) == 1  # one encoding for both
    assert len(found.transcripts) == tiny_recognizer.options.beam_size
    assert found.transcripts[0].raw_text == first.raw_text  # the same beam: its best is the transcript
    assert found.transcripts[0].avg_logprob == pytest.approx(first.avg_logprob, abs=1e-4)
    assert [(t.raw_text, round(t.avg_logprob, 4)) for t in first.runners_up] == [
        (t.raw_text, round(t.avg_logprob, 4)) for t in found.transcripts[1:]
    ]
    assert len({t.raw_text for t in found.transcripts}) == len(found.transcripts)  # each a different reading
    assert all(t.avg_logprob <= 0.0 and t.initial_prompt == PROMPT for t in found.transcripts)
    assert sum(t.seconds for t in found.transcripts) == found.seconds > 0.0  # the one search, counted once
    assert all(t.seconds == 0.0 for t in first.runners_up)  # the first pass's time is the transcript's


def test_a_transcript_continued_from_a_prefix_keeps_no_runners_up(tiny_recognizer: Recognizer, render_speech: Render) -> None:
    # A prefix's words are in the text but not among the beam's tokens: its hypotheses would lose them.
    audio = render_speech("Read exhibit seven.")
    assert tiny_recognizer.transcribe(audio, initial_prompt=PROMPT, prefix="Read E").runners_up == ()


def test_each_model_has_its_own_transcription_lock() -> None:
    # The short path's tiny.en never waits for the whole understanding's decode on base.
    from voice_host.ears.asr import _transcribe_lock

    base, tiny = object(), object()
    assert _transcribe_lock(base) is _transcribe_lock(base)
    assert _transcribe_lock(base) is not _transcribe_lock(tiny)


def test_a_kept_encoding_is_handed_to_a_thread_that_waits_for_it() -> None:
    kept = KeptEncodings(size=2)
    handed: list[object | None] = []
    waiter = threading.Thread(target=lambda: handed.append(kept.wait_for(b"utterance", timeout=30.0)))
    waiter.start()
    kept.put(b"utterance", "encoded")  # the waiter wakes on this, whether it began waiting before or after
    waiter.join()
    assert handed == ["encoded"]


def test_an_encoding_waited_for_is_handed_over_even_when_newer_ones_push_it_out() -> None:
    kept = KeptEncodings(size=1)
    handed: list[object | None] = []
    waiter = threading.Thread(target=lambda: handed.append(kept.wait_for(b"utterance", timeout=30.0)))
    waiter.start()
    while not kept.awaited(b"utterance"):  # until the waiter is waiting (no sleep: it is a few instructions away)
        pass
    with kept._changed:  # the waiter cannot wake until both are put
        kept.put(b"utterance", "encoded")
        kept.put(b"slower", "other")
    waiter.join()
    assert handed == ["encoded"] and kept.get(b"utterance") is None
    assert not kept.awaited(b"utterance")


def test_an_encoding_made_and_pushed_out_before_anyone_waited_is_not_waited_for() -> None:
    kept = KeptEncodings(size=1)
    kept.put(b"utterance", "encoded")
    kept.put(b"slower", "other")
    assert kept.wait_for(b"utterance", timeout=30.0) is None  # at once: it will not be made again


def test_waiting_for_an_encoding_never_made_gives_none() -> None:
    assert KeptEncodings().wait_for(b"never", timeout=0.0) is None


def test_only_the_latest_encodings_are_kept() -> None:
    kept = KeptEncodings(size=2)
    for key in (b"a", b"b", b"c"):
        kept.put(key, key.decode())
    assert kept.get(b"a") is None and kept.get(b"b") == "b" and kept.get(b"c") == "c"
    kept.get(b"b")  # used: the most recent now
    kept.put(b"d", "d")
    assert kept.get(b"c") is None and kept.get(b"b") == "b"
    kept.clear()
    assert kept.get(b"b") is None


def test_a_side_decode_hears_the_utterance_on_the_first_pass_s_encoding(
    tiny_recognizer: Recognizer, render_speech: Render, encoded_frames: list[int]
) -> None:
    # The check pass's unprompted decode, on a second instance beside the prompted first pass.
    audio = render_speech("Answers, Cobb.")
    serial = tiny_recognizer.transcribe(audio, initial_prompt="", hotwords=None, beam_size=1)
    tiny_recognizer.forget_encoding()
    encoded_frames.clear()
    beside = SideDecoder.beside(tiny_recognizer)
    assert beside.side.model is not tiny_recognizer.model and beside.side.options.cpu_threads == 1
    beside.start(audio, SideRequest(beam_size=1))
    tiny_recognizer.transcribe(audio, initial_prompt="Lucy Cobb, the kitchen maid.")
    side = beside.take(audio, SideRequest(beam_size=1))
    assert len(encoded_frames) == 1  # encoded once, by the first instance
    assert side is not None and side.raw_text == serial.raw_text and not side.biased
    assert side.avg_logprob == pytest.approx(serial.avg_logprob, abs=1e-4)
