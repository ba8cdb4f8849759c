"""The scripted recognizer the recognition passes' tests hear with: what Whisper says with and without the
case prompt, what each closed set scores, and a game seated for them."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from engine.case import Case
from engine.game import Game
from voice_host.ears.asr import HeardWord, Hypotheses, Rejection, SlotScores, Transcript
from voice_host.ears.side_decode import SideDecoder
from voice_host.understanding.cascade import RecognitionPasses
from voice_host.understanding.passes.check import CheckPass
from voice_host.understanding.passes.first import FirstPass
from voice_host.understanding.passes.focus import FocusPass
from voice_host.understanding.passes.near_voice import NearVoicePass
from voice_host.understanding.passes.shared import Biasing, RecognitionPass, Vocabulary
from voice_host.understanding.passes.slots import SlotPass
from voice_host.understanding.settings import UnderstandingSettings
from voice_host.understanding.understand import Understander

SEATS = ("Ann", "Ben")


def seated_game(case: Case) -> Game:
    """A new game of the case with the table seated, in round 1."""
    game = Game(case)
    game.start()
    game.handle(", ".join(SEATS))
    assert game.state.round == 1
    return game


def in_round_two(game: Game) -> Game:
    """The game moved on to round 2, so that E7 has been read and a confrontation with it would spend a question."""
    game.handle("next")
    game.handle("yes")
    assert game.state.round == 2
    return game


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
        first_pass = bool(initial_prompt) and audio is self.utterance and not prefix and playback_rate is None
        rejected = self.rejected if first_pass else None
        # As the real beam search of five: the biased transcript keeps its runners-up (unless told, its
        # own words again, as a beam that found nothing else writes them).
        beam = self.runners_up or tuple((text, avg_logprob - 0.1 * (i + 1)) for i in range(4))
        runners_up = tuple(self._hypothesis(said, logprob, initial_prompt) for said, logprob in beam) if first_pass else ()
        return Transcript(
            text="" if rejected else text,
            raw_text=text,
            avg_logprob=avg_logprob,
            no_speech_prob=0.01,
            seconds=0.0,
            audio_seconds=1.0,
            rejected=rejected,
            initial_prompt=initial_prompt or None,
            runners_up=runners_up,
        )

    @staticmethod
    def _hypothesis(said: str, logprob: float, initial_prompt: str | None) -> Transcript:
        return Transcript(said, said, logprob, 0.01, 0.0, 1.0, initial_prompt=initial_prompt)

    def hypotheses(self, audio: object, initial_prompt: str | None, count: int) -> Hypotheses:
        self.calls.append("n-best")
        said = ((self.biased, self.avg_logprob), *self.runners_up)[:count]
        return Hypotheses(tuple(self._hypothesis(text, logprob, initial_prompt) for text, logprob in said), 0.01)

    def score_continuations(
        self,
        audio: object,
        prefix: str,
        continuations: Sequence[str],
        initial_prompt: str | None = None,
        keep_within: float | None = None,
        floor: float = -math.inf,
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
# More of the beam's hypotheses than the first pass's beam keeps: the n-best pass searches again.
NBEST_WIDER = UnderstandingSettings(nbest_hypotheses=10)


def passes_for(
    case: Case,
    recognizer: ScriptedRecognizer,
    biasing: Biasing,
    passes: tuple[RecognitionPass, ...] = (),
    settings: UnderstandingSettings | None = None,
    beside: SideDecoder | None = None,
) -> RecognitionPasses:
    return RecognitionPasses(
        recognizer,  # type: ignore[arg-type]  # only transcribe(), time_words() and score_continuations() are used
        Vocabulary.for_suspects(case.suspects),
        Understander(case.suspects, settings or UnderstandingSettings()),
        biasing,
        passes=passes,
        beside=beside,
    )


# The slot pass in place of the closed-set pass: what ran before the closed set, still a pass to list.
WITH_SLOT_PASS = (FirstPass(), SlotPass(), FocusPass(), NearVoicePass(), CheckPass())


def talk(seconds: float, level_db: float, seed: int) -> np.ndarray:
    noise = np.random.default_rng(seed).standard_normal(int(seconds * 16_000))
    return (noise * 10 ** (level_db / 20)).astype(np.float32)


# A second of a player at -20 dB with the room's talk 15 dB under it: the near-voice gate has a voice
# to take out (the scripted passes hear only which audio they are given, not what is in it).
AUDIO = np.concatenate([talk(0.5, -20.0, 1), talk(0.5, -35.0, 2)])
# The player alone: the gaps are silence, nothing for the gate to take out.
ALONE = np.concatenate([talk(0.5, -20.0, 1), talk(0.5, -100.0, 2)])
UNSURE = math.log(0.6)  # below the near-voice pass's bar: Whisper was not sure of what it heard
