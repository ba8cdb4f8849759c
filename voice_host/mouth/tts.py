"""The Host's mouth: piper TTS, one sentence at a time, a different voice for every role.

A reply's spoken parts (narration, exhibits, statements, suspects' lines; never the LEDGER, FULL STATE,
SAVE or RESULT) become `SpeechLine`s, one per sentence, each in a role's voice: "host" or a suspect's
key. `Synthesizer.stream(reply)` yields each sentence's audio as soon as piper has made it, so the first
sentence plays while the rest are still being made.

Voices: every role uses the bundled piper voice with its own settings (speed, variation, and pitch by
resampling), unless the per-user voices.toml gives it another piper .onnx file. See docs/voices.md.
"""

from __future__ import annotations

import json
import logging
import re
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import partial
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import platformdirs

from engine.case import Case
from engine.game import fixed_lines
from engine.replies import PartKind, Reply, ReplyPart
from voice_host.ears.sound import PLAYBACK_RATE, Audio

log = logging.getLogger(__name__)

HOST = "host"
VOICE_CONFIG_NAME = "voices.toml"


@dataclass(frozen=True)
class VoiceSettings:
    """How one role sounds. None means the voice file's own default."""

    model: Path | None = None  # a piper .onnx voice (its .onnx.json beside it); None: the bundled voice
    length_scale: float = 1.0  # > 1 slower; the final pace, after any pitch change
    noise_scale: float | None = None  # variation in the voice
    noise_w_scale: float | None = None  # variation in the rhythm
    pitch: float = 1.0  # > 1 higher, by resampling (the pace is kept by length_scale)
    volume: float = 1.0
    speaker_id: int | None = None  # for multi-speaker voice files
    sentence_pause: float = 0.2  # seconds of silence after each sentence


#: The Host: the bundled voice as it is.
HOST_VOICE = VoiceSettings()

#: Suspects in the case's order get these in turn: each differs from the Host and from the others.
SUSPECT_VOICES: tuple[VoiceSettings, ...] = (
    VoiceSettings(pitch=0.86, length_scale=1.12, noise_scale=0.5),  # slow and low
    VoiceSettings(pitch=1.24, length_scale=1.0, noise_scale=0.75),
    VoiceSettings(pitch=1.07, length_scale=0.88, noise_w_scale=1.0),  # quick
    VoiceSettings(pitch=1.34, length_scale=0.95, noise_scale=0.6),
    VoiceSettings(pitch=0.95, length_scale=1.06, noise_scale=0.4, noise_w_scale=0.5),
    VoiceSettings(pitch=0.8, length_scale=0.96, noise_w_scale=0.6),
)


class VoiceConfigError(Exception):
    """voices.toml cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class VoiceMap:
    """Role -> voice settings: "host" and each suspect key."""

    host: VoiceSettings = HOST_VOICE
    suspects: Mapping[str, VoiceSettings] = field(default_factory=dict)

    def for_role(self, role: str) -> VoiceSettings:
        if role == HOST:
            return self.host
        # An unknown speaker still speaks, in the Host's voice, rather than falling silent.
        return self.suspects.get(role, self.host)

    @property
    def roles(self) -> tuple[str, ...]:
        return (HOST, *self.suspects)


def default_voice_map(suspect_keys: Sequence[str]) -> VoiceMap:
    """The built-in voices for a case's suspects, in the case's order."""
    return VoiceMap(
        host=HOST_VOICE,
        suspects={key: SUSPECT_VOICES[i % len(SUSPECT_VOICES)] for i, key in enumerate(suspect_keys)},
    )


def voice_config_path() -> Path:
    """The per-user voices.toml (e.g. ~/.config/third-carol/voices.toml on Linux)."""
    return Path(platformdirs.user_config_dir("third-carol")) / VOICE_CONFIG_NAME


_SETTING_TYPES: dict[str, tuple[type, ...]] = {
    "model": (str,),
    "length_scale": (int, float),
    "noise_scale": (int, float),
    "noise_w_scale": (int, float),
    "pitch": (int, float),
    "volume": (int, float),
    "speaker_id": (int,),
    "sentence_pause": (int, float),
}
assert set(_SETTING_TYPES) == {f.name for f in fields(VoiceSettings)}


def load_voice_map(suspect_keys: Sequence[str], path: Path | None = None) -> VoiceMap:
    """The default voices, with voices.toml's changes on top (no file: the defaults)."""
    path = path or voice_config_path()
    voices = default_voice_map(suspect_keys)
    if not path.is_file():
        return voices
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise VoiceConfigError(f"{path}: cannot be read: {error}") from None
    known = {key.lower(): key for key in suspect_keys}
    host = voices.host
    suspects = dict(voices.suspects)
    for section, table in document.items():
        if section == HOST:
            host = _apply(host, table, path, HOST)
        elif section == "suspects" and isinstance(table, dict):
            for key, settings in table.items():
                if key.lower() not in known:
                    raise VoiceConfigError(
                        f"{path}: [suspects.{key}]: no such suspect; the suspects are {', '.join(suspect_keys)}."
                    )
                real = known[key.lower()]
                suspects[real] = _apply(suspects[real], settings, path, f"suspects.{key}")
        else:
            raise VoiceConfigError(f"{path}: unknown section [{section}]; use [host] or [suspects.KEY].")
    return VoiceMap(host=host, suspects=suspects)


def _has_type(value: Any, types: tuple[type, ...]) -> bool:
    return not isinstance(value, bool) and isinstance(value, types)


def _apply(base: VoiceSettings, table: Any, path: Path, where: str) -> VoiceSettings:
    if not isinstance(table, dict):
        raise VoiceConfigError(f"{path}: [{where}] must be a table of settings.")
    changes: dict[str, Any] = {}
    settings: dict[str, Any] = table
    for name, raw in settings.items():
        value: Any = raw  # checked against _SETTING_TYPES below
        types = _SETTING_TYPES.get(name)
        if types is None:
            raise VoiceConfigError(f"{path}: [{where}] unknown setting {name!r}; known: {', '.join(_SETTING_TYPES)}.")
        if not _has_type(value, types):
            raise VoiceConfigError(f"{path}: [{where}] {name} has the wrong type ({value!r}).")
        if name == "model":
            model = Path(value).expanduser()
            if not model.is_absolute():
                model = path.parent / model
            if not model.is_file():
                raise VoiceConfigError(f"{path}: [{where}] model {model} does not exist.")
            if not Path(f"{model}.json").is_file():
                raise VoiceConfigError(f"{path}: [{where}] model {model} has no {model.name}.json beside it.")
            value = model
        elif name in ("length_scale", "pitch") and value <= 0:
            raise VoiceConfigError(f"{path}: [{where}] {name} must be above 0.")
        changes[name] = float(value) if isinstance(value, int) and name != "speaker_id" else value
    return replace(base, **changes)


# --- what to say -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpeechLine:
    """One sentence to say, in one role's voice."""

    role: str  # "host" or a suspect key
    text: str
    part_index: int  # which part of the reply it came from


_SPOKEN_ABBREVIATIONS = (
    (re.compile(r"\bMrs\."), "Missus"),
    (re.compile(r"\bMr\."), "Mister"),
    (re.compile(r"\bDr\."), "Doctor"),
    (re.compile(r"\bRev\."), "Reverend"),
    (re.compile(r"\bSt\.(?= [A-Z])"), "Saint"),
)
_CLOCK = re.compile(r"\b(\d{1,2})\.(\d{2})\b")  # 10.35 is a time on the card: "ten thirty-five"
_EXHIBIT_RANGE = re.compile(r"\b(?:[Ee]xhibits?\s+)?E(\d{1,2})\s*[–-]\s*E?(\d{1,2})\b")
_EXHIBIT = re.compile(r"\b(?:[Ee]xhibit\s+)?E(\d{1,2})\b")
_CLAUSE_END = re.compile(r"(?<=[,;:—])\s+")
FIRST_CLAUSE_MIN_WORDS = 3
SPLIT_ABOVE_WORDS = 8  # a first sentence longer than this is said clause first
CLAUSE_PAUSE = 0.05  # seconds between the two pieces (piper's comma pause is in the audio already)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"”’')\]]*\s+|\n+")


def spoken_text(text: str) -> str:
    """Text as piper should read it: abbreviations spelled out, times and exhibit numbers said right."""
    for pattern, said in _SPOKEN_ABBREVIATIONS:
        text = pattern.sub(said, text)
    text = _CLOCK.sub(r"\1:\2", text)
    text = _EXHIBIT_RANGE.sub(r"exhibits \1 to \2", text)
    text = _EXHIBIT.sub(r"exhibit \1", text)
    return text


def split_sentences(text: str) -> list[str]:
    """Sentences in order; a newline always ends one. Abbreviations must be spelled out first."""
    return [sentence.strip() for sentence in _SENTENCE_END.split(text) if sentence and sentence.strip()]


def first_clause(sentence: str) -> tuple[str, str] | None:
    """A long sentence split after its first clause of 3+ words (the rest 3+ words too), else None."""
    if len(sentence.split()) <= SPLIT_ABOVE_WORDS:
        return None
    for boundary in _CLAUSE_END.finditer(sentence):
        head, rest = sentence[: boundary.start()], sentence[boundary.end() :]
        if len(head.split()) >= FIRST_CLAUSE_MIN_WORDS and len(rest.split()) >= FIRST_CLAUSE_MIN_WORDS:
            return head, rest
    return None


def opening_lines(case: Case) -> list[SpeechLine]:
    """The first line of every reply that opens with words known before the night, once each: the Host's
    fixed lines (engine.game.fixed_lines: "That evidence has not come in yet.", "Mr. Keld stands by what
    was said." ...), an exhibit read out, a round's statements (the Host names the first speaker, or a
    suspect's answers say them again in the suspect's voice), a suspect's FILE line (an answer, or an
    admission once a lie breaks). The Host's lines come first: short, and the likeliest to open a reply.
    For `Synthesizer.prepare`."""
    parts = [ReplyPart(PartKind.SYSTEM, line) for line in fixed_lines(case)]
    for round_ in case.reveal.rounds:
        parts += [ReplyPart(PartKind.EXHIBIT, e.text, exhibit=e.number, title=e.title) for e in round_.exhibits]
        for statement in round_.statements:
            name = case.suspect(statement.suspect).name
            parts.append(ReplyPart(PartKind.STATEMENT, statement.words, speaker=statement.suspect, speaker_name=name))
            parts.append(ReplyPart(PartKind.SUSPECT, statement.words, speaker=statement.suspect))
    for entry in case.reveal.entries:
        parts += [ReplyPart(PartKind.SUSPECT, words, speaker=entry.suspect) for words in (entry.words, entry.admit) if words]
    firsts = (speech_lines(Reply((part,))) for part in parts)
    return list(dict.fromkeys(lines[0] for lines in firsts if lines))


def speech_lines(reply: Reply) -> list[SpeechLine]:
    """Every sentence the voice host says for a reply, in order, with who says it."""
    lines: list[SpeechLine] = []
    for index, part in enumerate(reply.parts):
        if not part.spoken:
            continue
        role = HOST
        texts: list[str] = []
        if part.kind is PartKind.EXHIBIT:
            lines.append(SpeechLine(HOST, f"Exhibit {part.exhibit}. {part.title or ''}".strip(), index))
        elif part.kind is PartKind.STATEMENT:
            # The Host names who is speaking; the statement is in the suspect's own voice.
            if part.speaker_name:
                lines.append(SpeechLine(HOST, f"{spoken_text(part.speaker_name)}.", index))
            role = part.speaker or HOST
        elif part.kind is PartKind.SUSPECT:
            role = part.speaker or HOST
        texts = split_sentences(spoken_text(part.text))
        lines.extend(SpeechLine(role, sentence, index) for sentence in texts)
    return lines


# --- making the sound --------------------------------------------------------------------------------


class PiperLike(Protocol):
    """What the synthesizer needs from piper.PiperVoice."""

    @property
    def config(self) -> Any: ...

    def synthesize(self, text: str, syn_config: Any = None) -> Iterable[Any]: ...


@dataclass(frozen=True)
class SpokenSentence:
    line: SpeechLine
    audio: Audio  # float32 mono in [-1, 1]
    sample_rate: int
    piece: int = 0  # 0: the line's start; 1: the rest of a first line split for speed (see first_clause)

    @property
    def seconds(self) -> float:
        return len(self.audio) / self.sample_rate


def resample(audio: Audio, from_rate: float, to_rate: int) -> Audio:
    """Resample mono float32 audio with FFmpeg's resampler (PyAV, already used by faster-whisper)."""
    if len(audio) == 0 or abs(from_rate - to_rate) < 1e-6:
        return audio.astype(np.float32, copy=False)
    import av

    frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(audio, dtype=np.float32).reshape(1, -1), format="flt", layout="mono")
    frame.sample_rate = int(round(from_rate))
    resampler = av.AudioResampler(format="flt", layout="mono", rate=to_rate)
    chunks = [out.to_ndarray().reshape(-1) for out in resampler.resample(frame)]
    chunks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    if not chunks:
        return np.zeros(0, dtype=np.float32)
    return np.concatenate(chunks).astype(np.float32, copy=False)


def load_piper_voice(model: Path | None, lean: bool = False) -> PiperLike:
    """Load a piper voice (None: the bundled one). `lean`: on one thread that never spins (`Synthesizer`'s for what
    is made while the Host already speaks)."""
    import onnxruntime
    from piper import PiperVoice

    from models.locate import piper_voice_files

    started = time.perf_counter()
    bundled = piper_voice_files() if model is None else None
    path = bundled.model if bundled is not None else model
    assert path is not None
    config_path = bundled.config if bundled is not None else Path(f"{path}.json")  # where PiperVoice.load looks
    if lean:  # its own session, as PiperVoice.load makes one but with these options
        from piper.config import PiperConfig

        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        session = onnxruntime.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
        config = PiperConfig.from_dict(json.loads(config_path.read_text(encoding="utf-8")))
        voice = PiperVoice(session=session, config=config)
    else:
        voice = PiperVoice.load(path, config_path=config_path)
    log.info("piper voice %s%s loaded in %.1f s", model or "(bundled)", " (lean)" if lean else "", time.perf_counter() - started)
    return voice


class Synthesizer:
    """Makes each role's sentences with piper; every voice file is loaded once, on first use."""

    def __init__(
        self,
        voices: VoiceMap | None = None,
        output_rate: int = PLAYBACK_RATE,
        loader: Callable[[Path | None], PiperLike] | None = None,
        lean_loader: Callable[[Path | None], PiperLike] | None = None,
    ) -> None:
        self.voices = voices or VoiceMap()
        self.output_rate = output_rate
        self._loader = loader or load_piper_voice  # looked up now, so a test can stand in for piper
        # What is made while the Host already speaks (a reply's pieces after its first, the lines made ahead) is made on
        # one core that never spins: made on both, it kept both cores busy (a long exhibit for seconds, the lines made
        # ahead for 42 s), and words said over the Host meanwhile were understood in 0.71-0.80 s p50, not 0.58 s
        # (docs/benchmarks.md "Piper on one core"). The first piece, which the table waits for, is made on both (0.24 s
        # against 0.50 s for a suspect's sentence).
        if lean_loader is None:
            lean_loader = self._loader if loader is not None else partial(load_piper_voice, lean=True)
        self._lean_loader = lean_loader
        self._loaded: dict[tuple[Path | None, bool], PiperLike] = {}
        self._lock = threading.Lock()
        # First pieces made ahead (`prepare`): a reply that opens with one is heard without waiting for piper.
        self._ahead: dict[tuple[str, str], SpokenSentence] = {}

    def preload(self) -> None:
        """Load every voice file the map uses (so the first reply is not slowed by loading). The lean sessions load
        when first used, by the lines made ahead or behind a reply's first piece, not on the way to the first sound."""
        for role in self.voices.roles:
            self._voice(self.voices.for_role(role).model)

    def _voice(self, model: Path | None, lean: bool = False) -> PiperLike:
        with self._lock:
            if (model, lean) not in self._loaded:
                self._loaded[(model, lean)] = (self._lean_loader if lean else self._loader)(model)
            return self._loaded[(model, lean)]

    def synthesize(
        self, line: SpeechLine, text: str | None = None, pause: float | None = None, piece: int = 0, lean: bool = False
    ) -> SpokenSentence:
        """One line (or a piece of it: `text`) in its role's voice, with `pause` seconds after it. `lean`: made on one
        core (the Host is already speaking)."""
        from piper import SynthesisConfig

        settings = self.voices.for_role(line.role)
        voice = self._voice(settings.model, lean)
        native_rate = int(voice.config.sample_rate)
        # Raising the pitch by resampling also quickens the pace by the same factor: slow piper down to match.
        config = SynthesisConfig(
            speaker_id=settings.speaker_id,
            length_scale=settings.length_scale * settings.pitch,
            noise_scale=settings.noise_scale,
            noise_w_scale=settings.noise_w_scale,
            volume=settings.volume,
        )
        chunks = [
            np.asarray(chunk.audio_float_array, dtype=np.float32)
            for chunk in voice.synthesize(line.text if text is None else text, config)
        ]
        audio = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.float32)
        audio = resample(audio, native_rate * settings.pitch, self.output_rate)
        silence = np.zeros(int((settings.sentence_pause if pause is None else pause) * self.output_rate), np.float32)
        return SpokenSentence(line, np.concatenate([audio, silence]), self.output_rate, piece)

    @staticmethod
    def _split_first(line: SpeechLine) -> tuple[str, str | None]:
        """A reply's first line as its first piece (its first clause when it is long) and the rest."""
        split = first_clause(line.text)
        return split if split is not None else (line.text, None)

    def _first_piece(self, line: SpeechLine, lean: bool = False) -> tuple[SpokenSentence, str | None]:
        """The first line's first piece (made ahead, or made now) and the rest to make after."""
        text, rest = self._split_first(line)
        ahead = self._ahead.get((line.role, text))
        if ahead is not None:
            return SpokenSentence(line, ahead.audio, ahead.sample_rate), rest
        return self.synthesize(line, text, pause=CLAUSE_PAUSE if rest is not None else None, lean=lean), rest

    def made_ahead(self, line: SpeechLine) -> bool:
        """Whether `line`, opening a reply, is said from a piece made ahead."""
        return (line.role, self._split_first(line)[0]) in self._ahead

    def prepare(self, lines: Iterable[SpeechLine], stop: threading.Event | None = None) -> int:
        """Make ahead the first piece of each line a reply may open with (the suspects' FILE lines, the
        exhibits): when one does, its first audio needs no synthesis. Returns how many were made.
        `stop` set ends it before the next line (the voice side is closing). Made lean, on one core: no one waits for
        them, and the Host reads the opening meanwhile (made on both, the 204 lines kept both cores busy for 42 s)."""
        made = 0
        for line in lines:
            if stop is not None and stop.is_set():
                break
            if not self.made_ahead(line):
                self._ahead[(line.role, self._split_first(line)[0])] = self._first_piece(line, lean=True)[0]
                made += 1
        return made

    def stream_lines(self, lines: Iterable[SpeechLine]) -> Iterator[SpokenSentence]:
        for index, line in enumerate(lines):
            if index > 0:
                yield self.synthesize(line, lean=True)
                continue
            # The table waits for the first line only: say its first clause as soon as it is made.
            first, rest = self._first_piece(line)
            yield first
            if rest is not None:
                yield self.synthesize(line, rest, piece=1, lean=True)

    def stream(self, reply: Reply) -> Iterator[SpokenSentence]:
        """Each sentence of the reply's spoken parts, made only when asked for (first audio comes fast)."""
        return self.stream_lines(speech_lines(reply))

    def render(self, text: str, role: str = HOST, rate: int | None = None) -> Audio:
        """The whole text in one array (tests, benchmarks, fixtures), at `rate` (default output_rate)."""
        audio = [self.synthesize(SpeechLine(role, sentence, 0)).audio for sentence in split_sentences(spoken_text(text))]
        joined = np.concatenate(audio) if audio else np.zeros(0, dtype=np.float32)
        return resample(joined, self.output_rate, rate) if rate else joined
