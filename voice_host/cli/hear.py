"""`third-carol hear [--json] FILE.wav...`: the whole speech pipeline on recorded files.

Each file goes through what the microphone's audio goes through: Silero VAD and the segmenter (the
same `Listener.feed` the live loop uses, fed the file block by block), recognition with the chosen
biasing passes, normalisation, the NAMES matcher and the engine's classifier — against a fresh game
seated and in round 1 (or, with --at-accusation, brought to the accusation), so every file is judged
alone. Models load once for all the files.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.case import Case
from engine.game import Game
from engine.rules import ROUNDS
from voice_host.ears.asr import RecognitionOptions, Recognizer
from voice_host.ears.side_decode import SideDecoder
from voice_host.ears.sound import BLOCK_SAMPLES, SAMPLE_RATE, Audio
from voice_host.understanding.cascade import Recognised, RecognitionPasses, cascade_for
from voice_host.understanding.passes.shared import Biasing, PassName, Vocabulary
from voice_host.understanding.understand import Heard, Understander

log = logging.getLogger(__name__)

#: The table a fresh diagnostic game is seated with (plain names, none of them a suspect's).
DIAGNOSTIC_SEATS = ("Ann", "Ben")
TRAILING_SILENCE_SECONDS = 1.5  # so the segmenter's hangover can run out at the end of a file


def fresh_game(case: Case) -> Game:
    """A new game, seated and in round 1 (E1-E4 read)."""
    game = Game(case)
    game.start()
    game.handle(", ".join(DIAGNOSTIC_SEATS))
    return game


def game_at_accusation(case: Case) -> Game:
    """A seated game brought to the accusation (each round ended early with yes), where a table accuses.

    Before round A an accusation is only told to wait, and the card names its accused by a rule of
    round A alone (a message that names one of the six and asks nothing), so accusations are judged here.
    """
    game = fresh_game(case)
    for _ in range(ROUNDS):
        game.handle("next")
        game.handle("yes")
    if not game.state.in_accusation:
        raise RuntimeError(f"{ROUNDS} rounds ended and no accusation: the card's round-end lines have changed")
    return game


@dataclass(frozen=True)
class HeardFile:
    heard: Heard
    recognised: Recognised
    seconds: float  # understanding time: recognition passes + repair + classification
    utterances: int  # how many utterances VAD found (0: none, the whole file was used)

    def as_json(self, file: str, names: dict[str, str]) -> dict[str, object]:
        message = self.heard.message
        suspect = message.suspect if message is not None else None
        return {
            "file": file,
            "heard": self.heard.transcript,
            "text": self.heard.text,
            "kind": message.kind.value if message is not None else "other",
            "suspect": names.get(suspect, suspect) if suspect else None,
            "exhibits": list(message.exhibits) if message is not None else [],
            "command": message.command.value if message is not None and message.command else None,
            "confidence": round(self.heard.confidence, 3),
            "confirm": self.heard.needs_confirmation,
        }


class HearPipeline:
    """Loads VAD, whisper and the matcher once; hears one file or one array at a time."""

    def __init__(
        self,
        case: Case,
        biasing: Biasing = Biasing.PROMPT_CHECKED,
        options: RecognitionOptions | None = None,
        use_vad: bool = True,
        side_decode: bool = True,
        without: frozenset[PassName] = frozenset(),
    ) -> None:
        """`without`: passes taken out of the cascade (a benchmark's "before" for one pass; the Host runs them all)."""
        self.case = case
        self.names = {s.key: s.name for s in case.suspects}
        self.understander = Understander(case.suspects)
        self.recognizer = Recognizer(options or RecognitionOptions())
        # The check pass decodes beside the first pass on a second instance (peak memory about 60 MB more).
        beside = SideDecoder.beside(self.recognizer) if side_decode and biasing is Biasing.PROMPT_CHECKED else None
        cascade = cascade_for(biasing, without)
        self.passes = RecognitionPasses(
            self.recognizer, Vocabulary.for_suspects(case.suspects), self.understander, biasing, passes=cascade, beside=beside
        )
        self.use_vad = use_vad
        self._vad = None
        if use_vad:
            from voice_host.ears.vad import SileroVad

            self._vad = SileroVad()

    def utterances(self, audio: Audio) -> list[Audio]:
        """Cut the audio into utterances exactly as the live listener does."""
        from voice_host.loop.listener import FeedOnlySource, InlineExecutor, Listener, Utterance

        assert self._vad is not None
        found: list[Audio] = []

        def keep(utterance: Utterance[Audio]) -> None:
            found.append(utterance.audio)

        self._vad.reset()
        listener: Listener[Audio] = Listener(
            FeedOnlySource(SAMPLE_RATE),
            self._vad,
            understand=lambda chunk: chunk,
            on_utterance=keep,
            executor=InlineExecutor(),
        )
        padded = np.concatenate([audio, np.zeros(int(TRAILING_SILENCE_SECONDS * SAMPLE_RATE), np.float32)])
        for start in range(0, len(padded), BLOCK_SAMPLES):
            listener.feed(padded[start : start + BLOCK_SAMPLES])
        return found

    def hear_audio(self, audio: Audio, game: Game | None = None) -> HeardFile:
        """One recording: VAD, the recognition passes, then understanding against the game."""
        game = game or fresh_game(self.case)
        pieces = self.utterances(audio) if self.use_vad else [audio]
        if len(pieces) > 1:
            # One file is one thing said: a pause mid-sentence must not split it in two.
            gap = np.zeros(int(0.2 * SAMPLE_RATE), dtype=np.float32)
            speech = np.concatenate([part for piece in pieces for part in (piece, gap)])
        elif pieces:
            speech = pieces[0]
        else:
            speech = audio  # nothing VAD was sure of: let recognition and its guards judge it
        recognised = self.passes.hear(speech, game, game.state.seats)
        return HeardFile(recognised.heard, recognised, recognised.seconds, len(pieces))

    def hear_file(self, path: Path, game: Game | None = None) -> HeardFile:
        from faster_whisper.audio import decode_audio

        audio = np.asarray(decode_audio(str(path), sampling_rate=SAMPLE_RATE), dtype=np.float32)
        return self.hear_audio(audio, game)


def _readable(file: str, row: dict[str, object]) -> str:
    exhibits = row["exhibits"]
    cited = ",".join(f"E{n}" for n in exhibits) if isinstance(exhibits, list) and exhibits else "-"
    return (
        f"{file}: heard {row['heard']!r} -> {row['text']!r} | {row['kind']}"
        f" | suspect {row['suspect'] or '-'} | exhibits {cited} | command {row['command'] or '-'}"
        f" | confidence {row['confidence']:.2f}{' | CONFIRM' if row['confirm'] else ''}"
    )


def run_hear(args: argparse.Namespace) -> int:
    from engine.case import CaseError
    from models.locate import ModelError
    from voice_host.loop.casefiles import load_bundled_case, read_case_dir

    try:
        case = read_case_dir(args.case) if getattr(args, "case", None) else load_bundled_case()
    except CaseError as error:
        print(f"third-carol hear: {error}", file=sys.stderr)
        return 2
    try:
        pipeline = HearPipeline(case)
    except ModelError as error:
        print(f"third-carol hear: {error}", file=sys.stderr)
        return 2
    status = 0
    for path in args.files:
        file = str(path)
        if not Path(path).is_file():
            print(f"third-carol hear: no such file: {file}", file=sys.stderr)
            status = 1
            continue
        try:
            game = game_at_accusation(case) if getattr(args, "at_accusation", False) else fresh_game(case)
            result = pipeline.hear_file(Path(path), game)
        except Exception as error:  # one unreadable file must not stop the rest
            log.exception("could not hear %s", file)
            print(f"third-carol hear: {file}: {error}", file=sys.stderr)
            status = 1
            continue
        row = result.as_json(file, pipeline.names)
        print(json.dumps(row) if args.json else _readable(file, row), flush=True)
    return status
